"""Chart series for the site, as floats: every number a chart needs, so the build stage only draws.

Floats here are derived from the exact results (or, where labelled, from simulation) and rounded to
12 significant digits, so that the cached JSON is the same bytes on every machine.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from compute.chain import TurnChain
from compute.exact import Distribution, bound_terms
from compute.numbers import stable

CHART_MASS = 1 - 1e-6
BOUNDS_MAX_TURNS = 600
BOUNDS_MIN_GAP = 1e-60
DIAGONAL_MASS = 0.995


def length_series(dist: Distribution, simulated: np.ndarray) -> dict[str, Any]:
    """P(T = k) and P(T ≤ k) for k = 1..K (until 1 − 10⁻⁶ of the games are over), with simulated shares."""
    pmf = dist.pmf_float
    cumulative: list[float] = []
    total = Fraction(0)
    for p in dist.exact:
        total += p
        cumulative.append(float(total))
        if total >= CHART_MASS:
            break
    tail = cumulative[-1]
    for p in pmf[len(cumulative):]:
        if tail >= CHART_MASS:
            break
        tail += p
        cumulative.append(tail)
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
        "exact_terms": len(dist.exact),
    }


def bound_series(dist: Distribution) -> dict[str, Any]:
    """The lower and upper bounds (after RobinFiveWords' post) after n turns and the gap between them.

    Within the exact part of the distribution the sums are exact integers over a common denominator,
    rounded once (so the tiny gap suffers no cancellation); beyond it the float tail continues the curve.
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
        tail = rest / scale
        for p in dist.tail_floats:
            low += p * p / 2
            tail -= p
            if tail <= 0 or add(low, tail * tail / 2):
                break
    return {"turns": list(range(1, len(gap) + 1)), "lower": lower, "upper": upper, "gap": gap}


def diagonal_series(dist: Distribution) -> dict[str, Any]:
    """The diagonal squares of RobinFiveWords' picture: for each game length k, where its square starts and its side."""
    start = Fraction(0)
    turns: list[int] = []
    corners: list[float] = []
    sides: list[float] = []
    for k, p in enumerate(dist.exact, start=1):
        if p:
            turns.append(k)
            corners.append(stable(start))
            sides.append(stable(p))
        start += p
        if start >= DIAGONAL_MASS:
            break
    return {"turns": turns, "corner": corners, "side": sides}


def square_series(chain: TurnChain) -> dict[str, Any]:
    """Per square 1..last−1 (and the start): expected turns left and expected turns begun there."""
    board = chain.board
    turns = dict(zip(chain.states, chain.expected_turns))
    visits = dict(zip(chain.states, chain.expected_visits))
    squares = list(range(board.squares + 1))
    return {
        "square": squares,
        "turns_left": [stable(turns[q]) if q in turns else (0.0 if q == board.squares else None) for q in squares],
        "visits": [stable(visits[q]) if q in visits else None for q in squares],
    }

