"""Exact two-player results by the half-degree method, with the full-degree method kept as a check.

Both quantities are sums V = Σ_l α_l β_l / s^(2l+2) of two integer Krylov sequences α_l = xᵀAˡy and
β_l = x'ᵀAˡy' (A = M = sQ, s the chain's scale): the first player's chance is ½ + ½·V with α = β = γ,
γ_l = uᵀAˡR the finishing sequence from the start (V = P(both players need the same number of turns)),
and P(i, j) = s·V with α from square i and β the "still playing" sequence from square j.

Half-degree method (`first_player_wins`, `pair_wins`):

1. Minimal polynomial. m (monic, degree k ≤ d) is the least common multiple of the minimal polynomials of
   α and β, each found by Berlekamp–Massey (`fmpz_mod_poly_ctx.minpoly`) modulo primes whose product exceeds
   twice the coefficient bound (1+s)^d, lifted to the symmetric range by Chinese remainders and checked
   exactly to annihilate the first 2d terms (enough, since the true one has degree ≤ d). m divides the
   characteristic polynomial of A, so its roots μ are eigenvalues of A, all with |μ| < s.
2. Cayley transform. With P(z) = zᵏm(s/z) = Π(s − μz), Σ_l α_l z^l / s^(l+1) = Num_α(z)/P(z) with integer
   Num_α of degree < k, likewise for β. On |z| = 1, z = (1−w)/(1+w) puts w on the imaginary axis and the
   poles of P in the left half plane. Let T(f)(w) = (1+w)ᵏf((1−w)/(1+w)), g = T(P) = Π((s+μ)w + (s−μ))
   (all roots in Re w < 0, all coefficients of one sign), N_α = T(Num_α)/(1+w) and N_β likewise (exact
   divisions). Then V = (1/π)∫ N_α(iω)N_β(−iω)/(g(iω)g(−iω)) dω, a continuous-time H2 inner product.
3. Half degree (Orlando). Split g = E(w²) + w·O(w²) and N_• = •e(w²) + w·•o(w²); only the even part
   b(t) = αe(t)βe(t) − t·αo(t)βo(t) of N_α(w)N_β(−w) contributes. Writing b(w²)/(g(w)g(−w)) =
   X(w)/g(w) + X(−w)/g(−w) with deg X < deg g = k and closing the contour gives V = 2·[w^(k−1)]X / lc(g),
   and b = 2(Xe·E − t·Xo·O) yields X's needed coefficient by one inverse modulo a polynomial of degree
   about k/2:  k even:  V = −[t^(deg E − 1)](b · (tO)⁻¹ mod E) / lc(E);
               k odd:   V =  [t^(deg O)](b · E⁻¹ mod tO) / lc(O).
4. Denominator. V is xᵀYy for the initial-value vectors x, y of the companion realisation of m, where
   s²Y − CᵀYC = e₁e₁ᵀ (C the companion matrix); so V·W is an integer for W = Π_{i≤j}(s² − μ_iμ_j), the
   determinant of that integer map on symmetric matrices (W > 0). Orlando's formula gives
   W = ±Res(E, O)·m(s)·m(−s) / 2^(k(k−1)/2).
5. Chinese remainders. Modulo each word-size prime: one xgcd and one resultant at degree about k/2 give
   V·W and W. Since 0 ≤ V ≤ 1, both lie in [0, W]; W ≤ s^(k(k+1))·Π_{i≤j}(1 + |μ_iμ_j|/s²) and Schur's
   inequality Σ|μ|² ≤ s²‖Q‖_F² give log2 W ≤ k(k+1)·log2 s + (k+1)·‖Q‖_F²/(2 ln 2), which fixes the number of
   primes in advance (plus 64 bits of slack); the unknown sign ± is read off the reconstructed W. Two
   further primes must agree with the result (a certificate), else ArithmeticError.

Full-degree method (`first_player_wins_full`, `pair_wins_full`, `bilinear_sum`): with F the characteristic
polynomial of M (degree m), F#(x) = xᵐF(s²/x) and H_β(x) = Σ_l β_l Σ_{j>l} F_j s^(2(j-1-l)) x^(m-j+l), one
has V = L_α(H_β · F#⁻¹ mod F), where L_α(xⁱ) = α_i; the denominator divides D = |Π_{a≤b}(s² − μ_aμ_b)| over
the roots of F, with D² = |Res(F, F#)·F(s)·F(−s)|; one inverse modulo F of full degree m per prime.

Nothing is rounded at any point in either method.
"""

