"""How we know: each headline number three ways — exact, float linear algebra, and simulation."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from compute.chain import TurnChain
from compute.numbers import decimal_string, stable
from compute.simulate import Estimate, first_player_share, mean_turns


def _row(exact: Fraction, floating: float, estimate: Estimate) -> dict[str, Any]:
    return {
        "exact": decimal_string(exact, 20),
        "float": stable(floating),
        "float_error": stable(abs(floating - float(exact))),
        "simulated": stable(estimate.value),
        "ci95": [stable(estimate.low), stable(estimate.high)],
        "inside_ci": estimate.contains(float(exact)),
    }


def three_ways(chain: TurnChain, games: tuple[np.ndarray, np.ndarray], seed: int) -> dict[str, Any]:
    """Expected turns and the first player's chance: exact vs float vs `games` simulated two-player games."""
    one, two = games
    return {
        "games": len(one),
        "seed": seed,
        "expected_turns": _row(chain.moments[0], float(chain.expected_turns_float[chain.start]),
                               mean_turns(np.concatenate([one, two]))),
        "first_player_wins": _row(chain.first_player_wins, chain.first_player_float, first_player_share(one, two)),
    }
