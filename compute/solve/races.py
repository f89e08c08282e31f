"""Several players, from any squares: each seat's chance to win, certified by interval arithmetic.

Players move in seat order and never interact; seat i wins at turn k when its own game ends at turn k,
every earlier seat's game lasts longer than k, and every later seat's lasts at least k:

    P(seat i wins) = Σₖ P(Tᵢ = k) · Π_{j<i} P(Tⱼ > k) · Π_{j>i} P(Tⱼ ≥ k).

The sum is taken with python-flint's arb balls (every rounding enclosed) until the neglected part is
provably small: for k > K each term is at most P(Tᵢ = k)·Π_{j≠i} P(Tⱼ > K), so the whole remainder of
every seat is at most Π_j P(Tⱼ > K), itself an enclosed number. Two players get the exact fraction.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from decimal import ROUND_CEILING, Decimal, localcontext
from fractions import Fraction
from typing import Any

import numpy as np
from flint import arb, arb_mat, ctx, fmpq

from ..board.limits import MAX_PLAYERS
from ..numbers import exact_json
from .chain import TurnChain
from .floats import dot
from .recurrence import finishing, numerators
from .twoplayer import pair_wins

DIGITS = 35
MAX_TURNS = 1_000_000
BITS_PER_ENTRY = 2
"""`races_together` expands K exact terms (about K²·log2(s)/2 bits in all) when K·log2(s) is below this many
times d², else it multiplies a vector of d balls by Q K times (d² entries each): measured, a bit of a term
costs about what two entries of a product do."""


@dataclass(frozen=True)
class Certified:
    """A value known to lie within `radius` of `mid` (both exact rationals, from an arb ball)."""

    ball: arb

    def json(self, digits: int = DIGITS) -> dict[str, Any]:
        """{"decimal", "error_bound", "exact": false}: the true value is within error_bound of decimal.

        The decimal is the midpoint rounded, so the bound is |decimal − mid| + radius, computed exactly
        and rounded up to four digits."""
        decimal = self.ball.mid().str(digits + 3, radius=False)
        bound = abs(Fraction(decimal) - _fraction(self.ball.mid())) + _fraction(self.ball.rad())
        return {"decimal": decimal, "error_bound": _ceil_sci(bound), "exact": False}

    def contains(self, other: Certified) -> bool:
        """Whether this enclosure contains the other one entirely."""
        return bool(self.ball.contains(other.ball))

    def __float__(self) -> float:
        return float(self.ball.mid())


def _fraction(x: arb) -> Fraction:
    """An exact arb (a midpoint or a radius) as a Fraction."""
    man, exp = (int(n) for n in x.man_exp())
    return Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2**-exp)


def _ceil_sci(x: Fraction) -> str:
    """x ≥ 0 rounded up to four significant digits, written like f"{x:.3e}" (e.g. 5.871e-39)."""
    if x == 0:
        return "0.000e+00"
    with localcontext(prec=4, rounding=ROUND_CEILING) as up:
        mantissa, exponent = f"{up.divide(Decimal(x.numerator), Decimal(x.denominator)):.3e}".split("e")
    return f"{mantissa}e{int(exponent):+03d}"


@dataclass(frozen=True)
class Race:
    """Each seat's chance to win (certified) and the expected number of rounds until someone wins."""

    squares: tuple[int, ...]
    wins: tuple[Certified, ...]
    rounds: Certified


def race(chain: TurnChain, squares: list[int] | tuple[int, ...], digits: int = DIGITS) -> Race:
    """Certified win chances for players on `squares` (the first listed moves first)."""
    if not 1 <= len(squares) <= MAX_PLAYERS:
        raise ValueError(f"between 1 and {MAX_PLAYERS} players, got {len(squares)}")
    if len(set(squares)) == 1:
        return races_together(chain, squares[0], [len(squares)], digits)[len(squares)]
    with _precision(digits):
        return _race(chain, tuple(squares), digits)


def _precision(digits: int) -> AbstractContextManager[None]:
    """Arb's working precision for `digits` certified digits (20 guard digits), restored afterwards.

    A seat's term is a product of n balls, summed over K turns: its rounding grows about as n·K units of the
    last place, far inside 20 guard digits for MAX_PLAYERS and MAX_TURNS (20 players leave radii of about
    10⁻³⁹ on the bundled boards, as 2 players do: the neglected turns' bound dominates, not the rounding)."""
    return ctx.workprec(int(3.33 * (digits + 20)))


