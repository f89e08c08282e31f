"""Chart series for the site, as floats: every number a chart needs, so the build stage only draws.

Every float here is correctly rounded from an exact value (a ratio of integers): the exact results to 12
significant digits, the positions after each turn to 6, the simulated shares from their counts. So each digit
is true, and the cached JSON is the same bytes on every machine.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

import numpy as np
from flint import fmpq_mat, fmpz_mat

from ..board.reach import turn_levels
from ..numbers import rounded, rounded_ratio, stable_ratio
from ..solve.chain import TurnChain
from ..solve.exact import Distribution, bound_terms, state_vectors

CHART_MASS = 1 - 1e-6
CHART_MAX_TURNS = 700
"""The length charts stop at CHART_MASS or after this many turns, whichever comes first: their numbers and
tables are carried by the board page (the bundled boards stop at CHART_MASS within 699 turns)."""
BOUNDS_MAX_TURNS = 600
BOUNDS_MIN_GAP = 1e-60
DIAGONAL_MASS = 0.995
DIAGONAL_MAX_SQUARES = 300
"""The picture draws at most this many squares (each is a shape in the page; the bundled boards need 280)."""
POSITIONS_HOME = Fraction(99, 100)
"""The animation runs until this share of games is over (or POSITIONS_MAX_TURNS, or POSITIONS_MAX_VALUES)."""
POSITIONS_MAX_TURNS = 300
POSITIONS_MAX_VALUES = 30_000
"""The most numbers the series holds (turns × squares): the board page carries them all, so a long board
shows fewer turns (up to turn 28 on 1,000 squares; the bundled boards need at most 24,442)."""


def length_series(dist: Distribution, simulated: np.ndarray) -> dict[str, Any]:
    """P(T = k) and P(T ≤ k) for k = 1..K (until 1 − 10⁻⁶ of the games are over, CHART_MAX_TURNS, or the end of
    the exact part), each correctly rounded from its exact value, with simulated shares."""
    probability: list[float] = []
    cumulative: list[float] = []
    mass = Fraction(CHART_MASS)
    for power, a, total in dist.scaled_terms():
        probability.append(stable_ratio(a, power))
        cumulative.append(stable_ratio(total, power))
        if total * mass.denominator >= mass.numerator * power or len(cumulative) >= CHART_MAX_TURNS:
            break
    turns = len(cumulative)
    counts = np.bincount(simulated, minlength=turns + 2)
    games = len(simulated)
    return {
        "turns": list(range(1, turns + 1)),
        "probability": probability,
        "cumulative": cumulative,
        "simulated": [stable_ratio(int(c), games) for c in counts[1:turns + 1]],
        "simulated_cumulative": [stable_ratio(int(c), games) for c in np.cumsum(counts[1:turns + 1])],
        "simulated_games": games,
        "exact_terms": dist.terms,
    }


def bound_series(dist: Distribution) -> dict[str, Any]:
    """The lower and upper bounds (after RobinFiveWords' post) after n turns and the gap between them, until the
    gap is below BOUNDS_MIN_GAP, BOUNDS_MAX_TURNS or the end of the exact part.

    The sums are exact integers over a common denominator, each bound correctly rounded (so the tiny gap suffers
    no cancellation)."""
    lower: list[float] = []
    upper: list[float] = []
    gap: list[float] = []
    for scale, squares, rest in bound_terms(dist):
        denominator = 2 * scale * scale
        low, width = int(squares) + denominator // 2, rest * rest  # ½ + squares/D² and rest²/D², over D²·2
        lower.append(stable_ratio(low, denominator))
        upper.append(stable_ratio(low + width, denominator))
        gap.append(stable_ratio(width, denominator))
        if gap[-1] < BOUNDS_MIN_GAP or len(gap) >= BOUNDS_MAX_TURNS:
            break
    return {"turns": list(range(1, len(gap) + 1)), "lower": lower, "upper": upper, "gap": gap}


def diagonal_series(dist: Distribution) -> dict[str, Any]:
    """The diagonal squares of RobinFiveWords' picture: for each game length k, where its square starts and its side
    (until DIAGONAL_MASS of the games are over, DIAGONAL_MAX_SQUARES squares, or the end of the exact part), each
    correctly rounded from the exact terms."""
    turns: list[int] = []
    corners: list[float] = []
    sides: list[float] = []
    mass = Fraction(DIAGONAL_MASS)
    for k, (power, a, total) in enumerate(dist.scaled_terms(), start=1):
        if a:
            turns.append(k)
            corners.append(stable_ratio(total - a, power))
            sides.append(stable_ratio(a, power))
        if total * mass.denominator >= mass.numerator * power or len(turns) >= DIAGONAL_MAX_SQUARES:
            break
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
        "turns_left": [rounded(turns[q]) if q in turns else (0.0 if q == board.squares else None) for q in squares],
        "visits": [rounded(visits[q]) if q in visits else None for q in squares],
        "landing": None if landed is None else [rounded(landed[q]) if q in landed else None for q in squares],
    }


POSITION_DIGITS = 6
"""The animation's chances are correctly rounded to this many significant digits (and below half a unit of the
sixth decimal, to 0): exact to the precision of a chart, in a few numbers."""


def _six_digits(numerator: int, denominator: int) -> float:
    if 2_000_000 * abs(numerator) < denominator:
        return 0.0
    return rounded_ratio(numerator, denominator, POSITION_DIGITS)


def _landings(chain: TurnChain, feet: list[int]) -> tuple[fmpz_mat, int]:
    """The expected landings on each jump's foot during one turn begun on each state, exactly: L = N / D with N an
    integer matrix (states × feet). A jump's foot is never where a turn starts, so the landings are counted
    roll by roll: without a roll-again rule one roll, with one the rolls from x(I − B)⁻¹ (B the rolls that
    continue a turn, over the roll's weight w), and under a limit of L extra rolls, the first L + 1 rolls level by level
    (`reach.turn_levels`, each roll as the play moves it there), the last landing only if it moves (a roll of
    `roll_again_on` beyond the limit is not moved)."""
    board = chain.board
    d, w = chain.size, board.roll_weight
    rows = chain.passed  # the states, then squares only passed partway through a turn
    column = {foot: j for j, foot in enumerate(feet)}
    lands = [[0] * len(feet) for _ in rows]  # one roll from each row: the weight of landing on each foot
    for i, square in enumerate(rows):
        for _, weight, landing, _ in board.outcomes(square):
            if landing in column:
                lands[i][column[landing]] += weight
    if board.roll_again_on is None:
        return fmpz_mat(lands), w
    again = chain.rolls.again
    if board.roll_again_limit is None:  # (I − B/w)⁻¹·lands/w = (wI − B)⁻¹·lands
        K = fmpz_mat([[w * (i == j) - again[i][j] for j in range(d)] for i in range(d)])
        numerators, denominator = cast(fmpq_mat, K.solve(fmpz_mat(lands))).numer_denom()
        return numerators, int(denominator)
    limit = board.roll_again_limit  # w^(L+1)·per turn: the (k+1)-th roll's landings times w^(L−k), the last moving
    total = [[0] * len(feet) for _ in range(d)]
    for i, origin in enumerate(chain.states):
        for k, level in enumerate(turn_levels(board, origin)):
            for square, x in level.items():
                for roll, weight, landing, _ in board.outcomes_at(square, k, origin):
                    if landing in column and not (roll == board.roll_again_on and k == limit):
                        total[i][column[landing]] += w ** (limit - k) * x * weight
    return fmpz_mat(total), w ** (limit + 1)


def position_series(chain: TurnChain) -> dict[str, Any]:
    """For n = 0, 1, …: the chance of being on each square 0..last after n turns, and on each jump's foot
    the expected landings during turn n (index = square; the last square holds P(T ≤ n)): the board coming
    alive, turn by turn, for the board page's animation.

    After n turns a player's position is the row vector e_startᵀQⁿ over the squares where a turn can start
    (`exact.state_vectors`, integers over sⁿ), plus the mass already home on the last square; a jump's foot
    shows the landings during turn n (`_landings`). Every number is exact, then correctly rounded to
    POSITION_DIGITS significant digits."""
    board = chain.board
    feet = sorted(board.jumps)
    landings, over = _landings(chain, feet)
    landed: list[tuple[int, int]] = [(0, 1)] * len(feet)  # no roll before the first turn
    frames: list[list[float]] = []
    turns = min(POSITIONS_MAX_TURNS + 1, POSITIONS_MAX_VALUES // (board.squares + 1))
    for _, (power, vector) in zip(range(turns), state_vectors(chain)):
        row = [0.0] * (board.squares + 1)
        for square, v in zip(chain.states, vector):
            row[square] = _six_digits(v, power)
        alive = sum(vector)
        row[board.squares] = _six_digits(power - alive, power)
        for foot, (a, b) in zip(feet, landed):
            row[foot] = _six_digits(a, b)
        frames.append(row)
        if (power - alive) * POSITIONS_HOME.denominator >= POSITIONS_HOME.numerator * power:
            break
        during = fmpz_mat([vector]) * landings
        landed = [(int(during[0, j]), power * over) for j in range(len(feet))]
    return {"turns": list(range(len(frames))), "feet": feet, "on_square": frames}
