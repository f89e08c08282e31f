"""The "What others found" page's content: every published figure of the literature file next to ours."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..compute.record.criteria import SIMULATION_Z
from ..compute.record.literature import LiteratureError, load_literature, reproduce
from .board_page import BoardPage
from .checks import SiteError

LITERATURE = "literature.toml"
"""The literature file's name in a folder of hand-written sources (a project's first, then the package's)."""


def literature_context(sources: list[Path], pages: list[BoardPage]) -> dict[str, Any] | None:
    """The literature page's template values, from the first literature file of `sources`; None without one,
    or when the site lacks a board the file refers to (the page compares them all, and its text links to them)."""
    path = next((folder / LITERATURE for folder in sources if (folder / LITERATURE).is_file()), None)
    if path is None:
        return None
    try:
        literature = load_literature(path)
    except LiteratureError as exc:
        raise SiteError(str(exc)) from None
    records = {p.slug: p.record for p in pages}
    if not {f.board for f in literature.figures} <= set(records):
        return None
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
