"""The site's navigation, from the records and the files of the docs tree."""

from __future__ import annotations

from typing import Any

from ..compute.record.schema import BoardRecord
from .board_page import board_pages

RESULTS_TAB = "Results"
"""The first tab of a site with the guide: the site's own pages."""


def site_nav(records: list[BoardRecord], files: dict[str, Any],
             guide: tuple[str, list[str]] | None = None) -> list[Any]:
    """The site's navigation, from the records: home, one entry per listed board (a board file that says
    `listed = false` is built but not in the menu), "Design a board", then comparison, literature, method
    and data where the site has them. With the generator's `guide` (its tab's name and pages), those pages are
    the first tab and the guide the second."""
    _, listed = board_pages(records)
    entries: list[Any] = ["index.md", {"Boards": [f"boards/{p.slug}.md" for p in listed]}]
    entries += [name for name in ("design.md", "compare.md", "house-rules.md", "literature.md", "method.md", "data.md")
                if name in files]
    if guide is None:
        return entries
    tab, pages = guide
    return [{RESULTS_TAB: entries}, {tab: pages}]
