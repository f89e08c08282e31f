"""What others found, compared with our board records: the data behind the "What others found" page.

Each published figure names the key of our value in a board record and how to compare (see
site_src/literature.toml). The comparisons are exact where the published value is exact, to the digits
printed where it is a rounded decimal, to double precision (a relative 10⁻¹²) where it was computed in
floating point and printed with all its digits, and within the simulation's error where it was simulated: an
estimate from n games agrees when it lies within SIMULATION_Z standard errors of our exact value (the
standard error from the exact distribution: √(p(1 − p)/n) for a share, √(variance/n) for an average).

A figure's words (rule, quantity, why) and a source's `where` may be given in the other languages of the site
(`translations` tables, by the language's code); a language without them falls back to the English.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .catalogues import SOURCE, languages
from .criteria import SIMULATION_Z
from .schema import BoardRecord, Exact

DOUBLE_AGREEMENT = Fraction(1, 10**12)
"""A figure computed in double precision agrees when its relative difference from ours is below this."""


class LiteratureError(ValueError):
    """A literature file that cannot be used; the message is one line naming the entry."""


class SourceWords(BaseModel):
    """A source's description in another language (its `[sources.ID.translations.LANG]`): only `where`, since
    the author and the title are names and cited titles, which stay as published."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    where: str = Field(min_length=1)


class Source(BaseModel):
    """A publication: who, what, and where known, where, when and a link."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    author: str
    title: str
    where: str = ""
    year: int | None = None
    link: str = ""
    translations: dict[str, SourceWords] = {}

    def where_in(self, lang: str) -> str | None:
        """Where it appeared, in the language `lang` (the English where it has no translation); None if unknown."""
        if not self.where:
            return None
        words = self.translations.get(lang)
        return words.where if words else self.where


class FigureWords(BaseModel):
    """A figure's words in another language (its `[figures.translations.LANG]`): the rule and the quantity, and
    `why` exactly where the English figure has one."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    rule: str = Field(min_length=1)
    quantity: str = Field(min_length=1)
    why: str | None = Field(default=None, min_length=1)


class Figure(BaseModel):
    """One published figure and how to compare it with ours."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    source: str
    board: str
    rule: str
    quantity: str
    published: str
    ours: str
    compare: Literal["exact", "digits", "double", "whole", "simulation"]
    expect: Literal["agree", "differ"] = "agree"
    games: int | None = None
    why: str = ""
    translations: dict[str, FigureWords] = {}

    def words(self, lang: str) -> tuple[str, str, str]:
        """The rule, the quantity and why (empty where there is no why) in the language `lang`, in English where
        it has no translation."""
        words = self.translations.get(lang)
        if words is None:
            return self.rule, self.quantity, self.why
        return words.rule, words.quantity, words.why or ""


class Literature(BaseModel):
    """The whole file."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    sources: dict[str, Source]
    figures: list[Figure]


@dataclass(frozen=True)
class Comparison:
    """A published figure next to ours, and whether they agree."""

    figure: Figure
    source: Source
    ours: str
    agrees: bool
    how: str


