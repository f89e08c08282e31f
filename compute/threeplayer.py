"""The exact chance that the first of three players wins, by a symmetric-square resultant.

With T one player's game length, a_k = P(T = k) and S_k = P(T ≥ k), seat 1 of 3 wins with
P1 = Σₖ a_k S_k². In integers (A = sQ = M, R = s·r, u the start): α_j = uᵀAʲR, σ_j = uᵀAʲ1 and
q_j = α_j σ_j give P1 = (1/s) Σ_j q_j σ_j / c^j with c = s³.

F, the minimal polynomial of the pair (α, σ), annihilates both; its factor xᶻ only touches the first z
terms, which are summed directly, so below F is the part with nonzero roots μ (degree k) and the sequences
start at index z. The products q_j = (x⊗y)ᵀ(C⊗C)ʲ(e⊗e), C the companion matrix of F, live on the symmetric
square, so they are annihilated by G (roots μ_a μ_b, a ≤ b, degree L = k(k+1)/2), found exactly from power
sums: p_n of F from a series division, P_n = (p_n² + p_2n)/2 for G, and
G*(x) = xᴸG(1/x) = exp(-Σ P_n xⁿ/n). With ℓ_q(Xʲ) = q_j on ℚ[X]/G and ℓ_σ(Yʲ) = σ_j on ℚ[Y]/F,

    Σ_j q_j σ_j / c^j = c · (ℓ_q ⊗ ℓ_σ)[(c - XY)⁻¹],

and eliminating X modulo G leaves one inversion modulo F: the sum is c · ℓ_σ(H(Y) · G̃(Y)⁻¹ mod F), with
G̃(Y) = c^L G*(Y/c) and H(Y) = c^(L-1) N(Y/c), N = (G* · Σ q_j xʲ) mod xᴸ. Both are reduced modulo F
exactly once. Then N' = ℓ_σ(H · Res(F, G̃) · G̃⁻¹ mod F) is an integer and
P1 = (the first z terms) + s^(2-3z) · N' / Res(F, G̃). For each word-size prime one xgcd and one
resultant of degree k give N' and Res(F, G̃) modulo the prime; the Chinese remainder theorem rebuilds
both, with as many primes as a rigorous bound on |Res(F, G̃)| = Π |c - μ_a μ_b μ_m| asks for, and two
spare primes that must agree. Nothing is rounded.
"""

from __future__ import annotations

import math
import multiprocessing
import os
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from fractions import Fraction

import gmpy2
from flint import ctx, fmpq, fmpq_series, fmpz_mat, fmpz_poly, nmod_poly

from compute.chain import TurnChain
from compute.twoplayer import _crt_many, _primes_above_bits, _reduced_fraction, krylov

PARALLEL_PRIMES = 2000
"""Above this many primes the residues are shared with a second process."""

SPARE_PRIMES = 2
"""Primes beyond the bound whose residues must agree with the reconstruction."""

PRIME_BITS = 62
"""Every prime used is above 2^PRIME_BITS (the primes of `_primes_above_bits`)."""

OUTER_GROUP, INNER_GROUP = 128, 8
"""Primes per group in the two-level reduction of the big coefficients."""


@dataclass(frozen=True)
class ThreeSetup:
    """The exact data of one chain, ready for the modular stage: P1 = head + s²·N' / (s^(3z)·Res(F, G̃))."""

    scale: int
    zeros: int
    head: Fraction
    F: fmpz_poly
    G_mod: fmpz_poly
    w: fmpz_poly
    bound_bits: float

    @property
    def k(self) -> int:
        """Degree of F (its nonzero roots)."""
        return self.F.degree()


