"""Exact one-player results: expected turns, visits, jump use, the game-length distribution.

Every value here is an exact rational (`fractions.Fraction`) computed with integer or python-flint
rational arithmetic.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from itertools import islice

import gmpy2
from flint import fmpq, fmpq_mat, fmpz_mat

from .integer import IntegerChain
from .recurrence import Finishing, numerators

EXACT_TURNS = 700
"""The distribution's terms are kept exact for at least this many turns (the charts read at most 700 turns, the
bounds after 9, 100 and 500 turns and the shares of games over within 20, 50 and 100 turns are read from
them)..."""
DECIDED_QUANTILE = Fraction(39, 40)
"""...and until the 97.5th percentile (the highest reported, so every lower quantile too), the shortest
game and the mode are decided exactly (see `distribution`)."""
EXACT_TAIL = Fraction(1, 10**30)
"""The exact part ends before EXACT_TURNS if the probability of a longer game falls below this..."""
EXACT_BITS = 40_000
"""...or once the terms' denominator sᵏ passes this many bits (roll-again boards, whose exact terms grow by
tens of bits a turn), but never before every landmark above is decided."""
MAX_TERMS = 100_000


def fraction(x: fmpq) -> Fraction:
    """A python-flint rational as a `Fraction`."""
    return Fraction(int(x.p), int(x.q))


def _solve(chain: IntegerChain, rhs: Sequence[Sequence[int | Fraction]],
           transpose: bool = False) -> list[list[Fraction]]:
    """Solve (sI - M) X = rhs (or its transpose) exactly; columns of X returned as lists."""
    d, s = chain.size, chain.scale
    A = fmpz_mat(d, d, [s * (i == j) - int(chain.M[i, j]) for i in range(d) for j in range(d)])
    if transpose:
        A = A.transpose()
    cols = len(rhs)
    B = fmpq_mat(d, cols, [fmpq(Fraction(rhs[c][i]).numerator, Fraction(rhs[c][i]).denominator)
                           for i in range(d) for c in range(cols)])
    X = fmpq_mat(A).solve(B)
    return [[fraction(X[i, c]) for i in range(d)] for c in range(cols)]


def expected_turns(chain: IntegerChain) -> list[Fraction]:
    """Expected number of turns to finish from each state: t = (I - Q)⁻¹·1."""
    return _solve(chain, [[chain.scale] * chain.size])[0]


def expected_visits(chain: IntegerChain) -> list[Fraction]:
    """Expected number of turns started on each state in one game from the start (row of (I - Q)⁻¹)."""
    e = [0] * chain.size
    e[chain.start] = chain.scale
    return _solve(chain, [e], transpose=True)[0]


def moments(chain: IntegerChain, turns: list[Fraction] | None = None) -> tuple[Fraction, Fraction]:
    """Exact mean and variance of the game length from the start."""
    t = turns or expected_turns(chain)
    n_t = _solve(chain, [[x * chain.scale for x in t]])[0]
    mean = t[chain.start]
    second = 2 * n_t[chain.start] - mean
    return mean, second - mean * mean


@dataclass(frozen=True)
class Distribution:
    """P(T = k) for k = 1, 2, ..., `terms`: exactly numerators[k − 1] / scaleᵏ.

    The exact terms are integers over the implied denominator sᵏ (no fraction is reduced per term):
    `term`, `cdf`, `quantile`, `mode` and `shortest` answer exactly from them, and raise ValueError for
    anything the exact part does not decide.
    """

    scale: int
    numerators: tuple[int, ...]
    alive: int
    """P(T > terms)·scale^terms: the games still running after the exact part."""
    peak: int = 0
    """The mode as decided by `distribution` (0: not decided within the exact part)."""

    @property
    def terms(self) -> int:
        """How many terms are exact."""
        return len(self.numerators)

    def scaled_terms(self) -> Iterator[tuple[int, int, int]]:
        """(sᵏ, P(T = k)·sᵏ, P(T ≤ k)·sᵏ) for k = 1..terms, all integers."""
        s, power, cumulative = self.scale, 1, 0
        for a in self.numerators:
            power *= s
            cumulative = cumulative * s + a
            yield power, a, cumulative

    def term(self, k: int) -> Fraction:
        """P(T = k) exactly (k within the exact part)."""
        if not 1 <= k <= self.terms:
            raise ValueError(f"P(T = {k}) lies beyond the exact part ({self.terms} terms)")
        return Fraction(self.numerators[k - 1], self.scale**k)

    @cached_property
    def exact(self) -> tuple[Fraction, ...]:
        """Every exact term as a reduced fraction (a gcd each: for checks, not needed for the results)."""
        return tuple(Fraction(a, power) for power, a, _ in self.scaled_terms())

    @property
    def exact_tail(self) -> Fraction:
        """P(T > terms) exactly: the mass beyond the exact part."""
        return Fraction(self.alive, self.scale**self.terms)

    @property
    def pmf_float(self) -> list[float]:
        """Every exact term as a float, correctly rounded (an integer over an integer)."""
        return [a / power for power, a, _ in self.scaled_terms()]

    def cdf(self, k: int) -> Fraction:
        """P(T ≤ k) exactly (k within the exact part)."""
        if k > self.terms:
            raise ValueError(f"P(T ≤ {k}) lies beyond the exact part ({self.terms} terms)")
        if k < 1:
            return Fraction(0)
        power, _, cumulative = next(islice(self.scaled_terms(), k - 1, None))
        return Fraction(cumulative, power)

    def quantile(self, q: Fraction) -> int:
        """Smallest k with P(T ≤ k) ≥ q, decided exactly."""
        q = Fraction(q)
        for k, (power, _, cumulative) in enumerate(self.scaled_terms(), start=1):
            if cumulative * q.denominator >= q.numerator * power:
                return k
        raise ValueError(f"quantile {q} lies beyond the exact part of the distribution")

    def mode(self) -> int:
        """The most likely game length (the smallest, if several tie), decided exactly."""
        if not self.peak:
            raise ValueError(f"the mode is not decided within the exact part ({self.terms} terms)")
        return self.peak

    def shortest(self) -> int:
        """The smallest k with P(T = k) > 0."""
        for k, a in enumerate(self.numerators, start=1):
            if a:
                return k
        raise ValueError(f"no game ends within the exact part ({self.terms} terms)")


class _SparseWalk:
    """The integer row vector u·Mᵏ, one turn at a time, by a Python loop over the nonzeros of M (see `_walk`)."""

    def __init__(self, chain: IntegerChain) -> None:
        self.chain = chain
        self.vector = [int(i == chain.start) for i in range(chain.size)]

    def finished(self) -> int:
        """u·Mᵏ·f: the numerator of P(T = k + 1) over sᵏ⁺¹."""
        return sum(v * f for v, f in zip(self.vector, self.chain.finish) if v)

    def step(self) -> None:
        self.vector = self.chain.step(self.vector)

    def entries(self) -> list[int]:
        return list(self.vector)


class _DenseWalk:
    """The integer row vector u·Mᵏ, one turn at a time, by python-flint's row-times-matrix product (in C)."""

    def __init__(self, chain: IntegerChain) -> None:
        d = chain.size
        self.M = chain.M
        self.vector = fmpz_mat(1, d, [int(i == chain.start) for i in range(d)])
        self.finish = fmpz_mat(d, 1, list(chain.finish))

    def finished(self) -> int:
        """u·Mᵏ·f: the numerator of P(T = k + 1) over sᵏ⁺¹."""
        return int((self.vector * self.finish)[0, 0])

    def step(self) -> None:
        self.vector = self.vector * self.M

    def entries(self) -> list[int]:
        return [int(v) for v in self.vector.entries()]