def races_together(chain: TurnChain, square: int, counts: list[int], digits: int = DIGITS) -> dict[int, Race]:
    """The race of n players who all start on `square`, for each n in `counts`, in one pass.

    Players on one square share one game-length distribution, so each turn k needs only three numbers:
    P(T = k), P(T > k) and E[(T − k)⁺] (the first seat's expected turns left, for the tail of the expected
    rounds). The first two are exact (`recurrence.numerators`: a power series, not d² work a turn), the
    third is E[T] − Σ_{j<k} P(T > j). Only where the scale s is so large that exact terms would cost more
    than d² a turn is a vector of d balls iterated instead (`_vector_turns`), once for every count. Seat i
    (from 0) wins at turn k with P(T = k)·P(T > k)ⁱ·P(T ≥ k)ⁿ⁻¹⁻ⁱ; the remainder is bounded as in `race`."""
    if not all(1 <= n <= MAX_PLAYERS for n in counts):
        raise ValueError(f"between 1 and {MAX_PLAYERS} players, got {counts}")
    i = chain.index[square]
    with _precision(digits):
        eps = arb(10) ** (-(digits + 2))
        mean = chain.expected_turns[i]
        left = arb(fmpq(mean.numerator, mean.denominator))  # E[(T − k)⁺], at k = 0
        running = {n: _Seats(n) for n in sorted(set(counts))}
        done: dict[int, Race] = {}
        top = max(running)
        needed = _terms_needed(chain, i, digits, min(running))
        if needed * math.log2(max(chain.scale, 2)) < BITS_PER_ENTRY * chain.size**2:
            turns = _exact_turns(chain, i, needed)
        else:
            turns = _vector_turns(chain, i)
        before = [arb(1)] * (top + 1)  # P(T ≥ k)ʲ
        for k, (ends, survive) in enumerate(turns, start=1):
            left -= before[1]
            after = [arb(1)]
            for _ in range(top):
                after.append(after[-1] * survive)
            for n, seats in list(running.items()):
                seats.add(ends, after, before, left)
                if seats.settled(eps) or k >= MAX_TURNS:
                    done[n] = seats.race(square)
                    del running[n]
            if not running:
                break
            before = after
    return {n: done[n] for n in counts}


def _exact_turns(chain: TurnChain, index: int, needed: int) -> Iterator[tuple[arb, arb]]:
    """(P(T = k), P(T > k)) from state `index` for k = 1, 2, …: exact integers over sᵏ, made balls."""
    s = chain.scale
    unit = arb(1) / s
    power, cumulative, scale = 1, 0, arb(1)  # sᵏ, P(T ≤ k)·sᵏ and s⁻ᵏ
    found = chain.finishing if index == chain.start else finishing(chain, index)
    for a in numerators(found, needed):
        power *= s
        cumulative = cumulative * s + a
        scale *= unit
        yield arb(a) * scale, arb(power - cumulative) * scale


def _vector_turns(chain: TurnChain, index: int) -> Iterator[tuple[arb, arb]]:
    """The same from the ball vector eᵢᵀQᵏ, one d×d product a turn (for a huge scale s, where exact terms
    would grow by log2(s) bits a turn)."""
    Q, r, ones = _balls(chain)
    X = arb_mat(1, chain.size, [int(j == index) for j in range(chain.size)])
    while True:
        ends = (X * r)[0, 0]
        X = X * Q
        yield ends, (X * ones)[0, 0]


def _balls(chain: TurnChain) -> tuple[arb_mat, arb_mat, arb_mat]:
    """Q, the finishing column r and a column of ones as balls, at the working precision."""
    d = chain.size
    return (arb_mat(chain.Q_exact()), arb_mat(d, 1, [arb(fmpq(f, chain.scale)) for f in chain.finish]),
            arb_mat(d, 1, [1] * d))


class _Seats:
    """The sums of one race of n players on one square, turn by turn (`races_together`)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.wins = [arb(0)] * n
        self.rounds = arb(1)  # the k = 0 term of E[rounds] = Σ_{k≥0} P(every game lasts more than k turns)
        self.alive = arb(1)
        self.tail = arb(0)

    def add(self, ends: arb, after: list[arb], before: list[arb], left: arb) -> None:
        """Turn k: P(T = k), P(T > k)ʲ and P(T ≥ k)ʲ for j ≤ n, and E[(T − k)⁺]."""
        n = self.n
        for i in range(n):
            self.wins[i] += ends * after[i] * before[n - 1 - i]
        self.alive = after[n]
        self.rounds += self.alive
        self.tail = after[n - 1] * left  # bounds Σ_{j>k} P(every game lasts more than j turns)

    def settled(self, eps: arb) -> bool:
        return bool(self.alive.upper() < eps.lower() and self.tail.upper() < eps.lower())

    def race(self, square: int) -> Race:
        remainder = arb(0).union(self.alive.upper())
        return Race((square,) * self.n, tuple(Certified(w + remainder) for w in self.wins),
                    Certified(self.rounds + arb(0).union(self.tail.upper())))


def _terms_needed(chain: TurnChain, index: int, digits: int, players: int) -> int:
    """About how many turns a race of `players` from one state runs before it is settled, in floats: until
    P(T > k)ᵖˡᵃʸᵉʳˢ and the rounds' tail fall below 10^-(digits + 2) (the exact sum goes on if this is short)."""
    eps = 10.0 ** -(digits + 2)
    floats, t = chain.floats, chain.expected_turns_float  # in a fixed order: the same count on any processor
    x = np.zeros(chain.size)
    x[index] = 1.0
    k = 0
    while k < MAX_TURNS:
        k += 1
        x = floats.step(x)
        survive = math.fsum(x.tolist())
        if survive**players < eps and survive ** (players - 1) * dot(x, t) < eps:
            break
    return k + k // 10 + 16


