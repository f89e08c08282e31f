"""Modular arithmetic shared by the exact multi-player methods: integer Krylov sequences, minimal
polynomials by Berlekamp–Massey modulo primes, word-size prime lists, Chinese remainders, and the
residues computed in a second process when there are many, or on a Dask cluster (`on_cluster`)."""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from fractions import Fraction
from itertools import islice

import gmpy2
from flint import fmpz_mat, fmpz_mod, fmpz_mod_poly_ctx, fmpz_poly

from .integer import IntegerChain

PARALLEL_PRIMES = 3000
"""Above this many primes the residues are shared with a second process (when `parallel` is None)."""


SLACK_BITS = 64
"""Bits added to every bound on the size of the result (floating-point rounding of the bound itself)."""


SPARE_PRIMES = 2
"""Primes beyond the bound whose residues must agree with the reconstructed result."""


def krylov(chain: IntegerChain, square_index: int, right: list[int], terms: int) -> list[int]:
    """α_l = e_iᵀ Mˡ right for l < terms (exact integers): the column Mˡ·right, one product per term in flint."""
    column = fmpz_mat(chain.size, 1, right)
    out = []
    for _ in range(terms):
        out.append(int(column[square_index, 0]))
        column = chain.M * column
    return out


def primes_above_bits(bits: float, modulus: int = 1, residue: int = 0) -> list[int]:
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
    if modulus == 1:
        p = gmpy2.mpz(found[-1] if found else 1 << 62)
        while True:
            p = gmpy2.next_prime(p)
            found.append(int(p))
            yield int(p)
    if math.gcd(modulus, residue) != 1:
        raise ValueError(f"no primes above 2^62 are ≡ {residue} (mod {modulus})")
    # in a class, only its odd numbers are tested: GMP's test (trial division, then Baillie-PSW, which no
    # composite below 2^64 passes) on them takes less than half the time of next_prime through every prime
    step = modulus if modulus % 2 == 0 else 2 * modulus
    p = gmpy2.mpz(found[-1] + step if found else 1 << 62)
    while p % modulus != residue or p % 2 == 0:
        p += 1
    while True:
        if gmpy2.is_prime(p):
            found.append(int(p))
            yield int(p)
        p += step


def next_primes(after: int, count: int) -> list[int]:
    """The `count` primes following `after`."""
    out, p = [], gmpy2.mpz(after)
    for _ in range(count):
        p = gmpy2.next_prime(p)
        out.append(int(p))
    return out


def crt(residues: list[int], primes: list[int]) -> int:
    """The least non-negative integer with the given residues (product-tree CRT)."""
    return crt_many([residues], primes)[0][0]


def crt_many(residue_lists: list[list[int]], primes: list[int]) -> tuple[list[int], int]:
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


