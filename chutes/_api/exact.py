"""Exact values for the Python API: `Exact`, a `fractions.Fraction` that prints, shows and formats at any length.

Since Python 3.11 the interpreter refuses to turn an integer of more than 4,300 digits into text (a guard against
a denial of service, for every program in the process, which is not this library's to lift); the classic board's
exact chance has 4,453 digits on each side of the bar. An `Exact` writes its digits through GMP instead, which has
no such limit, and shows a long value briefly: its leading digits and how many digits it has.
"""

from __future__ import annotations

import re
from decimal import ROUND_DOWN, Decimal, localcontext
from fractions import Fraction
from functools import wraps
from html import escape
from math import log10
from typing import Any

import gmpy2

from chutes.compute.numbers import decimal_string, digit_count, integer_text

SHOWN_DIGITS = 12
"""Significant digits a long value's representation shows before "…" (the value stays exact)."""
SHORT_DIGITS = 24
"""A value whose numerator and denominator have at most this many digits together is shown whole."""
FLOAT_SPEC = re.compile(r"(?:(?P<fill>.)?(?P<align>[<>=^]))?(?P<sign>[-+ ]?z?#?)(?P<zero>0?)(?P<width>\d*)"
                        r"(?P<group>[,_]?)(?:\.(?P<precision>\d+))?(?P<kind>[eEfFgG%])")
"""A format specification of the float kinds (`format(x, ".3f")`), in its parts."""
TEXT_SPEC = re.compile(r"(?:.?[<>^])?\d*")
"""A width and an alignment alone, which format the fraction's text."""
EXPONENT = re.compile(r"([eE][-+])(\d)$")
"""An exponent of one digit, which floats write with two (Decimal with one)."""


