"""How we know: each headline number three ways — exact, float linear algebra, and simulation.

A simulated value agrees when it lies within `criteria.SIMULATION_Z` standard errors of the exact value;
the standard error comes from the exact distribution (√(variance/n) for an average of n game lengths,
√(p(1 − p)/n) for a share of n games), so that it does not depend on the simulation's own noise.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from ..numbers import decimal_string, stable
from ..solve.chain import TurnChain
from ..solve.simulate import Estimate, first_player_share, mean_turns
from .criteria import SIMULATION_Z


def _row(exact: Fraction, floating: float, estimate: Estimate, spread: float) -> dict[str, Any]:
    standard_error = spread / math.sqrt(estimate.games)
    z = abs(estimate.value - float(exact)) / standard_error
    return {
        "exact": decimal_string(exact, 20),
        "float": stable(floating),
        "float_error": stable(abs(floating - float(exact))),
        "simulated": stable(estimate.value),
        "standard_error": stable(standard_error),
        "standard_errors_apart": round(z, 2),
        "agrees": z <= SIMULATION_Z,
    }


def three_ways(chain: TurnChain, games: tuple[np.ndarray, np.ndarray], seed: int) -> dict[str, Any]:
    """Expected turns and the first player's chance: exact vs float vs `games` simulated two-player games."""
    one, two = games
    (mean, variance), first = chain.moments, chain.first_player_wins
    simulated_mean, simulated_share = mean_turns(np.concatenate([one, two])), first_player_share(one, two)
    return {
        "games": len(one),
        "seed": seed,
        "criterion": SIMULATION_Z,
        "expected_turns": _row(mean, float(chain.expected_turns_float[chain.start]), simulated_mean,
                               math.sqrt(variance)),
        "first_player_wins": _row(first, chain.first_player_float, simulated_share,
                                  math.sqrt(float(first * (1 - first)))),
    }
