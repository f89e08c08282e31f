"""The `chutes` command line: solve and simulate boards, fill the results cache, build and preview the site.

Heavy modules are imported inside the commands that use them, so that a quick command starts quickly.
Bad input ends with exit status 2 and one line on standard error, never a traceback.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from chutes.compute.board.limits import MAX_DIE, MAX_PLAYERS

if TYPE_CHECKING:
    from chutes.compute.board.model import Board
    from chutes.site_build.project import Project

EXIT_BAD_INPUT = 2
LONG_SECONDS = 2.0
"""Work estimated to take this long or more shows its progress (a bar on a terminal, else a line before and after)."""
PLAIN_DIGITS = frozenset("0123456789")


def _emit_json(obj: Any) -> None:
    click.echo(json.dumps(obj, indent=1, sort_keys=True))


def _say(message: str) -> None:
    click.echo(f"chutes: {message}", err=True)


def _project(path: Path | None, need_config: bool = True, **overrides: Path | None) -> Project:
    from chutes.site_build.project import Project

    return Project.at(path, need_config=need_config, **overrides)


def _board(spec: str, project: Path | None = None) -> Board:
    """A board file, else a board of the project in the working directory (or --project), else a bundled one."""
    return _board_and_estimate(spec, project)[0]


def _board_and_estimate(spec: str, project: Path | None = None) -> tuple[Board, float]:
    """The board (see `_board`), refused if it would take too long, and the seconds `chutes solve` should take."""
    from chutes.compute.board.cost import check_cost
    from chutes.compute.board.file import resolve_board
    from chutes.site_build.project import BUNDLED_BOARDS, Project

    here = Project.at(project, need_config=False)
    folders = [here.boards_dir] if here.config_file.is_file() and here.boards_dir.is_dir() else []
    board = resolve_board(spec, [*folders, BUNDLED_BOARDS])
    return board, check_cost(board, spec)[0]


def _working(label: str, estimate: float):
    """Progress for one long computation (estimated at LONG_SECONDS or more); quick ones stay quiet (and do
    not import the progress display)."""
    if estimate < LONG_SECONDS:
        from contextlib import nullcontext

        return nullcontext()
    from chutes.progress import step

    return step(label, estimate)


def _project_option(fn):
    return click.option("--project", type=click.Path(file_okay=False, path_type=Path), default=None,
                        help="The site project (the folder holding mkdocs.yml) [default: the working directory].")(fn)


def _scheduler_option(text: str):
    return click.option("--scheduler", metavar="ADDRESS", default=None, help=text)


def _print_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """--version: the version is looked up only when asked (`chutes.compute.package_version`)."""
    if value and not ctx.resilient_parsing:
        from chutes.compute import package_version

        click.echo(f"chutes, version {package_version()}")
        ctx.exit()


@click.group(help="Exact analysis of Chutes and Ladders boards, published as a static website.")
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
              help="Show the version and exit.")
def main() -> None:
    """Entry point group."""


# --- answers on the command line ---------------------------------------------------------------------------


@main.command(help="Solve BOARD (a .toml file or a board's name) exactly.")
@click.argument("board")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of words.")
@click.option("--positions", metavar="A,B,...",
              help=f"Squares of 2 to {MAX_PLAYERS} players, the first listed moving first: each one's chance to win "
                   "(exact for two players, certified decimals for more).")
@click.option("--players", type=click.IntRange(2, MAX_PLAYERS), default=None,
              help="Number of players starting together: each seat's chance to win.")
@click.option("--exact", "exact", is_flag=True,
              help="With --players 3: the first player's chance as an exact fraction (it can take a while).")
@_scheduler_option("Do the exact methods' work modulo many primes on this Dask cluster (e.g. tcp://10.0.0.5:8786).")
@_project_option
def solve(board: str, as_json: bool, positions: str | None, players: int | None, exact: bool,
          scheduler: str | None, project: Path | None) -> None:
    """Solve a board, or a race between players on it."""
    if positions is not None and players is not None:
        raise click.UsageError("give either --positions or --players, not both")
    if exact and players != 3:
        raise click.UsageError("--exact goes with --players 3 (two players are always exact)")
    from chutes.compute.solve.modular import on_cluster

    with on_cluster(scheduler):
        _solve(board, as_json, positions, players, exact, project)


def _solve(board: str, as_json: bool, positions: str | None, players: int | None, exact: bool,
           project: Path | None) -> None:
    b, estimate = _board_and_estimate(board, project)
    if exact:
        _first_of_three(b, as_json)
        return
    started = time.perf_counter()
    if positions is not None or players is not None:
        squares = _parse_positions(positions, b) if positions is not None else [b.start] * players
        result = _race_json(b, squares, positions is not None)
        if as_json:
            _emit_json(result)
        else:
            _print_race(b, result)
        return
    from chutes.compute.record.results import solve as solve_board
    from chutes.compute.solve.chain import turn_chain

    with _working(f"solving {b.slug or board}", estimate):
        result = solve_board(turn_chain(b))
    if as_json:
        _emit_json(result)
    else:
        from chutes.compute.record.words import summary  # pydantic's models: only for the words

        click.echo(summary(result))
        click.echo(f"  (solved in {time.perf_counter() - started:.2f} s)")


def _first_of_three(b: Board, as_json: bool) -> None:
    from chutes.compute.board.cost import BUDGET_SECONDS
    from chutes.compute.board.model import BoardError
    from chutes.compute.numbers import fraction_json
    from chutes.compute.record.results import board_json
    from chutes.compute.record.schema import FirstPlayer
    from chutes.compute.record.words import leading_digits
    from chutes.compute.solve.chain import turn_chain
    from chutes.compute.solve.threeplayer import estimated_seconds, first_of_three_wins

    chain = turn_chain(b)
    seconds = estimated_seconds(chain)
    if seconds > BUDGET_SECONDS:
        raise BoardError(f"{b.slug or b.title}: the exact chance of the first of three players would take about "
                         f"{seconds:.0f} s here (limit {BUDGET_SECONDS:.0f} s); without --exact it is certified "
                         f"to 35 digits at once")
    started = time.perf_counter()
    with _working(f"the first of three players on {b.slug or b.title}", seconds):
        p = fraction_json(first_of_three_wins(chain))
    if as_json:
        _emit_json({"board": board_json(b), "players": 3, "first_player_wins": p})
        return
    click.echo(f"{_printable(b.title)}\n  First of three players wins: {leading_digits(FirstPlayer(**p))}\n"
               f"    exactly a fraction with {p['numerator_digits']:,} digits over {p['denominator_digits']:,} "
               f"(use --json for all of them; solved in {time.perf_counter() - started:.1f} s)")


def _race_json(b: Board, squares: list[int], given: bool) -> dict[str, Any]:
    from chutes.compute.record.results import board_json
    from chutes.compute.solve.chain import turn_chain
    from chutes.compute.solve.races import position_chances, race

    chain = turn_chain(b)
    out: dict[str, Any] = {"board": board_json(b)}
    out["positions" if given else "players"] = squares if given else len(squares)
    result = race(chain, squares)
    out["win_probabilities"] = position_chances(chain, squares, result=result)
    out["expected_rounds"] = result.rounds.json()
    return out


def _print_race(b: Board, result: dict[str, Any]) -> None:
    click.echo(f"{_printable(b.title)}")
    for w in result["win_probabilities"]:
        if w["exact"]:
            how = f"exactly {w['numerator']}/{w['denominator']}"
            if len(how) > 60:
                how = f"exactly: a fraction of {len(w['denominator']):,} digits, see --json"
        else:
            how = f"± {w['error_bound']}"
        click.echo(f"  Seat {w['seat']} (on square {w['square']}) wins with probability {w['decimal']} ({how})")
    click.echo(f"  Expected rounds until someone wins: {result['expected_rounds']['decimal'][:20]}")


def _printable(text: str) -> str:
    """Board text for a terminal: control characters (escape sequences, newlines) shown as their code."""
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)


def _parse_positions(text: str, board: Board) -> list[int]:
    from chutes.compute.solve.chain import safe_squares

    parts = [p.strip() for p in text.split(",")]
    if not all(p and set(p) <= PLAIN_DIGITS for p in parts):
        raise click.BadParameter(f"expected squares (plain digits 0-9) separated by commas, got {text!r}",
                                 param_hint="--positions")
    squares = [int(p) for p in parts]
    if not 2 <= len(squares) <= MAX_PLAYERS:
        raise click.BadParameter(f"give 2 to {MAX_PLAYERS} squares (got {len(squares)})", param_hint="--positions")
    safe = set(safe_squares(board))
    for sq in squares:
        if not 0 <= sq < board.squares:
            raise click.BadParameter(f"square {sq} is not on the board (0 to {board.squares - 1})",
                                     param_hint="--positions")
        if sq not in safe:
            why = ("is the foot of a jump; no turn starts there" if sq in board.jumps
                   else "can lead to a game that never ends")
            raise click.BadParameter(f"square {sq} {why}", param_hint="--positions")
    return squares


@main.command(help="Simulate one- and two-player games on BOARD, reproducibly.")
@click.argument("board")
@click.option("--games", type=click.IntRange(1, 10**9), default=1_000_000, show_default=True,
              help="Number of two-player games (played in batches: memory stays small).")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True,
              help="Random seed; the same seed gives the same games.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of words.")
@_project_option
def simulate(board: str, games: int, seed: int, as_json: bool, project: Path | None) -> None:
    """Simulate games and compare with the exact values."""
    from chutes.compute.numbers import decimal_string
    from chutes.compute.solve.chain import turn_chain
    from chutes.compute.solve.simulate import simulate_summary

    b = _board(board, project)
    started = time.perf_counter()
    summary = simulate_summary(b, games, seed)
    elapsed = time.perf_counter() - started
    one, two = summary.mean_turns, summary.first_player
    chain = turn_chain(b)
    exact_mean, exact_first = chain.expected_turns[chain.start], chain.first_player_wins
    result = {
        "board": b.slug or board, "games": games, "seed": seed,
        "mean_turns": {"estimate": one.value, "ci95": [one.low, one.high],
                       "exact": decimal_string(exact_mean, 20), "inside_ci": one.contains(float(exact_mean))},
        "first_player_wins": {"estimate": two.value, "ci95": [two.low, two.high],
                              "exact": decimal_string(exact_first, 20),
                              "inside_ci": two.contains(float(exact_first))},
        "shortest_seen": summary.shortest, "longest_seen": summary.longest,
    }
    if as_json:
        _emit_json(result)
        return
    click.echo(f"{_printable(b.title)}: {games:,} two-player games (seed {seed}), "
               f"{2 * games / elapsed / 1e6:.1f} million one-player games per second")
    click.echo(f"  Average length: {one.value:.4f} turns (95% interval {one.low:.4f} to {one.high:.4f}); "
               f"exact {float(exact_mean):.4f}")
    click.echo(f"  First player won {two.value:.5f} (95% interval {two.low:.5f} to {two.high:.5f}); "
               f"exact {float(exact_first):.5f}")
    click.echo(f"  Shortest game seen: {result['shortest_seen']} turns; longest: {result['longest_seen']} turns")


# --- the site -----------------------------------------------------------------------------------------------


def _paths(fn):
    fn = click.option("--boards", "boards_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
                      help="Folder of board files [default: the project's site_src/boards].")(fn)
    fn = click.option("--cache", "cache_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
                      help="Cache folder [default: the project's .cache/results].")(fn)
    return _project_option(fn)


def _fewer_records_than_boards(project: Project) -> bool:
    """A quick look before the heavy imports: is some board surely not cached yet?"""
    def count(folder: Path, pattern: str) -> int:
        return sum(1 for _ in folder.glob(pattern)) if folder.is_dir() else 0

    return count(project.cache_dir, "*.json") < count(project.boards_dir, "*.toml")


def compute_stage(only: tuple[str, ...] = (), force: bool = False, quiet: bool = False,
                  scheduler: str | None = None):
    """The compute stage as the build stage calls it: bring the cache up to date, return the record files.

    Each board's progress is shown unless `quiet`: its estimate when it starts, its time when it is done.
    With a Dask `scheduler`, the boards' work modulo primes and their experiments run on that cluster."""
    def records(project: Project) -> list[Path]:
        from chutes.compute.store.sweep import start_workers_early

        if (os.cpu_count() or 1) > 1 and (force or _fewer_records_than_boards(project)):
            start_workers_early("chutes.compute.stage")  # the workers' imports overlap this process's own
        from chutes.compute.stage import load_all, update
        from chutes.compute.store.results import ResultCache
        from chutes.progress import BoardProgress

        boards = load_all(project.boards_dir, only)
        for board in boards if not quiet else ():
            if not board.source:
                _say(f"note: {board.slug} has no source: its page will not say where the board comes from")
        shown = BoardProgress()
        try:
            outcomes = update(boards, ResultCache(project.cache_dir), force=force, log=_say,
                              jobs=os.cpu_count() or 1, prune=not only, progress=False, scheduler=scheduler,
                              on_start=None if quiet else lambda b, s: shown.start(b.slug, s),
                              on_done=None if quiet else lambda o: shown.done(o.slug, o.computed, o.seconds,
                                                                              o.estimate, o.path.name))
        finally:
            shown.close()
        return [o.path for o in outcomes]

    return records