class Exact(Fraction):
    """An exact value: a `fractions.Fraction` whose `str` is its whole `numerator/denominator` at any length, whose
    representation is short (a long value shows its leading digits and its size), and which Jupyter shows as
    readable HTML. Arithmetic with integers and fractions gives an `Exact`, so results print too; `Fraction(x)`,
    `float(x)`, comparisons and hashing are those of the fraction.

    >>> x = Exact(53, 6)
    >>> x, str(x), x + 1, float(x), x == Fraction(53, 6)
    (Exact(53, 6), '53/6', Exact(59, 6), 8.833333333333334, True)
    >>> big = Exact(2**20000 + 1, 3 * 2**20000)
    >>> big
    Exact(0.333333333333…, 6,021 digits over 6,022)
    >>> len(str(big)), f"{big:.5f}", f"{big:.3e}"
    (12044, '0.33333', '3.333e-01')
    """

    __slots__ = ()

    def __str__(self) -> str:
        """Every digit, by GMP: `numerator/denominator`, or the integer alone."""
        top = integer_text(self.numerator)
        return top if self.denominator == 1 else f"{top}/{integer_text(self.denominator)}"

    @property
    def digits(self) -> tuple[int, int]:
        """How many decimal digits the numerator and the denominator have."""
        return digit_count(self.numerator), digit_count(self.denominator)

    @property
    def short(self) -> bool:
        """Whether the value is short enough to be shown whole (numerator and denominator of SHORT_DIGITS or
        fewer digits together)."""
        return sum(self.digits) <= SHORT_DIGITS

    def _size(self) -> str:
        top, bottom = self.digits
        return f"{top:,} digits over {bottom:,}"

    def __repr__(self) -> str:
        if self.short:
            return f"Exact({self.numerator}, {self.denominator})"
        return f"Exact({_leading(self)}…, {self._size()})"

    def _repr_html_(self) -> str:
        """What Jupyter shows: the fraction if short, else its leading digits and its size (str() gives it whole)."""
        if self.short:
            return f"<span>{self} <small>≈ {decimal_string(self, SHOWN_DIGITS)}</small></span>"
        return (f"<span>{_leading(self)}… <small>(exactly: a fraction of "
                f"{escape(self._size())}; <code>str()</code> gives every digit)</small></span>")

    def __format__(self, spec: str) -> str:
        """The float kinds (e, f, g, %) correctly rounded from the exact value, as `format(float(x), spec)` would
        be if floats were exact; a width and an alignment alone format `str(x)`."""
        if TEXT_SPEC.fullmatch(spec):
            return format(str(self), spec)
        match = FLOAT_SPEC.fullmatch(spec)
        if match is None:
            raise ValueError(f"invalid format specification {spec!r} for an exact value")
        if not self:
            return format(0.0, spec)
        precision = int(match["precision"] or 6)
        group = "," if match["group"] else ""  # Decimal groups with commas only
        text = format(_stand_in(self, precision), f"{match['sign'].replace('#', '')}{group}.{precision}{match['kind']}")
        text = text.replace(",", match["group"])
        text = EXPONENT.sub(r"\g<1>0\2", text)  # as a float writes it: 3.333e-01
        if match["kind"] in "gG" and "#" not in match["sign"]:  # as a float, without its trailing zeros
            mantissa, e, exponent = text.partition("e" if match["kind"] == "g" else "E")
            text = (mantissa.rstrip("0").rstrip(".") if "." in mantissa else mantissa) + e + exponent
        width = int(match["width"] or 0)
        if match["align"] == "=" or (match["zero"] and not match["align"]):  # padded after the sign
            signed = text[:1] if text[:1] in "+- " else ""
            pad = match["fill"] or ("0" if match["zero"] else " ")
            return signed + text[len(signed):].rjust(width - len(signed), pad)
        return format(text, f"{match['fill'] or ''}{match['align'] or '>'}{width or ''}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.numerator, self.denominator))


def _leading(x: Fraction) -> str:
    """x's first SHOWN_DIGITS significant digits, cut rather than rounded: the digits shown before "…" are x's own
    (as on the site)."""
    with localcontext() as ctx:
        ctx.prec, ctx.rounding = SHOWN_DIGITS, ROUND_DOWN
        return format(+_stand_in(x, SHOWN_DIGITS), "f")


def _stand_in(x: Fraction, precision: int) -> Decimal:
    """A decimal that any float format of `precision` digits rounds exactly as it would `x`: x's digits to a few
    places beyond them, then a sticky digit (1 if anything of x is left over), so that no false tie can arise."""
    if not x:
        return Decimal(0)
    a, b = gmpy2.mpz(abs(x.numerator)), gmpy2.mpz(x.denominator)
    magnitude = int((a.bit_length() - b.bit_length()) * log10(2)) if a else 0
    e = precision + 4 + max(0, -magnitude)  # places after the point: enough for f and %, and for e and g's digits
    q, r = divmod(a * gmpy2.mpz(10) ** e, b)
    sign = "-" if x < 0 else ""
    return Decimal(f"{sign}{integer_text(int(q * 10 + (r != 0)))}E-{e + 1}")


def _lifted(name: str) -> Any:
    """Fraction's operator `name`, giving an `Exact` where it gives a plain Fraction (its results are built as
    `Fraction(...)` whatever the operands' class)."""
    method = getattr(Fraction, name)

    @wraps(method)
    def lifted(*args: Any) -> Any:
        out = method(*args)
        if type(out) is Fraction:
            return Exact(out)
        if isinstance(out, tuple):  # divmod: (an integer, a fraction)
            return tuple(Exact(v) if type(v) is Fraction else v for v in out)
        return out

    return lifted


for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__", "__rtruediv__",
              "__mod__", "__rmod__", "__divmod__", "__rdivmod__", "__pow__", "__neg__", "__pos__",
              "__abs__", "__round__", "limit_denominator"):
    setattr(Exact, _name, _lifted(_name))


def exact(x: Fraction | int) -> Exact:
    """`x` as an `Exact` (without a second reduction: a fraction is in lowest terms already)."""
    return x if isinstance(x, Exact) else Exact(x)
