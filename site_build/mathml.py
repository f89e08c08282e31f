"""Mathematics for the method page, turned into MathML when the page is built (no script, no web font).

Used by pymdownx: a ```math fence for displayed formulas and `#!math ...` for inline ones.
"""

from __future__ import annotations

from typing import Any

from latex2mathml.converter import convert


def block(src: str, language: str, class_name: str, options: Any, md: Any, **kwargs: Any) -> str:
    """A displayed formula."""
    return f'<div class="{class_name}">{convert(src.strip(), display="block")}</div>'


def inline(src: str, language: str, class_name: str, md: Any) -> str:
    """A formula within a sentence."""
    return f'<span class="{class_name}">{convert(src.strip(), display="inline")}</span>'
