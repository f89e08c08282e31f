"""Monte Carlo games, compiled with numba and run in parallel, reproducible from a seed.

The rules are written again on purpose in the game loop (`_games`), from their statement on the method page
and independent of `compute.board.rules` and the chain code, so that simulation is a genuine third check of
the exact results. Games are split into fixed chunks, each with its own generator seeded from (seed, chunk): the
same seed gives the same games whatever the number of threads. The game loop is compiled by Numba when
first needed (about 6 s of CPU) and the machine code kept in the user's cache folder (`_compiled_play`),
never inside the installed package, so that the next process loads it in a fraction of a second.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from ..board.model import Board

if TYPE_CHECKING:
    from numba.core.dispatcher import Dispatcher

CHUNK = 1 << 16
"""Games per chunk: each chunk has its own generator, seeded from (seed, chunk)."""
BATCH_CHUNKS = 128
"""`simulate_summary` plays 128 chunks (8.4 million one-player games, 67 MB of lengths) at a time."""
_OVERSHOOT = {"stay": 0, "bounce": 1, "pass": 2}
_MASK = (1 << 64) - 1


@cache
def _compiled_play() -> Dispatcher[Callable[..., np.ndarray]]:
    """`_games.play` compiled by Numba, in parallel, its machine code kept on disk in the user's cache folder
    (`_jit.user_cache`)."""
    import numba

    from . import _games
    from ._jit import user_cache

    with user_cache():
        return numba.njit(parallel=True, cache=True)(_games.play)


def _jump_table(board: Board) -> np.ndarray:
    table = np.arange(board.squares + 1, dtype=np.int64)
    for a, b in board.jumps.items():
        table[a] = b
    return table


def game_lengths(board: Board, games: int, seed: int, first_chunk: int = 0) -> np.ndarray:
    """Number of turns of `games` one-player games from the start square.

    Game g belongs to chunk `first_chunk + g // CHUNK`, whose generator depends only on (seed, chunk):
    so the games of one long call equal those of consecutive calls that start at the following chunks."""
    if games < 1:
        raise ValueError("the number of games must be at least 1")
    again = board.roll_again_on if board.roll_again_on is not None else -1
    limit = board.roll_again_limit if board.roll_again_limit is not None else -1
    cumulative = np.cumsum(np.array(board.weights or (1,) * board.die, dtype=np.int64))
    enters = np.ones(board.dice * board.die + 1, dtype=np.bool_)
    if board.enter_on is not None:
        enters[:] = False
        enters[list(board.enter_on)] = True
    by_turn = board.flips_by_turn and board.roll_again_limit is not None  # where the player flips: [square, roll,
    shape = (board.squares + 1, board.dice * board.die + 1)  # rolls so far, origin], the last two only if it matters
    flips = np.zeros(shape + ((board.roll_again_limit or 0) + 1, board.squares + 1) if by_turn else shape + (1, 1),
                     dtype=np.bool_)
    for square, roll, *at in board.flips:
        if at:
            flips[square, roll, at[0], at[1]] = True
        else:
            flips[square, roll, :, :] = True
    return _compiled_play()(games, seed & _MASK, board.start, board.squares, cumulative, board.dice,
                 _OVERSHOOT[board.overshoot], again, limit, board.penalty == "undo", enters, _jump_table(board),
                 flips, first_chunk, CHUNK)


@dataclass(frozen=True)
class Estimate:
    """A simulated value with its 95% confidence interval."""

    value: float
    low: float
    high: float
    games: int

    def contains(self, x: float) -> bool:
        """Whether `x` lies inside the interval."""
        return self.low <= x <= self.high


LEVEL = 0.95
"""The confidence level of every simulated interval."""


@cache
def _z95() -> float:
    """Half-width of a 95% normal interval, in standard errors (scipy.stats, about a second to import, is
    imported only when an interval is made)."""
    from scipy.stats import norm

    return float(norm.ppf((1 + LEVEL) / 2))


def mean_turns(lengths: np.ndarray) -> Estimate:
    """Average game length with a normal-approximation 95% interval."""
    return _mean_estimate(len(lengths), float(lengths.sum()), float(np.square(lengths, dtype=np.float64).sum()))


def _mean_estimate(n: int, total: float, squares: float) -> Estimate:
    mean = total / n
    variance = max(squares - n * mean * mean, 0.0) / (n - 1) if n > 1 else math.inf
    half = _z95() * math.sqrt(variance / n)
    return Estimate(mean, mean - half, mean + half, n)


def first_player_share(first: np.ndarray, second: np.ndarray) -> Estimate:
    """Share of two-player games won by the first player (wins when T₁ ≤ T₂), with a Wilson interval."""
    return _share_estimate(int(np.count_nonzero(first <= second)), len(first))


def _share_estimate(wins: int, n: int) -> Estimate:
    from scipy.stats import binomtest

    interval = binomtest(wins, n).proportion_ci(confidence_level=LEVEL, method="wilson")
    return Estimate(wins / n, float(interval.low), float(interval.high), n)


def two_player_games(board: Board, games: int, seed: int, first_chunk: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Game lengths of the first and second player in `games` independent two-player games."""
    both = game_lengths(board, 2 * games, seed, first_chunk)
    return both[0::2], both[1::2]


@dataclass(frozen=True)
class Summary:
    """What `chutes simulate` reports about many two-player games, gathered batch by batch."""

    mean_turns: Estimate
    first_player: Estimate
    shortest: int
    longest: int


def simulate_summary(board: Board, games: int, seed: int) -> Summary:
    """Simulate `games` two-player games in batches (memory stays under 100 MB whatever the number), with
    exactly the games `two_player_games(board, games, seed)` would play."""
    batch = BATCH_CHUNKS * CHUNK // 2
    n = wins = 0
    total = squares = 0.0
    shortest, longest = math.inf, 0
    for done in range(0, games, batch):
        first, second = two_player_games(board, min(batch, games - done), seed, first_chunk=2 * done // CHUNK)
        for lengths in (first, second):
            total += float(lengths.sum())
            squares += float(np.square(lengths, dtype=np.float64).sum())
            shortest, longest = min(shortest, int(lengths.min())), max(longest, int(lengths.max()))
        wins += int(np.count_nonzero(first <= second))
        n += len(first)
    return Summary(_mean_estimate(2 * n, total, squares), _share_estimate(wins, n), int(shortest), longest)