@main.command(name="compute", help="Solve every board of the project's site_src/boards/ exactly and cache the "
                                    "results as JSON (unchanged boards are not recomputed).")
@click.option("--only", multiple=True, metavar="SLUG", help="Only this board (repeatable).")
@click.option("--force", is_flag=True, help="Recompute even when the cache is up to date.")
@_scheduler_option("Do the exact work modulo many primes and the experiments on this Dask cluster "
                   "(e.g. tcp://10.0.0.5:8786); the boards are still computed and stored here.")
@_paths
def compute_command(only: tuple[str, ...], force: bool, scheduler: str | None, boards_dir: Path | None,
                    cache_dir: Path | None, project: Path | None) -> None:
    """Update the results cache."""
    compute_stage(only, force, scheduler=scheduler)(_project(project, boards_dir=boards_dir, cache_dir=cache_dir))


def _engine_option(fn):
    return click.option("--engine", type=click.Choice(["mkdocs", "zensical"]), default=None,
                        help="What turns the pages into HTML [default: the project's mkdocs.yml "
                             "(plugins: chutes: engine), else mkdocs].")(fn)


@main.command(help="Build the website into the project's site/: compute (cached), write the pages, run the engine "
                   "(MkDocs or Zensical), check the result, publish it.")
@click.option("--force", is_flag=True, help="Recompute every board even when the cache is up to date.")
@click.option("--site-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where to put the site [default: the project's site/]; only a folder made by chutes is replaced.")
@click.option("--site-url", metavar="URL", default=None,
              help="The address the site will be published at [default: $CHUTES_SITE_URL, else the local preview].")
