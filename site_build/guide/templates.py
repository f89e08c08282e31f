"""The Customising page's lists: every page template with the values it receives, the filters and tests the
templates may use, the theme overrides and the default hand-written pages and assets, read from the package's
own files and from the build stage's environment (so that a new template, value or file is on the page, or the
build stops)."""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment, meta, nodes

from ..checks import SiteError
from ..pages.board_page import BoardPage
from ..project import DEFAULT_SITE_SRC, DEFAULT_TEMPLATES
from ..tree.render import SKIP_SOURCES, _environment

VALUES = {
    "boards": ("list of BoardPage", "The boards' pages, in the menu's order: the listed boards (on the Data page, "
               "every board)."),
    "page": ("BoardPage", "The board of this page."),
    "r": ("BoardRecord", "The board's record (the same as `page.record`)."),
    "in_menu": ("bool", "Whether the board is in the menus (its board file does not say `listed = false`)."),
    "has_literature": ("bool", "Whether the site has the literature page (What others found), which a page may "
                       "then link to."),
    "charts": ("dict of str → str", "Each chart's Plotly figure as JSON, by chart id (on House rules: by board slug)."),
    "stills": ("dict of str → dict", "Each chart's still image: its height, the wide and narrow widths, the screens "
               "that get the narrow one, the start of its address."),
    "tables": ("dict of str → table", "Each chart's numbers as a table (caption, header, rows), shown behind a toggle "
               "for screen readers and for print."),
    "alive": ("str", "The animation of where tokens are, turn by turn, as JSON."),
    "calculator": ("str", "The \"who is ahead\" calculator's data as JSON (the record's `players.calculator`)."),
    "jump_colour_limit": ("int", "The most chutes and ladders drawn in colours of their own on the board."),
    "build_year": ("str", "The year of the build, for the page's citation."),
    "build_date": ("str", "The date of the build in the page's language (\"November 27, 2026\", \"27 novembre "
                   "2026\"), for the page's citation."),
    "overlay": ("str", "The comparison's game-length chart, every listed board on it, as JSON."),
    "overlay_cumulative": ("str", "The same as the chance that the game is over by each turn."),
    "groups": ("list", "Each bundled board with the same board under house rules: (base page, [(variant page, "
               "what differs)])."),
    "comparisons": ("list", "Each published figure beside the record's value, and whether they agree."),
    "records": ("dict of str → BoardRecord", "The records the literature refers to, by slug."),
    "sources": ("list of (source, where)", "The literature file's sources (author, title, year, link), by author, "
                "each with where it was published in the page's language."),
    "titles": ("dict of str → str", "Each board's title in the page's language (its board file's "
               "`[translations.LANG]` title, else its own), by slug."),
    "anchors": ("dict of str → str", "The id of each house-rules group's heading, the same in every language, by "
                "its plain board's slug."),
    "z": ("float", "How many standard errors a simulated figure may be from the exact value."),
    "choices": ("list of (slug, title)", "The boards the design page starts from."),
    "length_figure": ("str", "The design page's empty game-length chart, as JSON."),
    "within": ("list of int", "The turns the design page gives the chance of being over within."),
    "language": ("Language", "The page's language: `language.code` (\"fr\"), `language.direction`, "
                 "`language.words` (the sentences and the locale's number formats); `_(...)`, `ngettext(...)` and "
                 "`pgettext(...)` give a message of the site's catalogue in it."),
    "shared": ("function", "`shared(path, relative)`: the address of a file every language shares (a download, "
               "`path` from the site's root) from this page: `relative + path` in the site's first language, from "
               "the site's root in the others."),
    "schema": ("list", "The record's parts, each with its name, description and `anchor`, and its `fields` as "
               "(name, type in Markdown, description) (`records.schema_parts`)."),
}
"""What each value the build stage gives the templates is, by name (the same name means the same in each, but for
OWN_VALUES)."""
OWN_VALUES = {
    ("design.md.j2", "boards"): ("str", "The boards the design page starts from, as JSON: each one's slug, title, "
                                        "rules, chutes and ladders."),
    ("literature.md.j2", "groups"): ("list of (source, where, rows)", "The published figures, grouped by where "
                                                                       "they were published: each row's board, "
                                                                       "quantity, rule, why, published and our "
                                                                       "values, whether they agree and how, in the "
                                                                       "page's language."),
}
"""The values a template receives under a name that means something else elsewhere."""


