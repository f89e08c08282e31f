"""Double-precision cross-checks with numpy/scipy: the same quantities by floating linear algebra."""

from __future__ import annotations

import numpy as np

from .integer import IntegerChain


def expected_turns_float(chain: IntegerChain) -> np.ndarray:
    """t = (I - Q)⁻¹·1 by LU in double precision."""
    Q = chain.Q_float
    return np.linalg.solve(np.eye(chain.size) - Q, np.ones(chain.size))


def pair_matrix_float(chain: IntegerChain) -> np.ndarray:
    """W[i, j] = P(player to move on i beats the one on j): the Stein equation W = Q W Qᵀ + r 1ᵀ."""
    from scipy.linalg import solve_discrete_lyapunov  # scipy takes longer to import than a quick solve runs

    Q, r = chain.Q_float, chain.r_float
    return solve_discrete_lyapunov(Q, np.outer(r, np.ones(chain.size)))
