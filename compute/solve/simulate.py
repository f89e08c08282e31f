"""Monte Carlo games, compiled with numba and run in parallel, reproducible from a seed.

The rules are written here again on purpose, from their statement on the method page and independent
of `compute.board.rules` and the chain code, so that simulation is a genuine third check of the exact
results. Games are split into fixed chunks, each with its own generator seeded from (seed, chunk): the
same seed gives the same games whatever the number of threads. The game loop is compiled by Numba when
first needed (about 6 s of CPU) and the machine code kept in the user's cache folder (`_compiled_play`),
never inside the installed package, so that the next process loads it in a fraction of a second.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import numba
import numpy as np
from platformdirs import user_cache_dir
from scipy.stats import binomtest, norm

from ..board.model import Board

if TYPE_CHECKING:
    from numba.core.dispatcher import Dispatcher

CHUNK = 1 << 16
BATCH_CHUNKS = 128
"""`simulate_summary` plays 128 chunks (8.4 million one-player games, 67 MB of lengths) at a time."""
_OVERSHOOT = {"stay": 0, "bounce": 1, "pass": 2}
_MASK = (1 << 64) - 1


@numba.njit(inline="always")
def _splitmix(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    state = state + np.uint64(0x9E3779B97F4A7C15)
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return state, z ^ (z >> np.uint64(31))


@numba.njit(inline="always")
def _uniform(state, buffered, have, n):
    """An unbiased integer in 0..n-1 (Lemire's method on 32 random bits), with the generator's new state."""
    while True:
        if have == 0:
            state, buffered = _splitmix(state)
            have = 2
        bits = buffered & np.uint64(0xFFFFFFFF)
        buffered = buffered >> np.uint64(32)
        have -= 1
        product = bits * np.uint64(n)
        low = product & np.uint64(0xFFFFFFFF)
        if low >= np.uint64(n) or low >= (np.uint64(4294967296) - np.uint64(n)) % np.uint64(n):
            break
    return np.int64(product >> np.uint64(32)), state, buffered, have


def _play(n_games, seed, start, last, cumulative, dice, overshoot, again, limit, undo, enters, jumps, first_chunk):
    lengths = np.empty(n_games, dtype=np.int64)
    n_chunks = (n_games + CHUNK - 1) // CHUNK
    faces = len(cumulative)
    total = cumulative[faces - 1]
    for c in numba.prange(n_chunks):
        state = np.uint64(seed) ^ (np.uint64(c + first_chunk) * np.uint64(0xD1B54A32D192ED03))
        state, _ = _splitmix(state)
        buffered = np.uint64(0)
        have = 0
        stop = min(n_games, (c + 1) * CHUNK)
        for g in range(c * CHUNK, stop):
            square = start
            turns = 0
            while square != last:
                turns += 1
                began = square
                extra = 0
                while True:
                    roll = 0
                    for _ in range(dice):  # each die: a face drawn by its weight (equal weights: 1 + the draw)
                        u, state, buffered, have = _uniform(state, buffered, have, total)
                        face = 0
                        while cumulative[face] <= u:
                            face += 1
                        roll += face + 1
                    if roll == again and extra == limit:  # a penalty roll: not moved, and the turn ends
                        square = began if undo else 0
                        break
                    if square == 0 and not enters[roll]:
                        target = 0
                    else:
                        target = square + roll
                        if target > last:
                            if overshoot == 0:
                                target = square
                            elif overshoot == 2:
                                target = last
                            else:
                                target = 2 * last - target
                    square = jumps[target]
                    if roll != again or square == last:
                        break
                    extra += 1
            lengths[g] = turns
    return lengths


@cache
def _compiled_play() -> Dispatcher[Callable[..., np.ndarray]]:
    """`_play` compiled by Numba, in parallel, its machine code kept on disk in the user's cache folder
    (`platformdirs.user_cache_dir("chutes-exact")`, numba/). Numba keeps it beside the source file unless
    told otherwise, which would write inside the installed package: its cache folder setting points elsewhere
    only while the function is wrapped (where the code goes is fixed then), and is put back at once."""
    # numba.config's settings are made with globals() at import, so its type stubs do not list them
    saved = numba.config.CACHE_DIR  # type: ignore[attr-defined]
    numba.config.CACHE_DIR = str(Path(user_cache_dir("chutes-exact")) / "numba")  # type: ignore[attr-defined]
    try:
        return numba.njit(parallel=True, cache=True)(_play)
    finally:
        numba.config.CACHE_DIR = saved  # type: ignore[attr-defined]


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
    return _compiled_play()(games, seed & _MASK, board.start, board.squares, cumulative, board.dice,
                 _OVERSHOOT[board.overshoot], again, limit, board.penalty == "undo", enters, _jump_table(board),
                 first_chunk)


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
Z95 = float(norm.ppf((1 + LEVEL) / 2))
"""Half-width of a 95% normal interval, in standard errors."""


def mean_turns(lengths: np.ndarray) -> Estimate:
    """Average game length with a normal-approximation 95% interval."""
    return _mean_estimate(len(lengths), float(lengths.sum()), float(np.square(lengths, dtype=np.float64).sum()))


def _mean_estimate(n: int, total: float, squares: float) -> Estimate:
    mean = total / n
    variance = max(squares - n * mean * mean, 0.0) / (n - 1) if n > 1 else math.inf
    half = Z95 * math.sqrt(variance / n)
    return Estimate(mean, mean - half, mean + half, n)


def first_player_share(first: np.ndarray, second: np.ndarray) -> Estimate:
    """Share of two-player games won by the first player (wins when T₁ ≤ T₂), with a Wilson interval."""
    return _share_estimate(int(np.count_nonzero(first <= second)), len(first))


def _share_estimate(wins: int, n: int) -> Estimate:
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