def pair_annihilator(alpha: list[int], sigma: list[int], d: int) -> list[int]:
    """Coefficients (constant first, monic) of the minimal polynomial annihilating both sequences.

    Needs 2d terms of each; d is the size of the matrix generating them."""
    windows = [alpha[j:j + d] + sigma[j:j + d] for j in range(d + 1)]
    rank = fmpz_mat(2 * d, d + 1, [windows[j][i] for i in range(2 * d) for j in range(d + 1)]).rank()
    first = fmpz_mat(2 * d, rank + 1, [windows[j][i] for i in range(2 * d) for j in range(rank + 1)])
    kernel, nullity = first.nullspace()
    if nullity != 1:
        raise ArithmeticError("the Krylov windows do not give a unique minimal polynomial")
    coeffs = [int(kernel[i, 0]) for i in range(rank + 1)]
    lead = coeffs[-1]
    if lead == 0 or any(c % lead for c in coeffs):
        raise ArithmeticError("the minimal polynomial is not monic over the integers")
    return [c // lead for c in coeffs]


def _series_terms(poly: fmpz_poly, n: int) -> list[int]:
    """The first n coefficients of a polynomial (zero-padded) as Python ints."""
    out = [int(c) for c in poly.coeffs()[:n]]
    return out + [0] * (n - len(out))


def symmetric_square_reversed(F_rev: fmpz_poly, inverse: fmpz_poly, L: int) -> fmpz_poly:
    """G*(x) = Π_{a≤b} (1 - μ_a μ_b x) from F*(x) = Π (1 - μ x) and its inverse series (≥ 2L+1 terms)."""
    minus_x_derivative = -(fmpz_poly([0, 1]) * F_rev.derivative())
    p = _series_terms(minus_x_derivative.mul_low(inverse, 2 * L + 1), 2 * L + 1)  # power sums p_n
    log_terms = [fmpq(0)]
    for n in range(1, L + 1):
        twice = p[n] * p[n] + p[2 * n]
        log_terms.append(fmpq(-(twice // 2), n))
    old = ctx.cap
    ctx.cap = L + 1
    try:
        coeffs = fmpq_series(log_terms, prec=L + 1).exp().coeffs()
    finally:
        ctx.cap = old
    if any(c.q != 1 for c in coeffs):
        raise ArithmeticError("the symmetric square has non-integer coefficients")
    return fmpz_poly([c.p for c in coeffs])


def _scaled(coeffs: list[int], c: int, top: int) -> fmpz_poly:
    """Σ coeffs_e · c^(top-e) · Yᵉ (the products taken by GMP)."""
    powers = [gmpy2.mpz(1)] * (top + 1)
    for i in range(1, top + 1):
        powers[i] = powers[i - 1] * c
    return fmpz_poly([int(x * powers[top - e]) if x else 0 for e, x in enumerate(coeffs)])


def resultant_bound_bits(chain: TurnChain, k: int, L: int) -> float:
    """An upper bound on log2 |Res(F, G̃)| = Σ log2 |c - μ_a μ_b μ_m| over the roots of F (with margin).

    Each factor is c·|1 - λλ'λ''| ≤ c·exp(|λλ'λ''|) with λ = μ/s eigenvalues of Q; the sum over triples is
    N1 (N1² + N2) / 2 with N2 = Σ|λ|² ≤ ‖Q‖_F² (Schur) and N1 = Σ|λ| ≤ √(k N2)."""
    s = chain.scale
    frob = Fraction(sum(w * w for row in chain.rows for _, w in row), s * s)
    n2 = float(frob) * (1 + 1e-12) + 1e-300
    n1 = math.sqrt(k * n2) * (1 + 1e-12)
    triples = n1 * (n1 * n1 + n2) / 2
    return k * L * 3 * math.log2(s) * (1 + 1e-12) + triples / math.log(2) * (1 + 1e-12) + 64


def three_setup(chain: TurnChain) -> ThreeSetup:
    """Everything exact for the modular stage: F, G̃ mod F and the functional w (no primes yet)."""
    d, s = chain.size, chain.scale
    c = s**3
    alpha = krylov(chain, chain.start, list(chain.finish), 2 * d + 1)
    sigma = krylov(chain, chain.start, [1] * d, 2 * d + 1)
    minimal = pair_annihilator(alpha, sigma, d)
    z = next(i for i, x in enumerate(minimal) if x)
    head = sum((Fraction(alpha[j] * sigma[j] * sigma[j], s ** (3 * j + 1)) for j in range(z)), Fraction(0))
    F = fmpz_poly(minimal[z:])
    k = F.degree()
    if k == 0:
        return ThreeSetup(s, z, head, F, fmpz_poly(), fmpz_poly(), 0.0)
    L = k * (k + 1) // 2
    F_rev = fmpz_poly(minimal[z:][::-1])  # F*(x) = xᵏ F(1/x), constant term 1
    old = ctx.cap
    ctx.cap = 2 * L + 1
    try:
        inverse = fmpz_poly([x.p for x in fmpq_series(F_rev, prec=2 * L + 1).inv().coeffs()])
    finally:
        ctx.cap = old
    G_rev = symmetric_square_reversed(F_rev, inverse, L)
    # the shifted sequences (from index z) to L terms: numerator / F* as power series
    a_shift = _series_terms(fmpz_poly(alpha[z:z + k]).mul_low(F_rev, k).mul_low(inverse, L), L)
    s_shift = _series_terms(fmpz_poly(sigma[z:z + k]).mul_low(F_rev, k).mul_low(inverse, L), L)
    numerator = fmpz_poly([int(gmpy2.mpz(x) * y) for x, y in zip(a_shift, s_shift)]).mul_low(G_rev, L)
    H = _scaled(_series_terms(numerator, L), c, L - 1) % F
    G_mod = _scaled(_series_terms(G_rev, L + 1), c, L) % F
    h = _series_terms(H, k)
    # w_i = ℓ_σ(Yⁱ H) = Σ_e h_e σ_{i+e}, so that ℓ_σ(H · V mod F) = Σ_i V_i w_i for V of degree < k
    product = fmpz_poly(h[::-1]) * fmpz_poly(s_shift[:2 * k - 1])
    w = fmpz_poly(_series_terms(product, 2 * k - 1)[k - 1:2 * k - 1])
    return ThreeSetup(s, z, head, F, G_mod, w, resultant_bound_bits(chain, k, L))


def _product(values: list[int]) -> gmpy2.mpz:
    """The product of the values, by a balanced tree."""
    items = [gmpy2.mpz(v) for v in values] or [gmpy2.mpz(1)]
    while len(items) > 1:
        items = [items[i] * items[i + 1] if i + 1 < len(items) else items[i] for i in range(0, len(items), 2)]
    return items[0]


def _reduced(coeffs: list[int], primes: list[int]) -> Iterator[tuple[list[int], list[int]]]:
    """(a few primes, the coefficients modulo their product), group by group.

    Taking big coefficients modulo products of primes (two levels, OUTER_GROUP then INNER_GROUP primes) lets
    GMP's fast division do most of the work that word-size remainders would otherwise do prime by prime."""
    big = [gmpy2.mpz(c) for c in coeffs]
    for i in range(0, len(primes), OUTER_GROUP):
        outer = primes[i:i + OUTER_GROUP]
        modulus = _product(outer)
        level = [c % modulus for c in big]
        for j in range(0, len(outer), INNER_GROUP):
            inner = outer[j:j + INNER_GROUP]
            modulus = _product(inner)
            yield inner, [int(c % modulus) for c in level]


def _residues(F: list[int], G_mod: list[int], w: list[int], primes: list[int]) -> list[tuple[int, int] | None]:
    """(Res(F, G̃) mod p, N' mod p) for each prime; None where G̃ is not invertible modulo F and p."""
    Fz = fmpz_poly(F)
    k, n = len(F) - 1, len(G_mod)
    out: list[tuple[int, int] | None] = []
    for group, reduced in _reduced(G_mod + w, primes):
        Gz, wz = fmpz_poly(reduced[:n]), fmpz_poly(reduced[n:])
        for p in group:
            Fp, Gp, wp = nmod_poly(Fz, p), nmod_poly(Gz, p), nmod_poly(wz, p)
            g, inverse, _ = Gp.xgcd(Fp)
            if not g.is_one():
                out.append(None)
                continue
            res = int(Fp.resultant(Gp))
            coeffs = (inverse * wp.reverse(k - 1)).coeffs()
            dot = int(coeffs[k - 1]) if len(coeffs) >= k else 0
            out.append((res, res * dot % p))
    return out


def _symmetric(x: int, modulus: int) -> int:
    """The representative of x modulo `modulus` in (-modulus/2, modulus/2]."""
    return x - modulus if 2 * x > modulus else x


def modular_stage(setup: ThreeSetup, parallel: bool | None = None) -> Fraction:
    """P1 from the exact setup: residues modulo enough primes, rebuilt by the Chinese remainder theorem."""
    st, s, z = setup, setup.scale, setup.zeros
    if st.k == 0:
        return st.head
    # |N'| ≤ |Res| · s^(3z-2) because 0 ≤ P1 - head ≤ 1
    need = st.bound_bits + max(0, 3 * z - 2) * math.log2(s) * (1 + 1e-12) + 1
    primes = _primes_above_bits(need + (SPARE_PRIMES + 1) * (PRIME_BITS + 2))
    F = [int(x) for x in st.F.coeffs()]
    G_mod = [int(x) for x in st.G_mod.coeffs()]
    w = [int(x) for x in st.w.coeffs()]
    use_pool = (len(primes) > PARALLEL_PRIMES) if parallel is None else parallel
    if use_pool and (os.cpu_count() or 1) > 1:
        half = len(primes) // 2
        with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork")) as pool:
            future = pool.submit(_residues, F, G_mod, w, primes[:half])
            rest = _residues(F, G_mod, w, primes[half:])
            residues = future.result() + rest
    else:
        residues = _residues(F, G_mod, w, primes)
    kept = [(r, p) for r, p in zip(residues, primes) if r is not None]
    main, spare = kept[:-SPARE_PRIMES], kept[-SPARE_PRIMES:]
    if len(main) * PRIME_BITS <= need or len(spare) < SPARE_PRIMES:
        raise ArithmeticError("too few usable primes for the Chinese remainder step")
    (res, num), modulus = _crt_many([[r[0] for r, _ in main], [r[1] for r, _ in main]], [p for _, p in main])
    res, num = _symmetric(res, modulus), _symmetric(num, modulus)
    for (r_res, r_num), p in spare:
        if (res - r_res) % p or (num - r_num) % p:
            raise ArithmeticError("a spare prime disagrees with the reconstruction")
    if res == 0:
        raise ArithmeticError("Res(F, G̃) vanished; the chain cannot be transient")
    # P1 = head + s^(2-3z) · N' / Res
    head = st.head
    top = gmpy2.mpz(num) * s**2 * head.denominator + gmpy2.mpz(head.numerator) * res * s ** (3 * z)
    bottom = gmpy2.mpz(res) * s ** (3 * z) * head.denominator
    if bottom < 0:
        top, bottom = -top, -bottom
    return _reduced_fraction(top, bottom)


def first_of_three_wins(chain: TurnChain, parallel: bool | None = None) -> Fraction:
    """Exact probability that the first of three players (all on the start, moving in seat order) wins."""
    return modular_stage(three_setup(chain), parallel)


THREE_PLAYER_BUDGET = 60.0
"""The most the compute stage spends on one board's exact three-player chance; beyond it the page says so."""
SECONDS_PER_PRIME_BIT = 150e-6 / 62 / 76**1.2
"""One prime's residue costs about 150 µs at k = 76 (the classic board), growing like k^1.2 (measured)."""


def estimated_seconds(chain: TurnChain) -> float:
    """The time `first_of_three_wins` needs, from the rigorous prime count with k ≤ d (setup included)."""
    d = chain.size
    bits = resultant_bound_bits(chain, d, d * (d + 1) // 2)
    return 1.0 + bits * SECONDS_PER_PRIME_BIT * d**1.2