class _SeriesTerms:
    """The same numerators from the finishing recurrence (`recurrence.numerators`), with no vector."""

    def __init__(self, found: Finishing, first: int) -> None:
        self.terms = numerators(found, first)
        self.current: int | None = None  # drawn when first asked for: a step past the last term expands nothing

    def finished(self) -> int:
        if self.current is None:
            self.current = next(self.terms)
        return self.current

    def step(self) -> None:
        self.current = None

    def entries(self) -> None:
        return None


DENSE = 16
"""M counts as dense when more than one entry in DENSE is nonzero (measured: flint's dense product costs
about 1/13 to 1/33 of the Python loop per entry)."""


def _dense(chain: IntegerChain) -> bool:
    return DENSE * sum(len(row) for row in chain.rows) > chain.size * chain.size


def by_series(chain: IntegerChain, exact_turns: int = EXACT_TURNS) -> bool:
    """Whether the exact terms are cheaper from the finishing recurrence than from the walk: where M is dense
    (a roll-again turn reaches most squares) and the 2d products with M that find the recurrence are fewer than
    the walk's `exact_turns` (the first player's chance needs the recurrence anyway)."""
    return _dense(chain) and 2 * chain.size < exact_turns


def _walk(chain: IntegerChain, found: Finishing | None, exact_turns: int) -> _SparseWalk | _DenseWalk | _SeriesTerms:
    """The numerators u·Mᵏ·f, one turn at a time: from the finishing recurrence if `found`, else by the integer
    row vector u·Mᵏ: a Python loop over the nonzeros of M when M is sparse, python-flint's row-times-matrix
    product when M is dense."""
    if found is not None:
        return _SeriesTerms(found, exact_turns)
    return _DenseWalk(chain) if _dense(chain) else _SparseWalk(chain)


def state_vectors(chain: IntegerChain) -> Iterator[tuple[int, list[int]]]:
    """(sⁿ, u·Mⁿ) for n = 0, 1, …: where a game from the start is after n turns, as integers over sⁿ (the games
    over by then are the rest)."""
    walk = _DenseWalk(chain) if _dense(chain) else _SparseWalk(chain)
    power = 1
    while True:
        yield power, walk.entries()
        walk.step()
        power *= chain.scale


