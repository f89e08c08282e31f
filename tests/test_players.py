"""Several players from any squares: seed 004's figures, exact two-player values, certified enclosures, simulation."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from conftest import board, chain
from flint import arb, ctx, fmpq

from compute.exact import expected_turns
from compute.players import position_chances, race, seat_chances
from compute.simulate import game_lengths
from compute.twoplayer import first_player_wins, pair_wins


def _exact_ball(x: Fraction) -> arb:
    """An exact rational as a ball at 2,000 bits (far tighter than any enclosure tested against it)."""
    old = ctx.prec
    ctx.prec = 2000
    try:
        return arb(fmpq(x.numerator, x.denominator))
    finally:
        ctx.prec = old


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
    assert Fraction(int(seats[0]["numerator"]), int(seats[0]["denominator"])) == first_player_wins(c)


@pytest.mark.parametrize("squares", [[0, 0, 0], [0] * 8, [5, 40, 77, 99]])
def test_certified_enclosures_contain_the_higher_precision_value(squares: list[int]) -> None:
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
    lengths = np.stack([game_lengths(b.replace(start=sq), games, seed + n) for n, sq in enumerate(squares)])
    wins = np.zeros(len(squares))
    for i in range(len(squares)):
        ok = np.ones(games, dtype=bool)
        for j in range(len(squares)):
            if j < i:
                ok &= lengths[i] < lengths[j]
            elif j > i:
                ok &= lengths[i] <= lengths[j]
        wins[i] = ok.mean()
    return wins, float(lengths.min(axis=0).mean())


@pytest.mark.parametrize("slug, squares", [("noordenbos", SEED_004[0]), ("classic", [0, 0, 0, 0]),
                                           ("classic-pass", [3, 50, 20])])
def test_agreement_with_simulation(slug: str, squares: list[int]) -> None:
    games = 400_000
    simulated, rounds = _simulated_winners(board(slug), squares, games, seed=11)
    result = race(chain(slug), squares)
    for p_sim, w in zip(simulated, result.wins):
        p = float(w)
        assert abs(p_sim - p) < 4.5 * math.sqrt(p * (1 - p) / games), (slug, p_sim, p)
    assert abs(rounds - float(result.rounds)) < 0.05 * float(result.rounds)


def _chutes(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from site_build.cli import entry; entry()", *args],
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
    for bad in (("--players", "9"), ("--positions", "0,0,0,0,0,0,0,0,0"), ("--players", "3", "--positions", "0,0"),
                ("--positions", "0,48")):
        failed = _chutes("solve", "classic", *bad)
        assert failed.returncode == 2 and len(failed.stderr.strip().splitlines()) == 1, failed.stderr