@_engine_option
@_paths
def build(force: bool, site_dir: Path | None, site_url: str | None, engine: str | None, boards_dir: Path | None,
          cache_dir: Path | None, project: Path | None) -> None:
    """Build and check the site."""
    from chutes.progress import step
    from chutes.site_build.pipeline import build_site, site_url_for

    here = _project(project, site_dir=site_dir, boards_dir=boards_dir, cache_dir=cache_dir)
    url, local = site_url_for(site_url)
    started = time.perf_counter()
    out = build_site(here, compute_stage(force=force), url, engine=engine, phase=step)
    pages = len(list(out.rglob("*.html")))
    _say(f"site built in {time.perf_counter() - started:.1f} s: {pages} pages in {out}/ (preview it with "
         f"'chutes serve')")
    if local:
        _say(f"note: its links point at the local preview {url}; to publish, build with --site-url URL "
             f"(or set CHUTES_SITE_URL)")


@main.command(help="Preview the site with live reload: an edited board, template, page or setting is shown at once.")
@click.option("--dev-addr", default="127.0.0.1:8000", show_default=True, metavar="IP:PORT",
              help="Address to serve on.")
@_engine_option
@_project_option
def serve(dev_addr: str, engine: str | None, project: Path | None) -> None:
    """Serve the site for preview."""
    from chutes.progress import step
    from chutes.site_build.preview import serve as serve_site

    host, _, port = dev_addr.rpartition(":")
    if not host or not (set(port) <= PLAIN_DIGITS and port and 1 <= int(port) <= 65535):
        raise click.BadParameter(f"expected IP:PORT with a port from 1 to 65535, got {dev_addr!r}",
                                 param_hint="--dev-addr")
    serve_site(_project(project), compute_stage(), dev_addr, engine=engine, log=_say, phase=step)


