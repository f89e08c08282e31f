"""Sentences from the record, the same on the site and in `chutes solve`, one method per kind of claim, each
true on every board: a board's rules in plain words, shares of games, bounds, certified chances.

Only text work happens here: each number comes from the record (exact fractions, decimals rounded outward,
truncated leading digits) and is printed to a precision that it supports, never rounded into a claim it does not
make ("0.0%" of games that do happen, two equal bounds, a quarter that is a half).

`Words(lang)` writes them in a language: the sentences go through its gettext catalogue (`catalogues`; English,
the source, has none), plurals by the language's CLDR rules, and every number through Babel's CLDR formats for
its locale (decimal sign, grouping, percent sign); an exact fraction's digits are printed as they are. The
module's functions are English's.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Iterable, Mapping
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..board.problems import runs
from .catalogues import SOURCE, translations
from .schema import Bracket, Exact, FirstPlayer, GameLength, Results, Skipped

if TYPE_CHECKING:
    from babel.core import Locale
    from babel.numbers import NumberPattern

BOUND_PLACES = 10
"""Decimals a pair of bounds is printed with at least (more while their leading decimals agree)."""


class Words:
    """The sentences in one language (an ISO 639 code with a catalogue, or "en")."""

    def __init__(self, lang: str = SOURCE) -> None:
        self.lang = lang
        self.translations = translations(lang)
        self._patterns: dict[tuple[str, int], NumberPattern] = {}

    # --- messages and numbers --------------------------------------------------------------------------------

    def _(self, message: str, /, **values: str) -> str:
        """A message in this language, its named placeholders filled in."""
        text = self.translations.gettext(message)
        return text % values if values else text

    def ngettext(self, singular: str, plural: str, n: int, /, **values: str) -> str:
        """The form of a message for the count `n`, by the language's plural rule."""
        return self.translations.ngettext(singular, plural, n) % values

    def pgettext(self, context: str, message: str, /, **values: str) -> str:
        """A short message whose sense its context gives (a roll, an ordinal)."""
        text = self.translations.pgettext(context, message)
        return text % values if values else text

    @functools.cached_property
    def locale(self) -> Locale:
        from babel.core import Locale

        return Locale.parse(self.lang)

    def _format(self, kind: str, value: Decimal, places: int, grouped: bool = True) -> str:
        """`value` in the locale's decimal or percent format with exactly `places` decimals (the value has no
        more: nothing is rounded), in a context with room for all its digits."""
        pattern = self._patterns.get((kind, places))
        if pattern is None:
            formats = self.locale.percent_formats if kind == "percent" else self.locale.decimal_formats
            pattern = copy.copy(formats[None])
            pattern.frac_prec = (places, places)
            self._patterns[kind, places] = pattern
        with localcontext(prec=len(str(value)) + places + 10):
            return pattern.apply(value, self.locale, group_separator=grouped)

    def count(self, n: int) -> str:
        """A whole number of things, grouped as the locale groups digits: '4,453', '4.453', '4,453' in Hindi's
        lakh grouping below a lakh, '10,00,000' above."""
        return self._format("decimal", Decimal(n), 0)

    def label(self, n: int) -> str:
        """A number that names something (a square, a die's faces, a ratio's part), in the locale's digits but
        never grouped: square 1000."""
        return self._format("decimal", Decimal(n), 0, grouped=False)

    def decimal(self, text: str | Decimal) -> str:
        """A decimal with every digit it has, trailing zeros kept, in the locale's format: '0,5043875683'."""
        value = Decimal(text)
        return self._format("decimal", value, max(0, -int(value.as_tuple().exponent)))

    def percentage(self, shown: Decimal) -> str:
        """A percentage already rounded for display (50.8 for 50.8%), with its digits, in the locale's format:
        '50.8%', '50,8 %'."""
        return self._format("percent", shown.scaleb(-2), max(0, -int(shown.as_tuple().exponent)))

    def fraction(self, numerator: str, denominator: str) -> str:
        """An exact fraction, its digits as they are (never grouped: a reader compares them with the data)."""
        return f"{numerator}/{denominator}"

    def _separated(self, items: Iterable[str]) -> str:
        return self.pgettext("list separator", ", ").join(items)

    def _a(self, roll: int) -> str:
        """'a 6', 'an 8': a roll, as a thing that comes up."""
        if str(roll).startswith("8") or roll in (11, 18):
            return self.pgettext("a roll", "an %(roll)s", roll=self.label(roll))
        return self.pgettext("a roll", "a %(roll)s", roll=self.label(roll))

    def _either(self, values: list[int]) -> str:
        """'a 6', 'a 5 or a 6', 'a 1, a 5 or a 6' (every value named: a reader checks them against the dice)."""
        named = [self._a(v) for v in values]
        if len(named) == 1:
            return named[0]
        return self._("%(rolls)s or %(last)s", rolls=self._separated(named[:-1]), last=named[-1])

    def _runs(self, squares: Iterable[int]) -> str:
        """Squares in runs (`problems.runs`): '0, 24-27, 38-46'."""
        return self._separated(self.label(a) if a == b else
                               self.pgettext("squares", "%(first)s-%(last)s", first=self.label(a), last=self.label(b))
                               for a, b in runs(squares))

    def unending(self, squares: list[int], last: int) -> str:
        """Why a game can fail to end (a row of the die experiment, `DieRow.unending`): the squares a player can
        reach from which the last square never can, in the words of the board's check (compute.board.problems)."""
        return self.ngettext("from the start a player can reach square %(squares)s, from which square %(last)s can "
                             "never be reached",
                             "from the start a player can reach squares %(squares)s, from which square %(last)s can "
                             "never be reached", len(squares), squares=self._runs(squares), last=self.label(last))

    def ordinal(self, n: int) -> str:
        """'second' to 'tenth', then '11th': the n-th of a roll in one turn."""
        words = {2: self.pgettext("ordinal", "second"), 3: self.pgettext("ordinal", "third"),
                 4: self.pgettext("ordinal", "fourth"), 5: self.pgettext("ordinal", "fifth"),
                 6: self.pgettext("ordinal", "sixth"), 7: self.pgettext("ordinal", "seventh"),
                 8: self.pgettext("ordinal", "eighth"), 9: self.pgettext("ordinal", "ninth"),
                 10: self.pgettext("ordinal", "tenth")}
        return words.get(n) or self.pgettext("ordinal", "%(n)sth", n=self.label(n))

    def _times(self, n: int) -> str:
        """'once', 'twice', '3 times'."""
        if n == 1:
            return self.pgettext("times", "once")
        if n == 2:
            return self.pgettext("times", "twice")
        return self.ngettext("%(count)s time", "%(count)s times", n, count=self.label(n))

    def dice(self, n: int) -> str:
        """How many dice, in words: 'two', 'three', 'four' (a board has at most four)."""
        words = {2: self.pgettext("dice", "two"), 3: self.pgettext("dice", "three"),
                 4: self.pgettext("dice", "four")}
        return words.get(n) or self.label(n)

    # --- the sentences ---------------------------------------------------------------------------------------

    def rules_in_words(self, board: Mapping[str, Any]) -> list[str]:
        """One sentence per rule: the dice, the end of the board, entering, rolling again and the start."""
        die, dice, last = board["die"], board.get("dice") or 1, self.label(board["squares"])
        sides = self.label(die)
        sentences = [self._("Each roll is one %(sides)s-sided die.", sides=sides) if dice == 1 else
                     self.ngettext("Each roll is %(count)s %(sides)s-sided die, added up.",
                                   "Each roll is %(count)s %(sides)s-sided dice, added up.", dice,
                                   count=self.dice(dice), sides=sides)]
        if board.get("weights"):
            ratio = ":".join(self.label(w) for w in board["weights"])
            sentences.append(
                self._("The die is weighted: its faces 1 to %(sides)s come up in the ratio %(ratio)s.",
                       sides=sides, ratio=ratio) if dice == 1 else
                self._("Each die is weighted: its faces 1 to %(sides)s come up in the ratio %(ratio)s.",
                       sides=sides, ratio=ratio))
        overshoot = board["overshoot"]
        sentences.append(
            self._("A roll that would go past square %(last)s is lost: the token stays where it is.", last=last)
            if overshoot == "stay" else
            self._("A roll that would go past square %(last)s bounces back from it.", last=last)
            if overshoot == "bounce" else self._("Reaching or passing square %(last)s wins.", last=last))
        if board.get("enter_on"):
            sentences.append(self._("A token off the board (on square 0) needs %(rolls)s to enter it; any other "
                                    "roll leaves it there.", rolls=self._either(board["enter_on"])))
        again = board.get("roll_again_on")
        if again is not None:
            limit = board.get("roll_again_limit")
            a_roll = self._a(again)
            where = (self._("back to where the turn began")
                     if (board.get("roll_again_penalty") or "undo") == "undo" else
                     self._("back to square 0, off the board"))
            if limit is None:
                sentence = self._("%(a_roll)s rolls again, as often as it comes up.", a_roll=a_roll)
            elif limit == 0:
                sentence = self._("%(a_roll)s is not moved and sends the token %(where)s.", a_roll=a_roll,
                                  where=where)
            else:
                sentence = self._("%(a_roll)s rolls again, up to %(times)s in a turn; a %(nth)s %(roll)s in one "
                                  "turn is not moved and sends the token %(where)s.", a_roll=a_roll,
                                  times=self._times(limit), nth=self.ordinal(limit + 1), roll=self.label(again),
                                  where=where)
            sentences.append(sentence[:1].upper() + sentence[1:])
        if board.get("choice") == "coin":
            sentences.append(self._("After seeing a roll, a player may flip a coin and move one square more on "
                                    "heads, one less on tails (a 1 then moves nothing); the results are for a "
                                    "player who plays best."))
        start = board["start"]
        sentences.append(self._("Players start off the board, on square 0.") if start == 0 else
                         self._("Players start on square %(start)s.", start=self.label(start)))
        return sentences

    def percent(self, value: str | float, places: int = 1) -> str:
        """A probability as a percentage, rounded half-even to `places` decimals ('50.8%'), but never a rounded 0
        or 100 for a value that is not exactly 0 or 1: 'under 0.1%', 'over 99.9%'. A decimal string is exactly 0
        or 1 when written "0" or "1" (the record's previews of other values carry all their digits); a float is
        exactly 0 when zero and never exactly 1 (a float 1.0 is often 1 − ε rounded)."""
        if value == "0" or (isinstance(value, float) and value == 0):
            return self.percentage(Decimal(0))
        if value == "1":
            return self.percentage(Decimal(100))
        unit = Decimal(1).scaleb(-places)
        shown = (Decimal(str(value)) * 100).quantize(unit, rounding=ROUND_HALF_EVEN)
        if shown <= 0:
            return self._("under %(percent)s", percent=self.percentage(unit))
        if shown >= 100:
            return self._("over %(percent)s", percent=self.percentage(100 - unit))
        return self.percentage(shown)

    def per_thousand(self, value: str) -> str:
        """How many of every 1,000 games a probability amounts to, rounded to the nearest game ('508'), but never
        a rounded 0 or 1,000 for a value that is not exactly 0 or 1 ('under 1', 'over 999')."""
        shown = Decimal(value).scaleb(3).quantize(Decimal(1), rounding=ROUND_HALF_EVEN)
        if value in ("0", "1") or 0 < shown < 1000:
            return self.count(int(shown))
        if shown <= 0:
            return self._("under %(count)s", count=self.count(1))
        return self._("over %(count)s", count=self.count(999))

    def share_of_games(self, x: Exact) -> str:
        """A probability as a share of games a reader can picture: '2.3% of games' (as `games`), or for rare
        events 'about 1 in 46,656 games' (the nearest whole number: never a rounded 0%), or below 10⁻¹⁸ 'fewer
        than 1 in 10¹⁸ games' (a preview below 10⁻¹⁸ is the rounding of a value below it)."""
        p = Decimal(x.decimal)
        if x.numerator == "0" or p >= Decimal("0.01"):
            return self.games(x)
        if p < Decimal("1e-18"):
            return self._("fewer than 1 in 10¹⁸ games")
        with localcontext(prec=len(x.decimal) + 20):
            return self._("about 1 in %(count)s games", count=self.count(int((1 / p).quantize(Decimal(1)))))

    def share(self, x: Exact, places: int = 1) -> str:
        """A share of games as a percentage true to its printed digits: 'none', 'all', 'exactly 50%' (a fraction
        whose percentage ends within `places` decimals), '50.6%', 'under 0.1%', 'over 99.9%'."""
        if x.numerator == "0":
            return self._("none")
        if x.numerator == x.denominator:
            return self._("all")
        scale = 10 ** (places + 2)
        if len(x.denominator) <= places + 3 and scale % int(x.denominator) == 0:
            exact = Decimal(int(x.numerator) * scale // int(x.denominator)).scaleb(-places).normalize()
            return self._("exactly %(percent)s", percent=self.percentage(exact))
        return self.percent(x.decimal, places)

    def games(self, x: Exact, places: int = 1) -> str:
        """A share of games with its noun, to start a sentence: 'no games', 'all games', '50.6% of games'."""
        if x.numerator == "0":
            return self._("no games")
        if x.numerator == x.denominator:
            return self._("all games")
        return self._("%(share)s of games", share=self.share(x, places))

    def leading_digits(self, x: FirstPlayer) -> str:
        """A long exact chance's headline: its first decimals cut off (not rounded) and "…", or the whole decimal
        when it ends within them (a denominator that divides 10 to the power of their count)."""
        places = len(x.truncated.partition(".")[2])
        if len(x.denominator) <= places + 1 and 10**places % int(x.denominator) == 0:
            return self.decimal(x.truncated.rstrip("0").rstrip("."))
        return f"{self.decimal(x.truncated)}…"

    def turns(self, n: int) -> str:
        """'1 turn', '33 turns'."""
        return self.ngettext("%(count)s turn", "%(count)s turns", n, count=self.count(n))

    def typical_game(self, g: GameLength, strong: str = "") -> str:
        """The median and the quartiles, each with the true share of games on its side (`at_most`, `more_than`):
        on a board whose lengths have large atoms the lower quartile may hold half the games. `strong` is put
        around the median (Markdown's "**" on the site)."""
        median, lower, upper = g.median, g.lower_quartile, g.upper_quartile
        values = {"games": self.games(g.at_most[str(median)]), "strong": strong, "count": self.count(median)}
        first = (self.ngettext("%(games)s are over within %(strong)s%(count)s turn%(strong)s (the median and the "
                               "lower quartile)", "%(games)s are over within %(strong)s%(count)s turns%(strong)s (the "
                               "median and the lower quartile)", median, **values) if lower == median else
                 self.ngettext("%(games)s are over within %(strong)s%(count)s turn%(strong)s (the median)",
                               "%(games)s are over within %(strong)s%(count)s turns%(strong)s (the median)", median,
                               **values))
        beyond = g.more_than[str(upper)]
        last = (self.ngettext("none take more than %(count)s (the upper quartile)",
                              "none take more than %(count)s (the upper quartile)", upper, count=self.count(upper))
                if beyond.numerator == "0" else
                self.ngettext("%(share)s take more than %(count)s (the upper quartile)",
                              "%(share)s take more than %(count)s (the upper quartile)", upper,
                              share=self.share(beyond), count=self.count(upper)))
        if lower == median:
            return self._("%(median)s, and %(upper)s.", median=first, upper=last)
        second = self.ngettext("%(share)s take %(count)s turn or fewer (the lower quartile)",
                               "%(share)s take %(count)s turns or fewer (the lower quartile)", lower,
                               share=self.share(g.at_most[str(lower)]), count=self.count(lower))
        return self._("%(median)s; %(lower)s, and %(upper)s.", median=first, lower=second, upper=last)

    def bounds_sentence(self, bounds: Bracket, n: int) -> str:
        """Where the bounds after `n` turns put the answer, in as many decimals as it takes for them to differ
        (at least BOUND_PLACES), the lower rounded down and the upper up; the leading decimals they share, as
        the answer's own digits; "exactly" when they are equal."""
        count = self.count(n)
        if bounds.equal:
            return self.ngettext("After %(n)s turn the two bounds are equal: every game is over within %(n)s turn, "
                                 "so they give the answer exactly.",
                                 "After %(n)s turns the two bounds are equal: every game is over within %(n)s "
                                 "turns, so they give the answer exactly.", n, n=count)
        places = max(len(bounds.lower.partition(".")[2]), len(bounds.upper.partition(".")[2]))
        lower, upper = (_outward(b, places, ROUND_FLOOR) for b in (bounds.lower, bounds.upper))  # padded
        # Unequal bounds (the record's are unequal strings) written to the same decimals differ in some digit:
        # where `same` characters agree, so do their first `agree` decimals (none if their whole parts differ),
        # and so do the answer's, which lies between them.
        same = next(i for i, (a, b) in enumerate(zip(lower, upper)) if a != b)
        agree = max(0, same - len(lower.partition(".")[0]) - 1)
        if agree < BOUND_PLACES:
            return self.ngettext("After %(n)s turn the answer lies between %(lower)s and %(upper)s.",
                                 "After %(n)s turns the answer lies between %(lower)s and %(upper)s.", n, n=count,
                                 lower=self.decimal(_outward(lower, BOUND_PLACES, ROUND_FLOOR)),
                                 upper=self.decimal(_outward(upper, BOUND_PLACES, ROUND_CEILING)))
        first = self.ngettext("in their first %(count)s decimal", "in their first %(count)s decimals", agree,
                              count=self.count(agree))
        return self.ngettext("After %(n)s turn the bounds agree %(first)s, so the answer begins %(digits)s…: it "
                             "lies between %(lower)s and %(upper)s.",
                             "After %(n)s turns the bounds agree %(first)s, so the answer begins %(digits)s…: it "
                             "lies between %(lower)s and %(upper)s.", n, n=count, first=first,
                             digits=self.decimal(lower[:same]),
                             lower=self.decimal(_outward(lower, agree + 1, ROUND_FLOOR)),
                             upper=self.decimal(_outward(upper, agree + 1, ROUND_CEILING)))

    def certified(self, error_bounds: Iterable[str]) -> str:
        """How far some certified values are right, from their error bounds (as "5.871e-39"): 'certified to N
        decimal places', the most N with every bound below half a unit of the N-th decimal (a bound of exponent e
        is below 10^(e+1), so N = −e − 2); a bound of zero is an exact value."""
        places = [-Decimal(e).adjusted() - 2 for e in error_bounds if Decimal(e) > 0]
        if not places:
            return self._("exact")
        return self.ngettext("certified to %(count)s decimal place", "certified to %(count)s decimal places",
                             min(places), count=self.count(min(places)))

    def _fraction_digits(self, p: FirstPlayer | Mapping[str, Any]) -> str:
        """'exactly a fraction with 1,234 digits over 1,240'."""
        digits = p.numerator_digits if isinstance(p, FirstPlayer) else p["numerator_digits"]
        over = p.denominator_digits if isinstance(p, FirstPlayer) else p["denominator_digits"]
        return self.ngettext("exactly a fraction with %(digits)s digit over %(over)s",
                             "exactly a fraction with %(digits)s digits over %(over)s", digits,
                             digits=self.count(digits), over=self.count(over))

    def summary(self, result: dict[str, Any]) -> str:
        """`chutes solve`'s headline results in plain words, in the site's sentences for the same claims."""
        res = Results.model_validate(result)
        b, g, p, short = result["board"], res.game_length, res.first_player_wins, res.game_length.shortest
        typical = self.typical_game(g)
        rolls = self._separated(self.label(r) for r in short.rolls)
        chance = self.fraction(short.probability.numerator, short.probability.denominator)
        lines = [
            f"{b['title']}",
            "  " + " ".join([self.ngettext("%(count)s square.", "%(count)s squares.", b["squares"],
                                           count=self.label(b["squares"])), *self.rules_in_words(b)]),
            "  " + self._("Average game: %(mean)s turns for one player (standard deviation %(deviation)s).",
                          mean=self.decimal(f"{float(res.expected_turns.decimal):.4f}"),
                          deviation=self.decimal(f"{float(res.standard_deviation):.2f}")),
            f"  {typical[:1].upper()}{typical[1:]} " + self._("Most likely length: %(turns)s.",
                                                               turns=self.turns(g.mode)),
            "  " + (self._("Shortest game: %(turns)s, e.g. by the squares %(squares)s (rolling %(rolls)s, the coin "
                           "helping); chance of a game that short: %(chance)s.", turns=self.turns(short.turns),
                           squares=self.pgettext("path", " → ").join(map(self.label, short.squares)), rolls=rolls,
                           chance=chance)
                    if b.get("choice") else
                    self._("Shortest game: %(turns)s, e.g. rolling %(rolls)s; chance of a game that short: "
                           "%(chance)s.", turns=self.turns(short.turns), rolls=rolls, chance=chance)),
        ]
        for k, v in g.over_within.items():
            lines.append("  " + self.ngettext("Over within %(count)s turn: %(games)s (one player).",
                                              "Over within %(count)s turns: %(games)s (one player).", int(k),
                                              count=self.count(int(k)), games=self.games(v)))
        lines += [
            "  " + self._("First of two players wins: %(digits)s", digits=self.leading_digits(p)),
            "    " + self._("%(share)s of every %(thousand)s games, to the nearest game; %(fraction)s (use --json "
                            "for all of them).", share=self.per_thousand(p.decimal), thousand=self.count(1000),
                            fraction=self._fraction_digits(p)),
        ]
        return "\n".join(lines)

    def first_of_three(self, title: str, p: Mapping[str, Any], seconds: float) -> str:
        """`chutes solve --players 3 --exact`'s answer: the first player's exact chance, cut to its headline."""
        return "\n".join([
            title,
            "  " + self._("First of three players wins: %(digits)s",
                          digits=self.leading_digits(FirstPlayer.model_validate(p))),
            "    " + self._("%(fraction)s (use --json for all of them; solved in %(seconds)s s)",
                            fraction=self._fraction_digits(p), seconds=self.decimal(f"{seconds:.1f}")),
        ])

    def race(self, title: str, result: Mapping[str, Any]) -> str:
        """`chutes solve --positions/--players`'s answer: each seat's chance to win and the expected rounds."""
        lines = [title]
        for w in result["win_probabilities"]:
            if not w["exact"]:
                mantissa, e, exponent = w["error_bound"].partition("e")
                how = self._("± %(bound)s", bound=self.decimal(mantissa) + e + exponent)
            elif len(w["numerator"]) + len(w["denominator"]) > 51:
                how = self.ngettext("exactly: a fraction of %(digits)s digit, see --json",
                                    "exactly: a fraction of %(digits)s digits, see --json", len(w["denominator"]),
                                    digits=self.count(len(w["denominator"])))
            else:
                how = self._("exactly %(fraction)s", fraction=self.fraction(w["numerator"], w["denominator"]))
            lines.append("  " + self._("Seat %(seat)s (on square %(square)s) wins with probability %(chance)s "
                                       "(%(how)s)", seat=self.label(w["seat"]), square=self.label(w["square"]),
                                       chance=self.decimal(w["decimal"]), how=how))
        lines.append("  " + self._("Expected rounds until someone wins: %(rounds)s",
                                   rounds=self.decimal(result["expected_rounds"]["decimal"][:20])))
        return "\n".join(lines)

    # --- a part left out ---------------------------------------------------------------------------------------

    def skipped(self, part: Skipped) -> str:
        """Why a part of the record is left out, in words (its `why` and numbers, never its English text)."""
        if part.why == "squares":
            return self._("computed for the site on boards of up to %(squares)s squares",
                          squares=self.count(part.limit or 0))
        if part.why == "seconds":
            return self._("left out: it would take about %(seconds)s s, more than the %(budget)s s this site allows "
                          "one board", seconds=self.count(part.seconds or 0), budget=self.count(part.limit or 0))
        return self._("computed for boards without house rules (a roll to enter, several dice, weighted faces, a "
                      "roll-again limit or a choice)")

    def skip(self, why: str, limit: int | None = None, seconds: int | None = None) -> Skipped:
        """A part left out for a reason (`Skipped`), its English words said by `skipped`."""
        part = Skipped.model_validate({"skipped": "", "why": why, "limit": limit, "seconds": seconds})
        return part.model_copy(update={"reason": self.skipped(part)})

    # --- the best play's advice, when the rules give a choice ------------------------------------------------

    def strategy_label(self, key: str, chute_word: str = "chutes") -> str:
        """A named strategy's description (compute.solve.strategy.STRATEGIES' keys, and "best")."""
        snakes = chute_word == "snakes"
        labels = {"never": self._("Never flip (the box rules)"), "always": self._("Always flip"),
                  "chute_heads": self._("Flip when the roll would land on the head of a snake") if snakes else
                  self._("Flip when the roll would land on the head of a chute"),
                  "ladder_neighbours": self._("Flip when a neighbour of the square the roll reaches is the foot of a "
                                              "ladder"),
                  "best": self._("The best play")}
        return labels[key]

    def rule_words(self, rule: str, chute_word: str) -> str:
        """A rule a player can follow at the table (compute.record.results.SIMPLE_RULES' names), as the end of
        "Flip when ..."."""
        if chute_word == "snakes":
            rules = {"chute_heads": self._("the roll would land on the head of a snake"),
                     "both": self._("the roll would land on the head of a snake or next to the foot of a ladder")}
        else:
            rules = {"chute_heads": self._("the roll would land on the head of a chute"),
                     "both": self._("the roll would land on the head of a chute or next to the foot of a ladder")}
        rules["ladder_neighbours"] = self._("a square next to where the roll lands is the foot of a ladder")
        return rules[rule]

    def _tenths(self, x: Mapping[str, str]) -> str:
        """An exact value (its numerator and denominator) rounded to one decimal, exactly (half to even)."""
        value = round(Fraction(int(x["numerator"]), int(x["denominator"])), 1)
        return self.decimal((Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal("0.1")))

    def unmoved(self, limit: int, again: int) -> str:
        """Which roll of `roll_again_on` a roll-again limit refuses to move."""
        if limit == 0:
            return self._("%(a_roll)s is never moved", a_roll=self._a(again))
        return self._("a %(nth)s %(roll)s in one turn is not moved", nth=self.ordinal(limit + 1),
                      roll=self.label(again))

    def advice(self, strategy: Mapping[str, Any], board: Mapping[str, Any]) -> str:
        """The best simple rule in one sentence a player can use at the table, true on this board (the record's
        strategy, as JSON: its named strategies' exact expected turns and its `simple_rule`)."""
        rows = {row["key"]: row["expected_turns"] for row in strategy["strategies"]}
        best, never = self._tenths(rows["best"]), self._tenths(rows["never"])
        if not strategy["flips"] and not strategy.get("later"):
            return self._("Flipping never helps on this board: never flip (the average game takes %(turns)s turns).",
                          turns=best)
        simple = strategy.get("simple_rule")
        if not simple:
            return self._("No simple rule beats never flipping here (%(never)s turns on average); the best play, "
                          "drawn on the board, takes %(best)s.", never=never, best=best)
        rule, turns = self.rule_words(simple["rule"], board.get("chute_word", "chutes")), \
            self._tenths(simple["expected_turns"])
        if board.get("roll_again_limit") is None:
            return self._("Flip when %(rule)s: the average game then takes %(turns)s turns instead of %(never)s; "
                          "the best play, drawn on the board, takes %(best)s.", rule=rule, turns=turns, never=never,
                          best=best)
        return self._("Flip when %(rule)s (%(unmoved)s, coin or not): the average game then takes %(turns)s turns "
                      "instead of %(never)s; the best play, drawn on the board, takes %(best)s.", rule=rule,
                      unmoved=self.unmoved(board["roll_again_limit"], board["roll_again_on"]), turns=turns,
                      never=never, best=best)

    def solved_in(self, seconds: float) -> str:
        """How long `chutes solve` took: '(solved in 0.12 s)'."""
        return self._("(solved in %(seconds)s s)", seconds=self.decimal(f"{seconds:.2f}"))


def _outward(decimal: str, places: int, rounding: str) -> str:
    """A decimal string rounded to `places` decimals in one direction (a bound stays a bound)."""
    with localcontext(prec=len(decimal) + places + 2):  # room for every digit: only the rounding is inexact
        return f"{Decimal(decimal).quantize(Decimal(1).scaleb(-places), rounding=rounding):f}"


@functools.cache
def words(lang: str = SOURCE) -> Words:
    """The sentences in a language, made once (its catalogue read and checked once)."""
    return Words(lang)


ENGLISH = words(SOURCE)
rules_in_words = ENGLISH.rules_in_words
percent = ENGLISH.percent
per_thousand = ENGLISH.per_thousand
share_of_games = ENGLISH.share_of_games
share = ENGLISH.share
games = ENGLISH.games
leading_digits = ENGLISH.leading_digits
turns = ENGLISH.turns
typical_game = ENGLISH.typical_game
bounds_sentence = ENGLISH.bounds_sentence
certified = ENGLISH.certified
summary = ENGLISH.summary
