"""Chart series for the site, as floats: every number a chart needs, so the build stage only draws.

Floats here are derived from the exact results (or, where labelled, from simulation) and rounded to
12 significant digits, so that the cached JSON is the same bytes on every machine.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from ..numbers import stable
from ..solve.chain import TurnChain
from ..solve.exact import Distribution, bound_terms

CHART_MASS = 1 - 1e-6
CHART_MAX_TURNS = 700
"""The length charts stop at CHART_MASS or after this many turns, whichever comes first: their numbers and
tables are carried by the board page (the bundled boards stop at CHART_MASS within 699 turns)."""
BOUNDS_MAX_TURNS = 600
BOUNDS_MIN_GAP = 1e-60
DIAGONAL_MASS = 0.995
DIAGONAL_MAX_SQUARES = 300
"""The picture draws at most this many squares (each is a shape in the page; the bundled boards need 280)."""


def length_series(dist: Distribution, simulated: np.ndarray) -> dict[str, Any]:
    """P(T = k) and P(T ≤ k) for k = 1..K (until 1 − 10⁻⁶ of the games are over, or CHART_MAX_TURNS), with
    simulated shares.

    Over the exact part P(T ≤ k) is rounded once from its exact value; beyond it, it is 1 − P(T > k) from
    the float iteration (no sum of many small floats)."""
    pmf = dist.pmf_float
    cumulative: list[float] = []
    mass = Fraction(CHART_MASS)
    for power, _, total in dist.scaled_terms():
        cumulative.append(total / power)
        if total * mass.denominator >= mass.numerator * power or len(cumulative) >= CHART_MAX_TURNS:
            break
    else:
        for tail in dist.tail_survival:
            if cumulative[-1] >= CHART_MASS or len(cumulative) >= CHART_MAX_TURNS:
                break
            cumulative.append(1 - tail)
    turns = len(cumulative)
    counts = np.bincount(simulated, minlength=turns + 2)
    games = len(simulated)
    return {
        "turns": list(range(1, turns + 1)),
        "probability": [stable(p) for p in pmf[:turns]],
        "cumulative": [stable(c) for c in cumulative],
        "simulated": [stable(c / games) for c in counts[1:turns + 1]],
        "simulated_cumulative": [stable(c / games) for c in np.cumsum(counts[1:turns + 1])],
        "simulated_games": games,
        "exact_terms": dist.terms,
    }


def bound_series(dist: Distribution) -> dict[str, Any]:
    """The lower and upper bounds (after RobinFiveWords' post) after n turns and the gap between them.

    Within the exact part of the distribution the sums are exact integers over a common denominator,
    rounded once (so the tiny gap suffers no cancellation); beyond it the float tail continues the curve,
    the gap from P(T > n) of the float iteration (again no cancellation).
    """
    lower: list[float] = []
    upper: list[float] = []
    gap: list[float] = []

    def add(lo: float, width: float) -> bool:
        lower.append(stable(lo))
        upper.append(stable(lo + width))
        gap.append(stable(width))
        return width < BOUNDS_MIN_GAP or len(gap) >= BOUNDS_MAX_TURNS

    scale, squares, rest = 1, 0, 1
    for scale, squares, rest in bound_terms(dist):
        # int / int is correctly rounded in Python: no big gcds, no cancellation.
        if add(0.5 + squares / (2 * scale * scale), rest * rest / (2 * scale * scale)):
            break
    else:
        low = 0.5 + squares / (2 * scale * scale)
        for p, tail in zip(dist.tail_floats, dist.tail_survival):
            low += p * p / 2
            if tail <= 0 or add(low, tail * tail / 2):
                break
    return {"turns": list(range(1, len(gap) + 1)), "lower": lower, "upper": upper, "gap": gap}


def diagonal_series(dist: Distribution) -> dict[str, Any]:
    """The diagonal squares of RobinFiveWords' picture: for each game length k, where its square starts and its side
    (until DIAGONAL_MASS of the games are over, or DIAGONAL_MAX_SQUARES squares).

    Corners and sides are rounded once from the exact terms; past the exact part, from the float tail."""
    turns: list[int] = []
    corners: list[float] = []
    sides: list[float] = []
    mass = Fraction(DIAGONAL_MASS)
    for k, (power, a, total) in enumerate(dist.scaled_terms(), start=1):
        if a:
            turns.append(k)
            corners.append(stable((total - a) / power))
            sides.append(stable(a / power))
        if total * mass.denominator >= mass.numerator * power or len(turns) >= DIAGONAL_MAX_SQUARES:
            break
    else:
        before = dist.alive / dist.scale**dist.terms
        for k, (p, tail) in enumerate(zip(dist.tail_floats, dist.tail_survival), start=dist.terms + 1):
            if p:
                turns.append(k)
                corners.append(stable(1 - before))
                sides.append(stable(p))
            if 1 - tail >= DIAGONAL_MASS or len(turns) >= DIAGONAL_MAX_SQUARES:
                break
            before = tail
    return {"turns": turns, "corner": corners, "side": sides}


def square_series(chain: TurnChain) -> dict[str, Any]:
    """Per square 0..last: expected turns left, expected turns begun there and the chance of landing there."""
    board = chain.board
    turns = dict(zip(chain.states, chain.expected_turns))
    visits = dict(zip(chain.states, chain.expected_visits))
    landed = chain.landing_chances
    squares = list(range(board.squares + 1))
    return {
        "square": squares,
        "turns_left": [stable(turns[q]) if q in turns else (0.0 if q == board.squares else None) for q in squares],
        "visits": [stable(visits[q]) if q in visits else None for q in squares],
        "landing": None if landed is None else [stable(landed[q]) if q in landed else None for q in squares],
    }

