"""The finishing sequence γₗ = eᵢᵀMˡf (P(T = l + 1) from state i is γₗ / sˡ⁺¹) as a linear recurrence: its first
2d terms, their minimal polynomial, and any number of further terms from one power-series division.

The sequence satisfies the recurrence of its minimal polynomial m (monic, integer, degree k ≤ d, found from 2d
terms: `modular.minimal_polynomial`), so Σₗ γₗ xˡ = low(x) / rev(x), with rev(x) = xᵏm(1/x), rev(0) = 1, and low
the first k terms times rev, truncated to degree k − 1. Expanding that ratio as a power series (python-flint's
fmpz_series division, fast multiplication inside) gives hundreds or thousands of exact terms in about the time
of a few dozen matrix-vector products, where iterating the d × d matrix costs d² operations per term.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from flint import ctx, fmpz_poly, fmpz_series

from .integer import IntegerChain
from .modular import krylov, minimal_polynomial


@dataclass(frozen=True)
class Finishing:
    """γₗ from one state: its first 2d terms (`head`) and their minimal polynomial (`polynomial`, constant
    coefficient first, monic; [1] for the zero sequence)."""

    head: tuple[int, ...]
    polynomial: tuple[int, ...]


def finishing(chain: IntegerChain, index: int) -> Finishing:
    """γₗ from state `index`: 2d terms by the matrix (`modular.krylov`) and the recurrence they satisfy."""
    d = chain.size
    gamma = krylov(chain, index, list(chain.finish), 2 * d)
    return Finishing(tuple(gamma), tuple(minimal_polynomial(gamma, d, chain.scale)))


def numerators(found: Finishing, first: int = 0) -> Iterator[int]:
    """γₗ for l = 0, 1, 2, … without end, exactly: the 2d terms found, then the series expanded to `first` terms
    at once (at least 4d), then to twice as many each time the caller asks for more; each expansion repeats the
    previous terms, so the total work is at most twice that of the last one."""
    yield from found.head
    k = len(found.polynomial) - 1
    if k == 0:  # the zero sequence: no game from this state ever ends (never a state of a turn chain)
        while True:
            yield 0
    rev = fmpz_poly(list(found.polynomial[::-1]))
    low = rev.mul_low(fmpz_poly(list(found.head[:k])), k)
    given, terms = len(found.head), max(first, 2 * len(found.head))
    while True:
        for coefficient in _expand(low, rev, terms)[given:]:
            yield int(coefficient)
        given, terms = terms, 2 * terms


@contextmanager
def series_precision(terms: int) -> Iterator[None]:
    """python-flint's power series kept to `terms` terms within the block (its global cap, restored after)."""
    old = ctx.cap
    ctx.cap = terms
    try:
        yield
    finally:
        ctx.cap = old


def _expand(low: fmpz_poly, rev: fmpz_poly, terms: int) -> list:
    """The first `terms` coefficients of low / rev as a power series (zeros included; rev(0) = ±1)."""
    with series_precision(terms):
        coefficients = (fmpz_series(low, prec=terms) / fmpz_series(rev, prec=terms)).coeffs()
    return coefficients + [0] * (terms - len(coefficients))
