"""The fast exact two-player method against a direct exact solve of the pair system (as in RobinFiveWords' post)."""

from __future__ import annotations

from fractions import Fraction

from flint import fmpq, fmpq_mat
from helpers import chain
from hypothesis import HealthCheck, given, settings
from strategies import boards

from chutes.compute.solve.chain import TurnChain, turn_chain
from chutes.compute.solve.twoplayer import first_player_wins, pair_wins


def direct_pair_solve(c: TurnChain) -> dict[tuple[int, int], Fraction]:
    """P(i, j) for every pair by solving the pair system exactly.

    P(i, j) = r_i + Σ_k Q_ik (1 - P(j, k)): the player to move on i either finishes now or moves to k,
    after which the opponent (on j) is the player to move.
    """
    d = c.size
    Q = c.Q_exact()
    r = [fmpq(f, c.scale) for f in c.finish]
    n = d * d
    A = [[fmpq(0)] * n for _ in range(n)]
    b = [fmpq(0)] * n
    for i in range(d):
        for j in range(d):
            row = i * d + j
            A[row][row] += 1
            b[row] = r[i]
            for k in range(d):
                q = Q[i, k]
                if q:
                    b[row] += q
                    A[row][j * d + k] += q
    X = fmpq_mat(n, n, [x for line in A for x in line]).solve(fmpq_mat(n, 1, b))
    return {(c.states[i], c.states[j]): Fraction(int(X[i * d + j, 0].p), int(X[i * d + j, 0].q))
            for i in range(d) for j in range(d)}


def test_tiny_board_every_pair():
    c = chain("tiny")
    direct = direct_pair_solve(c)
    assert direct[(0, 0)] == first_player_wins(c)
    for (i, j), value in direct.items():
        assert pair_wins(c, i, j) == value


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(boards(min_squares=4, max_squares=13))
def test_random_boards_fast_equals_direct(board):
    c = turn_chain(board)
    direct = direct_pair_solve(c)
    start = board.start
    assert first_player_wins(c) == direct[(start, start)]
    last_state = c.states[-1]
    assert pair_wins(c, last_state, start) == direct[(last_state, start)]
    assert pair_wins(c, start, last_state) == direct[(start, last_state)]
