"""Write the site's Markdown pages and downloads from the cached JSON results (a plain, generator-free step).

Pages come from the jinja2 templates, hand-written pages and assets from site_src/ (a project's own files
first, then the package's defaults: see `site_build.project`), and the values the page scripts share with
Python from `site_build.constants`. Only files whose content changed are
rewritten, and files no longer produced are removed, so a live-reloading preview does not loop and a
deleted board disappears from the site. Text from board files goes through `words.plain`.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from datetime import UTC, date, datetime
from functools import cached_property
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, TemplateError, TemplateSyntaxError
from pydantic import ValidationError

from ..compute.record.criteria import SIMULATION_Z
from ..compute.record.literature import LiteratureError, load_literature, reproduce
from ..compute.record.schema import BoardDefinition, BoardRecord, Exact, Experiments, FirstPlayer, Skipped
from ..compute.record.words import rules_in_words
from . import constants, figures
from .checks import SiteError
from .project import DEFAULT_SITE_SRC, DEFAULT_TEMPLATES
from .tables import board_tables, overlay_table
from .words import FILTERS, games, per_thousand, rounded

SKIP_SOURCES = {"boards", "literature.toml"}
LITERATURE = "literature.toml"
INLINE_FRACTION_CHARS = 50_000
"""The longest first-player fraction (characters of text) put whole in its board page. Page weight: a
1,000-square board's is some 850 kB, which with the chart library would take the page over its 3 MB budget,
while every bundled board's (9 kB at most) stays inline. A longer one is loaded from its text file when its
box is opened, like the first of three players'."""


@dataclass(frozen=True)
class BoardPage:
    """One board's record and the names of its files on the site."""

    record: BoardRecord

    @property
    def slug(self) -> str:
        return self.record.slug

    @property
    def title(self) -> str:
        return self.record.results.board.title

    @property
    def listed(self) -> bool:
        """Whether the board is in the menu, the home table and the comparison (its board file says)."""
        return self.record.results.board.listed

    @property
    def first_of_three(self) -> FirstPlayer | None:
        """The first of three players' exact chance, where the record has it (None where it says why not)."""
        three = self.record.players.first_of_three
        return None if isinstance(three, Skipped) else three

    @property
    def experiments(self) -> Experiments | None:
        """The what-if experiments, where the record has them (None where it says why not)."""
        experiments = self.record.experiments
        return None if isinstance(experiments, Skipped) else experiments

    @property
    def fraction_file(self) -> str:
        return f"data/{self.slug}-first-player.txt"

    @cached_property
    def fraction_text(self) -> str:
        """The first player's exact chance as published (data/<slug>-first-player.txt): made once, it can be long."""
        return _fraction_text(self.record.results.first_player_wins)

    @property
    def fraction_inline(self) -> bool:
        """Whether the first player's fraction is short enough to be put whole in the page (INLINE_FRACTION_CHARS)."""
        return len(self.fraction_text) <= INLINE_FRACTION_CHARS

    @property
    def three_file(self) -> str | None:
        """The exact chance of the first of three players as text, where the record has it."""
        return None if self.first_of_three is None else f"data/{self.slug}-first-of-three.txt"

    @cached_property
    def three_text(self) -> str | None:
        """The first of three players' exact chance as published (`three_file`), where the record has it."""
        return None if self.first_of_three is None else _fraction_text(self.first_of_three)

    @property
    def json_file(self) -> str:
        return f"data/{self.slug}.json"

    @property
    def csv_file(self) -> str:
        return f"data/{self.slug}-distribution.csv"

    @property
    def squares_file(self) -> str:
        return f"data/{self.slug}-squares.csv"

    @property
    def share_file(self) -> str:
        return f"data/{self.slug}-share.png"

    @property
    def share_alt(self) -> str:
        """The words of the share image, for its alt text."""
        return f"{self.title}: " + "; ".join(f"{value} {words}" for value, words in _headlines(self.record)) + "."

    @cached_property
    def json_text(self) -> str:
        """The record as published (data/<slug>.json): its JSON form, as stored."""
        data = self.record.json_form()
        return json.dumps(data, sort_keys=True, indent=1, ensure_ascii=False) + "\n"

    @property
    def json_size(self) -> str:
        """The size of the JSON download, for its link ("1.2 MB")."""
        return size_text(len(self.json_text.encode()))

    @property
    def fraction_size(self) -> str:
        return size_text(len(self.fraction_text.encode()))

    @property
    def three_size(self) -> str | None:
        return None if self.three_text is None else size_text(len(self.three_text.encode()))

    @property
    def csv_size(self) -> str:
        return size_text(len(_distribution_csv(self.record).encode()))

    @property
    def squares_size(self) -> str:
        return size_text(len(_squares_csv(self.record).encode()))