from __future__ import annotations

import functools
import math
import multiprocessing
import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction
from typing import TYPE_CHECKING

import gmpy2
from flint import fmpz_mat, fmpz_mod_poly_ctx, fmpz_poly, nmod_poly

if TYPE_CHECKING:  # the chain calls these functions for its cached properties
    from compute.chain import TurnChain

PARALLEL_PRIMES = 3000
"""Above this many primes the residues are shared with a second process (when `parallel` is None)."""

SLACK_BITS = 64
"""Bits added to every bound on the size of the result (floating-point rounding of the bound itself)."""

SPARE_PRIMES = 2
"""Primes beyond the bound whose residues must agree with the reconstructed result."""

MINPOLY_PRIME_BITS = 512
"""Size of the primes for the minimal polynomial (finding much larger primes costs more than it saves)."""


def krylov(chain: TurnChain, square_index: int, right: list[int], terms: int) -> list[int]:
    """α_l = e_iᵀ Mˡ right for l < terms (exact integers): the column Mˡ·right, one product per term in flint."""
    column = fmpz_mat(chain.size, 1, right)
    out = []
    for _ in range(terms):
        out.append(int(column[square_index, 0]))
        column = chain.M * column
    return out


def _primes_above_bits(bits: float, modulus: int = 1, residue: int = 0) -> list[int]:
    """Consecutive primes just above 2^62 (those ≡ residue mod `modulus`) whose product exceeds 2^bits."""
    primes: list[int] = []
    total = 0.0
    for p in _primes_above_62(modulus, residue % modulus):
        if total > bits:
            break
        primes.append(p)
        total += math.log2(p)
    return primes


@functools.cache
def _prime_list(modulus: int, residue: int) -> list[int]:
    """The primes above 2^62 ≡ residue (mod modulus) found so far in this process (grown by `_primes_above_62`)."""
    return []


def _primes_above_62(modulus: int, residue: int) -> Iterator[int]:
    """The primes above 2^62 in the class, in order: those found before first, then new ones (kept)."""
    found = _prime_list(modulus, residue)
    yield from list(found)
    p = gmpy2.mpz(found[-1] if found else 1 << 62)
    while True:
        p = gmpy2.next_prime(p)
        if p % modulus == residue:
            found.append(int(p))
            yield int(p)


def _next_primes(after: int, count: int) -> list[int]:
    """The `count` primes following `after`."""
    out, p = [], gmpy2.mpz(after)
    for _ in range(count):
        p = gmpy2.next_prime(p)
        out.append(int(p))
    return out


def _crt(residues: list[int], primes: list[int]) -> int:
    """The least non-negative integer with the given residues (product-tree CRT)."""
    return _crt_many([residues], primes)[0][0]


def _crt_many(residue_lists: list[list[int]], primes: list[int]) -> tuple[list[int], int]:
    """Least non-negative integers with the given residues, sharing one product tree; and the product."""
    items = [([gmpy2.mpz(rs[i]) for rs in residue_lists], gmpy2.mpz(p)) for i, p in enumerate(primes)]
    while len(items) > 1:
        merged = []
        for (r1, m1), (r2, m2) in zip(items[0::2], items[1::2]):
            inverse = gmpy2.invert(m1, m2)
            merged.append(([a + m1 * (((b - a) * inverse) % m2) for a, b in zip(r1, r2)], m1 * m2))
        if len(items) % 2:
            merged.append(items[-1])
        items = merged
    values, product = items[0]
    return [int(v) for v in values], int(product)


