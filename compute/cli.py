"""The `chutes` command line, compute stage: solve, simulate, and fill the results cache.

Bad input ends with exit status 2 and one line on standard error, never a traceback.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import click

from compute import __version__
from compute.boards import MAX_DIE, Board, BoardError, resolve_board
from compute.sweep import SweepError

EXIT_BAD_INPUT = 2


def _board(spec: str) -> Board:
    return resolve_board(spec)


def _emit_json(obj: Any) -> None:
    click.echo(json.dumps(obj, indent=1, sort_keys=True))


@click.group(help="Exact analysis of Chutes and Ladders boards.")
@click.version_option(__version__, prog_name="chutes")
def main() -> None:
    """Entry point group."""


@main.command(help="Solve BOARD (a .toml file or a bundled board's name) exactly.")
@click.argument("board")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of words.")
@click.option("--positions", metavar="A,B,...",
              help="Squares of 2 to 8 players, the first listed moving first: each one's chance to win "
                   "(exact for two players, certified decimals for more).")
@click.option("--players", type=click.IntRange(2, 8), default=None,
              help="Number of players starting together: each seat's chance to win.")
def solve(board: str, as_json: bool, positions: str | None, players: int | None) -> None:
    """Solve a board, or a race between players on it."""
    from compute.report import solve as solve_board
    from compute.report import summary

    b = _board(board)
    started = time.perf_counter()
    if positions is not None and players is not None:
        raise click.UsageError("give either --positions or --players, not both")
    if positions is not None or players is not None:
        squares = _parse_positions(positions, b) if positions is not None else [b.start] * players
        result = _race_json(b, squares, positions is not None)
        if as_json:
            _emit_json(result)
        else:
            _print_race(b, result)
        return
    result = solve_board(b)
    if as_json:
        _emit_json(result)
    else:
        click.echo(summary(result))
        click.echo(f"  (solved in {time.perf_counter() - started:.2f} s)")


def _race_json(b: Board, squares: list[int], given: bool) -> dict[str, Any]:
    from compute.chain import turn_chain
    from compute.players import position_chances, race
    from compute.report import board_json

    chain = turn_chain(b)
    out: dict[str, Any] = {"board": board_json(b)}
    out["positions" if given else "players"] = squares if given else len(squares)
    result = race(chain, squares)
    out["win_probabilities"] = position_chances(chain, squares, result=result)
    out["expected_rounds"] = result.rounds.json()
    return out


def _print_race(b: Board, result: dict[str, Any]) -> None:
    click.echo(f"{b.title}")
    for w in result["win_probabilities"]:
        if w["exact"]:
            how = f"exactly {w['numerator']}/{w['denominator']}"
            if len(how) > 60:
                how = f"exactly: a fraction of {len(w['denominator']):,} digits, see --json"
        else:
            how = f"± {w['error_bound']}"
        click.echo(f"  Seat {w['seat']} (on square {w['square']}) wins with probability {w['decimal'][:42]} ({how})")
    click.echo(f"  Expected rounds until someone wins: {result['expected_rounds']['decimal'][:20]}")


def _parse_positions(text: str, board: Board) -> list[int]:
    from compute.chain import safe_squares

    parts = [p.strip() for p in text.split(",")]
    try:
        squares = [int(p) for p in parts]
    except ValueError:
        raise click.BadParameter(f"expected squares separated by commas, got {text!r}",
                                 param_hint="--positions") from None
    if not 2 <= len(squares) <= 8:
        raise click.BadParameter(f"give 2 to 8 squares (got {len(squares)})", param_hint="--positions")
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
              help="Number of games.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True,
              help="Random seed; the same seed gives the same games.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of words.")
def simulate(board: str, games: int, seed: int, as_json: bool) -> None:
    """Simulate games and compare with the exact values."""
    from compute.chain import turn_chain
    from compute.exact import expected_turns
    from compute.numbers import decimal_string
    from compute.simulate import first_player_share, mean_turns, two_player_games
    from compute.twoplayer import first_player_wins

    b = _board(board)
    started = time.perf_counter()
    first, second = two_player_games(b, games, seed)
    elapsed = time.perf_counter() - started
    one = mean_turns(first)
    two = first_player_share(first, second)
    chain = turn_chain(b)
    exact_mean = expected_turns(chain)[chain.start]
    exact_first = first_player_wins(chain)
    result = {
        "board": b.slug or board, "games": games, "seed": seed,
        "mean_turns": {"estimate": one.value, "ci95": [one.low, one.high],
                       "exact": decimal_string(exact_mean, 20), "inside_ci": one.contains(float(exact_mean))},
        "first_player_wins": {"estimate": two.value, "ci95": [two.low, two.high],
                              "exact": decimal_string(exact_first, 20),
                              "inside_ci": two.contains(float(exact_first))},
        "shortest_seen": int(first.min()), "longest_seen": int(first.max()),
    }
    if as_json:
        _emit_json(result)
        return
    click.echo(f"{b.title}: {games:,} two-player games (seed {seed}), {2 * games / elapsed / 1e6:.1f} million "
               f"one-player games per second")
    click.echo(f"  Average length: {one.value:.4f} turns (95% interval {one.low:.4f} to {one.high:.4f}); "
               f"exact {float(exact_mean):.4f}")
    click.echo(f"  First player won {two.value:.5f} (95% interval {two.low:.5f} to {two.high:.5f}); "
               f"exact {float(exact_first):.5f}")
    click.echo(f"  Shortest game seen: {result['shortest_seen']} turns; longest: {result['longest_seen']} turns")


@main.command(name="compute", help="Solve every board of site_src/boards/ exactly and cache the results as JSON "
                                    "(unchanged boards are not recomputed).")
@click.option("--only", multiple=True, metavar="SLUG", help="Only this board (repeatable).")
@click.option("--force", is_flag=True, help="Recompute even when the cache is up to date.")
@click.option("--boards", "boards_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder of board files [default: site_src/boards].")
@click.option("--cache", "cache_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Cache folder [default: .cache/results].")
def compute_command(only: tuple[str, ...], force: bool, boards_dir: Path | None, cache_dir: Path | None) -> None:
    """Update the results cache."""
    update_cache(boards_dir, cache_dir, only, force)


def update_cache(boards_dir: Path | None, cache_dir: Path | None, only: tuple[str, ...] = (),
                 force: bool = False, quiet: bool = False) -> list[Path]:
    """Validate every board, then bring the cache up to date, reporting each board; the cache files in order."""
    from compute.cache import DEFAULT_CACHE_DIR, ResultCache, load_all, update

    boards = load_all(boards_dir, only)
    cache = ResultCache(cache_dir or DEFAULT_CACHE_DIR)
    outcomes = update(boards, cache, force=force, log=lambda msg: click.echo(f"chutes: {msg}", err=True),
                      jobs=os.cpu_count() or 1)
    for o in outcomes if not quiet else ():
        what = f"computed in {o.seconds:.1f} s" if o.computed else "up to date"
        click.echo(f"  {o.slug}: {what} ({o.path.name})", err=True)
    return [o.path for o in outcomes]


@main.group(help="What-if experiments on a board (after Hochman): die size, starting square, one more jump.")
def experiment() -> None:
    """Experiment commands."""


def _parallel_options(fn):
    fn = click.option("--scheduler", metavar="ADDRESS", default=None,
                      help="Run on this Dask cluster (e.g. tcp://10.0.0.5:8786) instead of local processes.")(fn)
    fn = click.option("--jobs", type=click.IntRange(1, 256), default=os.cpu_count() or 1, show_default=True,
                      help="Local worker processes.")(fn)
    fn = click.option("--cache", "cache_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
                      help="Where finished sweeps and their pieces are kept [default: .cache/results/experiments].")(fn)
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of words.")(fn)


def _folder(cache_dir: Path | None) -> Path:
    from compute.whatif import DEFAULT_DIR

    return cache_dir or DEFAULT_DIR


@experiment.command(help="Expected turns and the first player's chance for dice of 1 to N faces.")
@click.argument("board")
@click.option("--max-faces", type=click.IntRange(1, MAX_DIE), default=MAX_DIE, show_default=True, help="Largest die.")
@_parallel_options
def dice(board: str, max_faces: int, as_json: bool, jobs: int, scheduler: str | None, cache_dir: Path | None) -> None:
    """Die-size experiment."""
    from compute.whatif import dice as run_dice

    b = _board(board)
    result = run_dice(b, max_faces, jobs, scheduler, _folder(cache_dir))
    if as_json:
        _emit_json({"board": b.slug or board, **result})
        return
    click.echo(f"{b.title}: the same board with other dice")
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
def start(board: str, as_json: bool) -> None:
    """Starting-square experiment."""
    from compute.whatif import start as run_start

    b = _board(board)
    result = run_start(b)
    if as_json:
        _emit_json({"board": b.slug or board, **result})
        return
    worse = result["worse_than_previous"]
    click.echo(f"{b.title}: starting somewhere else")
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
def add_jump(board: str, min_length: int, exact_pair: str | None, as_json: bool, jobs: int, scheduler: str | None,
             cache_dir: Path | None) -> None:
    """Single-jump scan."""
    from compute.experiments import exact_candidate
    from compute.whatif import add_jump as run_scan

    b = _board(board)
    if exact_pair is not None:
        source, target = _parse_pair(exact_pair, b)
        result = exact_candidate(b, source, target)
        if as_json:
            _emit_json({"board": b.slug or board, **result})
        else:
            click.echo(f"{b.title} with a jump from {source} to {target}:\n"
                       f"  average game {float(result['expected_turns']['decimal']):.7f} turns "
                       f"= {result['expected_turns']['numerator']}/{result['expected_turns']['denominator']}\n"
                       f"  first of two players wins {result['first_player_wins']['decimal']}")
        return
    result = run_scan(b, min_length, jobs, scheduler, _folder(cache_dir))
    if as_json:
        _emit_json({"board": b.slug or board, **result})
        return
    c = result["counts"]
    click.echo(f"{b.title}: {result['candidates']:,} possible single jumps of length {min_length} or more")
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
    try:
        source, target = (int(p) for p in text.split(","))
    except ValueError:
        raise click.BadParameter(f"expected two squares FROM,TO, got {text!r}", param_hint="--exact") from None
    for sq in (source, target):
        if not 0 <= sq <= board.squares:
            raise click.BadParameter(f"square {sq} is not on the board (0 to {board.squares})", param_hint="--exact")
    if source == target or source in board.jumps or target in board.jumps:
        raise click.BadParameter("the ends must differ and not be the foot of an existing jump", param_hint="--exact")
    return source, target


def run(argv: list[str] | None = None) -> int:
    """Run the command line and return its exit status; problems become one line on stderr."""
    try:
        main.main(args=argv, prog_name="chutes", standalone_mode=False)
    except (BoardError, SweepError) as exc:
        click.echo(f"chutes: error: {exc}", err=True)
        return EXIT_BAD_INPUT
    except click.UsageError as exc:
        hint = f" (see 'chutes {exc.ctx.info_name} --help')" if exc.ctx and exc.ctx.parent else " (see 'chutes --help')"
        click.echo(f"chutes: error: {exc.format_message()}{hint}", err=True)
        return EXIT_BAD_INPUT
    except click.ClickException as exc:
        click.echo(f"chutes: error: {exc.format_message()}", err=True)
        return exc.exit_code
    except click.exceptions.Abort:
        click.echo("chutes: interrupted", err=True)
        return 130
    except click.exceptions.Exit as exc:
        return exc.exit_code
    return 0


def entry() -> None:
    """Console-script entry point."""
    sys.exit(run())