def size_text(n: int) -> str:
    """A download's size for people, in SI units: 980 bytes, 12 kB, 1.2 MB."""
    if n < 1000:
        return f"{n} bytes"
    if n < 1_000_000:
        return f"{n / 1000:.0f} kB" if n >= 10_000 else f"{n / 1000:.1f} kB"
    return f"{n / 1_000_000:.1f} MB"


def _skipped(part: object) -> bool:
    """The templates' test `part is skipped`: a part the record leaves out, saying why (`Skipped.reason`)."""
    return isinstance(part, Skipped)


def _environment(templates: list[Path]) -> Environment:
    env = Environment(loader=FileSystemLoader(templates), undefined=StrictUndefined, autoescape=False,
                      keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)
    env.filters.update(FILTERS)
    env.filters["rules_in_words"] = lambda board: " ".join(rules_in_words(_definition(board)))
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


def _fraction_text(p: Exact) -> str:
    """numerator/denominator of an exact chance (the first of two or of three players)."""
    return f"{p.numerator}/{p.denominator}\n"


def _distribution_csv(record: BoardRecord) -> str:
    s = record.series.length
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["turns", "probability", "cumulative", "simulated_share", "simulated_cumulative"])
    for row in zip(s.turns, s.probability, s.cumulative, s.simulated, s.simulated_cumulative):
        writer.writerow(row)
    return out.getvalue()


def _squares_csv(record: BoardRecord) -> str:
    """One row per square: expected turns left from it and turns begun there per game (blank where no turn
    starts), and for a jump's foot the expected rolls landing there per game (results.jump_usage; the record
    holds no landings for the other squares, so theirs is blank), and the chance of landing there at least once
    (results.landing_chance; blank on square 0, or everywhere on a board too large for it)."""
    s = record.series.squares
    landings = {j.from_: j.per_game.decimal for j in record.results.jump_usage}
    landed = {int(q): x.decimal for q, x in (record.results.landing_chance or {}).items()}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["square", "turns_left", "visits", "landings", "landing_chance"])
    for square, left, visits in zip(s.square, s.turns_left, s.visits):
        writer.writerow([square, "" if left is None else left, "" if visits is None else visits,
                         landings.get(square, ""), landed.get(square, "")])
    return out.getvalue()


def _headlines(record: BoardRecord) -> list[tuple[str, str]]:
    """The share image's numbers: each a value and the words under it."""
    res = record.results
    g = res.game_length
    return [(f"{rounded(res.expected_turns.decimal, 1)} turns", "on average for one player to finish"),
            (f"{g.median:,} turns", f"or fewer in {games(g.at_most[str(g.median)])} (the median)"),
            (f"{per_thousand(res.first_player_wins.decimal)} in 1,000",
             "games won by the first of two players")]


def board_figures(page: BoardPage) -> dict[str, str]:
    """Every chart of a board page, as JSON text keyed by chart name."""
    r = page.record
    board = r.results.board
    series = r.series
    p_first = float(r.results.first_player_wins.decimal)
    figs = {
        "board": figures.board_figure(board),
        "alive": figures.alive_figure(board, series.positions),
        "length": figures.length_figure(series.length, cumulative=False),
        "length-cumulative": figures.length_figure(series.length, cumulative=True),
        "turns-left": figures.board_heatmap(board, series.squares.turns_left, "expected turns left",
                                            "turns left on average", "turns left"),
        "visits": figures.board_heatmap(board, series.squares.visits, "expected visits",
                                        "turns begun here per game, on average", "turns begun here"),
        **({} if series.squares.landing is None else {
            "landing": figures.board_heatmap(board, [None if x is None else 100 * x for x in series.squares.landing],
                                             "chance of landing here (%)", "% of games land here at least once",
                                             "% of games")}),
        "bounds": figures.bounds_figure(series.bounds, p_first),
        "diagonal": figures.diagonal_figure(series.diagonal),
        "seats": figures.seats_figure(r.players.seats_vs_fair_share),
        "state-map": figures.state_map_figure(r.players.state_map),
    }
    x = page.experiments
    if x is not None:
        figs.update({
            "dice-turns": figures.dice_figure(x.dice.dice, turns=True),
            "dice-first": figures.dice_figure(x.dice.dice, turns=False),
            "start": figures.start_figure(board, x.start),
            "add-jump": figures.jump_heatmap(board, x.add_jump),
        })
    return {name: figures.to_json(fig) for name, fig in figs.items()}


