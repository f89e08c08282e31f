"""A board's rules in plain words, from its definition in the record: the same sentences on the board's page
and in `chutes solve`, true for every combination of rules a board file can give."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
_COUNTS = ("one", "two", "three", "four", "five", "six")


def _ordinal(n: int) -> str:
    return _ORDINALS[n - 1] if n <= len(_ORDINALS) else f"{n}th"


def _either(values: list[int]) -> str:
    """'a 6', 'a 5 or a 6', 'a 1, a 5 or a 6' (every value named: a reader checks them against the dice)."""
    named = [f"an {v}" if str(v).startswith("8") or v in (11, 18) else f"a {v}" for v in values]
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " or " + named[-1]


def rules_in_words(board: Mapping[str, Any]) -> list[str]:
    """One sentence per rule: the dice, the end of the board, entering, rolling again and the start."""
    die, dice, last = board["die"], board.get("dice") or 1, board["squares"]
    count = _COUNTS[dice - 1] if dice <= len(_COUNTS) else str(dice)
    sentences = [f"Each roll is one {die}-sided die." if dice == 1 else
                 f"Each roll is {count} {die}-sided dice, added up."]
    if board.get("weights"):
        which = "The die is" if dice == 1 else "Each die is"
        sentences.append(f"{which} weighted: its faces 1 to {die} come up in the ratio "
                         f"{':'.join(str(w) for w in board['weights'])}.")
    sentences.append({"stay": f"A roll that would go past square {last} is lost: the token stays where it is.",
                      "bounce": f"A roll that would go past square {last} bounces back from it.",
                      "pass": f"Reaching or passing square {last} wins."}[board["overshoot"]])
    if board.get("enter_on"):
        sentences.append(f"A token off the board (on square 0) needs {_either(board['enter_on'])} to enter it; "
                         f"any other roll leaves it there.")
    again = board.get("roll_again_on")
    if again is not None:
        limit = board.get("roll_again_limit")
        rolled = _either([again])
        if limit is None:
            sentences.append(f"{rolled[0].upper()}{rolled[1:]} rolls again, as often as it comes up.")
        else:
            where = ("back to where the turn began" if (board.get("roll_again_penalty") or "undo") == "undo"
                     else "back to square 0, off the board")
            if limit == 0:
                sentences.append(f"{rolled[0].upper()}{rolled[1:]} is not moved and sends the token {where}.")
            else:
                times = "once" if limit == 1 else "twice" if limit == 2 else f"{limit} times"
                sentences.append(f"{rolled[0].upper()}{rolled[1:]} rolls again, up to {times} in a turn; a "
                                 f"{_ordinal(limit + 1)} {rolled.split(' ', 1)[1]} in one turn is not moved and "
                                 f"sends the token {where}.")
    start = board["start"]
    sentences.append("Players start off the board, on square 0." if start == 0 else
                     f"Players start on square {start}.")
    return sentences
