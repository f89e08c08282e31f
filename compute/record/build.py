"""A board's record: its exact results, chart series, three-way checks, players and experiments, assembled.

Everything comes from the board's one turn chain (`chain.turn_chain`), which computes each quantity once;
the record's fields are described in `compute.record`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .. import __version__, code_hash
from ..board import cost
from ..board.model import Board
from ..experiments import sweeps
from ..numbers import fraction_json
from ..solve import threeplayer
from ..solve.chain import TurnChain, turn_chain
from ..solve.races import players_record
from ..solve.simulate import two_player_games
from ..store.files import key_of
from .checks import three_ways
from .positions import position_series
from .results import solve
from .schema import SCHEMA_VERSION, ComputedRecord, Experiments, FirstPlayer, Skipped
from .series import bound_series, diagonal_series, length_series, square_series

SIMULATED_GAMES = 1_000_000
SIMULATION_SEED = 20261122
EXPERIMENTS_MAX_SQUARES = 120  # the single-jump scan grows as squares⁴: larger boards get it on request only


def cache_key(board: Board) -> str:
    """SHA-256 of everything a board's results depend on: the board, the result schema, the package version,
    the simulation settings and the compute stage's code (`compute.code_hash`: any edit to it is a miss)."""
    basis = {"board": board.canonical(), "title": board.title, "source": board.source, "listed": board.listed,
             "schema": SCHEMA_VERSION, "version": __version__, "code": code_hash(),
             "games": SIMULATED_GAMES, "seed": SIMULATION_SEED}
    return key_of(basis)


def board_record(board: Board, experiments: Experiments | Skipped, jobs: int = 1) -> ComputedRecord:
    """Everything the site shows about one board: exact results, chart series, three-way checks, players, and
    its `experiments` (from `board_experiments`, run apart because they keep their own resumable pieces),
    validated by its model (a pydantic ValidationError if any part is implausible or not of its layout).
    With `jobs` = 1 everything runs in this process.
    """
    chain = turn_chain(board)
    dist = chain.distribution
    first, second = two_player_games(board, SIMULATED_GAMES, SIMULATION_SEED)
    return ComputedRecord.model_validate({
        "schema": SCHEMA_VERSION,
        "version": __version__,
        "key": cache_key(board),
        "slug": board.slug,
        "results": solve(chain),
        "series": {
            "length": length_series(dist, np.concatenate([first, second])),
            "bounds": bound_series(dist),
            "diagonal": diagonal_series(dist),
            "squares": square_series(chain),
            "positions": position_series(chain),
        },
        "checks": three_ways(chain, (first, second), SIMULATION_SEED),
        "players": {"first_of_three": first_of_three(chain, parallel=None if jobs > 1 else False),
                    **players_record(chain)},
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
        return Skipped(skipped="computed for boards without house rules (a roll to enter, several dice, "
                               "weighted faces or a roll-again limit)")
    if board.squares > EXPERIMENTS_MAX_SQUARES:
        return Skipped(skipped=f"computed for the site on boards of up to {EXPERIMENTS_MAX_SQUARES} squares")
    return Experiments.model_validate(
        {"dice": sweeps.dice(board, jobs=jobs, scheduler=scheduler, folder=folder, force=force, progress=progress),
         "start": sweeps.start(board),
         "add_jump": sweeps.add_jump(board, jobs=jobs, scheduler=scheduler, folder=folder, force=force,
                                     progress=progress)})


def first_of_three(chain: TurnChain, parallel: bool | None = None) -> FirstPlayer | Skipped:
    """The exact chance that the first of three players wins, if it fits the budget (else why not)."""
    seconds = threeplayer.estimated_seconds(chain)
    if seconds > threeplayer.THREE_PLAYER_BUDGET:
        return Skipped(skipped=f"left out: it would take about {seconds:.0f} s, more than the "
                               f"{threeplayer.THREE_PLAYER_BUDGET:.0f} s this site allows one board")
    wins = threeplayer.first_of_three_wins(chain, parallel)
    return FirstPlayer.model_validate(fraction_json(wins))


EXPERIMENT_SECONDS = 2.5
"""About what the experiments take on a 100-square board (run only up to EXPERIMENTS_MAX_SQUARES squares);
twice that with a roll-again rule, whose added jumps change the turn matrix by dense updates."""


def record_seconds(board: Board) -> float:
    """A rough estimate of `board_record`'s time in seconds (one process, the reference machine), to start the
    longest boards first and to tell people what to expect: the exact solve (`cost.estimated_seconds`), the
    exact three-player chance when it fits its budget, and the experiments up to EXPERIMENTS_MAX_SQUARES.
    The million simulated games, the series and the checks are left out (about a second on 100 squares)."""
    three = threeplayer.estimated_seconds(turn_chain(board))
    experiments = 0.0
    if board.squares <= EXPERIMENTS_MAX_SQUARES and not board.house_rules:
        experiments = EXPERIMENT_SECONDS * (2 if board.roll_again_on else 1)
    return (cost.estimated_seconds(board)[0] + (three if three <= threeplayer.THREE_PLAYER_BUDGET else 0.0)
            + experiments)
