"""Several players from any squares: Noordenbos's figures, exact two-player values, certified enclosures, simulation,
printed decimals within their error bounds of exact three-player values."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction
from itertools import islice

import numpy as np
import pytest
from flint import arb, ctx, fmpq, fmpq_mat
from helpers import board, chain

from chutes.compute.board.file import board_from_mapping
from chutes.compute.numbers import fraction_from_json
from chutes.compute.record import build as record_build
from chutes.compute.record.build import players_record
from chutes.compute.solve import races as seats_module
from chutes.compute.solve.chain import turn_chain
from chutes.compute.solve.exact import expected_turns
from chutes.compute.solve.modular import krylov
from chutes.compute.solve.races import (
    DIGITS,
    MAX_PLAYERS,
    Race,
    position_chances,
    race,
    races_together,
    seat_chances,
)
from chutes.compute.solve.recurrence import finishing, numerators
from chutes.compute.solve.simulate import game_lengths
from chutes.compute.solve.twoplayer import first_player_wins, pair_wins


def _exact_ball(x: Fraction) -> arb:
    """An exact rational as a ball at 2,000 bits (far tighter than any enclosure tested against it)."""
    with ctx.workprec(2000):
        return arb(fmpq(x.numerator, x.denominator))


SEED_004 = ([14, 60, 31, 26, 48, 48], [0.1328226, 0.2318284, 0.1391085, 0.1554380, 0.1718596, 0.1689429])


def test_seed_004_six_players() -> None:
    squares, printed = SEED_004
    result = race(chain("noordenbos"), squares)
    assert [round(float(w), 7) for w in result.wins] == printed
    assert all(float(w.ball.rad()) < 1e-30 for w in result.wins)
    total = sum((w.ball for w in result.wins), arb(0))
    assert total.contains(1)


def test_two_players_are_exact_and_agree_with_the_enclosure() -> None:
    c = chain("classic")
    assert position_chances(c, [99, 99])[0]["numerator"] == "6"
    exact = pair_wins(c, 14, 60)
    ball = race(c, [14, 60]).wins[0].ball
    assert ball.contains(_exact_ball(exact))
    seats = seat_chances(c, 2)
    assert fraction_from_json(seats[0]) == first_player_wins(c)


CLASS = [0, 5, 10, 14, 20, 31, 38, 42, 50, 60, 77, 99]
"""Twelve children on twelve squares of the classic board (none the foot of a jump)."""


@pytest.mark.parametrize("squares", [[0, 0, 0], [0] * 8, [5, 40, 77, 99], [0] * MAX_PLAYERS, CLASS])
def test_certified_enclosures_contain_the_higher_precision_value(squares: list[int]) -> None:
    """The working precision needs no more guard digits for more players: 20 players keep 30 certified digits."""
    c = chain("classic")
    coarse = race(c, squares, digits=30)
    fine = race(c, squares, digits=60)
    for a, b in zip(coarse.wins, fine.wins):
        assert a.contains(b) and float(b.ball.rad()) < float(a.ball.rad())
    assert coarse.rounds.contains(fine.rounds)
    assert all(float(w.ball.rad()) < 1e-30 for w in coarse.wins)


def test_one_player_rounds_are_the_expected_turns() -> None:
    c = chain("classic-47")
    t = expected_turns(c)[c.start]
    assert race(c, [c.board.start]).rounds.ball.contains(_exact_ball(t))


def _simulated_winners(b, squares: list[int], games: int, seed: int) -> tuple[np.ndarray, float]:
    """Each seat's share of simulated games won, and the average number of rounds: a seat wins when it finishes in
    fewer turns than every seat before it and in no more than every seat after it, the first seat of the fewest."""
    lengths = np.stack([game_lengths(b.variant(start=sq), games, seed + n) for n, sq in enumerate(squares)])
    wins = np.bincount(lengths.argmin(axis=0), minlength=len(squares)) / games
    return wins, float(lengths.min(axis=0).mean())


@pytest.mark.parametrize("slug, squares", [("noordenbos", SEED_004[0]), ("classic", [0, 0, 0, 0]),
                                           ("classic-pass", [3, 50, 20]), ("uk", [0] * 10), ("classic", CLASS),
                                           ("noordenbos", [1] * MAX_PLAYERS)])
def test_agreement_with_simulation(slug: str, squares: list[int]) -> None:
    """Each seat's certified chance lies within 4.5 standard errors of its share of 200,000 simulated games
    (a correct pair misses about once in 150,000), for 3 to 20 players."""
    games = 200_000
    simulated, rounds = _simulated_winners(board(slug), squares, games, seed=11)
    result = race(chain(slug), squares)
    for p_sim, w in zip(simulated, result.wins):
        p = float(w)
        assert abs(p_sim - p) < 4.5 * math.sqrt(p * (1 - p) / games), (slug, p_sim, p)
    assert abs(rounds - float(result.rounds)) < 0.05 * float(result.rounds)


def _chutes(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "chutes", *args],
                          capture_output=True, text=True, timeout=300)


def test_solve_players_and_positions_commands() -> None:
    out = _chutes("solve", "classic", "--players", "4", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    seats = data["win_probabilities"]
    assert [s["seat"] for s in seats] == [1, 2, 3, 4] and not seats[0]["exact"]
    assert float(seats[0]["error_bound"]) < 1e-30 and len(seats[0]["decimal"]) > 32
    assert float(seats[0]["decimal"]) > float(seats[1]["decimal"]) > float(seats[3]["decimal"])
    assert 10 < float(data["expected_rounds"]["decimal"]) < 40
    six = json.loads(_chutes("solve", "noordenbos", "--positions", "14,60,31,26,48,48", "--json").stdout)
    assert [round(float(s["decimal"]), 7) for s in six["win_probabilities"]] == SEED_004[1]
    words = _chutes("solve", "classic", "--positions", "99,99")
    assert "exactly 6/11" in words.stdout
    twenty = json.loads(_chutes("solve", "classic", "--players", str(MAX_PLAYERS), "--json").stdout)
    chances = [Fraction(s["decimal"]) for s in twenty["win_probabilities"]]
    assert len(chances) == MAX_PLAYERS == 20 and chances == sorted(chances, reverse=True)
    bounds = sum(Fraction(s["error_bound"]) for s in twenty["win_probabilities"])
    assert abs(sum(chances) - 1) <= bounds < Fraction(1, 10**35)
    twelve = json.loads(_chutes("solve", "classic", "--positions", ",".join(map(str, CLASS)), "--json").stdout)
    assert [s["square"] for s in twelve["win_probabilities"]] == CLASS
    for bad in (("--players", "21"), ("--positions", ",".join(["0"] * 21)), ("--players", "3", "--positions", "0,0"),
                ("--positions", "0,48")):
        failed = _chutes("solve", "classic", *bad)
        assert failed.returncode == 2 and len(failed.stderr.strip().splitlines()) == 1, failed.stderr


def _three_player_exact(b) -> list[Fraction]:
    """Each seat's chance to win, three players from the start, by one exact linear solve over the states
    (squares of the three players, whose turn), roll by roll (a roll-again face keeps the turn)."""
    first = (b.start,) * 3 + (0,)
    index, todo = {first: 0}, [first]
    moves = []  # per state: its index and, per roll, (the seat that wins or -1, the next state or None)
    while todo:
        state = todo.pop()
        *squares, turn = state
        out = []
        for roll in range(1, b.die + 1):
            nxt = b.move(squares[turn], roll)
            if nxt == b.squares:
                out.append((turn, None))
                continue
            after = list(squares)
            after[turn] = nxt
            following = (*after, turn if roll == b.roll_again_on else (turn + 1) % 3)
            if following not in index:
                index[following] = len(index)
                todo.append(following)
            out.append((-1, index[following]))
        moves.append((index[state], out))
    n = len(index)
    system = [[0] * n for _ in range(n)]
    rhs = [[0] * 3 for _ in range(n)]
    for i, out in moves:
        system[i][i] += b.die
        for seat, j in out:
            if j is None:
                rhs[i][seat] += 1
            else:
                system[i][j] -= 1
    solution = fmpq_mat(n, n, [x for row in system for x in row]).solve(
        fmpq_mat(n, 3, [x for row in rhs for x in row]))
    return [Fraction(int(solution[0, k].p), int(solution[0, k].q)) for k in range(3)]


SMALL_BOARDS = {
    "stay": dict(squares=8, die=4, overshoot="stay", ladders=[[2, 5]], chutes=[[7, 3]]),
    "bounce": dict(squares=7, die=3, overshoot="bounce", ladders=[[1, 4]], chutes=[[6, 2]]),
    "pass": dict(squares=8, die=6, overshoot="pass", ladders=[[3, 6]], chutes=[[5, 1]]),
    "roll-again": dict(squares=7, die=4, overshoot="stay", roll_again_on=4, ladders=[[2, 5]], chutes=[[6, 1]]),
    "roll-again-bounce": dict(squares=6, die=3, overshoot="bounce", roll_again_on=3, ladders=[], chutes=[[5, 2]]),
}


def _within(entry: dict, exact: Fraction) -> bool:
    """Whether `exact` lies within the printed error bound of the printed decimal."""
    return abs(Fraction(entry["decimal"]) - exact) <= Fraction(entry["error_bound"])


@pytest.mark.parametrize("name", SMALL_BOARDS)
def test_three_players_printed_decimal_is_within_error_bound_of_exact_value(name: str) -> None:
    b = board_from_mapping(dict(title=name, source="test", **SMALL_BOARDS[name]), "test")
    exact = _three_player_exact(b)
    assert sum(exact) == 1
    c = turn_chain(b)
    for digits in (18, 25, 31, DIGITS):  # each board has some precision where the old bound (the radius) fell short
        result = race(c, [b.start] * 3, digits)
        for w, x in zip(result.wins, exact):
            assert w.ball.contains(_exact_ball(x))
            entry = w.json(digits)
            assert entry["exact"] is False and _within(entry, x), (name, digits, entry, float(x))
        for entry, x in zip(seat_chances(c, 3, digits), exact):
            assert _within(entry, x), (name, digits, entry, float(x))


def _exact(x: arb) -> Fraction:
    """An exact arb (a midpoint or a radius) as a Fraction."""
    man, exp = (int(n) for n in x.man_exp())
    return Fraction(man) * Fraction(2) ** exp


def test_classic_three_players_printed_decimal_is_within_error_bound_of_a_finer_run() -> None:
    """The printed decimal is a rounded midpoint: its error bound must cover the rounding too (it once did not)."""
    c = chain("classic")
    fine = race(c, [0, 0, 0], digits=60).wins
    for entry, w in zip(seat_chances(c, 3), fine):
        assert abs(Fraction(entry["decimal"]) - _exact(w.ball.mid())) <= (
            Fraction(entry["error_bound"]) - _exact(w.ball.rad())), entry


def test_rounds_until_someone_wins() -> None:
    from chutes.compute.solve.races import rounds_quantile

    c = chain("classic")
    dist = c.distribution
    for players in (1, 2, 3, 4):
        for q in (Fraction(1, 2), Fraction(9, 10)):
            n = rounds_quantile(c, players, q)
            over = [1 - (1 - dist.cdf(k)) ** players for k in (n - 1, n)]
            assert over[0] < q <= over[1], (players, q, n)
    assert rounds_quantile(c, 1, Fraction(1, 2)) == 33, "one player: the median game"
    assert [rounds_quantile(c, n, Fraction(1, 2)) for n in (2, 3, 4)] == [23, 20, 18]


def _same(a: Race, b: Race) -> None:
    """Two certified results agree: overlapping balls, and the same published decimals and bounds."""
    for x, y in zip(a.wins + (a.rounds,), b.wins + (b.rounds,)):
        assert x.ball.overlaps(y.ball)
        assert x.json() == y.json()


@pytest.mark.parametrize("slug, square", [("classic", 0), ("classic", 40), ("tiny", 0),
                                          pytest.param("noordenbos", 0, marks=pytest.mark.slow)])
@pytest.mark.parametrize("per_entry", [0, 10**9])
def test_races_together_agree_with_the_vector_iteration(slug: str, square: int, per_entry: int,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Both sources of `races_together` (exact power-series terms, forced by a huge BITS_PER_ENTRY, and the
    ball vector, forced by 0) give what the general race gives, for 1 to 8 players and the most allowed on one
    square."""
    c = chain(slug)
    monkeypatch.setattr(seats_module, "BITS_PER_ENTRY", per_entry)
    together = races_together(c, square, [*range(1, 9), MAX_PLAYERS])
    with seats_module._precision(DIGITS):
        for n, result in together.items():
            _same(result, seats_module._race(c, (square,) * n, DIGITS))
    assert [w.json() for w in race(c, [square] * 3).wins] == [w.json() for w in together[3].wins]


