"""Chart series for the site, as floats: every number a chart needs, so the build stage only draws.

Floats here are derived from the exact results (or, where labelled, from simulation) and rounded to
12 significant digits (the positions after each turn to 6), so that the cached JSON is the same bytes on every
machine.
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
POSITIONS_MASS = 0.99
"""The animation runs until this share of games is over (or POSITIONS_MAX_TURNS, or POSITIONS_MAX_VALUES)."""
POSITIONS_MAX_TURNS = 300
POSITIONS_MAX_VALUES = 30_000
"""The most numbers the series holds (turns × squares): the board page carries them all, so a long board
shows fewer turns (up to turn 28 on 1,000 squares; the bundled boards need at most 24,442)."""


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
        if add(0.5 + int(squares) / (2 * scale * scale), rest * rest / (2 * scale * scale)):
            break
    else:
        low = 0.5 + int(squares) / (2 * scale * scale)
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


def _six_digits(values: np.ndarray) -> list[float]:
    return [float(f"{v:.6g}") if abs(v) >= 5e-7 else 0.0 for v in values]


def position_series(chain: TurnChain) -> dict[str, Any]:
    """For n = 0, 1, …: the chance of being on each square 0..last after n turns, and on each jump's foot
    the expected landings during turn n (index = square; the last square holds P(T ≤ n)): the board coming
    alive, turn by turn, for the board page's animation.

    After n turns a player's position is the row vector e_startᵀQⁿ over the squares where a turn can start,
    plus the mass already home on the last square. A jump's foot is never where a turn starts, so for it the
    series gives how often a roll lands there during turn n (the expected number of such landings; with a
    roll-again rule a turn holds several rolls: the rolls of a turn start from x(I − B)⁻¹, B the rolls that
    continue it). Double precision, rounded to 6 significant digits: exact to the precision of a chart."""
    board = chain.board
    d, w = chain.size, board.roll_weight
    rows = chain.passed  # the states, then squares only passed partway through a turn
    continuing = np.array(chain.rolls.again, dtype=float) / w
    feet = sorted(board.jumps)
    column = {foot: j for j, foot in enumerate(feet)}
    lands = np.zeros((len(rows), len(feet)))  # one roll from each row: the chance it lands on each foot...
    moving = np.zeros((len(rows), len(feet)))  # ...and that it does so with a roll other than `roll_again_on`
    for i, square in enumerate(rows):
        for roll, weight in board.rolls:
            landing = board.landing(square, roll)
            if landing in column:
                lands[i, column[landing]] += weight / w
                moving[i, column[landing]] += weight / w if roll != board.roll_again_on else 0.0
    if board.roll_again_limit is None:  # the rolls made from each state in a turn from each state
        rolls_from = np.linalg.inv(np.eye(d) - continuing)
    else:  # at most L rolls of `roll_again_on`: landings in a turn, whose (L+1)-th roll lands only if it moves
        step, per_turn = np.eye(len(rows)), np.zeros_like(lands)
        for _ in range(board.roll_again_limit):
            per_turn += step @ lands
            step = step @ continuing
        per_turn = (per_turn + step @ moving)[:d]
    x = np.zeros(d)
    x[chain.start] = 1.0
    home = 0.0
    landed = np.zeros(len(feet))  # no roll before the first turn
    frames: list[list[float]] = []
    for _ in range(min(POSITIONS_MAX_TURNS + 1, POSITIONS_MAX_VALUES // (board.squares + 1))):
        row = np.zeros(board.squares + 1)
        row[list(chain.states)] = x
        row[board.squares] = home
        row[feet] = landed
        frames.append(_six_digits(row))
        if home >= POSITIONS_MASS:
            break
        landed = (x @ rolls_from) @ lands if board.roll_again_limit is None else x @ per_turn
        home += float(x @ chain.r_float)
        x = x @ chain.Q_float
    return {"turns": list(range(len(frames))), "feet": feet, "on_square": frames}
