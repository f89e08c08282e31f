"""The numbers and colours that the page scripts share with the Python side, gathered here and written into the
site as data (`assets/javascripts/constants.js`, `window.ChutesConstants`), so that no script keeps a copy.

engine.js, the calculator and the design page's scripts read them from there: the board file's limits and the most
players (compute/board/limits.py), the turns of "over within" (compute/record/results.py), the colours of the board
pages' figures and the columns of the board's grid (site_build/pages/figures.py). loader.js loads the file before any
script that reads it.
"""

from __future__ import annotations

import json
from typing import Any

from ...compute.board.limits import (
    MAX_DICE,
    MAX_DIE,
    MAX_PLAYERS,
    MAX_ROLL_AGAIN_LIMIT,
    MAX_SQUARES,
    MAX_WEIGHT,
    RANGES,
)
from ...compute.record.results import WITHIN
from . import figures

SCRIPT = "assets/javascripts/constants.js"
"""Where the generated script goes in the docs tree."""


def _rgb(colour: str) -> list[int]:
    """A colour "#rrggbb" as [red, green, blue] (the design page mixes colours of the scale itself)."""
    return [int(colour[i:i + 2], 16) for i in (1, 3, 5)]


def grid_steps(largest: int = MAX_SQUARES) -> list[list[int]]:
    """`figures.grid_columns` for every board of 1 to `largest` squares, as the steps where its value changes:
    [squares, columns] pairs, each holding from its number of squares up to the next pair's (a few dozen
    pairs, not 1,000 numbers; the page reads the rule's output and never works the rule out itself)."""
    steps: list[list[int]] = []
    for squares in range(1, largest + 1):
        columns = figures.grid_columns(squares)
        if not steps or steps[-1][1] != columns:
            steps.append([squares, columns])
    return steps


def site_constants() -> dict[str, Any]:
    """Every shared value, as plain JSON data."""
    return {
        "MAX_SQUARES": MAX_SQUARES,
        "MAX_DIE": MAX_DIE,
        "MAX_DICE": MAX_DICE,
        "MAX_ROLL_AGAIN_LIMIT": MAX_ROLL_AGAIN_LIMIT,
        "MAX_WEIGHT": MAX_WEIGHT,
        "MAX_PLAYERS": MAX_PLAYERS,
        "RANGES": RANGES,
        "WITHIN": list(WITHIN),
        "LADDER": figures.LADDER,
        "CHUTE": figures.CHUTE,
        "PLAIN": list(figures.PLAIN),
        "PALETTE": list(figures.OKABE_ITO),
        "CIVIDIS": [[stop, _rgb(colour)] for stop, colour in figures.CIVIDIS],
        "GRID_COLUMNS": grid_steps(),
    }


def constants_script() -> str:
    """The generated script: the values as one global object, set before any script that reads them runs."""
    data = json.dumps(site_constants(), separators=(",", ":"), sort_keys=True)
    return ("/* Written by `chutes build` from the Python side (site_build/pages/constants.py): do not edit. */\n"
            f"window.ChutesConstants = {data};\n")
