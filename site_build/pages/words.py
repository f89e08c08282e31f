"""Numbers into words and text for readers, in the page's language: grouped counts, decimals and percentages in the
locale's CLDR formats (through `compute.record.words.Words`), a board's rules, and text from board files made
inert for Markdown.

These only format values already computed by the compute stage (given as floats or decimal strings). The
claims a page makes with them (shares of games, bounds, certified digits) come from `compute.record.words`,
the same sentences as `chutes solve --lang` prints.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from decimal import ROUND_HALF_EVEN, Decimal
from typing import TYPE_CHECKING, Any

from .language import Language

if TYPE_CHECKING:
    from ...compute.record.schema import BoardDefinition


class PageWords:
    """The template filters and the page code's wording in one language (`Language`)."""

    def __init__(self, language: Language | str = "en") -> None:
        self.language = language if isinstance(language, Language) else Language(language)
        self.words = self.language.words
        self._ = self.language._
        self.ngettext = self.language.ngettext
        self.pgettext = self.language.pgettext

    def number(self, n: int) -> str:
        """An integer grouped as the locale groups digits: 4453 → '4,453' ('4.453' in German)."""
        return self.words.count(n)

    def rounded(self, value: str | float | Decimal, places: int = 2) -> str:
        """A decimal (string, float or Decimal) rounded for display, half-even, grouped, in the locale's format."""
        d = Decimal(str(value)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)
        return self.words.decimal(d.copy_abs()) if d.is_zero() else self.words.decimal(d)

    @staticmethod
    def machine_decimal(value: str | float | Decimal, places: int = 2) -> str:
        """A decimal rounded as `rounded` rounds it, but for a page script, not a reader: '36.808' in every
        language (a data attribute the script reads as a number)."""
        return str(Decimal(str(value)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN))

    def signed(self, value: str | float | Decimal, places: int = 2) -> str:
        """A change with its sign: '+1.43', '−2.80' (a true minus sign)."""
        d = Decimal(str(value)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)
        sign = "\u2212" if d < 0 else "+"
        return sign + self.words.decimal(d.copy_abs())

    def signed_percent(self, value: str | float, places: int = 1) -> str:
        """A change of probability in percentage points, with its sign."""
        return self._("%(change)s points", change=self.signed(Decimal(str(value)) * 100, places))

    def digit_groups(self, decimal: str, size: int = 5) -> str:
        """A long decimal in groups of five digits after the decimal sign ('0.50780 27734 …'), so that it wraps
        between groups on a narrow screen instead of leaving a lone digit on the last line (a final "…" stays
        with the last group). Its digits are the record's, as they are; `decimal` is in the locale's format
        ('0,50780…' in French), as `leading_digits` writes it."""
        sign = self.words.decimal("0.5")[1:-1]  # the locale's decimal sign
        whole, _, fraction = decimal.removesuffix("…").partition(sign)
        groups = [fraction[i:i + size] for i in range(0, len(fraction), size)]
        more = "…" if decimal.endswith("…") else ""
        return f"{self.words.label(int(whole))}{sign}{' '.join(groups)}{more}" if fraction else whole + more

    def rule_sentences(self, board: BoardDefinition) -> list[str]:
        """A board's rules in plain words, a sentence each: the same sentences as `chutes solve` prints."""
        return self.words.rules_in_words(board.model_dump(exclude_none=True))

    def rules_in_words(self, board: BoardDefinition) -> str:
        return " ".join(self.rule_sentences(board))

    def short_number(self, text: str, keep: int = 24) -> str:
        """A long number for a table cell: its first digits and how many there are ('2258…/5757…, 60 digits')."""
        if len(text) <= keep:
            return text
        if "/" in text:
            p, q = text.split("/")
            return self._("%(numerator)s…/%(denominator)s… (%(digits)s digits)", numerator=p[:8],
                          denominator=q[:8], digits=self.number(len(p)))
        return f"{text[:keep]}…"

    def minutes(self, rounds: str | float, players: int | str, seconds_per_turn: float = 10) -> str:
        """How long a game of `rounds` rounds takes at a pace of turns, in words: 'about 9 minutes'."""
        total = max(1, round(float(rounds) * int(players) * seconds_per_turn / 60))
        return self.ngettext("about %(n)s minute", "about %(n)s minutes", total)

    def rule_name(self, board: BoardDefinition) -> str:
        """A board's rules in a few words, for a table's first column: what differs from one fair die, an exact
        landing on the last square and no other rule ("The rules on the box", "Six to enter", "Coin flip", "Two
        dice, passing wins", "Six rolls again, third undoes"). The rules in full are `rule_sentences`."""
        dice, _ = board.dice or 1, self._

        def roll(total: int) -> str:
            named = {2: self.pgettext("roll", "two"), 3: self.pgettext("roll", "three"),
                     4: self.pgettext("roll", "four"), 5: self.pgettext("roll", "five"),
                     6: self.pgettext("roll", "six")}
            return named[total] if dice == 1 and total in named else self.words.label(total)

        parts = []
        if dice > 1:
            parts.append(self.ngettext("%(dice)s die", "%(dice)s dice", dice, dice=self.words.dice(dice)))
        if board.weights:
            parts.append(_("weighted faces (%(ratio)s)", ratio=":".join(map(self.words.label, board.weights))))
        if board.overshoot != "stay":
            parts.append({"bounce": _("bounce back"), "pass": _("passing wins")}[board.overshoot])
        if board.enter_on:
            rolls = [roll(v) for v in board.enter_on]
            parts.append(_("%(rolls)s to enter", rolls=_("%(some)s or %(last)s", some=", ".join(rolls[:-1]),
                                                           last=rolls[-1]) if len(rolls) > 1 else rolls[0]))
        if board.roll_again_on is not None:
            limit, again = board.roll_again_limit, roll(board.roll_again_on)
            home = (board.roll_again_penalty or "undo") != "undo"
            if limit is None:
                parts.append(_("%(roll)s rolls again", roll=again))
            elif limit == 0:
                parts.append(_("%(roll)s sends home", roll=again) if home else _("%(roll)s undoes", roll=again))
            else:
                nth = self.words.ordinal(limit + 1)
                parts.append(_("%(roll)s rolls again, %(nth)s sends home", roll=again, nth=nth) if home else
                             _("%(roll)s rolls again, %(nth)s undoes", roll=again, nth=nth))
        if board.choice == "coin":
            parts.append(_("coin flip"))
        if board.start:
            parts.append(_("start on %(square)s", square=self.words.label(board.start)))
        text = self.pgettext("list separator", ", ").join(parts) or _("the rules on the box")
        return text[0].upper() + text[1:]

    def overshoot_rule(self, rule: str) -> str:
        """The overshoot rule in plain words."""
        return {"stay": self._("you must land exactly on the last square; a roll that would go past it is lost"),
                "bounce": self._("a roll that goes past the last square bounces back from it"),
                "pass": self._("reaching or passing the last square wins")}[rule]

    def end_rule(self, rule: str) -> str:
        """The end rule in two or three words, for a table cell."""
        return {"stay": self._("exact landing"), "bounce": self._("bounce back"),
                "pass": self._("passing wins")}[rule]

    def start_square(self, square: int) -> str:
        """Where players start, in words."""
        return self._("off the board (square 0)") if square == 0 else self._("on square %(square)s",
                                                                            square=self.words.label(square))

    def decimal(self, value: str | float) -> str:
        """A decimal with every digit it has (a 20-digit exact value, a float's shortest repr), in the locale's
        format: nothing is rounded."""
        return self.words.decimal(str(value))

    def label(self, n: int) -> str:
        """A number that names something (a square, a die's faces), in the locale's digits, never grouped."""
        return self.words.label(int(n))

    def either(self, values: list[int]) -> str:
        """Numbers (squares, rolls) in words: '3', '2 or 5', '1, 3 or 6'."""
        named = [self.label(v) for v in values]
        if len(named) == 1:
            return named[0]
        return self._("%(some)s or %(last)s", some=self.pgettext("list separator", ", ").join(named[:-1]),
                      last=named[-1])

    def chutes(self, board: BoardDefinition) -> str:
        """What the board calls its chutes, in the plural: 'chutes', or 'snakes' on a snakes board."""
        return self.pgettext("plural", "snakes") if board.chute_word == "snakes" else self.pgettext("plural", "chutes")

    def chute(self, board: BoardDefinition) -> str:
        """One of the board's chutes: 'chute' or 'snake'."""
        return self.pgettext("singular", "snake") if board.chute_word == "snakes" else self.pgettext("singular",
                                                                                                    "chute")

    def jump_kind(self, board: BoardDefinition, kind: str) -> str:
        """A jump's kind for a table cell, capitalised: 'Ladder', 'Chute' (or 'Snake')."""
        if kind == "ladder":
            return self.pgettext("table cell", "Ladder")
        return self.pgettext("table cell", "Snake") if board.chute_word == "snakes" else self.pgettext("table cell",
                                                                                                       "Chute")

    def count_of(self, board: BoardDefinition, kind: str, n: int) -> str:
        """How many ladders, chutes or snakes: '1 ladder', '10 chutes', '9 snakes'."""
        if kind == "ladder":
            return self.ngettext("%(n)s ladder", "%(n)s ladders", n)
        if board.chute_word == "snakes":
            return self.ngettext("%(n)s snake", "%(n)s snakes", n)
        return self.ngettext("%(n)s chute", "%(n)s chutes", n)

    def jump(self, board: BoardDefinition, kind: str, start: int, end: int) -> str:
        """A jump for a table cell: 'Ladder 1 → 38', 'Snake 98 → 78'."""
        return self._("%(kind)s %(start)s → %(end)s", kind=self.jump_kind(board, kind), start=self.label(start),
                      end=self.label(end))

    def scientific(self, value: float, places: int = 1) -> str:
        """A float in scientific notation, its mantissa in the locale's decimal format: '3.2e-17' ('3,2e-17')."""
        mantissa, _, exponent = f"{value:.{places}e}".partition("e")
        return f"{self.words.decimal(mantissa)}e{exponent}"

    def filters(self) -> dict[str, Callable[..., Any]]:
        """The templates' filters in this language."""
        w = self.words
        return {"md": plain, "front_matter": front_matter, "short_number": self.short_number, "number": self.number,
                "rounded": self.rounded, "signed": self.signed, "signed_percent": self.signed_percent,
                "percent": w.percent, "per_thousand": w.per_thousand, "minutes": self.minutes,
                "share_of_games": w.share_of_games, "digit_groups": self.digit_groups, "games": w.games,
                "share": w.share, "typical_game": w.typical_game, "bounds_sentence": w.bounds_sentence,
                "certified": w.certified, "leading_digits": w.leading_digits,
                "rules_in_words": self.rules_in_words, "reason": w.skipped, "unending": w.unending,
                "rule_name": self.rule_name,
                "overshoot_rule": self.overshoot_rule, "end_rule": self.end_rule, "start_square": self.start_square,
                "label": self.label, "either": self.either, "scientific": self.scientific, "chutes": self.chutes,
                "chute": self.chute, "jump": self.jump, "decimal": self.decimal,
                "machine_decimal": self.machine_decimal, "count_of": self.count_of, "sentence": sentence}


