"""Exact numbers for people and for JSON: a fraction as numerator, denominator and a long decimal.

Python refuses by default to turn integers of more than 4,300 digits into text or back; the exact answers
here are longer than that, so every conversion goes through GMP (`integer_text`, `integer_from_text`), which
has no such limit and is not quadratic in the length. Nothing of the process's own settings is changed.
"""

from __future__ import annotations

from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Any

import gmpy2

DECIMAL_DIGITS = 50


def integer_text(n: int) -> str:
    """The decimal digits of an integer, by GMP (Python's own conversion is quadratic in the length)."""
    return gmpy2.mpz(n).digits()


def integer_from_text(text: str) -> int:
    """The integer written in decimal digits (any length), by GMP."""
    return int(gmpy2.mpz(text))


def decimal_string(x: Fraction, digits: int = DECIMAL_DIGITS) -> str:
    """`x` to `digits` significant digits (rounded half-even), without exponent notation."""
    with localcontext() as ctx:
        ctx.prec = digits
        value = Decimal(integer_text(x.numerator)) / Decimal(integer_text(x.denominator))
        return format(value, "f")


def exact_json(x: Fraction, digits: int = DECIMAL_DIGITS) -> dict[str, str]:
    """The JSON form of an exact value: decimal strings for numerator and denominator, and a preview."""
    return {"numerator": integer_text(x.numerator), "denominator": integer_text(x.denominator),
            "decimal": decimal_string(x, digits)}


def fraction_json(x: Fraction, digits: int = DECIMAL_DIGITS) -> dict[str, Any]:
    """An exact value with the sizes of its numerator and denominator (for the very long fractions)."""
    numerator, denominator = integer_text(x.numerator), integer_text(x.denominator)
    return {"numerator": numerator, "denominator": denominator, "decimal": decimal_string(x, digits),
            "numerator_digits": len(numerator.lstrip("-")), "denominator_digits": len(denominator)}


def fraction_from_json(obj: dict[str, str]) -> Fraction:
    """Inverse of `exact_json`."""
    return Fraction(integer_from_text(obj["numerator"]), integer_from_text(obj["denominator"]))


def digit_count(n: int) -> int:
    """Number of decimal digits of |n|."""
    return len(integer_text(abs(n)))


def stable(x: float | Fraction) -> float:
    """A float rounded to 12 significant digits: identical text on every platform."""
    return float(f"{float(x):.12g}")
