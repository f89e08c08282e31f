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
6. A second denominator, for a large scale. W grows like s^(k(k+1)), but a roll-again chain's scale s is the
   least common denominator of (I − B)⁻¹A (tens of bits) while the true denominators stay near the plain
   board's. For any integer P and numerators, Cramer's rule on the step-3 system b = 2(Xe·E − t·Xo·O) (a
   Sylvester matrix of E and tO, determinant ±E(0)·Res(E, O)) and V = 2·[w^(k−1)]X / lc(g) show that
   V·W₂ is an integer for W₂ = Res(E, O)·P(1)·P(−1) (g(0) = P(1), lc(g) = ±P(−1)). So P may be divided by its
   content κ: with P' = P/κ, c = P'(0), Num'' = Num/gcd(κ, content(Num)) and ℓ = κ/gcd(κ, content(Num)) (for
   each sequence), V = V''/(ℓ_α·ℓ_β) where V'' is the same sum for Num''/P', and |W₂| = 2^(k(k−1)/2)·
   c^(k+1)·Π_{i≤j}|1 − λ_iλ_j| (homogeneity: W₂ = W·2^(k(k−1)/2)/κ^(k+1)), at most
   2^(k(k−1)/2)·c^(k+1)·exp((k+1)·‖Q‖_F²/2). The residues are V''·W₂ and W₂, with 0 ≤ V'' ≤ ℓ_α·ℓ_β. The setup
   takes whichever of the two bounds is smaller (the second by a factor of about 16 on the classic board with
   a six rolling again; the first on the plain board).