def load_literature(path: Path) -> Literature:
    """Read and check the literature file (every figure's source must be listed)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        literature = Literature.model_validate(data)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise LiteratureError(f"{path}: {exc}") from None
    except ValidationError as exc:
        error = exc.errors()[0]
        raise LiteratureError(f"{path}: {'.'.join(map(str, error['loc']))}: {error['msg']}") from None
    for name, source in literature.sources.items():
        _check_languages(path, f"sources.{name}", source.translations)
        if source.translations and not source.where:
            raise LiteratureError(f"{path}: sources.{name}.translations: only `where` is translated, and this "
                                  "source has none")
    for n, figure in enumerate(literature.figures):
        if figure.source not in literature.sources:
            raise LiteratureError(f"{path}: figures[{n}]: no source '{figure.source}'")
        if figure.compare == "simulation" and not figure.games:
            raise LiteratureError(f"{path}: figures[{n}]: a simulated figure needs its number of games")
        _check_languages(path, f"figures[{n}]", figure.translations)
        for lang, words in figure.translations.items():
            if bool(words.why) != bool(figure.why):
                raise LiteratureError(f"{path}: figures[{n}].translations.{lang}: "
                                      + ("`why` is missing: the English has one" if figure.why
                                         else "`why` is not expected: the English has none"))
    return literature


def _check_languages(path: Path, key: str, translations: Mapping[str, object]) -> None:
    """Refuse a translation into a language without a catalogue, or into English (the file's own words)."""
    others = [lang for lang in languages() if lang != SOURCE]
    for lang in translations:
        if lang not in others:
            raise LiteratureError(f"{path}: {key}.translations.{lang}: no catalogue for the language {lang!r} "
                                  f"(the other languages are {', '.join(others)})")


def _member(value: Any, name: str) -> Any:
    """`value`'s member called `name`: a mapping's key, or a model's field by its name in the record's JSON (its
    alias, such as "from"); KeyError if it has none."""
    if isinstance(value, Mapping):
        return value[name]
    if isinstance(value, BaseModel):
        for field, info in type(value).model_fields.items():
            if (info.alias or field) == name:
                return getattr(value, field)
    raise KeyError(name)


def value_at(record: BoardRecord | Mapping[str, Any], key: str) -> Any:
    """The value at a dotted key of a board record (its model, or any JSON-like mapping): names as in the
    record's JSON, [n] for a list item, [field=value] for the item with that field. A name may itself contain
    dots (percentiles such as 97.5): the longest name present is taken."""
    value: Any = record
    rest = key
    while rest:
        if rest.startswith("["):
            inside, _, rest = rest[1:].partition("]")
            rest = rest.removeprefix(".")
            if "=" in inside:
                field, _, wanted = inside.partition("=")
                value = next(item for item in value if str(_member(item, field)) == wanted)
            else:
                value = value[int(inside)]
            continue
        names = re.split(r"(?=[.\[])", rest)
        for n in range(len(names), 0, -1):
            try:
                value = _member(value, "".join(names[:n]))
            except KeyError:
                continue
            rest = "".join(names[n:]).removeprefix(".")
            break
        else:
            raise KeyError(key)
    return value


def _exact(value: Exact | int | str) -> Fraction:
    return value.fraction if isinstance(value, Exact) else Fraction(value)


def _decimals(text: str) -> int:
    return len(text.partition(".")[2])


def _rounded(value: Fraction | Decimal, places: int) -> Decimal:
    exact = Decimal(value.numerator) / Decimal(value.denominator) if isinstance(value, Fraction) else value
    return exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)


def compare(figure: Figure, record: BoardRecord | Mapping[str, Any]) -> tuple[str, bool, str]:
    """Our value as shown next to the published one, whether they agree, and how that was decided."""
    value = value_at(record, figure.ours)
    if figure.compare == "whole":
        count = len(value) if isinstance(value, list) else int(value)
        return str(count), count == int(figure.published), "equal whole numbers"
    exact = _exact(value)
    if figure.compare == "exact":
        shown = f"{exact.numerator}/{exact.denominator}"
        return shown, Fraction(figure.published.replace(" ", "")) == exact, "equal fractions"
    if figure.compare == "digits":
        places = _decimals(figure.published)
        rounded = _rounded(exact, places)
        return f"{rounded}", rounded == Decimal(figure.published), f"equal to the {places} decimals printed"
    if figure.compare == "double":
        relative = abs(Fraction(figure.published) - exact) / abs(exact)
        shown = f"{_rounded(exact, _decimals(figure.published))}"
        return shown, relative <= DOUBLE_AGREEMENT, f"relative difference {float(relative):.0e} (double precision)"
    assert figure.games, "load_literature refuses a simulated figure without its number of games"
    estimate = Fraction(figure.published)
    spread = _spread(record, figure, exact)
    z = float(abs(estimate - exact)) / (spread / math.sqrt(figure.games)) if spread else math.inf
    shown = f"{_rounded(exact, max(_decimals(figure.published), 4))}"
    return shown, z <= SIMULATION_Z, f"{z:.1f} standard errors apart (agreement: within {SIMULATION_Z:g})"


def _spread(record: BoardRecord | Mapping[str, Any], figure: Figure, exact: Fraction) -> float:
    """The standard deviation of one simulated game's contribution: of the game length for an average,
    of a yes/no outcome for a share."""
    if figure.ours == "results.expected_turns":
        return math.sqrt(float(_exact(value_at(record, "results.variance"))))
    p = float(exact)
    return math.sqrt(p * (1 - p))


def reproduce(literature: Literature, records: Mapping[str, BoardRecord]) -> list[Comparison]:
    """Every published figure next to ours (figures on boards without a record are left out)."""
    out = []
    for figure in literature.figures:
        if figure.board not in records:
            continue
        ours, agrees, how = compare(figure, records[figure.board])
        out.append(Comparison(figure, literature.sources[figure.source], ours, agrees, how))
    return out
