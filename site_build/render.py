"""Every file of the generated docs tree from the board records: the Markdown pages and the downloads.

Pages come from the jinja2 templates, hand-written pages and assets from site_src/ (a project's own files
first, then the package's defaults: see `site_build.project`), and the values the page scripts share with
Python from `site_build.constants`. Text from board files goes through `words.plain`. Nothing is written
here: `docs_tree.write_docs` puts the files on disk.
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from jinja2 import (
    Environment,
    FileSystemBytecodeCache,
    FileSystemLoader,
    StrictUndefined,
    TemplateError,
    TemplateSyntaxError,
)

from ..compute.record.schema import BoardRecord, Skipped
from . import constants, figures
from .board_page import board_figures, board_pages, headlines
from .checks import SiteError
from .design_page import DESIGN_LENGTH_FIGURE, design_boards
from .downloads import distribution_csv, squares_csv
from .house_rules_page import house_rule_groups
from .literature_page import LITERATURE, literature_context
from .project import DEFAULT_SITE_SRC, DEFAULT_TEMPLATES
from .records import record_schema, schema_parts
from .tables import board_tables, overlay_table
from .words import FILTERS, rule_sentences

SKIP_SOURCES = {"boards", LITERATURE}
"""What in a folder of hand-written sources is not copied into the docs tree: the board files and the literature."""


def _skipped(part: object) -> bool:
    """The templates' test `part is skipped`: a part the record leaves out, saying why (`Skipped.reason`)."""
    return isinstance(part, Skipped)


def _environment(templates: list[Path]) -> Environment:
    """The templates' environment. Compiled templates are kept in Jinja's cache folder for this user (in the
    temporary folder, checked by their source: an edited template is compiled again), so that a build does not
    compile every template again (about a second)."""
    env = Environment(loader=FileSystemLoader(templates), undefined=StrictUndefined, autoescape=False,
                      keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True,
                      bytecode_cache=FileSystemBytecodeCache())
    env.filters.update(FILTERS)
    env.filters["rules_in_words"] = lambda board: " ".join(rule_sentences(board))
    env.tests["skipped"] = _skipped
    env.globals["max_players"] = constants.MAX_PLAYERS  # the calculators' choice of players
    return env


def _render(env: Environment, name: str, **context: Any) -> str:
    """One template rendered; a broken template becomes a one-line SiteError naming it (and the line)."""
    try:
        return env.get_template(name).render(**context)
    except TemplateSyntaxError as exc:
        raise SiteError(f"templates/{exc.name or name}:{exc.lineno}: {exc.message}") from None
    except TemplateError as exc:
        raise SiteError(f"templates/{name}: {exc.message}") from None


def _check_agreement(records: list[BoardRecord]) -> None:
    """Refuse a record whose simulation disagrees with its exact values (its own checks say so)."""
    for record in records:
        checks = record.checks
        for name, row in (("expected turns", checks.expected_turns), ("first player wins", checks.first_player_wins)):
            if not row.agrees:
                raise SiteError(f"{record.slug}: the simulated {name} is {row.standard_errors_apart} standard errors "
                                f"from the exact value (more than {checks.criterion:g}): not publishing a page that "
                                "disagrees with itself")


def render_pages(records: list[BoardRecord], templates: list[Path] | None = None,
                 sources: list[Path] | None = None, built: date | None = None) -> dict[str, str | bytes | Path]:
    """Every file of the generated docs folder: relative path → text, bytes, or a file to copy.

    `templates` and `sources` are searched in order (a project's folder before the package's defaults).
    `built` is the build's date (default: today, UTC), which the board pages' citations give."""
    env = _environment(templates or [DEFAULT_TEMPLATES])
    built = built or datetime.now(UTC).date()
    _check_agreement(records)
    pages, listed = board_pages(records)
    files: dict[str, str | bytes | Path] = {}
    common = {"boards": listed}
    files["index.md"] = _render(env, "index.md.j2", **common)
    curves = [(p.title, p.record.series.length) for p in listed]
    files["compare.md"] = _render(env, "compare.md.j2",
        **common, overlay=figures.to_json(figures.overlay_figure(curves, cumulative=False)),
        overlay_cumulative=figures.to_json(figures.overlay_figure(curves, cumulative=True)),
        tables={"compare-length": overlay_table(curves, False, "Chance of each game length, per board"),
                "compare-cumulative": overlay_table(curves, True, "Chance the game is over by each turn, per board")})
    groups = house_rule_groups(listed)
    if groups:
        files["house-rules.md"] = _render(env, "house-rules.md.j2", groups=groups, charts={
            base.slug: figures.to_json(figures.overlay_figure(
                [(p.title, p.record.series.length) for p in [base] + [v for v, _ in variants]], cumulative=True))
            for base, variants in groups})
    literature = literature_context(sources or [DEFAULT_SITE_SRC], pages)
    if literature is not None:
        files["literature.md"] = _render(env, "literature.md.j2", **literature)
    starts = design_boards(listed)
    files["design.md"] = _render(env, "design.md.j2", boards=figures.safe_json(starts),
                                 choices=[(b["slug"], b["title"]) for b in starts],
                                 length_figure=figures.safe_json(DESIGN_LENGTH_FIGURE),
                                 within=constants.site_constants()["WITHIN"])
    schema = record_schema()
    files["data.md"] = _render(env, "data.md.j2", boards=pages, schema=schema_parts(schema))
    files["data/schema.json"] = json.dumps(schema, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    for page in pages:
        charts = board_figures(page)
        calculator = figures.safe_json(page.record.players.calculator.model_dump(mode="json"))
        alive = figures.safe_json(figures.alive_data(page.record.series.positions))
        files[f"boards/{page.slug}.md"] = _render(env, "board.md.j2", page=page, r=page.record, charts=charts,
                                                  in_menu=page in listed, alive=alive,
                                                  jump_colour_limit=figures.JUMP_COLOUR_LIMIT, calculator=calculator,
                                                  tables=board_tables(page.record, page.experiments, list(charts)),
                                                  build_year=str(built.year),
                                                  build_date=f"{built.day} {built:%B} {built.year}")
        files[page.json_file] = page.json_text
        files[page.fraction_file] = page.fraction_text
        if page.three_file and page.three_text:
            files[page.three_file] = page.three_text
        files[page.csv_file] = distribution_csv(page.record)
        files[page.squares_file] = squares_csv(page.record)
        files[page.share_file] = figures.share_image(page.record.results.board, headlines(page.record))
    for folder in reversed(sources or [DEFAULT_SITE_SRC]):
        for source in sorted(folder.rglob("*")):
            rel = source.relative_to(folder)
            if source.is_file() and rel.parts[0] not in SKIP_SOURCES and not rel.name.startswith("."):
                files[rel.as_posix()] = source
    files[constants.SCRIPT] = constants.constants_script()
    files[figures.TEMPLATE_SCRIPT] = figures.template_script()
    return files
