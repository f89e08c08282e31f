"""The site's navigation, from the records and the files of the docs tree."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.utils.meta import get_data

from ..compute.record.schema import BoardRecord
from .board_page import board_pages

HEADING = re.compile(r"^# (.*)$", re.MULTILINE)
PLAIN = re.compile(r"[\w ,.:;()'?!/-]+")
"""A heading of plain words: its text is the page's title as the engines take it."""

RESULTS_TAB = "Results"
"""The first tab of a site with the guide: the site's own pages."""


def site_nav(records: list[BoardRecord], files: dict[str, Any],
             guide: tuple[str, list[str]] | None = None) -> list[Any]:
    """The site's navigation, from the records: home, one entry per listed board (a board file that says
    `listed = false` is built but not in the menu), "Design a board", then comparison, literature, method
    and data where the site has them. With the generator's `guide` (its tab's name and pages), those pages are
    the first tab and the guide the second."""
    _, listed = board_pages(records)

    def entry(name: str) -> Any:
        title = page_title(files.get(name))
        return name if title is None else {title: name}

    entries: list[Any] = [entry("index.md"), {"Boards": [entry(f"boards/{p.slug}.md") for p in listed]}]
    entries += [entry(name) for name in ("design.md", "compare.md", "house-rules.md", "literature.md", "method.md",
                                         "data.md") if name in files]
    if guide is None:
        return entries
    tab, pages = guide
    return [{RESULTS_TAB: entries}, {tab: [entry(name) for name in pages]}]


def page_title(page: str | bytes | Path | None) -> str | None:
    """The title the engine gives a page, named in the navigation so that every page's menu shows every page's
    title even when the engine builds only the pages that changed (`chutes serve`): its front matter's `title`,
    else its first-level heading where that is plain words; None where neither says (the engine then finds it)."""
    if isinstance(page, Path):
        page = page.read_text(encoding="utf-8")
    if not isinstance(page, str):
        return None
    markdown, meta = get_data(page)
    if "title" in meta:
        return str(meta["title"])
    heading = HEADING.search(re.sub(r"^```.*?^```", "", markdown, flags=re.MULTILINE | re.DOTALL))
    text = heading.group(1).strip() if heading else ""
    return text if PLAIN.fullmatch(text) else None


def all_titled(nav: list[Any]) -> bool:
    """Whether the navigation names every page's title (`page_title`): if not, an engine that builds only some
    pages would not know the others' titles for their entries in its menu."""
    return all(not isinstance(entry, str) and all(all_titled(v) for v in entry.values() if isinstance(v, list))
               for entry in nav)
