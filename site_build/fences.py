"""The Markdown fence the page templates write raw HTML in (```chutes-html): a chart's box, its figure and its
table, or the box a page script fills, as one block wherever it stands, in a content tab or a note too.

Markdown reads raw HTML as a block only at the start of a line; indented in a tab or a note, it reads it tag by
tag inside a paragraph (`<p><div …>`), which the HTML standard forbids. pymdownx.superfences keeps a fence's
output whole in either place. `chutes` adds the fence to the engine's configuration (`site_build.engine.engine_config`),
so that a project's mkdocs.yml need not name it.
"""

from __future__ import annotations

from typing import Any

RAW_HTML = "chutes-html"
"""The fence's name, as the templates write it."""
FORMAT = "chutes.site_build.fences.raw_html"
"""The fence's format function, by the name the engine's configuration gives it (`!!python/name:`)."""


def raw_html(src: str, language: str, class_name: str, options: Any, md: Any, **kwargs: Any) -> str:
    """The fence's content as it is: HTML the templates wrote."""
    return src
