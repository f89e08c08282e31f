"""The turn chain as plain integers: the value type every exact and float algorithm takes.

Q = M / s exactly, with M an integer matrix (python-flint's `fmpz_mat`) and s the common scale; the chance of
finishing in one turn from each state is finish / s. Keeping one scale for the whole matrix lets the
algorithms work with integers throughout and divide once at the end.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from flint import fmpq_mat, fmpz_mat

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True)
class IntegerChain:
    """One player's absorbing chain as integers: Q = M / scale among `states`, r = finish / scale, the game
    starting on state `start`. What the exact and float algorithms take: no board, no cached results."""

    states: tuple[int, ...]
    scale: int
    M: fmpz_mat
    finish: tuple[int, ...]
    index: dict[int, int] = field(repr=False)
    """The state of each square where a turn can start."""
    start: int
    """Index of the starting square's state."""

    @property
    def size(self) -> int:
        """Number of transient states d."""
        return len(self.states)

    @cached_property
    def rows(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Sparse rows of M: for each state, the (column, integer weight) pairs."""
        entries = [[int(x) for x in row] for row in self.M.tolist()]
        return tuple(tuple((j, w) for j, w in enumerate(row) if w) for row in entries)

    @cached_property
    def Q_float(self) -> np.ndarray:
        """Q in double precision (for cross-checks and charts)."""
        import numpy as np  # a quick exact solve never needs it: numpy takes longer to import than it runs

        return np.array([[int(x) for x in row] for row in self.M.tolist()], dtype=float) / self.scale

    @cached_property
    def r_float(self) -> np.ndarray:
        """Probability of finishing in one turn from each state, in double precision."""
        import numpy as np

        return np.array(self.finish, dtype=float) / self.scale

    def Q_exact(self) -> fmpq_mat:
        """Q as an exact rational matrix."""
        return fmpq_mat(self.M) / self.scale

    def step(self, vector: list[int]) -> list[int]:
        """Integer row vector times M (one turn, before dividing by the scale)."""
        out = [0] * self.size
        for i, vi in enumerate(vector):
            if vi:
                for j, w in self.rows[i]:
                    out[j] += vi * w
        return out
