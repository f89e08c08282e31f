"""Exact one-player results: expected turns, visits, jump use, the game-length distribution.

Every value here is an exact rational (`fractions.Fraction`) computed with integer or python-flint
rational arithmetic; floats appear only in the tail of the distribution kept for charts.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import islice
from math import lcm
from typing import TYPE_CHECKING

import numpy as np
from flint import fmpq, fmpq_mat, fmpz_mat

from compute.rules import roll_landing

if TYPE_CHECKING:  # the chain calls these functions for its cached properties
    from compute.chain import TurnChain

EXACT_TAIL = Fraction(1, 10**30)
"""The distribution is kept exact until the probability of a longer game falls below this..."""
EXACT_BITS = 40_000
"""...or until the common denominator of the terms passes this many bits (roll-again boards, whose
exact terms grow by tens of bits a turn; the bounds and quartiles need far fewer terms)."""
FLOAT_TAIL = 1e-15
"""Past the exact part, float terms are kept (for charts) until the tail falls below this."""
MAX_TERMS = 100_000


def _fraction(x: fmpq) -> Fraction:
    return Fraction(int(x.p), int(x.q))


def _solve(chain: TurnChain, rhs: list[list[int | Fraction]], transpose: bool = False) -> list[list[Fraction]]:
    """Solve (sI - M) X = rhs (or its transpose) exactly; columns of X returned as lists."""
    d, s = chain.size, chain.scale
    A = fmpz_mat(d, d, [s * (i == j) - int(chain.M[i, j]) for i in range(d) for j in range(d)])
    if transpose:
        A = A.transpose()
    cols = len(rhs)
    B = fmpq_mat(d, cols, [fmpq(Fraction(rhs[c][i]).numerator, Fraction(rhs[c][i]).denominator)
                           for i in range(d) for c in range(cols)])
    X = fmpq_mat(A).solve(B)
    return [[_fraction(X[i, c]) for i in range(d)] for c in range(cols)]


def expected_turns(chain: TurnChain) -> list[Fraction]:
    """Expected number of turns to finish from each state: t = (I - Q)⁻¹·1."""
    return _solve(chain, [[chain.scale] * chain.size])[0]


def expected_visits(chain: TurnChain) -> list[Fraction]:
    """Expected number of turns started on each state in one game from the start (row of (I - Q)⁻¹)."""
    e = [0] * chain.size
    e[chain.start] = chain.scale
    return _solve(chain, [e], transpose=True)[0]


def moments(chain: TurnChain, turns: list[Fraction] | None = None) -> tuple[Fraction, Fraction]:
    """Exact mean and variance of the game length from the start."""
    t = turns or expected_turns(chain)
    n_t = _solve(chain, [[x * chain.scale for x in t]])[0]
    mean = t[chain.start]
    second = 2 * n_t[chain.start] - mean
    return mean, second - mean * mean


def roll_visits(chain: TurnChain) -> list[Fraction]:
    """Expected number of rolls made from each state in one game (differs from turns with roll-again)."""
    board = chain.board
    if board.roll_again_on is None:
        return expected_visits(chain)
    d = chain.size
    die = board.die
    P = [[0] * d for _ in range(d)]
    for i, square in enumerate(chain.states):
        for roll in range(1, die + 1):
            nxt = board.move(square, roll)
            if nxt != board.squares:
                P[i][chain.index[nxt]] += 1
    A = fmpz_mat(d, d, [die * (i == j) - P[i][j] for i in range(d) for j in range(d)]).transpose()
    e = fmpq_mat(d, 1, [die * (i == chain.start) for i in range(d)])
    X = fmpq_mat(A).solve(e)
    return [_fraction(X[i, 0]) for i in range(d)]


def jump_usage(chain: TurnChain) -> dict[tuple[int, int], Fraction]:
    """Expected number of times each chute or ladder is taken in one game."""
    board = chain.board
    rolls = roll_visits(chain)
    usage = {(a, b): Fraction(0) for a, b in board.jumps.items()}
    for i, square in enumerate(chain.states):
        if not rolls[i]:
            continue
        for roll in range(1, board.die + 1):
            landing = roll_landing(board.squares, board.overshoot, square, roll)
            if landing in board.jumps:
                usage[(landing, board.jumps[landing])] += rolls[i] / board.die
    return usage


@dataclass(frozen=True)
class Distribution:
    """P(T = k) for k = 1, 2, ...: exact while the tail is ≥ 1e-30 (and within EXACT_BITS), floats after."""

    exact: tuple[Fraction, ...]
    tail_floats: tuple[float, ...]
    exact_tail: Fraction

    @property
    def pmf_float(self) -> list[float]:
        """Every term as a float, exact part first."""
        return [float(p) for p in self.exact] + list(self.tail_floats)

    def cdf(self, k: int) -> Fraction:
        """P(T ≤ k) exactly (k within the exact part)."""
        if k > len(self.exact):
            raise ValueError(f"P(T ≤ {k}) lies beyond the exact part ({len(self.exact)} terms)")
        return sum(self.exact[:k], Fraction(0))

    def quantile(self, q: Fraction) -> int:
        """Smallest k with P(T ≤ k) ≥ q."""
        total = Fraction(0)
        for k, p in enumerate(self.exact, start=1):
            total += p
            if total >= q:
                return k
        raise ValueError(f"quantile {q} lies beyond the exact part of the distribution")

    def mode(self) -> int:
        """The most likely game length (the smallest, if several tie)."""
        best = max(self.exact)
        return self.exact.index(best) + 1

    def shortest(self) -> int:
        """The smallest k with P(T = k) > 0."""
        return next(k for k, p in enumerate(self.exact, start=1) if p)


def distribution(chain: TurnChain, exact_tail: Fraction = EXACT_TAIL, float_tail: float = FLOAT_TAIL,
                 exact_bits: int = EXACT_BITS, max_terms: int = MAX_TERMS) -> Distribution:
    """The game-length distribution from the start, by integer vector iteration (no rounding): at most
    `max_terms` exact terms, fewer once the tail is below `exact_tail` or the denominators pass `exact_bits`."""
    s = chain.scale
    finish = chain.finish
    vector = [0] * chain.size
    vector[chain.start] = 1
    exact: list[Fraction] = []
    power = 1
    while True:
        power *= s
        exact.append(Fraction(sum(v * f for v, f in zip(vector, finish) if v), power))
        vector = chain.step(vector)
        alive = sum(vector)
        if (alive * exact_tail.denominator < power * exact_tail.numerator or len(exact) >= max_terms
                or power.bit_length() > exact_bits):
            break
    remaining = Fraction(alive, power)
    floats: list[float] = []
    if remaining > 0 and float_tail > 0:
        Q, r = chain.Q_float, chain.r_float
        x = np.array([float(Fraction(v, power)) for v in vector])
        while x.sum() >= float_tail and len(exact) + len(floats) < MAX_TERMS:
            floats.append(float(x @ r))
            x = x @ Q
    return Distribution(tuple(exact), tuple(floats), remaining)


def bound_terms(dist: Distribution) -> Iterator[tuple[int, int, int]]:
    """For n = 1, 2, … over the exact part: (Σ_{k≤n} a_k², 1 − Σ_{k≤n} a_k, 1) all times one common scale D,
    as integers (D, then the two numerators): the lower bound on the first player's chance after n turns is
    ½ + ½·squares/D², the upper bound adds ½·rest²/D². Integers over one scale: no gcd per term."""
    scale = lcm(1, *(p.denominator for p in dist.exact))
    squares = cumulative = 0
    for p in dist.exact:
        a = p.numerator * (scale // p.denominator)
        squares += a * a
        cumulative += a
        yield scale, squares, scale - cumulative


def bounds(dist: Distribution, n: int) -> tuple[Fraction, Fraction]:
    """The exact lower and upper bounds on the first player's chance after n turns (after all the exact
    terms if n goes beyond them: bounds from fewer turns are still bounds, only looser)."""
    if n < 1:
        raise ValueError(f"bounds after {n} turns: n must be at least 1")
    scale, squares, rest = next(islice(bound_terms(dist), min(n, len(dist.exact)) - 1, None))
    lower = Fraction(1, 2) + Fraction(squares, 2 * scale * scale)
    return lower, lower + Fraction(rest * rest, 2 * scale * scale)


@dataclass(frozen=True)
class ShortestGame:
    """A fastest possible game: its number of turns and one sequence of rolls achieving it."""

    turns: int
    rolls: tuple[int, ...]
    squares: tuple[int, ...]
    path_probability: Fraction


def shortest_game(chain: TurnChain) -> ShortestGame:
    """Fewest turns to finish, with one shortest roll sequence (0-1 BFS over rolls)."""
    board = chain.board
    best: dict[int, tuple[int, int]] = {board.start: (0, 0)}
    parent: dict[int, tuple[int, int]] = {}
    queue: deque[int] = deque([board.start])
    done: set[int] = set()
    while queue:
        square = queue.popleft()
        if square in done:
            continue
        done.add(square)
        turns, rolls = best[square]
        for roll in range(1, board.die + 1):
            nxt = board.move(square, roll)
            extra = 0 if (roll == board.roll_again_on and nxt != board.squares) else 1
            cand = (turns + extra, rolls + 1)
            if nxt not in best or cand < best[nxt]:
                best[nxt] = cand
                parent[nxt] = (square, roll)
                if nxt != board.squares:
                    (queue.appendleft if extra == 0 else queue.append)(nxt)
    path_rolls: list[int] = []
    path_squares = [board.squares]
    square = board.squares
    while square != board.start:
        square, roll = parent[square]
        path_rolls.append(roll)
        path_squares.append(square)
    path_rolls.reverse()
    path_squares.reverse()
    return ShortestGame(best[board.squares][0], tuple(path_rolls), tuple(path_squares),
                        Fraction(1, board.die ** len(path_rolls)))