def sentence(text: str) -> str:
    """Text made to start a sentence: its first letter a capital, the rest as it is (unlike Jinja's `capitalize`,
    which lowercases the rest, a German noun's capital too)."""
    return text[:1].upper() + text[1:]


MARKDOWN_SPECIALS = "\\`*_{}[]|"
"""ASCII punctuation that Markdown or its extensions read as syntax anywhere in a line: escapes, code,
emphasis, attribute lists, links and images (whose brackets are needed), abbreviations, table cells.
(Board text never starts a line, so list and heading markers need nothing.)"""
_ENTITIES = {ord(c): f"&#{ord(c)};" for c in MARKDOWN_SPECIALS + "&<>\"'"}


def plain(text: str) -> str:
    """Text from a board file (a title, a source) made inert wherever it lands in a page: Markdown text, a
    table cell, raw HTML, an attribute. It is put on one line, HTML-escaped, and Markdown's punctuation is
    written as numeric character references, which Markdown leaves alone and browsers show as typed."""
    return " ".join(str(text).split()).translate(_ENTITIES)


_CODE = re.compile(r"^(`{3,}|~{3,}).*?^\1[ \t]*$|(`+)(?!`).+?(?<!`)\2(?!`)", re.S | re.M)
"""A fenced block (its opening fence to the same fence on a line of its own) or a code span (a run of backticks
to the next run of as many)."""


def markdown_text(value: object) -> str:
    """Markdown written in the code (a docstring, a help text, a field's description) as text on a page: outside
    its fenced blocks and code spans, &, < and > are HTML-escaped, so that `<slug>` shows as written instead of
    opening an element; the code keeps its Markdown (code spans, emphasis, links, tables, fences)."""
    text, out, end = str(value), [], 0
    for match in _CODE.finditer(text):
        out += [html.escape(text[end:match.start()], quote=False), match.group(0)]
        end = match.end()
    return "".join([*out, html.escape(text[end:], quote=False)])


def front_matter(text: str) -> str:
    """Board text as a YAML front-matter title. The theme writes the page title into <title>, the navigation
    and the heading without escaping it, so the value is the `plain` form."""
    return json.dumps(plain(text))



def english_filters() -> dict[str, Callable[..., Any]]:
    """The filters of pages that are only in English (the generator's guide)."""
    return PageWords().filters()
