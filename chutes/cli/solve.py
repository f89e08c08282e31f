"""`chutes solve` and `chutes simulate`: a board's exact answers and simulated games, in words or as JSON."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from chutes.compute.board.limits import MAX_PLAYERS

from .group import (
    PLAIN_DIGITS,
    emit_json,
    find_board,
    find_board_and_estimate,
    main,
    printable,
    project_option,
    scheduler_option,
)

if TYPE_CHECKING:
    from chutes.compute.board.model import Board

LONG_SECONDS = 2.0
"""Work estimated to take this long or more shows its progress (a bar on a terminal, else a line before and after)."""


def _working(label: str, estimate: float):
    """Progress for one long computation (estimated at LONG_SECONDS or more); quick ones stay quiet (and do
    not import the progress display)."""
    if estimate < LONG_SECONDS:
        from contextlib import nullcontext

        return nullcontext()
    from chutes.progress import step

    return step(label, estimate)


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
@scheduler_option("Do the exact methods' work modulo many primes on this Dask cluster (e.g. tcp://10.0.0.5:8786).")
@project_option
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
    b, estimate = find_board_and_estimate(board, project)
    if exact:
        _first_of_three(b, as_json)
        return
    started = time.perf_counter()
    if positions is not None:
        squares: list[int] | None = _parse_positions(positions, b)
    else:
        squares = None if players is None else [b.start] * players
    if squares is not None:
        result = _race_json(b, squares, positions is not None)
        if as_json:
            emit_json(result)
        else:
            _print_race(b, result)
        return
    from chutes.compute.record.results import solve as solve_board
    from chutes.compute.solve.chain import turn_chain

    with _working(f"solving {b.slug or board}", estimate):
        result = solve_board(turn_chain(b))
    if as_json:
        emit_json(result)
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
        emit_json({"board": board_json(b), "players": 3, "first_player_wins": p})
        return
    click.echo(f"{printable(b.title)}\n  First of three players wins: {leading_digits(FirstPlayer(**p))}\n"
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
    click.echo(f"{printable(b.title)}")
    for w in result["win_probabilities"]:
        if w["exact"]:
            how = f"exactly {w['numerator']}/{w['denominator']}"
            if len(how) > 60:
                how = f"exactly: a fraction of {len(w['denominator']):,} digits, see --json"
        else:
            how = f"± {w['error_bound']}"
        click.echo(f"  Seat {w['seat']} (on square {w['square']}) wins with probability {w['decimal']} ({how})")
    click.echo(f"  Expected rounds until someone wins: {result['expected_rounds']['decimal'][:20]}")


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
@project_option
def simulate(board: str, games: int, seed: int, as_json: bool, project: Path | None) -> None:
    """Simulate games and compare with the exact values."""
    from chutes.compute.numbers import decimal_string
    from chutes.compute.solve.chain import turn_chain
    from chutes.compute.solve.simulate import simulate_summary

    b = find_board(board, project)
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
        emit_json(result)
        return
    click.echo(f"{printable(b.title)}: {games:,} two-player games (seed {seed}), "
               f"{2 * games / elapsed / 1e6:.1f} million one-player games per second")
    click.echo(f"  Average length: {one.value:.4f} turns (95% interval {one.low:.4f} to {one.high:.4f}); "
               f"exact {float(exact_mean):.4f}")
    click.echo(f"  First player won {two.value:.5f} (95% interval {two.low:.5f} to {two.high:.5f}); "
               f"exact {float(exact_first):.5f}")
    click.echo(f"  Shortest game seen: {result['shortest_seen']} turns; longest: {result['longest_seen']} turns")