def _reduced_fraction(numerator: int, denominator: int) -> Fraction:
    """numerator/denominator in lowest terms, with GMP's gcd (Python's is quadratic on huge integers)."""
    g = gmpy2.gcd(numerator, denominator)
    num, den = int(gmpy2.mpz(numerator) // g), int(gmpy2.mpz(denominator) // g)
    if den < 0:
        num, den = -num, -den
    make = getattr(Fraction, "_from_coprime_ints", None)  # Python ≥ 3.12
    if make is not None:
        return make(num, den)
    try:
        return Fraction(num, den, _normalize=False)  # Python 3.11
    except TypeError:
        return Fraction(num, den)


def _run_parallel(work: Callable, args: tuple, primes: list[int], parallel: bool) -> list:
    """work(*args, primes) with the primes shared by this process and a forked second one if asked."""
    if not parallel or len(primes) < 2 or (os.cpu_count() or 1) < 2:
        return work(*args, primes)
    half = len(primes) // 2
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork")) as pool:
        future = pool.submit(work, *args, primes[:half])
        rest = work(*args, primes[half:])
        return future.result() + rest


# ------------------------------------------------------------------------------------------------------
# Half-degree method
# ------------------------------------------------------------------------------------------------------


def minimal_polynomial(seq: list[int], d: int, scale: int) -> list[int]:
    """Coefficients (constant first, monic) of the minimal polynomial of an integer sequence of 2d terms
    satisfying a recurrence of order ≤ d, checked exactly; [1] for the zero sequence.

    Its roots are eigenvalues of A (|μ| ≤ s), so no coefficient exceeds (1 + s)^d in size: it is found
    modulo primes of up to MINPOLY_PRIME_BITS bits whose product exceeds twice that (Chinese remainders,
    keeping the primes of largest degree), lifted to the symmetric range and checked to annihilate the
    first 2d terms exactly (enough: the sequence satisfies a recurrence of order ≤ d)."""
    if not any(seq):
        return [1]
    if len(seq) < 2 * d:
        raise ValueError("the minimal polynomial needs 2d terms of the sequence")
    seq = seq[:2 * d]
    G = fmpz_poly(seq)
    bound = math.ceil(d * math.log2(scale + 1)) + SLACK_BITS
    p = gmpy2.mpz(1) << min(bound, MINPOLY_PRIME_BITS)
    found: list[tuple[int, list[int]]] = []
    for _ in range(bound // min(bound, MINPOLY_PRIME_BITS) + 16):
        p = gmpy2.next_prime(p)
        found.append((int(p), [int(c) for c in fmpz_mod_poly_ctx(int(p)).minpoly(seq).coeffs()]))
        k = max(len(c) for _, c in found) - 1
        kept = [(q, c) for q, c in found if len(c) == k + 1]
        if sum(math.log2(q) for q, _ in kept) <= bound:
            continue
        values, product = _crt_many([[c[j] for _, c in kept] for j in range(k + 1)], [q for q, _ in kept])
        coeffs = [v - product if v > product // 2 else v for v in values]
        tail = (fmpz_poly(coeffs[::-1]) * G).coeffs()  # coefficient n + k is Σ_j m_j γ_(n+j)
        if all(c == 0 for c in tail[k:2 * d]):
            return coeffs
    raise ArithmeticError("no set of primes gave an exact minimal polynomial")


def _cayley(f: fmpz_poly, k: int) -> fmpz_poly:
    """T(f)(w) = (1+w)ᵏ f((1−w)/(1+w)) for deg f ≤ k: f(x−1), then v ↦ vᵏ·(·)(2/v), then v = 1 + w."""
    shifted = f(fmpz_poly([-1, 1]))
    c = [int(x) for x in shifted.coeffs()]
    c += [0] * (k + 1 - len(c))
    return fmpz_poly([c[k - i] << (k - i) for i in range(k + 1)])(fmpz_poly([1, 1]))


def _even_odd(f: fmpz_poly) -> tuple[fmpz_poly, fmpz_poly]:
    """(fe, fo) with f(w) = fe(w²) + w·fo(w²)."""
    c = f.coeffs()
    return fmpz_poly(c[0::2]), fmpz_poly(c[1::2])


class _HalfSetup:
    """E, O, b and the constants of the half-degree formula for V = Σ α_l β_l / s^(2l+2)."""

    def __init__(self, chain: TurnChain, m: list[int], alpha: list[int], beta: list[int]) -> None:
        s, k = chain.scale, len(m) - 1
        self.k = k
        rev_m = fmpz_poly(m[::-1])
        P = fmpz_poly([m[k - i] * s ** (k - i) for i in range(k + 1)])
        g = _cayley(P, k)
        self.E, self.O = _even_odd(g)
        halves = []
        for seq in (alpha,) if beta is alpha else (alpha, beta):
            low = (rev_m * fmpz_poly(seq[:k])).coeffs()[:k]  # Σ_l seq_l x^l = low(x) / rev_m(x)
            low += [0] * (k - len(low))
            num = fmpz_poly([low[j] * s ** (k - 1 - j) for j in range(k)])
            N, rem = divmod(_cayley(num, k), fmpz_poly([1, 1]))
            if not rem.is_zero():
                raise ArithmeticError("the transformed numerator is not divisible by 1 + w")
            halves.append(_even_odd(N))
        (ae, ao), (be, bo) = halves[0], halves[-1]
        self.b = ae * be - fmpz_poly([0, 1]) * ao * bo
        m_poly = fmpz_poly(m)
        self.msms = int(m_poly(s)) * int(m_poly(-s))
        frob = sum(w * w for row in chain.rows for _, w in row) / (s * s)
        self.bound_bits = k * (k + 1) * math.log2(s) + (k + 1) * frob / (2 * math.log(2)) + SLACK_BITS

    def args(self) -> tuple:
        """Plain-data arguments of `_half_residues` (picklable for a second process)."""
        return ([int(c) for c in self.E.coeffs()], [int(c) for c in self.O.coeffs()],
                [int(c) for c in self.b.coeffs()], self.k, self.msms)


def _half_residues(even_part: list[int], odd_part: list[int], b: list[int], k: int, msms: int,
                   primes: list[int]) -> list[tuple[int, int] | None]:
    """(V·W mod p, ±W mod p) for each prime (E, O = even_part, odd_part of g), or None where the prime
    divides a leading coefficient or W."""
    Ez, Oz, bz = fmpz_poly(even_part), fmpz_poly(odd_part), fmpz_poly(b)
    dE, dO = Ez.degree(), Oz.degree()
    two_power = k * (k - 1) // 2
    even = k % 2 == 0
    out: list[tuple[int, int] | None] = []
    for p in primes:
        Ep, Op = nmod_poly(Ez, p), nmod_poly(Oz, p)
        if Ep.degree() != dE or Op.degree() != dO:
            out.append(None)
            continue
        tO = Op.left_shift(1)
        F, G = (tO, Ep) if even else (Ep, tO)
        g, inverse, _ = F.xgcd(G)
        if not g.is_one():
            out.append(None)
            continue
        n = G.degree()
        x = int(((nmod_poly(bz, p) % G) * inverse % G)[n - 1])
        lead = int(G.leading_coefficient())
        v = (-x if even else x) * pow(lead, -1, p) % p
        w = int(Ep.resultant(Op)) * (msms % p) % p * pow(2, -two_power, p) % p
        out.append((v * w % p, w))
    return out


def _half_bilinear(chain: TurnChain, alpha: list[int], beta: list[int] | None = None,
                   parallel: bool | None = None, timings: dict[str, float] | None = None) -> Fraction:
    """V = Σ_l α_l β_l / s^(2l+2) exactly by the half-degree method (β = α if None); 2d terms of each.

    Requires 0 ≤ V ≤ 1 (true for both uses here). `timings` collects CPU seconds per stage."""
    clock = time.process_time
    t = clock()
    d, s = chain.size, chain.scale
    m = minimal_polynomial(alpha, d, s)
    if beta is not None:
        m_beta = minimal_polynomial(beta, d, s)
        if m_beta != m:
            ma, mb = fmpz_poly(m), fmpz_poly(m_beta)
            m = [int(c) for c in (ma * mb // ma.gcd(mb)).coeffs()]
    else:
        beta = alpha
    k = len(m) - 1
    if timings is not None:
        timings["minpoly"] = clock() - t
        timings["k"] = k
    if k == 0:
        return Fraction(0)
    t = clock()
    setup = _HalfSetup(chain, m, alpha, beta)
    args = setup.args()
    if timings is not None:
        timings["transform"] = clock() - t
    t = clock()
    primes = _primes_above_bits(setup.bound_bits)
    use_pool = (len(primes) > PARALLEL_PRIMES) if parallel is None else parallel
    candidates = primes + _next_primes(primes[-1], SPARE_PRIMES)
    results = _run_parallel(_half_residues, args, candidates, use_pool)
    good = [(p, r) for p, r in zip(candidates, results) if r is not None]
    while True:
        main, bits = [], 0.0
        for p, r in good:
            if bits > setup.bound_bits:
                break
            main.append((p, r))
            bits += math.log2(p)
        spare = good[len(main):]
        if bits > setup.bound_bits and len(spare) >= SPARE_PRIMES:
            break
        more = _next_primes(candidates[-1], SPARE_PRIMES + 8)
        candidates += more
        good += [(p, r) for p, r in zip(more, _half_residues(*args, more)) if r is not None]
    if timings is not None:
        timings["modular"] = clock() - t
        timings["primes"] = len(main) + SPARE_PRIMES
    t = clock()
    (x_n, x_w), product = _crt_many([[r[0] for _, r in main], [r[1] for _, r in main]], [p for p, _ in main])
    sign = -1 if x_w > product // 2 else 1  # W > 0 and 0 ≤ V·W ≤ W < product / 2
    W = x_w if sign == 1 else product - x_w
    N = x_n if sign == 1 else (product - x_n) % product
    if not 0 < W < product // 2 or N > W:
        raise ArithmeticError("the reconstructed numerator or denominator is out of range")
    for p, (n_p, w_p) in spare[:SPARE_PRIMES]:
        if (sign * W - w_p) % p or (sign * N - n_p) % p:
            raise ArithmeticError(f"the certificate prime {p} disagrees with the reconstructed result")
    if timings is not None:
        timings["crt"] = clock() - t
    return _reduced_fraction(N, W)


def first_player_wins(chain: TurnChain, parallel: bool | None = None) -> Fraction:
    """Exact probability that the first of two players (both on the start) wins (half-degree method)."""
    return _first_player_half(chain, parallel)


def _first_player_half(chain: TurnChain, parallel: bool | None = None,
                       timings: dict[str, float] | None = None) -> Fraction:
    t = time.process_time()
    gamma = krylov(chain, chain.start, list(chain.finish), 2 * chain.size)
    if timings is not None:
        timings["krylov"] = time.process_time() - t
    same_turn = _half_bilinear(chain, gamma, None, parallel, timings)
    return _reduced_fraction(same_turn.denominator + same_turn.numerator, 2 * same_turn.denominator)


def pair_wins(chain: TurnChain, mover: int, other: int) -> Fraction:
    """Exact probability that the player to move, on square `mover`, beats the one on `other`."""
    for square in (mover, other):
        if square not in chain.index:
            raise ValueError(f"square {square} is not a square where a turn can start on this board")
    d = chain.size
    a = krylov(chain, chain.index[mover], list(chain.finish), 2 * d)
    b = krylov(chain, chain.index[other], [1] * d, 2 * d)
    v = _half_bilinear(chain, a, b)  # 0 ≤ V = Σ P(T_mover = l+1)·P(T_other > l) / s ≤ 1/s
    return _reduced_fraction(chain.scale * v.numerator, v.denominator)


# ------------------------------------------------------------------------------------------------------
# Full-degree method (the independent check)
# ------------------------------------------------------------------------------------------------------


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
    """V = Σ_l α_l β_l / s^(2l+2) exactly by the full-degree method, for sequences annihilated by charpoly(M).

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
    return _reduced_fraction(numerator, D)


def first_player_wins_full(chain: TurnChain, parallel: bool | None = None) -> Fraction:
    """The first player's chance by the full-degree method (characteristic polynomial, degree d per prime)."""
    setup = _Setup(chain)
    a = krylov(chain, chain.start, list(chain.finish), max(2 * setup.m - 1, 1))
    v = bilinear_sum(chain, a, a, setup, parallel)
    return _reduced_fraction(v.denominator + v.numerator, 2 * v.denominator)


def pair_wins_full(chain: TurnChain, mover: int, other: int) -> Fraction:
    """`pair_wins` by the full-degree method."""
    for square in (mover, other):
        if square not in chain.index:
            raise ValueError(f"square {square} is not a square where a turn can start on this board")
    setup = _Setup(chain)
    a = krylov(chain, chain.index[mover], list(chain.finish), max(2 * setup.m - 1, 1))
    b = krylov(chain, chain.index[other], [1] * chain.size, max(setup.m, 1))
    v = bilinear_sum(chain, a, b, setup)
    return _reduced_fraction(chain.scale * v.numerator, v.denominator)