@main.command(name="cache-key", help="Print the key of the compute stage's code and version: records made by other "
                                      "code are never reused (CI keys its results cache on it).")
def cache_key() -> None:
    """The compute stage's code hash."""
    from chutes.compute import code_hash

    click.echo(code_hash()[:16])


@main.command(name="new", help="Start a new site project in DIR: mkdocs.yml, an example board, a README and a "
                                "CI workflow that publishes it.")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
def new(directory: Path) -> None:
    """Write a ready site project."""
    from chutes.compute import package_version
    from chutes.site_build.new_project import write_project

    written = write_project(directory, package_version())
    _say(f"new site project in {directory}/ ({len(written)} files); next: cd {directory} && chutes build")


# --- experiments --------------------------------------------------------------------------------------------


@main.group(help="What-if experiments on a board (after Hochman): die size, starting square, one more jump.")
def experiment() -> None:
    """Experiment commands."""


def _parallel_options(fn):
    fn = _scheduler_option("Run on this Dask cluster (e.g. tcp://10.0.0.5:8786) instead of local processes.")(fn)
    fn = click.option("--jobs", type=click.IntRange(1, 256), default=os.cpu_count() or 1, show_default=True,
                      help="Local worker processes.")(fn)
    fn = click.option("--cache", "cache_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
                      help="Where finished sweeps and their pieces are kept [default: the project's "
                           ".cache/results/experiments; none outside a project].")(fn)
    fn = _project_option(fn)
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of words.")(fn)


