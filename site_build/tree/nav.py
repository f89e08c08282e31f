"""The site's navigation, from the records and the files of the docs tree."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.utils.meta import get_data

from ...compute.record.schema import BoardRecord
from ..pages.board_page import board_pages
from ..pages.language import Language
from ..project import ProjectError

HEADING = re.compile(r"^# (.*?)(?:\s*\{[^{}\n]*\})?\s*$", re.MULTILINE)
"""A first-level heading, without its attribute list (`{ #id }`)."""
MARKUP = re.compile(r"[\\`*_{}\[\]<>&#|~]")
"""What Markdown or HTML would read in a heading: a heading without any is plain words, in any script, and its
text is the page's title as the engines take it."""

RESULTS_TAB = "Results"
"""The first tab of a site with the guide: the site's own pages."""


GENERATED = ("design.md", "compare.md", "house-rules.md", "literature.md", "method.md", "data.md")
"""The pages after home and the boards in the menu, in order, where the site has them."""


def site_nav(records: list[BoardRecord], files: dict[str, Any],
             guide: tuple[str, list[str]] | None = None, own: list[Any] | None = None,
             language: Language | None = None) -> list[Any]:
    """The site's navigation, from the records: home, one entry per listed board (a board file that says
    `listed = false` is built but not in the menu), "Design a board", then comparison, literature, method
    and data where the site has them, then the author's own entries (`own`, from `own_nav`). With the
    generator's `guide` (its tab's name and pages), those pages are the first tab and the guide the second.
    The sections' and tabs' names are in the pages' `language` (default English)."""
    _, listed = board_pages(records)
    language = language or Language()

    def entry(name: str) -> Any:
        title = page_title(files.get(name))
        return name if title is None else {title: name}

    boards = language._("Boards")
    entries: list[Any] = [entry("index.md"), {boards: [entry(f"boards/{p.slug}.md") for p in listed]}]
    entries += [entry(name) for name in GENERATED if name in files]
    entries += own or []
    if guide is None:
        return entries
    tab, pages = guide
    results = language._("Results")  # RESULTS_TAB in the pages' language
    return [{results: entries}, {tab: [entry(name) for name in pages]}]


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
    return text if text and not MARKUP.search(text) else None


def all_titled(nav: list[Any]) -> bool:
    """Whether the navigation names every page's title (`page_title`): if not, an engine that builds only some
    pages would not know the others' titles for their entries in its menu."""
    return all(not isinstance(entry, str) and all(all_titled(v) for v in entry.values() if isinstance(v, list))
               for entry in nav)


def own_nav(nav: Any, files: dict[str, Any], where: str) -> list[Any]:
    """The author's `nav:` of mkdocs.yml (`where` names it for errors), for the pages chutes does not place itself:
    each entry a hand-written page of site_src/ (`- page.md` or `- Title: page.md`), a link (`- Title: https://…`)
    or a section of them (`- Title: [...]`), put in the menu after the generated pages in the author's order. An
    entry chutes cannot honour is a ProjectError of one line: a generated page (chutes places those), a page the
    site does not have, a page listed twice, or an entry of another form."""
    if nav is None:
        return []
    if not isinstance(nav, list):
        raise ProjectError(f"{where}: nav: expected a list of your own pages (- Title: page.md), got {nav!r}")
    placed = {"index.md", *GENERATED, *(name for name in files if name.startswith(("boards/", "guide/")))}
    seen: set[str] = set()

    def page(path: Any, title: str | None) -> Any:
        if not isinstance(path, str) or not path:
            raise ProjectError(f"{where}: nav → {title or path!r}: expected a page (page.md), a link or a section")
        if path.startswith(("http://", "https://")):
            return {title: path} if title else path
        name = path.lstrip("/")
        if name in placed:
            raise ProjectError(f"{where}: nav → {path}: a page chutes places in the menu itself; list only your "
                               "own pages of site_src/")
        if not name.endswith(".md") or not isinstance(files.get(name), Path):
            raise ProjectError(f"{where}: nav → {path}: no such page in site_src/ (a Markdown page there, "
                               "by its path: house.md, rules/house.md)")
        if name in seen:
            raise ProjectError(f"{where}: nav → {path}: listed twice")
        seen.add(name)
        title = title or page_title(files[name])
        return {title: name} if title else name

    def entries(items: list[Any]) -> list[Any]:
        out = []
        for item in items:
            if isinstance(item, dict) and len(item) == 1:
                (title, value), = item.items()
                if isinstance(value, list):
                    out.append({str(title): entries(value)})
                else:
                    out.append(page(value, str(title)))
            elif isinstance(item, str):
                out.append(page(item, None))
            else:
                raise ProjectError(f"{where}: nav → {item!r}: expected - page.md, - Title: page.md or "
                                   "- Section: [...]")
        return out

    return entries(nav)