def _race(chain: TurnChain, squares: tuple[int, ...], digits: int) -> Race:
    d = chain.size
    distinct = sorted(set(squares))
    row = {s: n for n, s in enumerate(distinct)}
    seats = [row[s] for s in squares]
    m = len(distinct)
    Q, r, ones = _balls(chain)
    t = chain.expected_turns
    t_vec = arb_mat(d, 1, [arb(fmpq(x.numerator, x.denominator)) for x in t])
    X = arb_mat(m, d, [int(chain.index[s] == j) for s in distinct for j in range(d)])
    eps = arb(10) ** (-(digits + 2))
    before = [arb(1)] * m  # P(T ≥ k) for the coming k: 1 at k = 1
    wins = [arb(0)] * len(seats)
    rounds = arb(1)  # the k = 0 term of E[rounds] = Σ_{k≥0} P(every game lasts more than k turns)
    k = 0
    while True:
        k += 1
        p = X * r
        X = X * Q
        after = X * ones
        done = [after[j, 0] for j in range(m)]
        for i, si in enumerate(seats):
            term = p[si, 0]
            for j, sj in enumerate(seats):
                if j != i:
                    term *= done[sj] if j < i else before[sj]
            wins[i] += term
        alive = arb(1)
        for sj in seats:
            alive *= done[sj]
        rounds += alive
        others = arb(1)
        for sj in seats[1:]:
            others *= done[sj]
        first_left = (X * t_vec)[seats[0], 0]
        rounds_tail = others * first_left
        if (alive.upper() < eps.lower() and rounds_tail.upper() < eps.lower()) or k >= MAX_TURNS:
            break
        before = done
    remainder = arb(0).union(alive.upper())
    certified = tuple(Certified(w + remainder) for w in wins)
    rounds_all = Certified(rounds + arb(0).union(rounds_tail.upper()))
    return Race(squares, certified, rounds_all)


def seat_chances(chain: TurnChain, players: int, digits: int = DIGITS) -> list[dict[str, Any]]:
    """JSON for `players` starting together: exact fractions for two players, certified decimals otherwise."""
    start = chain.board.start
    return position_chances(chain, [start] * players, digits)


def position_chances(chain: TurnChain, squares: list[int], digits: int = DIGITS,
                     result: Race | None = None) -> list[dict[str, Any]]:
    """JSON win chances for players on `squares`, the first listed moving first (one object per seat).

    `result`: the race already run for these squares, if the caller has it (used for three or more)."""
    if len(squares) == 2:
        p = pair_wins(chain, squares[0], squares[1])
        exact = [p, Fraction(1) - p]
        return [{"seat": n + 1, "square": sq, **exact_json(x), "exact": True}
                for n, (sq, x) in enumerate(zip(squares, exact))]
    result = result or race(chain, squares, digits)
    return [{"seat": n + 1, "square": sq, **w.json(digits)} for n, (sq, w) in enumerate(zip(squares, result.wins))]


def rounds_quantile(chain: TurnChain, players: int, q: Fraction) -> int:
    """The smallest n such that a game of `players` players starting together is over within n rounds with
    chance at least q, exactly: the game lasts more than n rounds when every player's does, so
    P(R ≤ n) = 1 − P(T > n)^players. One pass over the exact terms, in integers over sⁿ."""
    q = Fraction(q)
    for n, (power, _, cumulative) in enumerate(chain.distribution.scaled_terms(), start=1):
        whole = power**players
        if (whole - (power - cumulative) ** players) * q.denominator >= q.numerator * whole:
            return n
    raise ValueError(f"the {q} quantile of the rounds lies beyond the exact part of the distribution")


def rounds_share(chain: TurnChain, players: int, rounds: int) -> Fraction:
    """P(R ≤ rounds) exactly, for `players` players starting together: 1 − P(T > rounds)^players."""
    return 1 - (1 - chain.distribution.cdf(rounds)) ** players


def rounds_record(chain: TurnChain, players: int) -> dict[str, Any]:
    """For `players` players starting together: the median rounds until someone wins and the rounds within which
    9 games in 10 are over, each with the true share of games over within it (exact: on a board whose lengths
    have large atoms it can be far above one half or nine tenths)."""
    median, ninety = (rounds_quantile(chain, players, q) for q in (Fraction(1, 2), Fraction(9, 10)))
    return {"median": median, "ninety": ninety, "median_share": rounds_share(chain, players, median),
            "ninety_share": rounds_share(chain, players, ninety)}