def _folder(cache_dir: Path | None, project: Path | None) -> Path | None:
    """Where sweeps are cached: --cache, else the project's experiments folder, else nowhere."""
    from chutes.site_build.project import absolute

    if cache_dir is not None:
        return absolute(cache_dir)
    here = _project(project, need_config=False)
    return here.experiments_dir if here.config_file.is_file() else None


@experiment.command(help="Expected turns and the first player's chance for dice of 1 to N faces.")
@click.argument("board")
@click.option("--max-faces", type=click.IntRange(1, MAX_DIE), default=MAX_DIE, show_default=True, help="Largest die.")
@_parallel_options
def dice(board: str, max_faces: int, as_json: bool, project: Path | None, jobs: int, scheduler: str | None,
         cache_dir: Path | None) -> None:
    """Die-size experiment."""
    from chutes.compute.experiments.sweeps import dice as run_dice

    b = _board(board, project)
    result = run_dice(b, max_faces, jobs, scheduler, _folder(cache_dir, project))
    if as_json:
        _emit_json({"board": b.slug or board, **result})
        return
    click.echo(f"{_printable(b.title)}: the same board with other dice")
    click.echo(f"  {'faces':>5}  {'average game (turns)':>22}  {'first of two players wins':>26}")
    for row in result["dice"]:
        if row["expected_turns"] is None:
            click.echo(f"  {row['faces']:>5}  never finishes ({row['note']})")
            continue
        first = row["first_player_wins"]
        mark = "" if first["exact"] else " (double precision)"
        note = f"  [{row['note']}]" if row["note"] else ""
        click.echo(f"  {row['faces']:>5}  {float(row['expected_turns']['decimal']):>22.7f}  "
                   f"{float(first['decimal']):>26.10f}{mark}{note}")


@experiment.command(help="Expected turns from every starting square; squares worse than the previous one.")
@click.argument("board")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of words.")
@_project_option
def start(board: str, as_json: bool, project: Path | None) -> None:
    """Starting-square experiment."""
    from chutes.compute.experiments.sweeps import start as run_start

    b = _board(board, project)
    result = run_start(b)
    if as_json:
        _emit_json({"board": b.slug or board, **result})
        return
    worse = result["worse_than_previous"]
    click.echo(f"{_printable(b.title)}: starting somewhere else")
    click.echo(f"  From the usual start ({b.start}): "
               f"{float(result['expected_turns_from'][str(b.start)]['decimal']):.7f} turns on average.")
    click.echo(f"  {len(worse)} squares are worse to start on than the square before them: "
               f"{', '.join(map(str, worse))}")


@experiment.command(name="add-jump", help="Every single chute or ladder that could be added, and its effect.")
@click.argument("board")
@click.option("--min-length", type=click.IntRange(1, 10_000), default=10, show_default=True,
              help="Shortest jump considered.")
@click.option("--exact", "exact_pair", metavar="FROM,TO", default=None,
              help="Only this jump, with the first player's chance exactly.")
