"""Exact two-player results by the fast method of DESIGN.md §4.

Both quantities are sums V = Σ_l α_l β_l / s^(2l+2) of two integer Krylov sequences
α_l = xᵀMˡy and β_l = x'ᵀMˡy' (M = sQ): the first player's chance is ½ + ½·V with α = β = the
finishing sequence from the start, and P(i, j) = s·V with α from square i and β the "still
playing" sequence from square j.

With F the characteristic polynomial of M (degree m), F#(x) = xᵐF(s²/x) and
H_β(x) = Σ_l β_l Σ_{j>l} F_j s^(2(j-1-l)) x^(m-j+l), one has V = L_α(H_β · F#⁻¹ mod F), where
L_α(xⁱ) = α_i. The denominator of V divides D = |Π_{a≤b}(s² - μ_a μ_b)| over the roots μ of F, and
D² = |Res(F, F#) · F(s) · F(-s)|. So V·D is an integer in [0, D): it is computed modulo word-size
primes (nmod_poly inverse, one dot product each) and rebuilt by the Chinese remainder theorem.
Nothing is rounded at any point.
"""

from __future__ import annotations

import math
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction

import gmpy2
from flint import fmpz_poly, nmod_poly

from compute.chain import TurnChain

PARALLEL_PRIMES = 1500
"""Above this many primes the residues are shared with a second process."""


def krylov(chain: TurnChain, square_index: int, right: list[int], terms: int) -> list[int]:
    """α_l = e_iᵀ Mˡ right for l < terms (exact integers)."""
    vector = [0] * chain.size
    vector[square_index] = 1
    out = []
    for _ in range(terms):
        out.append(sum(v * w for v, w in zip(vector, right) if v))
        vector = chain.step(vector)
    return out


def _primes_above_bits(bits: float) -> list[int]:
    """Consecutive primes just above 2^62 whose product exceeds 2^bits."""
    primes: list[int] = []
    p = gmpy2.mpz(1) << 62
    total = 0.0
    while total <= bits:
        p = gmpy2.next_prime(p)
        primes.append(int(p))
        total += math.log2(int(p))
    return primes


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


def _crt(residues: list[int], primes: list[int]) -> int:
    """The least non-negative integer with the given residues (product-tree CRT)."""
    items = [(gmpy2.mpz(r), gmpy2.mpz(p)) for r, p in zip(residues, primes)]
    while len(items) > 1:
        merged = []
        for (r1, m1), (r2, m2) in zip(items[0::2], items[1::2]):
            k = ((r2 - r1) * gmpy2.invert(m1, m2)) % m2
            merged.append((r1 + m1 * k, m1 * m2))
        if len(items) % 2:
            merged.append(items[-1])
        items = merged
    return int(items[0][0])


class _Setup:
    """Characteristic polynomial, F#, and the bound on the denominator D for one chain."""

    def __init__(self, chain: TurnChain) -> None:
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


def bilinear_sum(chain: TurnChain, alpha: list[int], beta: list[int], setup: _Setup | None = None,
                 parallel: bool | None = None) -> Fraction:
    """V = Σ_l α_l β_l / s^(2l+2) exactly, for sequences annihilated by charpoly(M).

    `alpha` needs 2m-1 terms and `beta` m terms.
    """
    st = setup or _Setup(chain)
    m = st.m
    if m == 0:
        return Fraction(0)
    w = st.functional(alpha, beta)
    primes = _primes_above_bits(st.bound_bits)
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
    numerator = _crt(scaled, [p for _, p in kept])
    return Fraction(numerator, D)


def first_player_wins(chain: TurnChain, parallel: bool | None = None) -> Fraction:
    """Exact probability that the first of two players (both on the start) wins."""
    setup = _Setup(chain)
    a = krylov(chain, chain.start, list(chain.finish), max(2 * setup.m - 1, 1))
    return Fraction(1, 2) + bilinear_sum(chain, a, a, setup, parallel) / 2


def pair_wins(chain: TurnChain, mover: int, other: int) -> Fraction:
    """Exact probability that the player to move, on square `mover`, beats the one on `other`."""
    for square in (mover, other):
        if square not in chain.index:
            raise ValueError(f"square {square} is not a square where a turn can start on this board")
    setup = _Setup(chain)
    a = krylov(chain, chain.index[mover], list(chain.finish), max(2 * setup.m - 1, 1))
    b = krylov(chain, chain.index[other], [1] * chain.size, max(setup.m, 1))
    return chain.scale * bilinear_sum(chain, a, b, setup)