@dataclass(frozen=True)
class TemplateInputs:
    """A page template and the values it reads."""

    name: str
    values: list[tuple[str, str, str]]


def _names(env: Environment, name: str, seen: set[str]) -> set[str]:
    """The values template `name` reads from its context, with those of the templates it imports or includes."""
    if name in seen:
        return set()
    seen.add(name)
    source = env.loader.get_source(env, name)[0] if env.loader else ""
    tree = env.parse(source)
    assigned = {n.name for node in tree.find_all((nodes.Assign, nodes.For, nodes.Macro, nodes.Import,
                                                  nodes.FromImport, nodes.With))
                for n in node.find_all(nodes.Name) if n.ctx in ("store", "param")}
    assigned |= {node.target for node in tree.find_all(nodes.Import)}
    assigned |= {n if isinstance(n, str) else n[1] for node in tree.find_all(nodes.FromImport) for n in node.names}
    used = meta.find_undeclared_variables(tree) - assigned - set(env.globals)
    for other in meta.find_referenced_templates(tree):
        if other:
            used |= _names(env, other, seen)
    return used


def template_inputs(folder: Path = DEFAULT_TEMPLATES) -> list[TemplateInputs]:
    """Every page template of `folder` (not the partials, whose names start with _) with its values, described;
    a value without a description in VALUES is a SiteError."""
    env = _environment([folder])
    out = []
    for path in sorted(folder.glob("*.j2")):
        if path.name.startswith("_"):
            continue
        names = sorted(_names(env, path.name, set()))
        described = {n: OWN_VALUES.get((path.name, n)) or VALUES.get(n) for n in names}
        missing = [n for n, text in described.items() if text is None]
        if missing:
            raise SiteError(f"templates/{path.name}: the guide does not describe its value {missing[0]} "
                            "(site_build/guide/templates.py, VALUES)")
        out.append(TemplateInputs(path.name, [(n, *text) for n, text in described.items() if text]))
    return out


def _first_line(obj: object) -> str:
    doc = inspect.getdoc(obj) or ""
    return " ".join(doc.split("\n\n")[0].split())


UNDOCUMENTED = {
    "slug": "The board's name, its file name without .toml: its page's address (boards/SLUG/).",
    "title": "The board's title (board text: put it through the `md` filter).",
    "rules_in_words": "The board's rules in plain sentences (the same as `chutes solve` prints).",
}
"""What an attribute or filter without a docstring of its own does."""


def _described(name: str, obj: object) -> str:
    if _first_line(obj):
        return _first_line(obj)
    if name.endswith("_file"):
        return "The address of this download in the site (data/…)."
    if name.endswith("_size"):
        return "The size of that download in words, for its link (\"1.2 MB\")."
    return UNDOCUMENTED.get(name, "—")


def page_attributes() -> list[tuple[str, str]]:
    """What a BoardPage offers a template: each attribute with the first paragraph of its docstring."""
    out = [("record", "The board's record (BoardRecord).")]
    for name, member in inspect.getmembers(BoardPage):
        if not name.startswith("_") and isinstance(member, property | type(BoardPage.fraction_text)):
            out.append((name, _described(name, member)))
    return out


def filters() -> list[tuple[str, str]]:
    """The filters and tests the build stage adds to Jinja's own, with what each does."""
    env = _environment([DEFAULT_TEMPLATES])
    plain = Environment()
    ours = [*((f"filter `{n}`", n, f) for n, f in env.filters.items() if n not in plain.filters),
            *((f"test `{n}`", n, t) for n, t in env.tests.items() if n not in plain.tests)]
    return [(label, _described(name, fn)) for label, name, fn in sorted(ours)]


def theme_files(folder: Path = DEFAULT_TEMPLATES) -> list[str]:
    """The theme overrides the package carries (templates/theme/)."""
    theme = folder / "theme"
    return sorted(p.relative_to(theme).as_posix() for p in theme.rglob("*") if p.is_file())


def source_files(folder: Path = DEFAULT_SITE_SRC) -> list[str]:
    """The hand-written pages and assets the package carries (site_src/), besides the bundled boards."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                  if p.is_file() and p.relative_to(folder).parts[0] != "boards" and not p.name.startswith("."))


def skipped_sources() -> list[str]:
    """What of site_src/ is read rather than copied into the site."""
    return sorted(SKIP_SOURCES)
