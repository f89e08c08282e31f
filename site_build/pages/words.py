"""Numbers into words and text for readers: thousands separators, percentages, rounding for display.

These only format values already computed by the compute stage (given as floats or decimal strings). The
claims a page makes with them (shares of games, bounds, certified digits) come from `compute.record.words`,
the same sentences as `chutes solve` prints.
"""

from __future__ import annotations

import html
import json
import re
from decimal import ROUND_HALF_EVEN, Decimal
from typing import TYPE_CHECKING

from ...compute.record.words import (
    bounds_sentence,
    certified,
    games,
    leading_digits,
    per_thousand,
    percent,
    rules_in_words,
    share,
    share_of_games,
    typical_game,
)

if TYPE_CHECKING:
    from ...compute.record.schema import BoardDefinition


def number(n: int) -> str:
    """An integer with thousands separators: 4453 → '4,453'."""
    return f"{n:,}"


def rounded(value: str | float | Decimal, places: int = 2) -> str:
    """A decimal (string, float or Decimal) rounded for display, half-even, with thousands separators."""
    d = Decimal(str(value)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)
    return f"{d:,.{places}f}"


def signed(value: str | float | Decimal, places: int = 2) -> str:
    """A change with its sign: '+1.43', '−2.80' (a true minus sign)."""
    text = rounded(value, places)
    return text.replace("-", "−") if text.startswith("-") else "+" + text


def signed_percent(value: str | float, places: int = 1) -> str:
    """A change of probability in percentage points, with its sign."""
    return f"{signed(Decimal(str(value)) * 100, places)} points"


def digit_groups(decimal: str, size: int = 5) -> str:
    """A long decimal in groups of five digits after the point ('0.50780 27734 …'), so that it wraps
    between groups on a narrow screen instead of leaving a lone digit on the last line (a final "…" stays
    with the last group)."""
    whole, _, fraction = decimal.removesuffix("…").partition(".")
    groups = [fraction[i:i + size] for i in range(0, len(fraction), size)]
    more = "…" if decimal.endswith("…") else ""
    return f"{whole}.{' '.join(groups)}{more}" if fraction else whole + more


def plural(n: int, word: str, words: str | None = None) -> str:
    """'1 turn', '7 turns'."""
    return f"{number(n)} {word if n == 1 else (words or word + 's')}"


def rule_sentences(board: BoardDefinition) -> list[str]:
    """A board's rules in plain words, a sentence each: the same sentences as `chutes solve` prints."""
    return rules_in_words(board.model_dump(exclude_none=True))


_ROLL_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
_ORDINALS = {2: "second", 3: "third", 4: "fourth"}


def rule_name(board: BoardDefinition) -> str:
    """A board's rules in a few words, for a table's first column: what differs from one fair die, an exact
    landing on the last square and no other rule ("The rules on the box", "Six to enter", "Coin flip", "Two dice,
    passing wins", "Six rolls again, third undoes"). The rules in full are `rule_sentences`."""
    dice = board.dice or 1

    def roll(total: int) -> str:
        return _ROLL_WORDS[total] if dice == 1 and 2 <= total <= 6 else str(total)

    parts = []
    if dice > 1:
        parts.append(f"{_ROLL_WORDS.get(dice, str(dice))} dice")
    if board.weights:
        parts.append(f"weighted faces ({':'.join(map(str, board.weights))})")
    if board.overshoot != "stay":
        parts.append({"bounce": "bounce back", "pass": "passing wins"}[board.overshoot])
    if board.enter_on:
        parts.append(" or ".join(roll(v) for v in board.enter_on) + " to enter")
    if board.roll_again_on is not None:
        limit, again = board.roll_again_limit, roll(board.roll_again_on)
        where = "undoes" if (board.roll_again_penalty or "undo") == "undo" else "sends home"
        parts.append(f"{again} rolls again" if limit is None else f"{again} {where}" if limit == 0 else
                     f"{again} rolls again, {_ORDINALS.get(limit + 1, f'{limit + 1}th')} {where}")
    if board.choice == "coin":
        parts.append("coin flip")
    if board.start:
        parts.append(f"start on {board.start}")
    text = ", ".join(parts) or "the rules on the box"
    return text[0].upper() + text[1:]


def overshoot_rule(rule: str) -> str:
    """The overshoot rule in plain words."""
    return {"stay": "you must land exactly on the last square; a roll that would go past it is lost",
            "bounce": "a roll that goes past the last square bounces back from it",
            "pass": "reaching or passing the last square wins"}[rule]


def end_rule(rule: str) -> str:
    """The end rule in two or three words, for a table cell."""
    return {"stay": "exact landing", "bounce": "bounce back", "pass": "passing wins"}[rule]


def start_square(square: int) -> str:
    """Where players start, in words."""
    return "off the board (square 0)" if square == 0 else f"on square {square}"


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


def short_number(text: str, keep: int = 24) -> str:
    """A long number for a table cell: its first digits and how many there are ('2258…/5757…, 60 digits')."""
    if len(text) <= keep:
        return text
    if "/" in text:
        p, q = text.split("/")
        return f"{p[:8]}…/{q[:8]}… ({len(p):,} digits)"
    return f"{text[:keep]}…"


def minutes(rounds: str | float, players: int | str, seconds_per_turn: float = 10) -> str:
    """How long a game of `rounds` rounds takes at a pace of turns, in words: 'about 9 minutes'."""
    total = float(rounds) * int(players) * seconds_per_turn / 60
    return f"about {max(1, round(total)):,} minute{'s' if round(total) != 1 else ''}"


FILTERS = {"md": plain, "front_matter": front_matter, "short_number": short_number, "number": number,
           "rounded": rounded, "signed": signed, "signed_percent": signed_percent, "percent": percent,
           "per_thousand": per_thousand, "plural": plural, "overshoot_rule": overshoot_rule,
           "start_square": start_square, "minutes": minutes, "share_of_games": share_of_games,
           "digit_groups": digit_groups, "end_rule": end_rule, "games": games, "share": share,
           "typical_game": typical_game, "bounds_sentence": bounds_sentence, "certified": certified,
           "leading_digits": leading_digits,
           "rule_name": rule_name}
