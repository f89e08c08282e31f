"""Exact game-length terms from any square, as many as a sum needs, from one power series division.

With γₗ = eᵢᵀ Mˡ f (integers), P(T = l + 1 from state i) = γₗ / sˡ⁺¹. The sequence satisfies the recurrence of
its minimal polynomial m (monic, integer, degree k ≤ d, found from 2d terms: `twoplayer.minimal_polynomial`),
so Σₗ γₗ xˡ = low(x) / rev_m(x), with rev_m(0) = 1 and low the first k terms times rev_m. Expanding that ratio
as a power series (python-flint's fmpz_series division, fast multiplication inside) gives thousands of exact
terms in about the time of a few dozen matrix-vector products — where iterating the d×d matrix would cost
d² operations per term.
"""

from __future__ import annotations

from collections.abc import Iterator

from flint import ctx, fmpz_poly, fmpz_series

from .integer import IntegerChain
from .modular import krylov, minimal_polynomial


def finish_numerators(chain: IntegerChain, index: int, first: int = 0) -> Iterator[int]:
    """γₗ = eᵢᵀ Mˡ f for l = 0, 1, 2, … without end (P(T = l + 1) from state `index` is γₗ / sˡ⁺¹), exactly.

    The series is expanded to `first` terms at once (at least 2d, the terms the minimal polynomial is found
    from), then to twice as many each time the caller asks for more; each expansion repeats the previous
    terms, so the total work is at most twice that of the last one."""
    d = chain.size
    gamma = krylov(chain, index, list(chain.finish), 2 * d)
    yield from gamma
    m = minimal_polynomial(gamma, d, chain.scale)
    k = len(m) - 1
    if k == 0:  # the zero sequence: no game from this state ever ends (never a state of a turn chain)
        while True:
            yield 0
    rev = fmpz_poly(m[::-1])
    low = rev.mul_low(fmpz_poly(gamma[:k]), k)
    given, terms = 2 * d, max(first, 4 * d)
    while True:
        for coefficient in _expand(low, rev, terms)[given:]:
            yield int(coefficient)
        given, terms = terms, 2 * terms


def _expand(low: fmpz_poly, rev: fmpz_poly, terms: int) -> list:
    """The first `terms` coefficients of low / rev as a power series (zeros included)."""
    old = ctx.cap
    ctx.cap = terms
    try:
        coefficients = (fmpz_series(low, prec=terms) / fmpz_series(rev, prec=terms)).coeffs()
    finally:
        ctx.cap = old
    return coefficients + [0] * (terms - len(coefficients))