def _definition(board: BoardDefinition) -> dict[str, Any]:
    """A board's definition as the plain mapping the rule sentences read (keys absent where a rule is not set)."""
    return board.model_dump(exclude_none=True)


def house_rule_groups(pages: list[BoardPage]) -> list[tuple[BoardPage, list[tuple[BoardPage, list[str]]]]]:
    """Boards played under other rules, each group beside its plain board: the same squares, chutes, ladders,
    die and start, one fair die and no roll-again. Each variant comes with the sentences of its rules that the
    plain board's rules do not have (what the family changed)."""
    def layout(page: BoardPage) -> tuple:
        b = page.record.results.board
        return b.squares, b.die, b.start, tuple(map(tuple, b.ladders)), tuple(map(tuple, b.chutes))

    def plain(page: BoardPage) -> bool:
        b = page.record.results.board
        return b.roll_again_on is None and b.overshoot == "stay" and not b.house_rules

    def words(page: BoardPage) -> list[str]:
        return rules_in_words(_definition(page.record.results.board))

    groups = []
    for base in (p for p in pages if plain(p)):
        known = set(words(base))
        variants = [(p, [s for s in words(p) if s not in known])
                    for p in pages if p is not base and layout(p) == layout(base) and not plain(p)]
        if variants:
            groups.append((base, variants))
    return groups


def board_pages(records: list[BoardRecord]) -> tuple[list[BoardPage], list[BoardPage]]:
    """Every board's page in slug order, and those in the menu, the home table and the comparison: the
    listed ones (a site of test boards only lists them all)."""
    pages = [BoardPage(r) for r in sorted(records, key=lambda r: r.slug)]
    return pages, [p for p in pages if p.listed] or pages