def distribution(chain: IntegerChain, found: Finishing | None = None, exact_tail: Fraction = EXACT_TAIL,
                 exact_bits: int = EXACT_BITS, max_terms: int = MAX_TERMS,
                 exact_turns: int = EXACT_TURNS, decide: Fraction = DECIDED_QUANTILE) -> Distribution:
    """The game-length distribution from the start: P(T = k) = u·M^(k−1)·f / sᵏ by integer vector iteration,
    or from the finishing recurrence from the start if it is given (`found`, see `by_series`), each term kept
    as its integer numerator over the implied sᵏ (no rounding, no fraction reduced).

    Exact terms are kept up to `exact_turns` turns (fewer if the tail falls below `exact_tail` or sᵏ passes
    `exact_bits` bits first) and in any case until these are decided exactly (at most `max_terms` terms;
    what is still undecided then raises ValueError when asked for, never a guess):
    - the `decide` quantile, once P(T ≤ k) ≥ decide (every smaller quantile lies at or before it);
    - the shortest game: the first nonzero term (it comes before any quantile);
    - the mode. A later term P(T = j), j > k, is a game still running after k turns that ends at turn j
      from some state, so P(T = j) ≤ P(T > k)·max(f)/s. Once that is below the largest term so far, no
      later term can reach it, and the mode is the first turn that attained it.
    The charts read only these exact terms (correctly rounded): nothing past them is drawn.
    """
    s, finish, rows = chain.scale, chain.finish, chain.rows
    if any(sum(w for _, w in row) + f != s for row, f in zip(rows, finish)):
        raise ArithmeticError("the turn chain loses probability: a row of M plus its finish is not the scale")
    top = max(finish, default=0)
    walk = _walk(chain, found, exact_turns)
    numerators: list[int] = []
    power, cumulative, best, best_at, peak = 1, 0, 0, 0, 0
    reached = horizon = False
    tail_n, tail_d = exact_tail.numerator, exact_tail.denominator
    q_n, q_d = Fraction(decide).numerator, Fraction(decide).denominator
    while True:
        power *= s
        a = walk.finished()
        numerators.append(a)
        cumulative = cumulative * s + a
        alive = power - cumulative
        k = len(numerators)
        if not peak:
            best *= s  # the largest term so far, over sᵏ
            if a > best:
                best, best_at = a, k
            if alive * top < best * s:
                peak = best_at
        reached = reached or cumulative * q_d >= q_n * power
        horizon = horizon or alive * tail_d < tail_n * power or power.bit_length() > exact_bits
        walk.step()
        if k >= max_terms or (peak and reached and (k >= exact_turns or horizon)):
            break
    vector = walk.entries()
    if vector is not None and sum(vector) != alive:
        raise ArithmeticError("the turn chain loses probability: P(T > k) is not 1 − P(T ≤ k)")
    return Distribution(s, tuple(numerators), alive, peak)


def bound_terms(dist: Distribution) -> Iterator[tuple[int, gmpy2.mpz, int]]:
    """For n = 1, 2, … over the exact part: (D, squares, rest) as integers, D = sⁿ, squares = D²·Σ_{k≤n} P(T = k)²
    and rest = D·(1 − Σ_{k≤n} P(T = k)): the lower bound on the first player's chance after n turns is
    ½ + ½·squares/D², the upper bound adds ½·rest²/D². Integers over the implied denominator, each from the
    last by a multiplication by s or s²: no gcd per term. `squares` stays a GMP integer (its products are several
    times quicker than Python's, and most are never read): int() it to divide it correctly rounded."""
    s2 = gmpy2.mpz(dist.scale) ** 2
    squares = gmpy2.mpz(0)
    for power, a, cumulative in dist.scaled_terms():
        squares = squares * s2 + gmpy2.mpz(a) ** 2
        yield power, squares, power - cumulative


def bounds_after(dist: Distribution, turns: Iterable[int]) -> dict[int, tuple[Fraction, Fraction]]:
    """The exact lower and upper bounds on the first player's chance after each of `turns` turns, from one pass
    over the terms (after all the exact terms if n goes beyond them: bounds from fewer turns are still bounds,
    only looser)."""
    wanted: dict[int, list[int]] = {}
    for n in turns:
        if n < 1:
            raise ValueError(f"bounds after {n} turns: n must be at least 1")
        wanted.setdefault(min(n, dist.terms), []).append(n)
    out: dict[int, tuple[Fraction, Fraction]] = {}
    for k, (scale, squares, rest) in enumerate(islice(bound_terms(dist), max(wanted, default=0)), start=1):
        if k in wanted:
            lower = Fraction(1, 2) + Fraction(int(squares), 2 * scale * scale)
            out.update(dict.fromkeys(wanted[k], (lower, lower + Fraction(rest * rest, 2 * scale * scale))))
    return out


def bounds(dist: Distribution, n: int) -> tuple[Fraction, Fraction]:
    """`bounds_after` for one number of turns."""
    return bounds_after(dist, [n])[n]
