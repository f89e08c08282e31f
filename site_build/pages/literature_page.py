"""The "What others found" page's content: every published figure of the literature file next to ours."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ...compute.record.criteria import SIMULATION_Z
from ...compute.record.literature import Comparison, Literature, LiteratureError, load_literature, reproduce
from ..checks import SiteError
from ..project import DEFAULT_SITE_SRC
from .board_page import BoardPage
from .words import PageWords

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


def how_in_words(how: str, words: PageWords) -> str:
    """How a comparison was decided (`compute.record.literature.compare`'s English `how`) in the page's language:
    its numbers are taken from the English and written in the locale's format (a ratio such as 1e-15 as it is)."""
    _ = words._
    if how == "equal whole numbers":
        return _("equal whole numbers")
    if how == "equal fractions":
        return _("equal fractions")
    if found := re.fullmatch(r"equal to the (\d+) decimals printed", how):
        places = int(found[1])
        return words.ngettext("equal to the %(n)s decimal printed", "equal to the %(n)s decimals printed", places)
    if found := re.fullmatch(r"relative difference (\S+) \(double precision\)", how):
        return _("relative difference %(ratio)s (double precision)", ratio=found[1])
    if found := re.fullmatch(r"(\S+) standard errors apart \(agreement: within (\S+)\)", how):
        return _("%(z)s standard errors apart (agreement: within %(limit)s)", z=words.words.decimal(found[1]),
                 limit=words.words.decimal(found[2]))
    raise SiteError(f"a literature comparison's reason has no words in the page's language: {how!r}")


def _row(c: Comparison, words: PageWords) -> dict[str, Any]:
    """One figure's row of the page in the page's language: its rule, quantity and why (`Figure.words`), how it
    was compared, and the published and our values as printed."""
    rule, quantity, why = c.figure.words(words.language.code)
    return {"board": c.figure.board, "rule": rule, "quantity": quantity, "why": why, "published": c.figure.published,
            "ours": c.ours, "agrees": c.agrees, "how": how_in_words(c.how, words)}


def literature_context(sources: list[Path], pages: list[BoardPage],
                       words: PageWords | None = None) -> dict[str, Any] | None:
    """The literature page's template values, from the first literature file of `sources`, in the language of
    `words` (default English; the cited titles and authors as published); None without one, or when the site
    lacks a board the file refers to (the page compares them all, and its text links to them)."""
    words = words or PageWords()
    lang = words.language.code
    records = {p.slug: p.record for p in pages}
    found = _literature(sources)
    if found is None or _missing(found[1], set(records)):
        return None
    path, literature = found
    try:
        comparisons = reproduce(literature, records)
    except (KeyError, StopIteration, ValueError) as exc:
        raise SiteError(f"{path}: a figure's key does not lead to a value in its board's record ({exc})") from None
    groups: dict[str, list[Comparison]] = {}
    for c in comparisons:
        groups.setdefault(c.figure.source, []).append(c)
    return {"comparisons": comparisons, "records": records, "z": SIMULATION_Z,
            "groups": [(group[0].source, group[0].source.where_in(lang), [_row(c, words) for c in group])
                       for group in groups.values()],
            "sources": [(source, source.where_in(lang)) for _, source in
                        sorted(literature.sources.items(), key=lambda item: item[1].author.lower())]}