def reduced_fraction(numerator: int, denominator: int) -> Fraction:
    """numerator/denominator in lowest terms, with GMP's gcd (Python's is quadratic on huge integers)."""
    g = gmpy2.gcd(numerator, denominator)
    num, den = int(gmpy2.mpz(numerator) // g), int(gmpy2.mpz(denominator) // g)
    if den < 0:
        num, den = -num, -den
    make = getattr(Fraction, "_from_coprime_ints", None)  # Python ≥ 3.12
    if make is not None:
        return make(num, den)
    try:
        # Python 3.11: a private flag of its Fraction (which typeshed, declaring the public signature, leaves out)
        return Fraction(num, den, _normalize=False)  # type: ignore[call-overload]
    except TypeError:
        return Fraction(num, den)


_SCHEDULER: ContextVar[str | None] = ContextVar("scheduler", default=None)


@contextmanager
def on_cluster(scheduler: str | None) -> Iterator[None]:
    """Within the block, `run_parallel` sends the per-prime work to the Dask cluster at `scheduler` (None: this
    machine). A context rather than an argument, so that it reaches the exact methods through the chain's
    cached properties; worker processes do not inherit it."""
    token = _SCHEDULER.set(scheduler)
    try:
        yield
    finally:
        _SCHEDULER.reset(token)


_ALONE: ContextVar[bool] = ContextVar("alone", default=False)


@contextmanager
def in_one_process(alone: bool = True) -> Iterator[None]:
    """Within the block (if `alone`), `run_parallel` forks no second process: for a caller whose other cores are
    busy with other work. A context for the same reason as `on_cluster`."""
    token = _ALONE.set(alone)
    try:
        yield
    finally:
        _ALONE.reset(token)


def run_parallel(work: Callable, args: tuple, primes: list[int], parallel: bool) -> list:
    """work(*args, primes) for a list of per-prime results: in chunks on the cluster of `on_cluster` if there is
    one, else here, with the primes shared by this process and a forked second one if `parallel` (and not
    `in_one_process`)."""
    scheduler = _SCHEDULER.get()
    if scheduler:
        from ..store.sweep import run_chunks  # the sweeps (tqdm, process pools, Dask): only for a cluster

        return run_chunks(work, args, primes, scheduler)
    if not parallel or _ALONE.get() or len(primes) < 2 or (os.cpu_count() or 1) < 2:
        return work(*args, primes)
    import multiprocessing  # a quick solve never forks: these imports wait until one does
    from concurrent.futures import ProcessPoolExecutor

    half = len(primes) // 2
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork")) as pool:
        future = pool.submit(work, *args, primes[:half])
        rest = work(*args, primes[half:])
        return future.result() + rest


def minimal_polynomial(seq: list[int], d: int, scale: int) -> list[int]:
    """Coefficients (constant first, monic) of the minimal polynomial of an integer sequence of 2d terms
    satisfying a recurrence of order ≤ d, checked exactly; [1] for the zero sequence.

    It is found modulo word-size primes (Berlekamp–Massey in FLINT), keeping the primes of largest degree, and
    a candidate is accepted only if it annihilates the first 2d terms exactly (enough: the sequence satisfies
    a recurrence of order ≤ d, so a monic annihilator of the least degree found is the minimal polynomial).
    Its roots are the eigenvalues μ = sλ of A (|λ| ≤ 1), so no coefficient exceeds (1 + s)^d in size: primes
    whose product exceeds twice that always give it, lifted to the symmetric range. With a large scale (a
    roll-again turn's s has dozens of bits) far fewer usually do: the coefficient of xʲ is s^(k−j) times that
    of Π(x − λ), whose fractions are small, so with 4, 8, 16, … primes each of those is tried by rational
    reconstruction (`_rational`) and scaled back."""
    if not any(seq):
        return [1]
    if len(seq) < 2 * d:
        raise ValueError("the minimal polynomial needs 2d terms of the sequence")
    seq = seq[:2 * d]
    G = fmpz_poly(seq)
    bound = math.ceil(d * math.log2(scale + 1)) + SLACK_BITS
    needed = len(primes_above_bits(bound))
    found: list[tuple[int, list[int]]] = []
    early = 4  # the number of kept primes at the next try of the scaled-back reconstruction
    for p in islice(_primes_above_62(1, 0), needed + 16):
        ring = fmpz_mod_poly_ctx(p)  # the terms reduced in C, not one Python remainder each
        reduced = ring(G).coeffs()  # without the trailing zeros of a sequence that ends: put back
        terms: list[int | fmpz_mod] = [*reduced, *[0] * (2 * d - len(reduced))]
        found.append((p, [int(c) for c in ring.minpoly(terms).coeffs()]))
        k = max(len(c) for _, c in found) - 1
        kept = [(q, c) for q, c in found if len(c) == k + 1]
        whole = sum(math.log2(q) for q, _ in kept) > bound
        if not whole and (len(kept) < early or 2 * early > needed):
            continue
        values, product = crt_many([[c[j] for _, c in kept] for j in range(k + 1)], [q for q, _ in kept])
        if whole:
            coeffs: list[int] | None = [v - product if v > product // 2 else v for v in values]
        else:
            early *= 2
            coeffs = _scaled_back(values, product, scale)
        if coeffs is None:
            continue
        tail = (fmpz_poly(coeffs[::-1]) * G).coeffs()  # coefficient n + k is Σ_j m_j γ_(n+j)
        if all(c == 0 for c in tail[k:2 * d]):
            return coeffs
    raise ArithmeticError("no set of primes gave an exact minimal polynomial")


def _scaled_back(values: list[int], modulus: int, scale: int) -> list[int] | None:
    """The integer polynomial m whose coefficients are `values` modulo `modulus`, if each m_j / s^(k−j) (k the
    degree) is a fraction that rational reconstruction finds; None if one is not, or m is not integral."""
    if math.gcd(scale, modulus) != 1:
        return None
    k = len(values) - 1
    inverse, bound = gmpy2.invert(scale, modulus), gmpy2.isqrt(modulus // 2)
    out: list[int] = []
    power, shift = gmpy2.mpz(1), gmpy2.mpz(1)  # s^(k-j), and s^-(k-j) modulo the modulus, for j = k, k - 1, …
    for j in range(k, -1, -1):
        fraction = _rational(values[j] * shift % modulus, modulus, bound)
        if fraction is None:
            return None
        whole, rest = divmod(fraction[0] * power, fraction[1])
        if rest:
            return None
        out.append(int(whole))
        power, shift = power * scale, shift * inverse % modulus
    return out[::-1]


def _rational(value: int, modulus: int, bound: int) -> tuple[int, int] | None:
    """(r, t) with r ≡ t·value (mod modulus), |r| ≤ bound, 0 < t ≤ bound and gcd(r, t) = 1 (rational
    reconstruction: the extended Euclidean algorithm stopped at the first remainder within the bound; unique
    when 2·bound² < modulus), or None if there is none."""
    r0, r1 = gmpy2.mpz(modulus), gmpy2.mpz(value) % modulus
    t0, t1 = gmpy2.mpz(0), gmpy2.mpz(1)
    while r1 > bound:
        q = r0 // r1
        r0, r1, t0, t1 = r1, r0 - q * r1, t1, t0 - q * t1
    if t1 == 0 or abs(t1) > bound or gmpy2.gcd(r1, t1) != 1:
        return None
    return (int(r1), int(t1)) if t1 > 0 else (int(-r1), int(-t1))