@_parallel_options
def add_jump(board: str, min_length: int, exact_pair: str | None, as_json: bool, project: Path | None, jobs: int,
             scheduler: str | None, cache_dir: Path | None) -> None:
    """Single-jump scan."""
    b = _board(board, project)
    if exact_pair is not None:
        from chutes.compute.experiments.variants import exact_candidate

        source, target = _parse_pair(exact_pair, b)
        result = exact_candidate(b, source, target)
        if as_json:
            _emit_json({"board": b.slug or board, **result})
        else:
            click.echo(f"{_printable(b.title)} with a jump from {source} to {target}:\n"
                       f"  average game {float(result['expected_turns']['decimal']):.7f} turns "
                       f"= {result['expected_turns']['numerator']}/{result['expected_turns']['denominator']}\n"
                       f"  first of two players wins {result['first_player_wins']['decimal']}")
        return
    from chutes.compute.experiments.sweeps import add_jump as run_scan

    result = run_scan(b, min_length, jobs, scheduler, _folder(cache_dir, project))
    if as_json:
        _emit_json({"board": b.slug or board, **result})
        return
    c = result["counts"]
    click.echo(f"{_printable(b.title)}: {result['candidates']:,} possible single jumps of length {min_length} or more")
    click.echo(f"  {c['changed']:,} change the average game; {c['no effect']:,} have no effect; "
               f"{c['never ends']:,} would make the game endless.")
    click.echo(f"  Against intuition: {result['counterintuitive']:,} "
               f"({result['counterintuitive_ladders']:,} ladders that lengthen the game, "
               f"{result['counterintuitive_chutes']:,} chutes that shorten it).")
    for title, key in (("Ladders that lengthen the game most", "lengthening_ladders"),
                       ("Chutes that shorten the game most", "shortening_chutes")):
        click.echo(f"  {title}:")
        for row in result["top"][key][:5]:
            click.echo(f"    {row['from']:>3} → {row['to']:<3} {float(row['delta_turns']['decimal']):+.4f} turns")


def _parse_pair(text: str, board: Board) -> tuple[int, int]:
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2 or not all(p and set(p) <= PLAIN_DIGITS for p in parts):
        raise click.BadParameter(f"expected two squares FROM,TO in plain digits, got {text!r}", param_hint="--exact")
    source, target = (int(p) for p in parts)
    for sq in (source, target):
        if not 0 <= sq <= board.squares:
            raise click.BadParameter(f"square {sq} is not on the board (0 to {board.squares})", param_hint="--exact")
    if source == target or source in board.jumps or target in board.jumps:
        raise click.BadParameter("the ends must differ and not be the foot of an existing jump", param_hint="--exact")
    return source, target


# --- running it ---------------------------------------------------------------------------------------------


def _library_error(exc: BaseException) -> int | None:
    """The exit status for one of the libraries' own errors, each a one-line message (2: bad input), else None."""
    from chutes.compute.board.problems import BoardError
    from chutes.compute.store.sweep import SweepError
    from chutes.site_build.checks import SiteError
    from chutes.site_build.project import ProjectError

    if isinstance(exc, BoardError | SweepError | ProjectError):
        return EXIT_BAD_INPUT
    if isinstance(exc, SiteError):
        return 1
    return None


def run(argv: list[str] | None = None) -> int:
    """Run the command line and return its exit status; problems become one line on stderr."""
    try:
        main.main(args=argv, prog_name="chutes", standalone_mode=False)
    except click.UsageError as exc:
        hint = f" (see 'chutes {exc.ctx.info_name} --help')" if exc.ctx and exc.ctx.parent else " (see 'chutes --help')"
        _say(f"error: {exc.format_message()}{hint}")
        return EXIT_BAD_INPUT
    except click.ClickException as exc:
        _say(f"error: {exc.format_message()}")
        return exc.exit_code
    except (click.exceptions.Abort, KeyboardInterrupt):
        _say("interrupted")
        return 130
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except RecursionError:
        _say("error: the input is nested too deeply to read")
        return EXIT_BAD_INPUT
    except Exception as exc:
        status = _library_error(exc)
        if status is not None:
            for line in str(exc).splitlines() or [""]:  # every bad board file at once: a line each
                _say(f"error: {line}")
            return status
        if isinstance(exc, OSError):
            where = f"{exc.filename}: " if exc.filename else ""
            _say(f"error: {where}{exc.strerror or exc}")
            return 1
        raise
    return 0


def entry() -> None:
    """Console-script entry point: SIGTERM stops a run the way Ctrl-C does (workers included)."""
    import signal

    def terminate(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, terminate)
    sys.exit(run())
