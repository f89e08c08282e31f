"""Where the token is after each turn: the board coming alive, turn by turn, for the board page's animation.

After n turns a player's position is the row vector e_startᵀQⁿ over the squares where a turn can start,
plus the mass already home on the last square. A jump's foot is never where a turn starts, so for it the
series gives how often a roll lands there during turn n (the expected number of such landings; with a
roll-again rule a turn holds several rolls: the rolls of a turn start from x(I − B)⁻¹, B the rolls that
continue it). Double precision, rounded to 6 significant digits: exact to the precision of a chart.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..solve.chain import TurnChain

SHOWN_MASS = 0.99
"""The animation runs until this share of games is over (or MAX_TURNS, or MAX_VALUES)."""
MAX_TURNS = 300
MAX_VALUES = 30_000
"""The most numbers the series holds (turns × squares): the board page carries them all, so a long board
shows fewer turns (up to turn 28 on 1,000 squares; the bundled boards need at most 24,442)."""


def _round(values: np.ndarray) -> list[float]:
    return [float(f"{v:.6g}") if abs(v) >= 5e-7 else 0.0 for v in values]


def position_series(chain: TurnChain) -> dict[str, Any]:
    """For n = 0, 1, …: the chance of being on each square 0..last after n turns, and on each jump's foot
    the expected landings during turn n (index = square; the last square holds P(T ≤ n))."""
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
    rolls_from = per_turn = None
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
    for _ in range(min(MAX_TURNS + 1, MAX_VALUES // (board.squares + 1))):
        row = np.zeros(board.squares + 1)
        row[list(chain.states)] = x
        row[board.squares] = home
        row[feet] = landed
        frames.append(_round(row))
        if home >= SHOWN_MASS:
            break
        landed = (x @ rolls_from) @ lands if rolls_from is not None else x @ per_turn
        home += float(x @ chain.r_float)
        x = x @ chain.Q_float
    return {"turns": list(range(len(frames))), "feet": feet, "on_square": frames}