@pytest.mark.parametrize("slug, square", [("classic", 0), ("noordenbos", 0), ("uk", 30)])
def test_the_finishing_recurrence_continues_the_matrix_powers(slug: str, square: int) -> None:
    """The power series gives eᵢᵀMˡf exactly, far beyond the 2d terms it is built from (and across a doubling)."""
    c = chain(slug)
    i = c.index[square]
    terms = 9 * c.size
    assert list(islice(numerators(finishing(c, i)), terms)) == krylov(c, i, list(c.finish), terms)


def test_a_large_state_map_is_an_even_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    c = chain("classic")
    monkeypatch.setattr(record_build, "STATE_MAP_SQUARES", 10)
    shown = players_record(c)["state_map"]
    assert len(shown["squares"]) == 10 and shown["squares"][0] == c.states[0] and shown["squares"][-1] == c.states[-1]
    gaps = np.diff([c.index[q] for q in shown["squares"]])
    assert gaps.max() - gaps.min() <= 1
    squares, wins = shown["squares"], shown["mover_wins"]
    for n in range(len(squares)):  # the diagonal and the other one, against the exact chances
        for m in (n, len(squares) - 1 - n):
            assert wins[n][m] == pytest.approx(float(pair_wins(c, squares[n], squares[m])), rel=1e-5)
