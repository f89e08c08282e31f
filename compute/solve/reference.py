"""The full-degree method for two players: slower than the half-degree method of `twoplayer`, and
independent of it, so the tests and benchmarks check one against the other (the mathematics is
in `twoplayer`'s docstring)."""

from __future__ import annotations

import math
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction

import gmpy2
from flint import fmpz_poly, nmod_poly

from .integer import IntegerChain
from .modular import (
    PARALLEL_PRIMES,
    crt,
    krylov,
    primes_above_bits,
    reduced_fraction,
)


def _residues(F: list[int], F_sharp: list[int], w: list[int], primes: list[int]) -> list[int | None]:
    """V mod p for each prime (None where F# is not invertible modulo F and p)."""
    Fz, Fsz, wz = fmpz_poly(F), fmpz_poly(F_sharp), fmpz_poly(w)
    m = len(F) - 1
    out: list[int | None] = []
    for p in primes:
        Fp, Fsp, wp = nmod_poly(Fz, p), nmod_poly(Fsz, p), nmod_poly(wz, p)
        g, inverse, _ = Fsp.xgcd(Fp)
        if not g.is_one():
            out.append(None)
            continue
        if wp.is_zero() or inverse.is_zero():
            out.append(0)
            continue
        product = inverse * wp.reverse(m - 1)
        coeffs = product.coeffs()
        out.append(int(coeffs[m - 1]) if len(coeffs) >= m else 0)
    return out


class _Setup:
    """Characteristic polynomial, F#, and the bound on the denominator D for one chain."""

    def __init__(self, chain: IntegerChain) -> None:
        self.s = chain.scale
        self.F_poly = chain.M.charpoly()
        self.F = [int(c) for c in self.F_poly.coeffs()]
        self.m = len(self.F) - 1
        s2 = self.s * self.s
        self.F_sharp = [self.F[self.m - k] * s2 ** (self.m - k) for k in range(self.m + 1)]
        frob = sum(w * w for row in chain.rows for _, w in row)
        pairs = self.m * (self.m + 1) // 2
        self.bound_bits = pairs * 2 * math.log2(self.s) + (self.m + 1) / 2 * frob / s2 / math.log(2) + 64

    def H(self, beta: list[int]) -> list[int]:
        """Coefficients of H_β(x) (degree < m)."""
        s2, F, m = self.s * self.s, self.F, self.m
        powers = [s2**k for k in range(m + 1)]
        out = [0] * m
        for l_ in range(m):
            b = beta[l_]
            if b:
                for j in range(l_ + 1, m + 1):
                    if F[j]:
                        out[m - j + l_] += b * F[j] * powers[j - 1 - l_]
        return out

    def functional(self, alpha: list[int], beta: list[int]) -> list[int]:
        """w_i = L_α(xⁱ H_β) for i < m: the integer vector whose dot product with F#⁻¹ mod F gives V."""
        Hb, m = self.H(beta), self.m
        return [sum(Hb[j] * alpha[i + j] for j in range(m) if Hb[j]) for i in range(m)]

    def denominator(self) -> int:
        """D = |Π_{a≤b}(s² - μ_a μ_b)|, exactly (an integer square root of a resultant product)."""
        R = int(self.F_poly.resultant(fmpz_poly(self.F_sharp)))
        square = abs(R * int(self.F_poly(self.s)) * int(self.F_poly(-self.s)))
        root, exact = gmpy2.iroot(gmpy2.mpz(square), 2)
        if not exact:
            raise ArithmeticError("the denominator bound is not a perfect square; the chain is inconsistent")
        return int(root)


def bilinear_sum(chain: IntegerChain, alpha: list[int], beta: list[int], setup: _Setup | None = None,
                 parallel: bool | None = None) -> Fraction:
    """V = Σ_l α_l β_l / s^(2l+2) exactly by the full-degree method, for sequences annihilated by charpoly(M).

    `alpha` needs 2m-1 terms and `beta` m terms.
    """
    st = setup or _Setup(chain)
    m = st.m
    if m == 0:
        return Fraction(0)
    w = st.functional(alpha, beta)
    primes = primes_above_bits(st.bound_bits)
    use_pool = (len(primes) > PARALLEL_PRIMES) if parallel is None else parallel
    use_pool = use_pool and (os.cpu_count() or 1) > 1
    if use_pool:
        half = len(primes) // 2
        ctx = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=1, mp_context=ctx) as pool:
            future = pool.submit(_residues, st.F, st.F_sharp, w, primes[:half])
            D = st.denominator()
            rest = _residues(st.F, st.F_sharp, w, primes[half:])
            residues = future.result() + rest
    else:
        D = st.denominator()
        residues = _residues(st.F, st.F_sharp, w, primes)
    kept = [(r, p) for r, p in zip(residues, primes) if r is not None]
    if math.prod(p for _, p in kept) <= 2 * D:
        raise ArithmeticError("too few usable primes for the Chinese remainder step")
    scaled = [(r * (D % p)) % p for r, p in kept]
    numerator = crt(scaled, [p for _, p in kept])
    return reduced_fraction(numerator, D)


def first_player_wins_full(chain: IntegerChain, parallel: bool | None = None) -> Fraction:
    """The first player's chance by the full-degree method (characteristic polynomial, degree d per prime)."""
    setup = _Setup(chain)
    a = krylov(chain, chain.start, list(chain.finish), max(2 * setup.m - 1, 1))
    v = bilinear_sum(chain, a, a, setup, parallel)
    return reduced_fraction(v.denominator + v.numerator, 2 * v.denominator)


def pair_wins_full(chain: IntegerChain, mover: int, other: int) -> Fraction:
    """`pair_wins` by the full-degree method."""
    for square in (mover, other):
        if square not in chain.index:
            raise ValueError(f"square {square} is not a square where a turn can start on this board")
    setup = _Setup(chain)
    a = krylov(chain, chain.index[mover], list(chain.finish), max(2 * setup.m - 1, 1))
    b = krylov(chain, chain.index[other], [1] * chain.size, max(setup.m, 1))
    v = bilinear_sum(chain, a, b, setup)
    return reduced_fraction(chain.scale * v.numerator, v.denominator)
