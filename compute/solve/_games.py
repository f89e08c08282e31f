"""The game loop of `simulate`, compiled by Numba: imported only when games are played (Numba takes about half
a second to import). The rules are written here again on purpose, from their statement on the method page and
independent of `compute.board.rules` and the chain code, so that simulation is a genuine third check of the exact
results."""

from __future__ import annotations

import numba
import numpy as np


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


FACE_TABLE = 4096
"""Up to this total weight a face is read from a table indexed by the draw (no branch to mispredict per face)."""


def play(n_games, seed, start, last, cumulative, dice, overshoot, again, limit, undo, enters, jumps, flips, first_chunk,
         chunk):
    """The lengths of `n_games` one-player games, in chunks of `chunk` games, each chunk's generator seeded from
    (seed, its number): the same games whatever the number of threads."""
    lengths = np.empty(n_games, dtype=np.int64)
    n_chunks = (n_games + chunk - 1) // chunk
    faces = len(cumulative)
    total = cumulative[faces - 1]
    tabled = total <= FACE_TABLE
    table = np.empty(total if tabled else 0, dtype=np.int64)  # table[u] = the face whose weights cover draw u
    if tabled:
        face = 0
        for u in range(total):
            while cumulative[face] <= u:
                face += 1
            table[u] = face + 1
    for c in numba.prange(n_chunks):
        state = np.uint64(seed) ^ (np.uint64(c + first_chunk) * np.uint64(0xD1B54A32D192ED03))
        state, _ = _splitmix(state)
        buffered = np.uint64(0)
        have = 0
        stop = min(n_games, (c + 1) * chunk)
        for g in range(c * chunk, stop):
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
                        if tabled:
                            roll += table[u]
                        else:
                            face = 0
                            while cumulative[face] <= u:
                                face += 1
                            roll += face + 1
                    if roll == again and extra == limit:  # a penalty roll: not moved, and the turn ends
                        square = began if undo else 0
                        break
                    step = roll
                    if flips[square, roll, extra if flips.shape[2] > 1 else 0, began if flips.shape[3] > 1 else 0]:
                        # a coin: one square further on heads, one less on tails
                        u, state, buffered, have = _uniform(state, buffered, have, 2)
                        step = roll + 1 if u == 1 else roll - 1
                    if square == 0 and not enters[roll]:
                        target = 0
                    elif step == 0:
                        target = square
                    else:
                        target = square + step
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
