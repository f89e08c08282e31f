"""Sentences from the record, the same on the site and in `chutes solve`, one function per kind of claim, each
true on every board: a board's rules in plain words, shares of games, bounds, certified chances.

Only text work happens here: each number comes from the record (exact fractions, decimals rounded outward,
truncated leading digits) and is printed to a precision that it supports, never rounded into a claim it does not
make ("0.0%" of games that do happen, two equal bounds, a quarter that is a half).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_EVEN, Decimal, localcontext
from typing import Any

from .schema import Bracket, Exact, FirstPlayer, GameLength, Results

BOUND_PLACES = 10
"""Decimals a pair of bounds is printed with at least (more while their leading decimals agree)."""

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
    if board.get("choice") == "coin":
        sentences.append("After seeing a roll, a player may flip a coin and move one square more on heads, one "
                         "less on tails (a 1 then moves nothing); the results are for a player who plays best.")
    start = board["start"]
    sentences.append("Players start off the board, on square 0." if start == 0 else
                     f"Players start on square {start}.")
    return sentences


def percent(value: str | float, places: int = 1) -> str:
    """A probability as a percentage, rounded half-even to `places` decimals ('50.8%'), but never a rounded 0 or
    100 for a value that is not exactly 0 or 1: 'under 0.1%', 'over 99.9%'. A decimal string is exactly 0 or 1
    when written "0" or "1" (the record's previews of other values carry all their digits); a float is exactly 0
    when zero and never exactly 1 (a float 1.0 is often 1 − ε rounded)."""
    if value == "0" or (isinstance(value, float) and value == 0):
        return "0%"
    if value == "1":
        return "100%"
    unit = Decimal(1).scaleb(-places)
    shown = (Decimal(str(value)) * 100).quantize(unit, rounding=ROUND_HALF_EVEN)
    if shown <= 0:
        return f"under {unit}%"
    if shown >= 100:
        return f"over {100 - unit}%"
    return f"{shown}%"


def per_thousand(value: str) -> str:
    """How many of every 1,000 games a probability amounts to, rounded to the nearest game ('508'), but never a
    rounded 0 or 1,000 for a value that is not exactly 0 or 1 ('under 1', 'over 999')."""
    shown = Decimal(value).scaleb(3).quantize(Decimal(1), rounding=ROUND_HALF_EVEN)
    if value in ("0", "1") or 0 < shown < 1000:
        return f"{shown:,f}"
    return "under 1" if shown <= 0 else "over 999"


def share_of_games(x: Exact) -> str:
    """A probability as a share of games a reader can picture: '2.3% of games' (as `games`), or for rare events
    'about 1 in 46,656 games' (the nearest whole number: never a rounded 0%), or below 10⁻¹⁸ 'fewer than 1 in
    10¹⁸ games' (a preview below 10⁻¹⁸ is the rounding of a value below it)."""
    p = Decimal(x.decimal)
    if x.numerator == "0" or p >= Decimal("0.01"):
        return games(x)
    if p < Decimal("1e-18"):
        return "fewer than 1 in 10¹⁸ games"
    with localcontext(prec=len(x.decimal) + 20):
        return f"about 1 in {int((1 / p).quantize(Decimal(1))):,} games"


def share(x: Exact, places: int = 1) -> str:
    """A share of games as a percentage true to its printed digits: 'none', 'all', 'exactly 50%' (a fraction
    whose percentage ends within `places` decimals), '50.6%', 'under 0.1%', 'over 99.9%'."""
    if x.numerator == "0":
        return "none"
    if x.numerator == x.denominator:
        return "all"
    scale = 10 ** (places + 2)
    if len(x.denominator) <= places + 3 and scale % int(x.denominator) == 0:
        exact = Decimal(int(x.numerator) * scale // int(x.denominator)).scaleb(-places).normalize()
        return f"exactly {exact:f}%"
    return percent(x.decimal, places)


def games(x: Exact, places: int = 1) -> str:
    """A share of games with its noun, to start a sentence: 'no games', 'all games', '50.6% of games'."""
    words = share(x, places)
    return {"none": "no games", "all": "all games"}.get(words, f"{words} of games")


def leading_digits(x: FirstPlayer) -> str:
    """A long exact chance's headline: its first decimals cut off (not rounded) and "…", or the whole decimal
    when it ends within them (a denominator that divides 10 to the power of their count)."""
    places = len(x.truncated.partition(".")[2])
    if len(x.denominator) <= places + 1 and 10**places % int(x.denominator) == 0:
        return x.truncated.rstrip("0").rstrip(".")
    return f"{x.truncated}…"


def turns(n: int) -> str:
    """'1 turn', '33 turns'."""
    return f"{n:,} turn{'' if n == 1 else 's'}"


def typical_game(g: GameLength, strong: str = "") -> str:
    """The median and the quartiles, each with the true share of games on its side (`at_most`, `more_than`): on a
    board whose lengths have large atoms the lower quartile may hold half the games. `strong` is put around the
    median (Markdown's "**" on the site)."""
    median, lower, upper = g.median, g.lower_quartile, g.upper_quartile
    names = "the median and the lower quartile" if lower == median else "the median"
    parts = [f"{games(g.at_most[str(median)])} are over within {strong}{turns(median)}{strong} ({names})"]
    if lower != median:
        parts.append(f"{share(g.at_most[str(lower)])} take {turns(lower)} or fewer (the lower quartile)")
    last = f"{share(g.more_than[str(upper)])} take more than {upper:,} (the upper quartile)"
    return f"{'; '.join(parts)}, and {last}."


def bounds_sentence(bounds: Bracket, n: int) -> str:
    """Where the bounds after `n` turns put the answer, in as many decimals as it takes for them to differ
    (at least BOUND_PLACES), the lower rounded down and the upper up; the leading decimals they share, as the
    answer's own digits; "exactly" when they are equal."""
    if bounds.equal:
        return (f"After {n} turns the two bounds are equal: every game is over within {n} turns, so they give the "
                f"answer exactly.")
    places = max(len(bounds.lower.partition(".")[2]), len(bounds.upper.partition(".")[2]))
    lower, upper = (_outward(b, places, ROUND_FLOOR) for b in (bounds.lower, bounds.upper))  # padded, not rounded
    # Unequal bounds (the record's are unequal strings) written to the same decimals differ in some digit: where
    # `same` characters agree, so do their first `agree` decimals (none if their whole parts differ), and so do
    # the answer's, which lies between them.
    same = next(i for i, (a, b) in enumerate(zip(lower, upper)) if a != b)
    agree = max(0, same - len(lower.partition(".")[0]) - 1)
    if agree < BOUND_PLACES:
        return (f"After {n} turns the answer lies between {_outward(lower, BOUND_PLACES, ROUND_FLOOR)} and "
                f"{_outward(upper, BOUND_PLACES, ROUND_CEILING)}.")
    return (f"After {n} turns the bounds agree in their first {agree} decimals, so the answer begins "
            f"{lower[:same]}…: it lies between {_outward(lower, agree + 1, ROUND_FLOOR)} and "
            f"{_outward(upper, agree + 1, ROUND_CEILING)}.")


def _outward(decimal: str, places: int, rounding: str) -> str:
    """A decimal string rounded to `places` decimals in one direction (a bound stays a bound)."""
    with localcontext(prec=len(decimal) + places + 2):  # room for every digit: only the rounding is inexact
        return f"{Decimal(decimal).quantize(Decimal(1).scaleb(-places), rounding=rounding):f}"


def certified(error_bounds: Iterable[str]) -> str:
    """How far some certified values are right, from their error bounds (as "5.871e-39"): 'certified to N decimal
    places', the most N with every bound below half a unit of the N-th decimal (a bound of exponent e is below
    10^(e+1), so N = −e − 2); a bound of zero is an exact value."""
    places = [-Decimal(e).adjusted() - 2 for e in error_bounds if Decimal(e) > 0]
    return f"certified to {min(places)} decimal places" if places else "exact"


def summary(result: dict[str, Any]) -> str:
    """`chutes solve`'s headline results in plain words, in the site's sentences for the same claims."""
    res = Results.model_validate(result)
    b, g, p, short = result["board"], res.game_length, res.first_player_wins, res.game_length.shortest
    typical = typical_game(g)
    lines = [
        f"{b['title']}",
        f"  {b['squares']} squares. " + " ".join(rules_in_words(b)),
        f"  Average game: {float(res.expected_turns.decimal):.4f} turns for one player "
        f"(standard deviation {float(res.standard_deviation):.2f}).",
        f"  {typical[0].upper()}{typical[1:]} Most likely length: {turns(g.mode)}.",
        f"  Shortest game: {turns(short.turns)}, e.g. "
        + (f"by the squares {' → '.join(map(str, short.squares))} (rolling {', '.join(map(str, short.rolls))}, "
           f"the coin helping); " if b.get("choice") else f"rolling {', '.join(map(str, short.rolls))}; ")
        + f"chance of a game that short: {short.probability.numerator}/{short.probability.denominator}.",
    ]
    for k, v in g.over_within.items():
        lines.append(f"  Over within {k} turns: {games(v)} (one player).")
    lines += [
        f"  First of two players wins: {leading_digits(p)}",
        f"    {per_thousand(p.decimal)} of every 1,000 games, to the nearest game; exactly a fraction with "
        f"{p.numerator_digits:,} digits over {p.denominator_digits:,} (use --json for all of them).",
    ]
    return "\n".join(lines)
