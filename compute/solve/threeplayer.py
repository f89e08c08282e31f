"""The exact chance that the first of three players wins, on the symmetric square and cube of F.

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
exactly once; for each word-size prime one xgcd of degree k gives that sum modulo the prime.

The denominator. Σ_j q_j σ_j xʲ is a sum of products of three sequences annihilated by F, so it is
annihilated by the symmetric cube of F (roots μ_a μ_b μ_m, a ≤ b ≤ m); hence the sum times
E = Π_{a≤b≤m} (c - μ_a μ_b μ_m), divided by c, is an integer X, and P1 = head + s^(2-3z) · X / E.
E has about a third of the digits of Res(F, G̃) = Π_m Π_{a≤b} (c - μ_a μ_b μ_m), in which every triple of
distinct roots appears three times and every {a, a, m} twice. Counting them gives
E³ = Res(F, G̃) · Res(F, F̂) · Res(F, c - x³) with F̂(x) = x^(2k) F(c/x²); the last two are small and
computed exactly once, the first modulo each prime (one resultant of degree k). For primes p ≡ 2 (mod 3)
cubing is a bijection of ℤ/p, so E mod p = (E³ mod p)^((2p-1)/3). The Chinese remainder theorem rebuilds
X and E, with as many such primes as a rigorous bound on |E| asks for, and two spare primes that must
agree. Nothing is rounded.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

import gmpy2
from flint import fmpz_mat, fmpz_poly, fmpz_series, nmod_poly

from .integer import IntegerChain
from .modular import crt_many, krylov, primes_above_bits, reduced_fraction, run_parallel
from .recurrence import series_precision

PARALLEL_PRIMES = 2000
"""Above this many primes the residues are shared with a second process."""

SPARE_PRIMES = 2
"""Primes beyond the bound whose residues must agree with the reconstruction."""

PRIME_BITS = 62
"""Every prime used is above 2^PRIME_BITS (the primes of `primes_above_bits`)."""

SPLIT_GROUP, INNER_GROUP = 64, 16
"""The remainder tree of the big coefficients halves its groups of primes down to SPLIT_GROUP, then splits each
into groups of INNER_GROUP, whose residues modulo each prime are taken in C."""


@dataclass(frozen=True)
class ThreeSetup:
    """The exact data of one chain, ready for the modular stage: P1 = head + s²·X / (s^(3z)·E)."""

    scale: int
    zeros: int
    head: Fraction
    F: fmpz_poly
    G_mod: fmpz_poly
    w: fmpz_poly
    cube_cofactor: int
    """Res(F, F̂) · Res(F, c - x³): E³ = Res(F, G̃) times this."""
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


NEWTON_BLOCK = 32
"""Below this many coefficients `from_power_sums` uses Newton's identities term by term."""


def from_power_sums(B: list[int], L: int) -> list[int]:
    """g_0 … g_L of exp(Σ B_n xⁿ / n) when they are integers: g_0 = 1 and n·g_n = Σ_{i=1..n} B_i g_(n-i).

    Newton's identities, divided and conquered: the first half of a range of coefficients adds its share
    to the second half by one polynomial product, so the work is a few products instead of L²/2 big
    multiplications (and no rational arithmetic). Every division must be exact."""
    g = [gmpy2.mpz(0)] * (L + 1)
    g[0] = gmpy2.mpz(1)
    acc = [gmpy2.mpz(0)] * (L + 1)
    big = [gmpy2.mpz(b) for b in B]
    B_poly = fmpz_poly(B)  # mul_low below reads only the first terms it needs

    def solve(lo: int, hi: int) -> None:
        if hi - lo <= NEWTON_BLOCK:
            for n in range(max(lo, 1), hi):
                total = acc[n] + sum(big[i] * g[n - i] for i in range(1, n - lo + 1))
                g[n], rest = gmpy2.f_divmod(total, n)
                if rest:
                    raise ArithmeticError("the symmetric square has non-integer coefficients")
            return
        mid = (lo + hi) // 2
        solve(lo, mid)
        share = fmpz_poly([int(x) for x in g[lo:mid]]).mul_low(B_poly, hi - lo).coeffs()
        for n in range(mid, min(hi, lo + len(share))):
            acc[n] += int(share[n - lo])
        solve(mid, hi)

    solve(0, L + 1)
    return [int(x) for x in g]


