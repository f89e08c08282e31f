"""`chutes solve` and `chutes simulate`: a board's exact answers and simulated games, in words or as JSON."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from chutes.compute.board.limits import MAX_PLAYERS
from chutes.compute.record.catalogues import languages

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
    from chutes._api.results import Result
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


def _language(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """The --lang value, if it has a catalogue (read only when words are written)."""
    if value not in languages():
        raise click.BadParameter(f"no catalogue for {value!r}: the languages are {', '.join(languages())}")
    return value


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
@click.option("--lang", default="en", show_default=True, callback=_language, metavar="CODE",
              help=f"The language of the words: {', '.join(languages())} (the JSON is the same in every language).")
@scheduler_option("Do the exact methods' work modulo many primes on this Dask cluster (e.g. tcp://10.0.0.5:8786).")
@project_option
def solve(board: str, as_json: bool, positions: str | None, players: int | None, exact: bool, lang: str,
          scheduler: str | None, project: Path | None) -> None:
    """Solve a board, or a race between players on it."""
    if positions is not None and players is not None:
        raise click.UsageError("give either --positions or --players, not both")
    if exact and players != 3:
        raise click.UsageError("--exact goes with --players 3 (two players are always exact)")
    from chutes.compute.solve.modular import on_cluster

    with on_cluster(scheduler):
        _solve(board, as_json, positions, players, exact, lang, project)


def _solve(board: str, as_json: bool, positions: str | None, players: int | None, exact: bool, lang: str,
           project: Path | None) -> None:
    from chutes._api.results import solve as solve_board  # the Python API: one path to every result

    b, estimate = find_board_and_estimate(board, project)
    result = solve_board(b)
    if exact:
        _first_of_three(result, as_json, lang)
        return
    started = time.perf_counter()
    race = None
    if positions is not None:
        race = result.positions(_parse_positions(positions, b))
    elif players is not None:
        race = result.players(players)
    if race is not None:
        if as_json:
            emit_json(race.to_json())
        else:
            _print_race(b, race.to_json(), lang)
        return
    with _working(f"solving {b.slug or board}", estimate):
        found = result.to_json()
    if as_json:
        emit_json(found)
    else:
        from chutes.compute.record.words import words  # pydantic's models and Babel: only for the words

        said = words(lang)
        click.echo(said.summary(found))
        click.echo("  " + said.solved_in(time.perf_counter() - started))


@main.command(help="The best play on BOARD when its rules give a choice (choice = \"coin\"): where to flip, "
                   "proven optimal, and the strategies compared.")
@click.argument("board")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of words.")
@project_option
def strategy(board: str, as_json: bool, project: Path | None) -> None:
    """The best play of a board with a choice."""
    from chutes._api.results import solve as solve_board
    from chutes.compute.board.model import BoardError
    from chutes.compute.record.results import board_json

    b, estimate = find_board_and_estimate(board, project)
    if b.choice is None:
        raise BoardError(f"{b.slug or b.title}: the rules give no choice (add choice = \"coin\" to the board file)")
    with _working(f"solving {b.slug or board}", estimate):
        play = solve_board(b).strategy
    assert play is not None
    found = play.to_json()
    if as_json:
        emit_json({"board": board_json(b), "strategy": found})
        return
    click.echo(f"{printable(b.title)}\n  {found['advice']}")
    for row in found["strategies"]:
        value = row["expected_turns"]
        turns = "never ends" if value is None else f"{float(value['decimal']):.4f} turns"
        loss = "" if row["loss"] is None or row["key"] == "best" else f" (+{float(row['loss']['decimal']):.4f})"
        click.echo(f"  {row['label']}: {turns}{loss}")
    by_square: dict[int, list[int]] = {}
    for square, roll in found["flips"]:
        by_square.setdefault(square, []).append(roll)
    click.echo("  The best play flips on: " + "; ".join(f"square {q}: {', '.join(map(str, rolls))}"
                                                     for q, rolls in by_square.items()))
    later: dict[tuple[int, int, int, bool], list[int]] = {}
    for c in found.get("later", []):  # under a roll-again limit only
        later.setdefault((c["square"], c["roll"], c["rolls_so_far"], c["flip"]), []).append(c["began"])
    if later:
        click.echo("  Later in a turn it plays otherwise: " + "; ".join(
            f"a {r} on square {q} as roll {k + 1} of a turn begun on {', '.join(map(str, began))}: "
            f"{'flip' if flip else 'move'}" for (q, r, k, flip), began in later.items()))
    where = "square, number of rolls so far in the turn and roll" if "later" in found else "square and roll"
    click.echo(f"  Proven optimal (Bellman's equation holds exactly at every {where}, "
               f"{found['rounds']} round{'s' if found['rounds'] > 1 else ''} of policy iteration); "
               f"both players playing best, the first wins with {found['both_best']['decimal'][:12]}.")


def _first_of_three(result: Result, as_json: bool, lang: str) -> None:
    from chutes.compute.board.cost import BUDGET_SECONDS
    from chutes.compute.board.model import BoardError
    from chutes.compute.numbers import fraction_json
    from chutes.compute.record.results import board_json
    from chutes.compute.record.words import words

    b = result.board
    seconds = result.first_of_three_seconds
    if seconds > BUDGET_SECONDS:
        raise BoardError(f"{b.slug or b.title}: the exact chance of the first of three players would take about "
                         f"{seconds:.0f} s here (limit {BUDGET_SECONDS:.0f} s); without --exact it is certified "
                         f"to 35 digits at once")
    started = time.perf_counter()
    with _working(f"the first of three players on {b.slug or b.title}", seconds):
        p = fraction_json(result.first_of_three_wins)
    if as_json:
        emit_json({"board": board_json(b), "players": 3, "first_player_wins": p})
        return
    click.echo(words(lang).first_of_three(printable(b.title), p, time.perf_counter() - started))


def _print_race(b: Board, result: dict[str, Any], lang: str) -> None:
    from chutes.compute.record.words import words

    click.echo(words(lang).race(printable(b.title), result))


def _parse_positions(text: str, board: Board) -> list[int]:
    from chutes._api.results import checked_squares

    parts = [p.strip() for p in text.split(",")]
    if not all(p and set(p) <= PLAIN_DIGITS for p in parts):
        raise click.BadParameter(f"expected squares (plain digits 0-9) separated by commas, got {text!r}",
                                 param_hint="--positions")
    try:
        return checked_squares(board, [int(p) for p in parts])
    except ValueError as exc:  # a square off the board, or where no race can start
        raise click.BadParameter(str(exc), param_hint="--positions") from None


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
    from chutes._api.simulation import simulate as simulate_games

    b = find_board(board, project)
    games_played = simulate_games(b, games, seed)
    if as_json:
        emit_json(games_played.to_json())
        return
    one, two = games_played.mean_turns, games_played.first_player_wins
    click.echo(f"{printable(b.title)}: {games:,} two-player games (seed {seed}), "
               f"{2 * games / games_played.seconds / 1e6:.1f} million one-player games per second")
    click.echo(f"  Average length: {one.value:.4f} turns (95% interval {one.low:.4f} to {one.high:.4f}); "
               f"exact {float(games_played.exact_mean_turns):.4f}")
    click.echo(f"  First player won {two.value:.5f} (95% interval {two.low:.5f} to {two.high:.5f}); "
               f"exact {float(games_played.exact_first_player_wins):.5f}")
    click.echo(f"  Shortest game seen: {games_played.shortest_seen} turns; longest: {games_played.longest_seen} turns")