Full-degree method (`first_player_wins_full`, `pair_wins_full`, `bilinear_sum`): with F the characteristic
polynomial of M (degree m), F#(x) = xᵐF(s²/x) and H_β(x) = Σ_l β_l Σ_{j>l} F_j s^(2(j-1-l)) x^(m-j+l), one
has V = L_α(H_β · F#⁻¹ mod F), where L_α(xⁱ) = α_i; the denominator divides D = |Π_{a≤b}(s² − μ_aμ_b)| over
the roots of F, with D² = |Res(F, F#)·F(s)·F(−s)|; one inverse modulo F of full degree m per prime.

Nothing is rounded at any point in either method.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction

from flint import fmpz, fmpz_poly, nmod_poly

from .integer import IntegerChain
from .modular import (
    PARALLEL_PRIMES,
    SLACK_BITS,
    SPARE_PRIMES,
    crt_many,
    krylov,
    minimal_polynomial,
    next_primes,
    primes_above_bits,
    reduced_fraction,
    run_parallel,
)
from .recurrence import Finishing

# ------------------------------------------------------------------------------------------------------
# Half-degree method
# ------------------------------------------------------------------------------------------------------


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
    """E, O, b and the constants of the half-degree formula for V = Σ α_l β_l / s^(2l+2), with the smaller of
    the two denominators (steps 4 and 6): V = V''/`scale`, and the residues are V''·W and W."""

    def __init__(self, chain: IntegerChain, m: list[int], alpha: list[int], beta: list[int]) -> None:
        s, k = chain.scale, len(m) - 1
        self.k = k
        rev_m = fmpz_poly(m[::-1])
        P = fmpz_poly([m[k - i] * s ** (k - i) for i in range(k + 1)])
        nums = []
        for seq in (alpha,) if beta is alpha else (alpha, beta):
            low = (rev_m * fmpz_poly(seq[:k])).coeffs()[:k]  # Σ_l seq_l x^l = low(x) / rev_m(x)
            low += [fmpz(0)] * (k - len(low))
            nums.append(fmpz_poly([low[j] * s ** (k - 1 - j) for j in range(k)]))
        frob = sum(w * w for row in chain.rows for _, w in row) / (s * s)
        spread = (k + 1) * frob / (2 * math.log(2))  # log2 of the bound on Π_{i≤j}(1 + |λ_iλ_j|)
        content = int(P.content())
        parts = [math.gcd(content, int(num.content())) for num in nums]
        scales = [content // part for part in parts]
        self.scale = scales[0] * scales[-1]
        c = int(P.coeffs()[0]) // content
        reduced_bits = k * (k - 1) / 2 + (k + 1) * math.log2(c) + spread + math.log2(self.scale)
        if reduced_bits < k * (k + 1) * math.log2(s) + spread:
            P, nums = fmpz_poly([int(x) // content for x in P.coeffs()]), [
                fmpz_poly([int(x) // part for x in num.coeffs()]) for num, part in zip(nums, parts)]
            self.two_power, self.bound_bits = 0, reduced_bits + SLACK_BITS
        else:
            self.scale, self.two_power = 1, k * (k - 1) // 2
            self.bound_bits = k * (k + 1) * math.log2(s) + spread + SLACK_BITS
        g = _cayley(P, k)
        self.E, self.O = _even_odd(g)
        halves = []
        for num in nums:
            N, rem = divmod(_cayley(num, k), fmpz_poly([1, 1]))
            if not rem.is_zero():
                raise ArithmeticError("the transformed numerator is not divisible by 1 + w")
            halves.append(_even_odd(N))
        (ae, ao), (be, bo) = halves[0], halves[-1]
        self.b = ae * be - fmpz_poly([0, 1]) * ao * bo
        self.ends = int(P(1)) * int(P(-1))

    def args(self) -> tuple[list[int], list[int], list[int], int, int, int]:
        """Plain-data arguments of `_half_residues` (picklable for a second process)."""
        return ([int(c) for c in self.E.coeffs()], [int(c) for c in self.O.coeffs()],
                [int(c) for c in self.b.coeffs()], self.k, self.ends, self.two_power)


def _half_residues(even_part: list[int], odd_part: list[int], b: list[int], k: int, ends: int, two_power: int,
                   primes: list[int]) -> list[tuple[int, int] | None]:
    """(V·W mod p, ±W mod p) for each prime, W = Res(E, O)·P(1)·P(−1)/2^two_power (E, O = even_part, odd_part of
    g, `ends` = P(1)·P(−1)), or None where the prime divides a leading coefficient or W."""
    Ez, Oz, bz = fmpz_poly(even_part), fmpz_poly(odd_part), fmpz_poly(b)
    dE, dO = Ez.degree(), Oz.degree()
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
        w = int(Ep.resultant(Op)) * (ends % p) % p * pow(2, -two_power, p) % p
        out.append((v * w % p, w))
    return out


def _half_bilinear(chain: IntegerChain, alpha: list[int], beta: list[int] | None = None,
                   parallel: bool | None = None, timings: dict[str, float] | None = None,
                   alpha_polynomial: list[int] | None = None) -> Fraction:
    """V = Σ_l α_l β_l / s^(2l+2) exactly by the half-degree method (β = α if None); 2d terms of each, and the
    minimal polynomial of α if it is known already.

    Requires 0 ≤ V ≤ 1 (true for both uses here). `timings` collects CPU seconds per stage."""
    clock = time.process_time
    t = clock()
    d, s = chain.size, chain.scale
    m = alpha_polynomial or minimal_polynomial(alpha, d, s)
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
    primes = primes_above_bits(setup.bound_bits)
    use_pool = (len(primes) > PARALLEL_PRIMES) if parallel is None else parallel
    candidates = primes + next_primes(primes[-1], SPARE_PRIMES)
    results = run_parallel(_half_residues, args, candidates, use_pool)
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
        more = next_primes(candidates[-1], SPARE_PRIMES + 8)
        candidates += more
        good += [(p, r) for p, r in zip(more, _half_residues(*args, more)) if r is not None]
    if timings is not None:
        timings["modular"] = clock() - t
        timings["primes"] = len(main) + SPARE_PRIMES
    t = clock()
    (x_n, x_w), product = crt_many([[r[0] for _, r in main], [r[1] for _, r in main]], [p for p, _ in main])
    sign = -1 if x_w > product // 2 else 1  # |W| and 0 ≤ V''·|W| ≤ scale·|W| are below product / 2
    W = x_w if sign == 1 else product - x_w
    N = x_n if sign == 1 else (product - x_n) % product
    if not 0 < W < product // 2 or N > setup.scale * W:
        raise ArithmeticError("the reconstructed numerator or denominator is out of range")
    for p, (n_p, w_p) in spare[:SPARE_PRIMES]:
        if (sign * W - w_p) % p or (sign * N - n_p) % p:
            raise ArithmeticError(f"the certificate prime {p} disagrees with the reconstructed result")
    if timings is not None:
        timings["crt"] = clock() - t
    return reduced_fraction(N, setup.scale * W)


def first_player_wins(chain: IntegerChain, parallel: bool | None = None, found: Finishing | None = None) -> Fraction:
    """Exact probability that the first of two players (both on the start) wins (half-degree method), from the
    finishing sequence from the start and its recurrence (`found`, computed here if not given)."""
    return _first_player_half(chain, parallel, found=found)


def _first_player_half(chain: IntegerChain, parallel: bool | None = None,
                       timings: dict[str, float] | None = None, found: Finishing | None = None) -> Fraction:
    if found is None:
        t = time.process_time()
        gamma = krylov(chain, chain.start, list(chain.finish), 2 * chain.size)
        if timings is not None:
            timings["krylov"] = time.process_time() - t
        same_turn = _half_bilinear(chain, gamma, None, parallel, timings)
    else:
        same_turn = _half_bilinear(chain, list(found.head), None, parallel, timings, list(found.polynomial))
    return reduced_fraction(same_turn.denominator + same_turn.numerator, 2 * same_turn.denominator)


def pair_wins(chain: IntegerChain, mover: int, other: int) -> Fraction:
    """Exact probability that the player to move, on square `mover`, beats the one on `other`."""
    for square in (mover, other):
        if square not in chain.index:
            raise ValueError(f"square {square} is not a square where a turn can start on this board")
    d = chain.size
    a = krylov(chain, chain.index[mover], list(chain.finish), 2 * d)
    b = krylov(chain, chain.index[other], [1] * d, 2 * d)
    v = _half_bilinear(chain, a, b)  # 0 ≤ V = Σ P(T_mover = l+1)·P(T_other > l) / s ≤ 1/s
    return reduced_fraction(chain.scale * v.numerator, v.denominator)


# ------------------------------------------------------------------------------------------------------
# Full-degree method (the independent check)
# ------------------------------------------------------------------------------------------------------


