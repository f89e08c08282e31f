"""A board's record: its exact results, chart series, three-way checks, players and experiments, assembled.

Everything comes from the board's one turn chain (`chain.turn_chain`), which computes each quantity once;
the record's fields are described in `compute.record`.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from .. import __version__
from ..board import cost
from ..board.limits import MAX_PLAYERS
from ..board.model import Board
from ..experiments import sweeps
from ..numbers import rounded, stable
from ..solve import threeplayer
from ..solve.chain import TurnChain, turn_chain
from ..solve.modular import in_one_process
from ..solve.races import Certified, races_together, rounds_record
from ..solve.simulate import Estimate, first_player_share, mean_turns, two_player_games
from . import SCHEMA_VERSION, words
from .criteria import SIMULATION_Z
from .key import SIMULATED_GAMES, SIMULATION_SEED, cache_key
from .results import solve
from .schema import ComputedRecord, ExactValue, Experiments, Skipped
from .series import bound_series, diagonal_series, length_series, position_series, square_series

EXPERIMENTS_MAX_SQUARES = 120  # the single-jump scan grows as squares⁴: larger boards get it on request only
STATE_MAP_SQUARES = 100
"""The most squares the state map's rows and columns show (evenly spaced beyond: 10,000 numbers at most)."""


def board_record(board: Board, experiments: Experiments | Skipped, jobs: int = 1) -> ComputedRecord:
    """Everything the site shows about one board: exact results, chart series, three-way checks, players, and
    its `experiments` (from `board_experiments`, run apart because they keep their own resumable pieces),
    validated by its model (a pydantic ValidationError if any part is implausible or not of its layout).
    With `jobs` = 1 everything runs in this process.
    """
    key = cache_key(board)
    chain = turn_chain(board)
    first, second = two_player_games(chain.board, SIMULATED_GAMES, SIMULATION_SEED)  # as played (a choice: best)
    lengths = np.concatenate([first, second])
    simulated = mean_turns(lengths), first_player_share(first, second)
    dist = chain.distribution
    return ComputedRecord.model_validate({
        "schema": SCHEMA_VERSION,
        "version": __version__,
        "key": key,
        "slug": board.slug,
        "results": solve(chain),
        "series": {
            "bounds": bound_series(dist),
            "length": length_series(dist, lengths),
            "diagonal": diagonal_series(dist),
            "squares": square_series(chain),
            "positions": position_series(chain),
        },
        "checks": three_ways(chain, simulated, SIMULATION_SEED),
        "players": players_record(chain, alone=jobs == 1),
        "experiments": experiments,
    })


def board_experiments(board: Board, folder: Path | None = None, jobs: int = 1, force: bool = False,
                      progress: bool | None = None, scheduler: str | None = None) -> Experiments | Skipped:
    """A board's experiments for its record (the die sizes, the start square, one added jump), their pieces
    kept in `folder` to resume from and run on `jobs` processes or the Dask cluster at `scheduler`; or why
    they are left out (`Skipped`): the board has more than
    EXPERIMENTS_MAX_SQUARES squares (`chutes experiment` still runs them on request) or house rules (the
    die-size and added-jump experiments are written for one fair die and an unlimited roll-again).
    `progress` goes to the sweeps' tqdm bars (None shows them on a terminal only, False never)."""
    if board.house_rules:
        return words.ENGLISH.skip("house_rules")
    if board.squares > EXPERIMENTS_MAX_SQUARES:
        return words.ENGLISH.skip("squares", limit=EXPERIMENTS_MAX_SQUARES)
    return Experiments.model_validate(
        {"dice": sweeps.dice(board, jobs=jobs, scheduler=scheduler, folder=folder, force=force, progress=progress),
         "start": sweeps.start(board),
         "add_jump": sweeps.add_jump(board, jobs=jobs, scheduler=scheduler, folder=folder, force=force,
                                     progress=progress)})


def first_of_three(chain: TurnChain, alone: bool = False) -> Fraction | Skipped:
    """The exact chance that the first of three players wins, if it fits the budget (else why not); `alone`: in
    this process only."""
    seconds = chain.first_of_three_seconds
    if seconds > threeplayer.THREE_PLAYER_BUDGET:
        return words.ENGLISH.skip("seconds", limit=round(threeplayer.THREE_PLAYER_BUDGET), seconds=round(seconds))
    with in_one_process(alone):
        return chain.first_of_three_wins


def _map_sample(states: int) -> list[int]:
    """The states the state map shows: all of them, or STATE_MAP_SQUARES evenly spaced from the first."""
    if states <= STATE_MAP_SQUARES:
        return list(range(states))
    return sorted({round(j * (states - 1) / (STATE_MAP_SQUARES - 1)) for j in range(STATE_MAP_SQUARES)})


