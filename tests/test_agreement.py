"""Exact, double-precision and simulated results agree on every bundled board.

Tolerances: exact vs float to 1e-12 relative (the series' rounding bound is below 10⁻¹¹ on these boards);
simulation within its 95% interval widened to 4.5 standard errors (the chance that a correct value falls outside
is below 1e-5 per check).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers import BUNDLED, board, chain

from chutes.compute.solve.exact import distribution, expected_turns
from chutes.compute.solve.simulate import first_player_share, game_lengths, mean_turns, two_player_games
from chutes.compute.solve.twoplayer import first_player_wins, pair_wins

WIDEN = 4.5 / 1.959963984540054


@pytest.mark.parametrize("slug", BUNDLED)
def test_expected_turns_exact_vs_float(slug):
    c = chain(slug)
    exact = np.array([float(x) for x in expected_turns(c)])
    assert np.allclose(exact, c.expected_turns_float, rtol=1e-12, atol=0)


@pytest.mark.parametrize("slug", BUNDLED)
def test_first_player_exact_vs_series(slug):
    c = chain(slug)
    assert math.isclose(float(first_player_wins(c)), c.first_player_float, rel_tol=1e-12)


@pytest.mark.parametrize("slug", BUNDLED)
def test_distribution_adds_up_to_the_mean(slug):
    """Σ k·P(T = k) over the exact part falls short of the exact mean by E[T; T > n], which lies between
    (n + 1)·P(T > n) and P(T > n)·(n + the longest expected game from any state)."""
    c = chain(slug)
    dist = distribution(c)
    n, tail = dist.terms, dist.exact_tail
    short = expected_turns(c)[c.start] - sum(k * p for k, p in enumerate(dist.exact, start=1))
    assert (n + 1) * tail <= short <= tail * (n + max(expected_turns(c)))


def test_pair_matrix_exact_vs_series():
    c = chain("classic")
    picks = [i for i, j in [(0, 0), (99, 99), (80 - 1, 30), (50, 97)] for i in (i, j) if i in c.index]
    W = c.floats.series([c.index[q] for q in picks]).pairs
    where = {q: n for n, q in enumerate(picks)}
    for i, j in [(0, 0), (99, 99), (80 - 1, 30), (50, 97)]:
        if i in c.index and j in c.index:
            assert math.isclose(float(pair_wins(c, i, j)), W[where[i], where[j]], rel_tol=1e-12)


@pytest.mark.parametrize("slug", BUNDLED)
def test_simulation_agrees(slug):
    """The exact mean and first player's chance within 4.5 standard errors of 250,000 simulated games of another
    seed than the records' (whose own check, with a million games, the build enforces)."""
    c = chain(slug)
    first, second = two_player_games(c.board, 250_000, seed=2024)  # as played: with a choice, its best play
    mean = mean_turns(first)
    exact_mean = float(expected_turns(c)[c.start])
    half = (mean.high - mean.low) / 2 * WIDEN
    assert abs(mean.value - exact_mean) <= half
    share = first_player_share(first, second)
    exact_share = float(first_player_wins(c))
    half = (share.high - share.low) / 2 * WIDEN
    assert abs(share.value - exact_share) <= half


def test_simulated_distribution_matches_exact():
    c = chain("classic")
    lengths = game_lengths(board("classic"), 2_000_000, seed=7)
    pmf = distribution(c).pmf_float
    counts = np.bincount(lengths, minlength=60)
    for k in (7, 8, 9, 22, 33, 50):
        p = pmf[k - 1]
        se = math.sqrt(p * (1 - p) / len(lengths))
        assert abs(counts[k] / len(lengths) - p) <= 4.5 * se


def test_simulation_is_reproducible():
    b = board("noordenbos")
    assert np.array_equal(game_lengths(b, 100_000, seed=5), game_lengths(b, 100_000, seed=5))
    assert not np.array_equal(game_lengths(b, 100_000, seed=5), game_lengths(b, 100_000, seed=6))


@pytest.mark.parametrize("weights", [[1, 2, 3, 4, 5, 30], [100, 200, 300, 400, 500, 3000]])
def test_weighted_faces_simulate_alike_from_the_table_and_by_search(weights):
    """The simulation reads a face from a table up to FACE_TABLE of total weight and searches the faces above it:
    a spinner heavy on 6 is simulated both ways (its total on either side of the threshold), and the mean of
    200,000 games falls within 4.5 standard errors of the exact expected turns each time."""
    from chutes.compute.board.file import board_from_mapping
    from chutes.compute.solve._games import FACE_TABLE
    from chutes.compute.solve.chain import turn_chain

    b = board_from_mapping({"title": "heavy six", "squares": 40, "die": 6, "weights": weights, "overshoot": "pass",
                            "ladders": [[4, 17]], "chutes": [[33, 8], [25, 3]]}, "heavy.toml")
    assert (sum(weights) > FACE_TABLE) == (weights[0] == 100)
    c = turn_chain(b)
    mean = mean_turns(game_lengths(b, 200_000, seed=99))
    assert abs(mean.value - float(expected_turns(c)[c.start])) <= (mean.high - mean.low) / 2 * WIDEN
