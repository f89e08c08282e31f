"""The exact turn-to-turn Markov chain of one player on a board, and everything derived from it.

States are the squares where a turn can start (every square that is not the foot of a jump and not
the last square; squares from which the game could fail to end are left out). The chain is kept as
an integer matrix `M` with a common scale `s`, so that Q = M / s exactly. With a roll-again rule a turn
is itself a chain of rolls: with A the single rolls that end the turn and B those that continue it,
the turn matrix is Q = (I − B)⁻¹A, exactly.

Like QuantEcon's `MarkovChain`, a `TurnChain` computes each derived quantity once, when first asked
(cached properties): expected turns and visits, moments, the game-length distribution, the first
player's chance, and their double-precision cross-checks. The functions doing the work live in
`compute.solve.exact`, `compute.solve.twoplayer` and `compute.solve.floats`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from math import lcm

import numpy as np
from flint import fmpq, fmpq_mat, fmpz_mat

from ..board.model import Board
from ..board.reach import doomed_squares, roll_squares
from . import exact, floats, twoplayer
from .integer import IntegerChain


@dataclass(frozen=True)
class TurnChain(IntegerChain):
    """A board's turn chain: its integers (`IntegerChain`, what the algorithms take) with the board they
    came from, and every result derived from them, each computed once when first asked."""

    board: Board

    # --- derived quantities, each computed once ------------------------------------------------------

    @cached_property
    def expected_turns(self) -> list[Fraction]:
        """Expected turns to finish from each state, exactly: t = (I − Q)⁻¹·1 (`exact.expected_turns`)."""
        return exact.expected_turns(self)

    @cached_property
    def expected_visits(self) -> list[Fraction]:
        """Expected turns begun on each state in one game from the start (`exact.expected_visits`)."""
        return exact.expected_visits(self)

    @cached_property
    def moments(self) -> tuple[Fraction, Fraction]:
        """Exact mean and variance of the game length from the start (`exact.moments`)."""
        return exact.moments(self, self.expected_turns)

    @cached_property
    def distribution(self) -> exact.Distribution:
        """The game-length distribution from the start, exact as far as it is kept (`exact.distribution`)."""
        return exact.distribution(self)

    @cached_property
    def first_player_wins(self) -> Fraction:
        """The exact chance that the first of two players wins (`twoplayer.first_player_wins`)."""
        return twoplayer.first_player_wins(self)

    @cached_property
    def expected_turns_float(self) -> np.ndarray:
        """Expected turns from each state by double-precision LU (`floats.expected_turns_float`)."""
        return floats.expected_turns_float(self)

    @cached_property
    def pair_matrix_float(self) -> np.ndarray:
        """W[i, j] = P(player to move on i beats the one on j), in double precision (`floats.pair_matrix_float`)."""
        return floats.pair_matrix_float(self)

    @property
    def first_player_float(self) -> float:
        """The first player's chance in double precision (the start's diagonal entry of W)."""
        return float(self.pair_matrix_float[self.start, self.start])


def safe_squares(board: Board) -> tuple[int, ...]:
    """Squares where a turn can start and from which the game ends with probability one."""
    doomed = doomed_squares(board)
    return tuple(s for s in roll_squares(board) if s not in doomed)


def roll_matrices(board: Board, states: tuple[int, ...], index: dict[int, int]):
    """Single-roll counts: ending the turn (A, a_fin) and continuing it (B), each over `die`."""
    d = len(states)
    A = [[0] * d for _ in range(d)]
    B = [[0] * d for _ in range(d)]
    a_fin = [0] * d
    for i, square in enumerate(states):
        for roll in range(1, board.die + 1):
            nxt = board.move(square, roll)
            if nxt == board.squares:
                a_fin[i] += 1
            elif roll == board.roll_again_on:
                B[i][index[nxt]] += 1
            else:
                A[i][index[nxt]] += 1
    return A, B, a_fin


@lru_cache(maxsize=16)
def turn_chain(board: Board) -> TurnChain:
    """The exact turn chain of a validated board; the same object for the same board, so that every
    consumer (results, charts, checks, players, experiments) shares its cached quantities."""
    states = safe_squares(board)
    index = {s: i for i, s in enumerate(states)}
    d = len(states)
    A, B, a_fin = roll_matrices(board, states, index)
    if board.roll_again_on is None:
        return TurnChain(states=states, scale=board.die, M=fmpz_mat(A), finish=tuple(a_fin), index=index,
                         start=index[board.start], board=board)
    die = board.die
    I_minus_B = fmpq_mat(d, d, [fmpq(int(i == j)) - fmpq(B[i][j], die) for i in range(d) for j in range(d)])
    rhs = fmpq_mat(d, d + 1, [fmpq(x, die) for i in range(d) for x in A[i] + [a_fin[i]]])
    turn = I_minus_B.solve(rhs)
    entries = turn.entries()
    scale = lcm(*(int(x.q) for x in entries))
    ints = [int(x.p) * (scale // int(x.q)) for x in entries]
    M = fmpz_mat(d, d, [ints[i * (d + 1) + j] for i in range(d) for j in range(d)])
    finish = tuple(ints[i * (d + 1) + d] for i in range(d))
    return TurnChain(states=states, scale=scale, M=M, finish=finish, index=index, start=index[board.start],
                     board=board)