def symmetric_square_reversed(F_rev: fmpz_poly, inverse: fmpz_poly, L: int) -> fmpz_poly:
    """G*(x) = Π_{a≤b} (1 - μ_a μ_b x) from F*(x) = Π (1 - μ x) and its inverse series (≥ 2L+1 terms).

    log G* = -Σ P_n xⁿ/n with P_n = (p_n² + p_2n)/2 the power sums of the products μ_a μ_b (a ≤ b)."""
    minus_x_derivative = -(fmpz_poly([0, 1]) * F_rev.derivative())
    p = _series_terms(minus_x_derivative.mul_low(inverse, 2 * L + 1), 2 * L + 1)  # power sums p_n
    B = [0] + [-((p[n] * p[n] + p[2 * n]) // 2) for n in range(1, L + 1)]
    return fmpz_poly(from_power_sums(B, L))


def _scaled(coeffs: list[int], c: int, top: int) -> fmpz_poly:
    """Σ coeffs_e · c^(top-e) · Yᵉ (the products taken by GMP)."""
    powers = [gmpy2.mpz(1)] * (top + 1)
    for i in range(1, top + 1):
        powers[i] = powers[i - 1] * c
    return fmpz_poly([int(x * powers[top - e]) if x else 0 for e, x in enumerate(coeffs)])


def scaled_mod(coeffs: list[int], c: int, F: fmpz_poly) -> fmpz_poly:
    """Σ coeffs_e · c^(n-1-e) · Yᵉ mod F, n = len(coeffs), without forming the long polynomial.

    With S(lo, hi) = Σ_{lo≤e<hi} coeffs_e c^(hi-1-e) Y^(e-lo): S(lo, hi) = c^(hi-mid) S(lo, mid) +
    Y^(mid-lo) S(mid, hi), reduced modulo F at every level, so every product has degree below 2k."""
    k = F.degree()
    powers: dict[int, fmpz_poly] = {}

    def y_power(j: int) -> fmpz_poly:
        if j not in powers:
            powers[j] = fmpz_poly([0] * j + [1]) % F if j <= 2 * k else (y_power(j // 2) * y_power(j - j // 2)) % F
        return powers[j]

    def part(lo: int, hi: int) -> fmpz_poly:
        if hi - lo <= k:
            return _scaled(coeffs[lo:hi], c, hi - lo - 1)
        mid = (lo + hi) // 2
        return (part(lo, mid) * c ** (hi - mid) + y_power(mid - lo) * part(mid, hi)) % F

    return part(0, len(coeffs)) % F


def cube_bound_bits(chain: IntegerChain, k: int) -> float:
    """An upper bound on log2 |E| = Σ_{a≤b≤m} log2 |c - μ_a μ_b μ_m| over the roots of F (with margin).

    Each factor is c·|1 - λλ'λ''| ≤ c·exp(|λλ'λ''|) with λ = μ/s eigenvalues of Q; the sum over multisets is
    h₃ = (N1³ + 3 N1 N2 + 2 N3) / 6 with N_i = Σ|λ|ⁱ, N3 ≤ N2 ≤ ‖Q‖_F² (Schur; |λ| < 1) and N1 ≤ √(k N2)."""
    s = chain.scale
    frob = Fraction(sum(w * w for row in chain.rows for _, w in row), s * s)
    n2 = float(frob) * (1 + 1e-12) + 1e-300
    n1 = math.sqrt(k * n2) * (1 + 1e-12)
    multisets = k * (k + 1) * (k + 2) // 6
    h3 = (n1**3 + 3 * n1 * n2 + 2 * n2) / 6
    return multisets * 3 * math.log2(s) * (1 + 1e-12) + h3 / math.log(2) * (1 + 1e-12) + 64


def cube_cofactor(F: fmpz_poly, c: int) -> int:
    """Res(F, F̂) · Res(F, c - x³) with F̂(x) = x^(2k) F(c/x²): the pairs {a, a, m} and triples {a, a, a}."""
    k = F.degree()
    F_hat = [0] * (2 * k + 1)
    for i, f in enumerate(F.coeffs()):
        F_hat[2 * k - 2 * i] = int(f) * c**i
    return int(F.resultant(fmpz_poly(F_hat))) * int(F.resultant(fmpz_poly([c, 0, 0, -1])))


def three_setup(chain: IntegerChain) -> ThreeSetup:
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
        return ThreeSetup(s, z, head, F, fmpz_poly(), fmpz_poly(), 1, 0.0)
    L = k * (k + 1) // 2
    F_rev = fmpz_poly(minimal[z:][::-1])  # F*(x) = xᵏ F(1/x), constant term 1
    with series_precision(2 * L + 1):  # F*(0) = 1: its inverse series has integer coefficients
        inverse = fmpz_poly((fmpz_series([1], prec=2 * L + 1) / fmpz_series(F_rev, prec=2 * L + 1)).coeffs())
    G_rev = symmetric_square_reversed(F_rev, inverse, L)
    # the shifted sequences (from index z) to L terms: numerator / F* as power series
    a_shift = _series_terms(fmpz_poly(alpha[z:z + k]).mul_low(F_rev, k).mul_low(inverse, L), L)
    s_shift = _series_terms(fmpz_poly(sigma[z:z + k]).mul_low(F_rev, k).mul_low(inverse, L), L)
    numerator = fmpz_poly([int(gmpy2.mpz(x) * y) for x, y in zip(a_shift, s_shift)]).mul_low(G_rev, L)
    H = scaled_mod(_series_terms(numerator, L), c, F)
    G_mod = scaled_mod(_series_terms(G_rev, L + 1), c, F)
    h = _series_terms(H, k)
    # w_i = ℓ_σ(Yⁱ H) = Σ_e h_e σ_{i+e}, so that ℓ_σ(H · V mod F) = Σ_i V_i w_i for V of degree < k
    product = fmpz_poly(h[::-1]) * fmpz_poly(s_shift[:2 * k - 1])
    w = fmpz_poly(_series_terms(product, 2 * k - 1)[k - 1:2 * k - 1])
    return ThreeSetup(s, z, head, F, G_mod, w, cube_cofactor(F, c), cube_bound_bits(chain, k))


def _product(values: list[int]) -> gmpy2.mpz:
    """The product of the values, by a balanced tree."""
    items = [gmpy2.mpz(v) for v in values] or [gmpy2.mpz(1)]
    while len(items) > 1:
        items = [items[i] * items[i + 1] if i + 1 < len(items) else items[i] for i in range(0, len(items), 2)]
    return items[0]


def _reduced(coeffs: list[int], primes: list[int]) -> Iterator[tuple[list[int], list[int]]]:
    """(a few primes, the coefficients modulo their product), group by group.

    A remainder tree, so that GMP's fast division does most of the work that word-size remainders would
    otherwise do prime by prime: the coefficients are taken modulo the product of a top group of primes about
    as large as a typical coefficient, then modulo each half of it, and so on down to SPLIT_GROUP primes, then
    modulo each INNER_GROUP of those (measured: with the three sixes, whose coefficients have 74,000 bits,
    2.3 s instead of 3.1 s for two fixed levels of 128 and 16 primes; the classic board 0.30 s instead of
    0.33 s)."""
    big = [gmpy2.mpz(c) for c in coeffs]
    typical = sorted(c.bit_length() for c in big)[len(big) // 2]
    top = SPLIT_GROUP * 2 ** max(0, int(math.log2(max(1.0, typical / (PRIME_BITS * SPLIT_GROUP)))))
    for i in range(0, len(primes), top):
        group = primes[i:i + top]
        modulus = _product(group)
        yield from _descend(group, [c % modulus for c in big])


def _descend(group: list[int], level: list[gmpy2.mpz]) -> Iterator[tuple[list[int], list[int]]]:
    """`_reduced` below one node of the tree: `level` holds the coefficients modulo the product of `group`."""
    if len(group) <= SPLIT_GROUP:
        for j in range(0, len(group), INNER_GROUP):
            inner = group[j:j + INNER_GROUP]
            modulus = _product(inner)
            yield inner, [int(c % modulus) for c in level]
        return
    half = (len(group) // 2 + SPLIT_GROUP - 1) // SPLIT_GROUP * SPLIT_GROUP
    for part in (group[:half], group[half:]):
        modulus = _product(part)
        yield from _descend(part, [c % modulus for c in level])


def _residues(F: list[int], G_mod: list[int], w: list[int], cofactor: int,
              primes: list[int]) -> list[tuple[int, int] | None]:
    """(E mod p, X mod p) for each prime (all ≡ 2 mod 3); None where G̃ is not invertible modulo F and p."""
    Fz = fmpz_poly(F)
    k, n = len(F) - 1, len(G_mod)
    out: list[tuple[int, int] | None] = []
    for group, reduced in _reduced(G_mod + w + [cofactor], primes):
        Gz, wz = fmpz_poly(reduced[:n]), fmpz_poly(reduced[n:-1])
        for p in group:
            Fp, Gp, wp = nmod_poly(Fz, p), nmod_poly(Gz, p), nmod_poly(wz, p)
            g, inverse, _ = Gp.xgcd(Fp)
            if not g.is_one():
                out.append(None)
                continue
            dot = int((inverse * wp.reverse(k - 1))[k - 1])  # ℓ_σ(H · G̃⁻¹ mod F) = N'/Res(F, G̃)
            cube = int(Fp.resultant(Gp)) * reduced[-1] % p
            e = int(gmpy2.powmod(cube, (2 * p - 1) // 3, p))
            out.append((e, e * dot % p))
    return out


def _symmetric(x: int, modulus: int) -> int:
    """The representative of x modulo `modulus` in (-modulus/2, modulus/2]."""
    return x - modulus if 2 * x > modulus else x


def denominator_and_numerator(setup: ThreeSetup, parallel: bool | None = None) -> tuple[int, int]:
    """E and X (P1 = head + s^(2-3z)·X/E) from their residues modulo enough primes ≡ 2 (mod 3), by CRT."""
    st, s, z = setup, setup.scale, setup.zeros
    # |X| ≤ |E| · s^(3z-2) because 0 ≤ P1 - head ≤ 1
    need = st.bound_bits + max(0, 3 * z - 2) * math.log2(s) * (1 + 1e-12) + 1
    primes = primes_above_bits(need + (SPARE_PRIMES + 1) * (PRIME_BITS + 2), modulus=3, residue=2)
    F = [int(x) for x in st.F.coeffs()]
    G_mod = [int(x) for x in st.G_mod.coeffs()]
    w = [int(x) for x in st.w.coeffs()]
    use_pool = (len(primes) > PARALLEL_PRIMES) if parallel is None else parallel
    residues = run_parallel(_residues, (F, G_mod, w, st.cube_cofactor), primes, use_pool)
    kept = [(r, p) for r, p in zip(residues, primes) if r is not None]
    main, spare = kept[:-SPARE_PRIMES], kept[-SPARE_PRIMES:]
    if len(main) * PRIME_BITS <= need or len(spare) < SPARE_PRIMES:
        raise ArithmeticError("too few usable primes for the Chinese remainder step")
    (cube, num), modulus = crt_many([[r[0] for r, _ in main], [r[1] for r, _ in main]], [p for _, p in main])
    cube, num = _symmetric(cube, modulus), _symmetric(num, modulus)
    for (r_cube, r_num), p in spare:
        if (cube - r_cube) % p or (num - r_num) % p:
            raise ArithmeticError("a spare prime disagrees with the reconstruction")
    if cube == 0:
        raise ArithmeticError("E vanished; the chain cannot be transient")
    return cube, num


def modular_stage(setup: ThreeSetup, parallel: bool | None = None) -> Fraction:
    """P1 = head + s^(2-3z)·X/E from the exact setup, in lowest terms."""
    st, s, z = setup, setup.scale, setup.zeros
    if st.k == 0:
        return st.head
    cube, num = denominator_and_numerator(st, parallel)
    head = st.head
    top = gmpy2.mpz(num) * s**2 * head.denominator + gmpy2.mpz(head.numerator) * cube * s ** (3 * z)
    bottom = gmpy2.mpz(cube) * s ** (3 * z) * head.denominator
    if bottom < 0:
        top, bottom = -top, -bottom
    return reduced_fraction(top, bottom)


def first_of_three_wins(chain: IntegerChain, parallel: bool | None = None) -> Fraction:
    """Exact probability that the first of three players (all on the start, moving in seat order) wins."""
    return modular_stage(three_setup(chain), parallel)


THREE_PLAYER_BUDGET = 60.0
"""The most the compute stage spends on one board's exact three-player chance; beyond it the page says so."""
SETUP_SECONDS = 1.5
"""`three_setup` on the classic board (d = 81, s = 6), the unit of the setup's cost model."""
SECONDS_PER_PRIME = 140e-6
"""One prime's residues on the classic board (k = 76); they grow like k^1.2 (measured)."""


def estimated_seconds(chain: IntegerChain) -> float:
    """The CPU time `first_of_three_wins` needs, from the sizes the method works with (k ≤ d, L ≤ d(d+1)/2).

    The setup handles series of about 2L terms whose coefficients have up to 2L·log2(s) bits, so it grows
    like (L² log2 s)^1.3 (measured on the classic board and on Noordenbos's, whose s has 54 bits); the residues
    take one prime per 62 bits of the rigorous bound on E."""
    d = chain.size
    L = d * (d + 1) // 2
    setup = SETUP_SECONDS * (L * L * math.log2(chain.scale) / (3321**2 * math.log2(6))) ** 1.3
    primes = cube_bound_bits(chain, d) / PRIME_BITS
    return setup + primes * SECONDS_PER_PRIME * (d / 76) ** 1.2
