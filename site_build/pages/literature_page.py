"""The "What others found" page's content: every published figure of the literature file next to ours."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...compute.record.criteria import SIMULATION_Z
from ...compute.record.literature import Literature, LiteratureError, load_literature, reproduce
from ..checks import SiteError
from ..project import DEFAULT_SITE_SRC
from .board_page import BoardPage

LITERATURE = "literature.toml"
"""The literature file's name in a folder of hand-written sources (a project's first, then the package's)."""


MADE_WHEN = (f"the site has every board its literature file ({LITERATURE} in site_src/, the project's or else the "
             "package's) gives published figures of: the page compares them all and links to each")
"""When the literature page ("What others found") is made, in words for the build's note and the guide."""


def _literature(sources: list[Path]) -> tuple[Path, Literature] | None:
    """The first literature file of `sources`, read, and where it is; None without one."""
    path = next((folder / LITERATURE for folder in sources if (folder / LITERATURE).is_file()), None)
    if path is None:
        return None
    try:
        return path, load_literature(path)
    except LiteratureError as exc:
        raise SiteError(str(exc)) from None


def _missing(literature: Literature, slugs: set[str]) -> list[str]:
    """The boards the literature gives figures of that are not among `slugs`."""
    return sorted({f.board for f in literature.figures} - slugs)


def literature_absence(sources: list[Path], slugs: set[str]) -> str | None:
    """Why the site (its boards' `slugs`) has no literature page, in words; None when it has one."""
    found = _literature(sources)
    if found is None:
        return f"there is no {LITERATURE} in site_src/"
    path, literature = found
    missing = _missing(literature, slugs)
    if not missing:
        return None
    where = f"the package's {LITERATURE}" if path.parent == DEFAULT_SITE_SRC else f"site_src/{LITERATURE}"
    return f"{where} gives figures of boards this site does not have ({', '.join(missing)})"


def literature_context(sources: list[Path], pages: list[BoardPage]) -> dict[str, Any] | None:
    """The literature page's template values, from the first literature file of `sources`; None without one,
    or when the site lacks a board the file refers to (the page compares them all, and its text links to them)."""
    records = {p.slug: p.record for p in pages}
    found = _literature(sources)
    if found is None or _missing(found[1], set(records)):
        return None
    path, literature = found
    try:
        comparisons = reproduce(literature, records)
    except (KeyError, StopIteration, ValueError) as exc:
        raise SiteError(f"{path}: a figure's key does not lead to a value in its board's record ({exc})") from None
    groups: dict[str, list[Any]] = {}
    for c in comparisons:
        groups.setdefault(c.figure.source, []).append(c)
    return {"comparisons": comparisons, "records": records, "z": SIMULATION_Z,
            "groups": [(group[0].source, group) for group in groups.values()],
            "sources": sorted(literature.sources.items(), key=lambda item: item[1].author.lower()),
            "boards_by_slug": {p.slug: p.title for p in pages}}
