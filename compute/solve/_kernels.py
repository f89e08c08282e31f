"""The double-precision loops of `floats`, compiled by Numba when this module is imported (`floats._kernels`
keeps the machine code in the user's cache folder). Every sum runs in a fixed order, one product and one
addition at a time (Numba fuses no multiply-add and reorders no sum unless told to), so each result is the same
float on every processor, whatever its SIMD width, BLAS library or number of threads."""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def vector_times(x, indptr, indices, values):
    """x·Q for a row vector x and Q in compressed rows (indptr, indices, values): row by row, in order."""
    out = np.zeros(x.shape[0])
    for i in range(x.shape[0]):
        xi = x[i]
        if xi != 0.0:
            for e in range(indptr[i], indptr[i + 1]):
                out[indices[e]] += xi * values[e]
    return out


@numba.njit(cache=True)
def times_vector(indptr, indices, values, v):
    """Q·v for a column vector v and Q in compressed rows: each entry summed along its row, in order."""
    out = np.zeros(v.shape[0])
    for i in range(v.shape[0]):
        s = 0.0
        for e in range(indptr[i], indptr[i + 1]):
            s += values[e] * v[indices[e]]
        out[i] = s
    return out


@numba.njit(cache=True)
def series(indptr, indices, values, finish, picks, tolerance, max_turns):
    """The Neumann series of the chain: t = Σₖ Qᵏ·1 and W[a, b] = Σₖ (Qᵏr)[pᵃ]·(Qᵏ1)[pᵇ] for the states p =
    `picks`, until max(Qᵏ·1) < `tolerance`. Returns t, W and the number of terms."""
    d = finish.shape[0]
    m = picks.shape[0]
    f = finish.copy()
    g = np.ones(d)
    t = np.zeros(d)
    W = np.zeros((m, m))
    k = 0
    while k < max_turns:
        for i in range(d):
            t[i] += g[i]
        for a in range(m):
            fa = f[picks[a]]
            if fa != 0.0:
                for b in range(m):
                    W[a, b] += fa * g[picks[b]]
        f = times_vector(indptr, indices, values, f)
        g = times_vector(indptr, indices, values, g)
        k += 1
        top = 0.0
        for i in range(d):
            if g[i] > top:
                top = g[i]
        if top < tolerance:
            break
    return t, W, k


@numba.njit(cache=True)
def scan(indptr, indices, values, finish, start, U, V, alive, max_turns):
    """P(first of two wins) = ½ + ½·Σₖ P(T = k)² for each chain Q + U[j]·V[j]ᵀ (a rank-2 change of one turn
    chain per added jump), each run until less than `alive` of its games are still going; nan if not by then.
    Returns the chances and, for each chain, the turns it ran.

    The chains run side by side, the chain the innermost loop (so that the processor may work on several at once:
    each chain's own sums keep their order), and the finished ones are dropped as they finish."""
    J, d, r = U.shape
    out = np.full(J, np.nan)
    turns = np.zeros(J, dtype=np.int64)
    live = np.arange(J)
    Ut = np.ascontiguousarray(U.transpose(1, 2, 0))  # d × r × J
    Vt = np.ascontiguousarray(V.transpose(1, 2, 0))
    vsum = np.zeros((r, J))
    for a in range(r):
        for i in range(d):
            for c in range(J):
                vsum[a, c] += Vt[i, a, c]
    X = np.zeros((d, J))
    X[start, :] = 1.0
    total = np.zeros(J)
    for k in range(max_turns):
        n = live.shape[0]
        xu = np.zeros((r, n))
        p = np.zeros(n)
        for i in range(d):
            for c in range(n):
                p[c] += X[i, c] * finish[i]
            for a in range(r):
                for c in range(n):
                    xu[a, c] += X[i, c] * Ut[i, a, c]
        for a in range(r):
            for c in range(n):
                p[c] -= xu[a, c] * vsum[a, c]
        for c in range(n):
            total[c] += p[c] * p[c]
        Y = np.zeros((d, n))
        for i in range(d):
            for e in range(indptr[i], indptr[i + 1]):
                j, q = indices[e], values[e]
                for c in range(n):
                    Y[j, c] += X[i, c] * q
        mass = np.zeros(n)
        for i in range(d):
            for a in range(r):
                for c in range(n):
                    Y[i, c] += xu[a, c] * Vt[i, a, c]
            for c in range(n):
                mass[c] += Y[i, c]
        X = Y
        keep = mass >= alive
        if not keep.all():
            for c in range(n):
                if not keep[c]:
                    out[live[c]] = 0.5 + 0.5 * total[c]
                    turns[live[c]] = k + 1
            live, X, total = live[keep], np.ascontiguousarray(X[:, keep]), total[keep]
            Ut, Vt, vsum = np.ascontiguousarray(Ut[:, :, keep]), np.ascontiguousarray(Vt[:, :, keep]), vsum[:, keep]
            if live.shape[0] == 0:
                break
    return out, turns
