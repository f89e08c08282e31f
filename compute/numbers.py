"""Exact numbers for people and for JSON: a fraction as numerator, denominator and a long decimal.

Python refuses by default to turn integers of more than 4,300 digits into text or back; the exact answers
here are longer than that, so every conversion goes through GMP (`integer_text`, `integer_from_text`), which
has no such limit and is not quadratic in the length. Nothing of the process's own settings is changed.
"""

from __future__ import annotations

from decimal import Decimal, localcontext
from fractions import Fraction
from math import log10
from typing import Any

import gmpy2

DECIMAL_DIGITS = 50
BIG_BITS = 20_000
"""Past this many bits, a fraction's decimal is written from a short stand-in (`decimal_string`)."""


def integer_text(n: int) -> str:
    """The decimal digits of an integer, by GMP (Python's own conversion is quadratic in the length)."""
    return gmpy2.mpz(n).digits()


def integer_from_text(text: str) -> int:
    """The integer written in decimal digits (any length), by GMP."""
    return int(gmpy2.mpz(text))


def decimal_string(x: Fraction, digits: int = DECIMAL_DIGITS) -> str:
    """`x` to `digits` significant digits (rounded half-even), without exponent notation.

    A fraction of more than BIG_BITS bits is first replaced by a short stand-in: q, the first `digits` + 3 or
    more digits of |x|, then a sticky digit (1 if anything is left over). x and the stand-in agree in every
    digit that decides the rounding to `digits` digits (and the stand-in is x itself when x ends within
    them), so they round alike and Decimal writes them alike, in time that does not grow with x's digits."""
    if x and x.numerator.bit_length() + x.denominator.bit_length() >= BIG_BITS:
        x = _stand_in(x, digits)
    with localcontext() as ctx:
        ctx.prec = digits
        value = Decimal(integer_text(x.numerator)) / Decimal(integer_text(x.denominator))
        return format(value, "f")


def _stand_in(x: Fraction, digits: int) -> Fraction:
    a, b = gmpy2.mpz(abs(x.numerator)), gmpy2.mpz(x.denominator)
    e = digits + 5 - int((a.bit_length() - b.bit_length()) * log10(2))
    while True:
        q, r = divmod(a * 10**e, b) if e >= 0 else divmod(a, b * 10**-e)
        if q >= 10 ** (digits + 3):
            break
        e += 5
    stand_in = Fraction(int(10 * q + (r != 0))) / Fraction(10) ** (e + 1)
    return stand_in if x > 0 else -stand_in


def fixed_decimal(x: Fraction, places: int = DECIMAL_DIGITS, up: bool = False) -> str:
    """x ≥ 0 to `places` decimals, every one written, rounded down (truncated: the digits a number shows before
    "…", or a lower bound) or, with `up`, rounded up (an upper bound). By GMP, in time that barely grows with x's
    digits."""
    q, r = divmod(gmpy2.mpz(x.numerator) * gmpy2.mpz(10) ** places, gmpy2.mpz(x.denominator))
    digits = integer_text(int(q + (1 if up and r else 0))).rjust(places + 1, "0")
    return f"{digits[:-places]}.{digits[-places:]}" if places else digits


def exact_json(x: Fraction, digits: int = DECIMAL_DIGITS) -> dict[str, str]:
    """The JSON form of an exact value: decimal strings for numerator and denominator, and a preview."""
    return {"numerator": integer_text(x.numerator), "denominator": integer_text(x.denominator),
            "decimal": decimal_string(x, digits)}


def fraction_json(x: Fraction, digits: int = DECIMAL_DIGITS) -> dict[str, Any]:
    """An exact chance with the sizes of its numerator and denominator (for the very long fractions) and its
    first `digits` decimals truncated (what a headline shows before "…")."""
    numerator, denominator = integer_text(x.numerator), integer_text(x.denominator)
    return {"numerator": numerator, "denominator": denominator, "decimal": decimal_string(x, digits),
            "truncated": fixed_decimal(x, digits),
            "numerator_digits": len(numerator.lstrip("-")), "denominator_digits": len(denominator)}


def bracket(lower: Fraction, upper: Fraction) -> dict[str, Any]:
    """Exact bounds as decimals rounded outward (lower down, upper up: still bounds, and so is every shorter
    form of them), and whether they are equal: what a sentence needs to state them truly."""
    return {"lower": fixed_decimal(lower), "upper": fixed_decimal(upper, up=True), "equal": lower == upper}


def fraction_from_json(obj: dict[str, str]) -> Fraction:
    """Inverse of `exact_json`."""
    return Fraction(integer_from_text(obj["numerator"]), integer_from_text(obj["denominator"]))


def digit_count(n: int) -> int:
    """Number of decimal digits of |n|."""
    return len(integer_text(abs(n)))


STABLE_DIGITS = 12
"""Significant digits of the floats a record stores from exact values (`stable_ratio`)."""


def stable(x: float) -> float:
    """A float rounded to 12 significant digits (for floats computed the same way on every machine: counts of
    simulated games and the like). An exact value is rounded by `stable_ratio` instead."""
    return float(f"{x:.12g}")


def rounded_ratio(a: int, b: int, digits: int) -> float:
    """a / b (b > 0) correctly rounded to `digits` significant digits (half to even), as the float nearest that
    decimal: from integers alone, so the same on every machine, and every digit of it true."""
    if a == 0:
        return 0.0
    size = abs(a)
    e = digits - 1 - int((size.bit_length() - b.bit_length()) * 0.30102999566398120)  # 10^e·a/b has ~`digits`
    while True:
        q, r = divmod(size * 10**e, b) if e >= 0 else divmod(size, b * 10**-e)
        if q >= 10**digits:
            e -= 1
        elif q < 10 ** (digits - 1):
            e += 1
        else:
            break
    divisor = b if e >= 0 else b * 10**-e
    if 2 * r > divisor or (2 * r == divisor and q % 2):
        q += 1
    return float(f"{'-' if a < 0 else ''}{q}e{-e}")


def stable_ratio(a: int, b: int) -> float:
    """a / b correctly rounded to STABLE_DIGITS significant digits (`rounded_ratio`)."""
    return rounded_ratio(a, b, STABLE_DIGITS)


def rounded(x: Fraction, digits: int = STABLE_DIGITS) -> float:
    """An exact value correctly rounded to `digits` significant digits (`rounded_ratio`)."""
    return rounded_ratio(x.numerator, x.denominator, digits)