def render_pages(records: list[BoardRecord], templates: list[Path] | None = None,
                 sources: list[Path] | None = None, built: date | None = None) -> dict[str, str | bytes | Path]:
    """Every file of the generated docs folder: relative path → text, bytes, or a file to copy.

    `templates` and `sources` are searched in order (a project's folder before the package's defaults).
    `built` is the build's date (default: today, UTC), which the board pages' citations give."""
    env = _environment(templates or [DEFAULT_TEMPLATES])
    built = built or datetime.now(UTC).date()
    for record in records:
        checks = record.checks
        for name, row in (("expected turns", checks.expected_turns), ("first player wins", checks.first_player_wins)):
            if not row.agrees:
                raise SiteError(f"{record.slug}: the simulated {name} is {row.standard_errors_apart} standard errors "
                                f"from the exact value (more than {checks.criterion:g}): not publishing a page that "
                                "disagrees with itself")
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
    literature = next((folder / LITERATURE for folder in (sources or [DEFAULT_SITE_SRC])
                       if (folder / LITERATURE).is_file()), None)
    if literature is not None:
        compared = _literature_page(env, literature, pages)
        if compared is not None:
            files["literature.md"] = compared
    files["design.md"] = _render(env, "design.md.j2", boards=figures.safe_json(design_boards(listed)),
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
        files[page.csv_file] = _distribution_csv(page.record)
        files[page.squares_file] = _squares_csv(page.record)
        files[page.share_file] = figures.share_image(page.record.results.board, _headlines(page.record))
    for folder in reversed(sources or [DEFAULT_SITE_SRC]):
        for source in sorted(folder.rglob("*")):
            rel = source.relative_to(folder)
            if source.is_file() and rel.parts[0] not in SKIP_SOURCES and not rel.name.startswith("."):
                files[rel.as_posix()] = source
    files[constants.SCRIPT] = constants.constants_script()
    return files


DESIGN_LENGTH_FIGURE = {
    "data": [],
    "layout": {"template": {}, "height": 420, "autosize": True, "hovermode": "closest", "bargap": 0.1,
               "margin": {"l": 70, "r": 70, "t": 30, "b": 50},
               "legend": {"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0},
               "xaxis": {"title": {"text": "turns in the game"}, "rangemode": "tozero"},
               "yaxis": {"title": {"text": "ends on this turn"}, "tickformat": ".1%", "rangemode": "tozero"},
               "yaxis2": {"title": {"text": "over by this turn"}, "tickformat": ".0%", "range": [0, 1],
                          "tickmode": "linear", "tick0": 0, "dtick": 0.25,
                          "overlaying": "y", "side": "right", "showgrid": False}},
    "config": figures.CONFIG,
}
"""The design page's length chart before its board is known (designer.js gives it the data)."""


def design_boards(pages: list[BoardPage]) -> list[dict[str, Any]]:
    """The boards a reader can start a design from: each listed board's definition from its record, house rules
    included (a house rule a board does not use is null)."""
    fields = {"slug", "title", "squares", "die", "dice", "weights", "overshoot", "enter_on", "roll_again_on",
              "roll_again_limit", "roll_again_penalty", "start", "ladders", "chutes"}
    return [p.record.results.board.model_dump(mode="json", include=fields) for p in pages]


def _literature_page(env: Environment, path: Path, pages: list[BoardPage]) -> str | None:
    """The "What others found" page: every published figure of the literature file next to ours (None when
    the site lacks a board the file refers to: the page compares them all, and its text links to them)."""
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
    return _render(env, "literature.md.j2", comparisons=comparisons, records=records, z=SIMULATION_Z,
                   groups=[(group[0].source, group) for group in groups.values()],
                   sources=sorted(literature.sources.items(), key=lambda item: item[1].author.lower()),
                   boards_by_slug={p.slug: p.title for p in pages})


def write_docs(files: dict[str, str | bytes | Path], out_dir: Path) -> list[str]:
    """Make `out_dir` hold exactly `files`, touching only what changed; the changed paths."""
    changed = []
    for rel, content in files.items():
        target = out_dir / rel
        data = content.read_bytes() if isinstance(content, Path) else (
            content.encode() if isinstance(content, str) else content)
        if target.exists() and target.read_bytes() == data:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        changed.append(rel)
    if out_dir.exists():
        for existing in sorted(out_dir.rglob("*"), reverse=True):
            rel = existing.relative_to(out_dir).as_posix()
            if existing.is_file() and rel not in files:
                existing.unlink()
                changed.append(rel)
            elif existing.is_dir() and not any(existing.iterdir()):
                existing.rmdir()
    return changed


def load_record(path: Path) -> BoardRecord:
    """A cached board record, validated against its typed model: what the pages, tables, figures and templates read."""
    try:
        return BoardRecord.model_validate_json(Path(path).read_bytes())
    except ValidationError as exc:
        raise SiteError(f"{path}: not a board record ({exc.errors()[0]['msg']})") from None


def record_schema() -> dict[str, Any]:
    """The JSON Schema of a board record (published as data/schema.json and described on the data page)."""
    return BoardRecord.model_json_schema(by_alias=True, mode="serialization")


def schema_parts(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The record's parts for the data page: each model with its description and its fields' descriptions."""
    parts = [{"name": "BoardRecord", **schema}] + [{"name": name, **part} for name, part in
                                                   sorted(schema.get("$defs", {}).items())]
    return [{"name": p["name"], "description": " ".join(p.get("description", "").split()),
             "fields": [(field, " ".join(spec.get("description", "").split()))
                        for field, spec in p.get("properties", {}).items()]}
            for p in parts if p.get("properties")]


def site_nav(records: list[BoardRecord], files: dict[str, Any]) -> list[Any]:
    """The site's navigation, from the records: home, one entry per listed board (a board file that says
    `listed = false` is built but not in the menu), "Design a board", then comparison, literature, method
    and data where the site has them."""
    _, listed = board_pages(records)
    entries: list[Any] = ["index.md", {"Boards": [f"boards/{p.slug}.md" for p in listed]}]
    return entries + [name for name in ("design.md", "compare.md", "house-rules.md", "literature.md", "method.md",
                                        "data.md")
                      if name in files]
