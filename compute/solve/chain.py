"""The exact turn-to-turn Markov chain of one player on a board, and everything derived from it.

States are the squares where a turn can start (every square that is not the foot of a jump and not
the last square; squares from which the game could fail to end are left out). The chain is kept as
an integer matrix `M` with a common scale `s`, so that Q = M / s exactly. With a roll-again rule a turn
is itself a chain of rolls: with A the single rolls that end the turn and B those that continue it,
the turn matrix is Q = (I − B)⁻¹A, exactly.

Like QuantEcon's `MarkovChain`, a `TurnChain` computes each derived quantity once, when first asked
(cached properties): expected turns and visits, moments, the game-length distribution, the first
player's chance, and their double-precision cross-checks. The functions doing the work live in
`compute.solve.exact`, `compute.solve.twoplayer`, `compute.solve.threeplayer` and `compute.solve.floats`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from math import gcd
from typing import TYPE_CHECKING, cast

from flint import fmpq_mat, fmpz_mat

from ..board.model import Board
from ..board.reach import doomed_squares, passed_squares, roll_squares, turn_levels
from . import exact, landing, recurrence, threeplayer, twoplayer
from .integer import IntegerChain

if TYPE_CHECKING:
    import numpy as np

    from .floats import FloatChain


@dataclass(frozen=True)
class RollCounts:
    """One roll from each state, as whole-number weights out of `weight`: rolls that end the turn on a state
    (`ends`, A), rolls of `roll_again_on` that go on to another roll (`again`, B), rolls that win (`finish`,
    a) and those of them not of `roll_again_on` (`finish_plain`, a'), and the weight of `roll_again_on`
    itself (`penalty`: the chance of a penalty roll once a roll-again limit is reached, 0 without a rule)."""

    weight: int
    ends: list[list[int]]
    again: list[list[int]]
    finish: list[int]
    finish_plain: list[int]
    penalty: int


@dataclass(frozen=True)
class TurnChain(IntegerChain):
    """A board's turn chain: its integers (`IntegerChain`, what the algorithms take) with the board they
    came from, and every result derived from them, each computed once when first asked. `rolls`: the single
    rolls from each state, then from each square a turn passes without beginning there (`passed`)."""

    board: Board
    passed: tuple[int, ...]
    rolls: RollCounts

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
    def finishing(self) -> recurrence.Finishing:
        """The chance of finishing at each turn from the start as a linear recurrence (`recurrence.finishing`):
        the first player's chance reads it, and the length distribution too where the matrix is dense."""
        return recurrence.finishing(self, self.start)

    @cached_property
    def distribution(self) -> exact.Distribution:
        """The game-length distribution from the start, exact as far as it is kept (`exact.distribution`)."""
        return exact.distribution(self, self.finishing if exact.by_series(self) else None)

    @cached_property
    def landing_chances(self) -> dict[int, Fraction] | None:
        """The chance that a game lands on each square 1..last by a roll at least once, exactly (None on a board
        too large for it: `landing.landing_chances`)."""
        return landing.landing_chances(self.board)

    @cached_property
    def first_player_wins(self) -> Fraction:
        """The exact chance that the first of two players wins (`twoplayer.first_player_wins`)."""
        return twoplayer.first_player_wins(self, found=self.finishing)

    @cached_property
    def first_of_three_seconds(self) -> float:
        """About the CPU seconds the first of three players' exact chance takes (`threeplayer.estimated_seconds`)."""
        return threeplayer.estimated_seconds(self)

    @cached_property
    def first_of_three_wins(self) -> Fraction:
        """The exact chance that the first of three players wins (`threeplayer.first_of_three_wins`); it may take
        long: see `first_of_three_seconds`."""
        return threeplayer.first_of_three_wins(self)

    @cached_property
    def floats(self) -> FloatChain:
        """The chain in double precision, computed in a fixed order (`floats.FloatChain`): the same floats on any
        processor."""
        from .floats import FloatChain  # numpy and Numba: imported only when floats are asked for

        return FloatChain(self)

    @property
    def expected_turns_float(self) -> np.ndarray:
        """Expected turns from each state in double precision, by the Neumann series (`floats.FloatChain`)."""
        return self.floats.start_series.expected_turns

    @property
    def first_player_float(self) -> float:
        """The first player's chance in double precision, by the same series."""
        return float(self.floats.start_series.pairs[0, 0])


def safe_squares(board: Board) -> tuple[int, ...]:
    """Squares where a turn can start and from which the game ends with probability one."""
    doomed = doomed_squares(board)
    return tuple(s for s in roll_squares(board) if s not in doomed)


def roll_counts(board: Board, states: tuple[int, ...], index: dict[int, int]) -> RollCounts:
    """The single rolls of `board` from each of `states` (`index`: the row of each square). A roll to a square
    without a row is left out: only a square passed partway through a turn (`reach.passed_squares`) has such
    rolls, and no turn begun on a state makes them (else its row would not add up: `exact.distribution`
    checks that every row of a turn does)."""
    d = len(states)
    A = [[0] * d for _ in range(d)]
    B = [[0] * d for _ in range(d)]
    finish, plain = [0] * d, [0] * d
    never_moved = board.roll_again_on if board.roll_again_limit == 0 else None  # always a penalty roll
    for i, square in enumerate(states):
        for roll, weight, _, nxt in board.outcomes(square):
            if roll == never_moved:
                continue
            if nxt == board.squares:
                finish[i] += weight
                plain[i] += weight if roll != board.roll_again_on else 0
            elif nxt not in index:
                continue
            elif roll == board.roll_again_on:
                B[i][index[nxt]] += weight
            else:
                A[i][index[nxt]] += weight
    penalty = dict(board.rolls).get(board.roll_again_on, 0) if board.roll_again_on is not None else 0  # no choice
    return RollCounts(board.roll_weight, A, B, finish, plain, penalty)


def _unlimited_turn(rolls: RollCounts) -> tuple[int, fmpz_mat, tuple[int, ...]]:
    """Roll again without a limit: a turn is a chain of rolls, Q = (I − B)⁻¹A and r = (I − B)⁻¹a exactly
    (B, A, a over the roll's weight w, so that Q = (wI − wB)⁻¹·wA in integers); the scale is the least common
    denominator of the entries (FLINT's `numer_denom`)."""
    d, w = len(rolls.finish), rolls.weight
    K = fmpz_mat([[w * (i == j) - rolls.again[i][j] for j in range(d)] for i in range(d)])
    solution = cast(fmpq_mat, K.solve(fmpz_mat([rolls.ends[i] + [rolls.finish[i]] for i in range(d)])))
    numerators, scale = solution.numer_denom()
    rows = numerators.tolist()
    return int(scale), fmpz_mat([row[:d] for row in rows]), tuple(int(row[d]) for row in rows)


def _limited_turn(rolls: RollCounts, limit: int, target: int | None, d: int) -> tuple[int, fmpz_mat, tuple[int, ...]]:
    """Roll again at most `limit` times: the turn is a finite sum over its roll paths. With W the roll's
    weight and L the limit, W^(L+1)·Q = Σ_{k≤L} W^(L−k)·Bᵏ·A + p·(Bᴸ1) on the penalty's state and
    W^(L+1)·r = Σ_{k<L} W^(L−k)·Bᵏ·a + Bᴸ·a': the (L+1)-th roll moves unless it is `roll_again_on` (weight
    p), which is not moved and sends the token to `target` (a state index), or back to the state where the
    turn began when `target` is None. Each row is followed through B's few nonzeros, in integers. The rows of
    `rolls` are the d states, then the squares a turn passes (rows only: no turn begins or ends there)."""
    w = rolls.weight
    ends = [[(j, x) for j, x in enumerate(row) if x] for row in rolls.ends]
    again = [[(j, x) for j, x in enumerate(row) if x] for row in rolls.again]
    M = [[0] * d for _ in range(d)]
    finish = [0] * d
    for i in range(d):
        here = {i: 1}  # Bᵏ's row i: the weight of reaching each state by k rolls of `roll_again_on`
        for k in range(limit + 1):
            factor = w ** (limit - k)
            last = k == limit
            for state, x in here.items():
                for j, y in ends[state]:
                    M[i][j] += factor * x * y
                finish[i] += factor * x * (rolls.finish_plain if last else rolls.finish)[state]
                if last:
                    M[i][i if target is None else target] += x * rolls.penalty
            if not last:
                after: dict[int, int] = {}
                for state, x in here.items():
                    for j, y in again[state]:
                        after[j] = after.get(j, 0) + x * y
                here = after
    scale = w ** (limit + 1)
    common = gcd(scale, *finish, *(x for row in M for x in row))
    return scale // common, fmpz_mat([[x // common for x in row] for row in M]), tuple(x // common for x in finish)


def _played_limited_turn(board: Board, states: tuple[int, ...], index: dict[int, int], target: int | None
                         ) -> tuple[int, fmpz_mat, tuple[int, ...]]:
    """`_limited_turn` for a board with a choice, whose play may depend on the rolls so far in the turn and on the
    square where it began: each turn's roll paths followed level by level (`reach.turn_levels`), every roll as the
    play moves it there (`Board.outcomes_at`). W^(L+1)·Q sums, for the (k+1)-th roll, W^(L−k) times the weight of
    reaching it times its own; the (L+1)-th roll of `roll_again_on` is the penalty."""
    w, limit, again, last = board.roll_weight, board.roll_again_limit, board.roll_again_on, board.squares
    assert limit is not None, "a limited turn needs a roll-again limit"
    d = len(states)
    M = [[0] * d for _ in range(d)]
    finish = [0] * d
    for i, origin in enumerate(states):
        for k, level in enumerate(turn_levels(board, origin)):
            factor = w ** (limit - k)
            for here, x in level.items():
                for roll, weight, _, moved in board.outcomes_at(here, k, origin):
                    if roll == again and k == limit:
                        M[i][i if target is None else target] += x * weight
                    elif moved == last:
                        finish[i] += factor * x * weight
                    elif roll != again and moved in index:
                        M[i][index[moved]] += factor * x * weight
    scale = w ** (limit + 1)
    common = gcd(scale, *finish, *(x for row in M for x in row))
    return scale // common, fmpz_mat([[x // common for x in row] for row in M]), tuple(x // common for x in finish)


@lru_cache(maxsize=16)
def turn_chain(board: Board) -> TurnChain:
    """The exact turn chain of a validated board; the same object for the same board, so that every
    consumer (results, charts, checks, players, experiments) shares its cached quantities. A board with a choice
    and no flips given is played best (`strategy.best_play`): its chain's board is the board as played."""
    if board.choice is not None and not board.flips:
        from .strategy import best_play  # a choice is rare: its solver is loaded only for one

        played = best_play(board).board
        if played.flips:
            return turn_chain(played)
    states = safe_squares(board)
    index = {s: i for i, s in enumerate(states)}
    passed = passed_squares(board, states)  # the states, then (with a roll-again limit) squares a turn passes
    rolls = roll_counts(board, passed, {s: i for i, s in enumerate(passed)})
    if board.roll_again_on is None:
        scale, M, finish = rolls.weight, fmpz_mat(rolls.ends), tuple(rolls.finish)
    elif board.roll_again_limit is None:
        scale, M, finish = _unlimited_turn(rolls)
    else:
        # "start" sends a penalised token to square 0. Where square 0 is no state (it is doomed: a board with
        # another start), no turn begun on a state can end in a penalty, or that state would be doomed too.
        target = index.get(0) if board.penalty == "start" else None
        if board.choice is None:
            scale, M, finish = _limited_turn(rolls, board.roll_again_limit, target, len(states))
        else:
            scale, M, finish = _played_limited_turn(board, states, index, target)
    return TurnChain(states=states, scale=scale, M=M, finish=finish, index=index, start=index[board.start],
                     board=board, passed=passed, rolls=rolls)