def players_record(chain: TurnChain, alone: bool = False) -> dict[str, Any]:
    """What the site shows about several players: the first of three's chance (`first_of_three`), seats for
    2..MAX_PLAYERS, rounds, the two-player state map (of at most STATE_MAP_SQUARES squares: its size grows as
    d²), and the turn chain in floats for the page's calculator (which computes the per-square distributions).
    Exact values stay fractions: the record's model writes them out."""
    three = first_of_three(chain, alone)
    shown = _map_sample(chain.size)
    start = chain.board.start
    rounds_until = {str(n): rounds_record(chain, n) for n in range(1, 5)}
    results = races_together(chain, start, list(range(2, MAX_PLAYERS + 1)))
    seats: dict[str, list[dict[str, Any]]] = {}
    relative: dict[str, list[float]] = {}
    rounds: dict[str, Any] = {"1": ExactValue.model_validate(chain.expected_turns[chain.start])}  # one player
    for n, result in results.items():
        rounds[str(n)] = result.rounds.json()
        if n == 2:
            first = chain.first_player_wins
            chances: list[Fraction | Certified] = [first, 1 - first]
            seats["2"] = [{"seat": s + 1, "square": start, "chance": x} for s, x in enumerate(chances)]
        else:
            chances = list(result.wins)
            seats[str(n)] = [{"seat": s + 1, "square": start, **w.json()} for s, w in enumerate(result.wins)]
        relative[str(n)] = [float(f"{n * float(x):.10g}") for x in chances]
    W = chain.floats.series(shown).pairs
    Q = chain.Q_float
    return {
        "first_of_three": three,
        "rounds": rounds_until,
        "seats": seats,
        "seats_vs_fair_share": relative,
        "expected_rounds": rounds,
        "state_map": {"squares": [chain.states[i] for i in shown],
                      "mover_wins": [[float(f"{x:.6g}") for x in row] for row in np.clip(W, 0.0, 1.0)]},
        "calculator": {"squares": list(chain.states), "start": start,
                       "rows": [[[int(j), float(Q[i, j])] for j in np.flatnonzero(Q[i])] for i in range(chain.size)],
                       "finish": [float(x) for x in chain.r_float]},
    }


def three_ways(chain: TurnChain, simulated: tuple[Estimate, Estimate], seed: int) -> dict[str, Any]:
    """How we know: expected turns and the first player's chance three ways, exact vs float vs the `simulated`
    average game length and first player's share of two-player games (`simulate.mean_turns`,
    `simulate.first_player_share`).

    A simulated value agrees when it lies within `criteria.SIMULATION_Z` standard errors of the exact value;
    the standard error comes from the exact distribution (√(variance/n) for an average of n game lengths,
    √(p(1 − p)/n) for a share of n games), so that it does not depend on the simulation's own noise."""
    simulated_mean, simulated_share = simulated
    (mean, variance), first = chain.moments, chain.first_player_wins
    floats = chain.floats
    series = floats.start_series
    bound = floats.relative_error(series.terms)
    return {
        "games": simulated_share.games,
        "seed": seed,
        "criterion": SIMULATION_Z,
        "float_terms": series.terms,
        "float_bound": float(f"{bound:.1e}"),
        "expected_turns": _row(mean, float(series.expected_turns[chain.start]), bound, simulated_mean,
                               math.sqrt(variance)),
        "first_player_wins": _row(first, float(series.pairs[0, 0]), bound, simulated_share,
                                  math.sqrt(float(first * (1 - first)))),
    }


def _row(exact: Fraction, floating: float, bound: float, estimate: Estimate, spread: float) -> dict[str, Any]:
    standard_error = spread / math.sqrt(estimate.games)
    if standard_error == 0:  # every game ends the same way (a one-sided die): the simulation must say exactly that
        if estimate.value != float(exact):
            raise ArithmeticError(f"the simulation gives {estimate.value} where every game gives {float(exact)}")
        z = 0.0
    else:
        z = abs(estimate.value - float(exact)) / standard_error
    error = abs(Fraction(floating) - exact)
    return {
        "exact": exact,
        "float": stable(floating),
        "float_error": rounded(error, 3),
        "float_agrees": error <= Fraction(bound) * exact,
        "simulated": stable(estimate.value),
        "standard_error": stable(standard_error),
        "standard_errors_apart": round(z, 2),
        "agrees": z <= SIMULATION_Z,
    }


EXPERIMENT_SECONDS = 2.5
"""About what the experiments take on a 100-square board (run only up to EXPERIMENTS_MAX_SQUARES squares);
twice that with a roll-again rule, whose added jumps change the turn matrix by dense updates."""


def record_seconds(board: Board) -> float:
    """A rough estimate of `board_record`'s time in seconds (one process, the reference machine), to start the
    longest boards first and to tell people what to expect: the exact solve (`cost.estimated_seconds`), the
    exact three-player chance when it fits its budget, and the experiments up to EXPERIMENTS_MAX_SQUARES.
    The million simulated games, the series and the checks are left out (about a second on 100 squares)."""
    three = turn_chain(board).first_of_three_seconds
    experiments = 0.0
    if board.squares <= EXPERIMENTS_MAX_SQUARES and not board.house_rules:
        experiments = EXPERIMENT_SECONDS * (2 if board.roll_again_on else 1)
    return (cost.estimated_seconds(board)[0] + (three if three <= threeplayer.THREE_PLAYER_BUDGET else 0.0)
            + experiments)
