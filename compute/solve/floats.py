"""The turn chain in double precision, computed in a fixed order: the same floats on every processor.

Each entry of Q = M/s and r = finish/s is correctly rounded from its exact value, and every product and sum
after that runs in an order fixed by the code (`_kernels`, compiled by Numba, or `math.fsum`), never by a BLAS
kernel, a SIMD path or a number of threads: IEEE 754 rounds each operation alike everywhere, so a record holds
the same bytes on any machine. These floats are the double-precision way of the three ways of checking (an
independent method: the Neumann series Σₖ Qᵏ, where the exact way solves linear systems), and what the charts
and scans that need many chains read.

Rounding: every quantity here is a sum of nonnegative terms, so after k turns each entry's relative error is at
most k·(m + 2)·u (m the most entries in a row or column of Q, u = 2⁻⁵³): `relative_error`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from types import ModuleType

import numpy as np

from .integer import IntegerChain

SERIES_TOLERANCE = 2.0**-64
"""The series stops once every P(T > k) is below this: what is left of t = Σₖ Qᵏ·1 is then below 5·10⁻²⁰ of the
longest expected game, and of each pair's chance below 3·10⁻³⁹."""
MAX_SERIES_TURNS = 10**6


@cache
def _kernels() -> ModuleType:
    """The compiled loops (`_kernels`), their machine code kept in the user's cache folder (`_jit.user_cache`)."""
    from ._jit import user_cache

    with user_cache():
        from . import _kernels as kernels
    return kernels


def dot(x: np.ndarray, y: np.ndarray) -> float:
    """Σ xᵢ·yᵢ: the products rounded one by one, their sum correctly rounded (`math.fsum`)."""
    return math.fsum((x * y).tolist())


@dataclass(frozen=True)
class Series:
    """The Neumann series of a chain: expected turns from every state, t = Σₖ Qᵏ·1, and for the states `picks`
    the two-player chances W[a, b] = P(the player to move on picks[a] beats the one on picks[b]) = Σₖ (Qᵏr)ᵢ·(Qᵏ1)ⱼ,
    summed over `terms` turns."""

    expected_turns: np.ndarray
    picks: tuple[int, ...]
    pairs: np.ndarray
    terms: int


@dataclass(frozen=True, eq=False)
class FloatChain:
    """A chain's Q and r in double precision (each entry correctly rounded) in compressed rows, with products
    in a fixed order."""

    chain: IntegerChain

    @cached_property
    def _rows(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        rows, s = self.chain.rows, self.chain.scale
        indptr = np.cumsum([0] + [len(row) for row in rows], dtype=np.int64)
        indices = np.array([j for row in rows for j, _ in row], dtype=np.int64)
        values = np.array([w / s for row in rows for _, w in row], dtype=float)  # int / int: correctly rounded
        return indptr, indices, values

    @cached_property
    def finish(self) -> np.ndarray:
        """r: the chance of finishing in one turn from each state."""
        return np.array([f / self.chain.scale for f in self.chain.finish], dtype=float)

    @cached_property
    def widest(self) -> int:
        """m: the most entries in a row or a column of Q (the rounding bound's factor: a product's entry sums a row
        or a column)."""
        columns: dict[int, int] = {}
        for row in self.chain.rows:
            for j, _ in row:
                columns[j] = columns.get(j, 0) + 1
        return max([len(row) for row in self.chain.rows] + list(columns.values()) + [0])

    def step(self, x: np.ndarray) -> np.ndarray:
        """x·Q for a row vector x of chances over the states."""
        return _kernels().vector_times(np.ascontiguousarray(x, dtype=float), *self._rows)

    def series(self, picks: Sequence[int]) -> Series:
        """The series for the states `picks` (indices), until every P(T > k) is below SERIES_TOLERANCE."""
        chosen = np.array(picks, dtype=np.int64)
        t, W, k = _kernels().series(*self._rows, self.finish, chosen, SERIES_TOLERANCE, MAX_SERIES_TURNS)
        if k >= MAX_SERIES_TURNS:
            raise ArithmeticError(f"the series did not settle within {MAX_SERIES_TURNS} turns")
        return Series(t, tuple(int(p) for p in picks), W, int(k))

    @cached_property
    def start_series(self) -> Series:
        """The series for the starting state alone: expected turns and the first player's chance."""
        return self.series([self.chain.start])

    def relative_error(self, turns: int) -> float:
        """A bound on the relative rounding error of a nonnegative quantity after `turns` turns: k·(m + 2)·u."""
        return turns * (self.widest + 2) * 2.0**-53

    def scan(self, U: np.ndarray, V: np.ndarray, alive: float, max_turns: int) -> tuple[np.ndarray, np.ndarray]:
        """For each j, P(first of two wins) on the chain Q + U[j]·V[j]ᵀ (r changed to match, `_kernels.scan`), run
        until less than `alive` of its games go on (nan if not within `max_turns`); and the turns each ran."""
        return _kernels().scan(*self._rows, self.finish, self.chain.start, np.ascontiguousarray(U, dtype=float),
                               np.ascontiguousarray(V, dtype=float), alive, max_turns)
