"""Every sentence a page or `chutes solve` makes about a board's numbers is true on any board: each stated
share is the true share to its printed digits ("exactly" only when exact, never a rounded 0% or 100%), each
printed bound holds, each "…" follows digits of the number itself.

The claims are checked against exact values worked out here from the board's distribution (its exact terms,
summed in the test), not against the record's own copies of them.
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction

import pytest
from helpers import REPOSITORY, board, chain, published_fraction
from hypothesis import HealthCheck, given, settings
from strategies import rule_boards

from chutes.compute.board.cost import estimated_seconds
from chutes.compute.board.file import board_from_mapping
from chutes.compute.board.model import Board
from chutes.compute.numbers import exact_json, fixed_decimal
from chutes.compute.record.catalogues import languages
from chutes.compute.record.results import BOUND_TURNS, solve
from chutes.compute.record.schema import Bracket, Exact, FirstPlayer, Results, Rounds
from chutes.compute.record.words import (
    Words,
    bounds_sentence,
    certified,
    games,
    leading_digits,
    per_thousand,
    percent,
    share,
    share_of_games,
    summary,
    typical_game,
)
from chutes.compute.solve.chain import TurnChain, turn_chain
from chutes.compute.solve.races import rounds_record
from chutes.site_build.pages.words import PageWords

SHARE = r"(none|all|no games|all games|(?:exactly |under |over )?[\d.]+%(?: of games)?)"


def _exact(x: Fraction) -> Exact:
    return Exact.model_validate(exact_json(x))


def assert_share(words: str, p: Fraction, places: int = 1) -> None:
    """`words` (a `share` or `games` phrase) is the share p, true to its printed digits."""
    text = words.removesuffix(" of games")
    if text in ("none", "no games"):
        assert p == 0, words
    elif text in ("all", "all games"):
        assert p == 1, words
    elif text.startswith("exactly "):
        assert p == Fraction(Decimal(text.removeprefix("exactly ").removesuffix("%"))) / 100, (words, p)
    elif text.startswith("under "):
        assert text == f"under {Decimal(1).scaleb(-places)}%" and 0 < p < Fraction(1, 10 ** (places + 2)), (words, p)
    elif text.startswith("over "):
        assert text == f"over {100 - Decimal(1).scaleb(-places)}%" and 1 - Fraction(1, 10 ** (places + 2)) < p < 1
    else:
        shown = Fraction(Decimal(text.removesuffix("%"))) / 100
        assert len(text.removesuffix("%").partition(".")[2]) == places, words
        assert 0 < p < 1 and abs(p - shown) <= Fraction(1, 2 * 10 ** (places + 2)), (words, float(p))


def assert_bounds(sentence: str, lower: Fraction, upper: Fraction, p: Fraction) -> None:
    """A bounds sentence holds for the exact bounds and the exact chance p."""
    assert lower <= p <= upper
    if "are equal" in sentence:
        assert lower == upper == p, sentence
        return
    assert lower < upper, f"{sentence}: the bounds are equal"
    low, high = re.search(r"lies between ([\d.]+) and ([\d.]+)\.$", sentence).groups()
    places = len(low.partition(".")[2])
    assert places == len(high.partition(".")[2]) >= 10 and low != high
    assert Fraction(Decimal(low)) <= lower and upper <= Fraction(Decimal(high)), "rounded outward"
    agree = re.search(r"agree in their first (\d+) decimals, so the answer begins ([\d.]+)…", sentence)
    if agree:
        k, digits = int(agree.group(1)), agree.group(2)
        assert fixed_decimal(lower, k) == fixed_decimal(upper, k) == fixed_decimal(p, k) == digits
        assert places == k + 1
    else:
        assert places == 10 and fixed_decimal(lower, 10) != fixed_decimal(upper, 10)


class Sums:
    """The distribution's exact terms summed here, in integers over sᵏ (one pass, whatever the length): P(T ≤ k)
    at the lengths asked for, the quartiles, and the diagonal sums of the bounds after m turns."""

    def __init__(self, c: TurnChain, lengths: set[int], bounds: set[int]) -> None:
        dist = c.distribution
        s, power, total, squares = dist.scale, 1, 0, 0
        self.terms, self.over = dist.terms, dist.alive == 0  # over: every game ends within the exact terms
        self.cdf: dict[int, Fraction] = {0: Fraction(0)}
        self.diagonal: dict[int, Fraction] = {}
        self.quartiles: dict[int, int] = {}
        self.shortest = 0
        diagonal = dist.terms if self.over else max(bounds)  # the squares' sums are needed up to here
        for k, a in enumerate(dist.numerators, start=1):
            power, total = power * s, total * s + a
            self.shortest = self.shortest or (k if a else 0)
            if k in lengths:
                self.cdf[k] = Fraction(total, power)
                if k == self.shortest:
                    self.first = Fraction(a, power)
            if k <= diagonal:
                squares = squares * s * s + a * a
                if k in bounds or k == dist.terms:
                    self.diagonal[k] = Fraction(squares, power * power)
                    self.cdf[k] = Fraction(total, power)
            while len(self.quartiles) < 3 and 4 * total >= (len(self.quartiles) + 1) * power:
                self.quartiles[len(self.quartiles) + 1] = k

    def at_most(self, k: int) -> Fraction:
        """P(T ≤ k), also beyond the exact terms when every game ends within them."""
        if k > self.terms:
            assert self.over, f"P(T ≤ {k}) beyond the exact terms"
            return Fraction(1)
        return self.cdf[k]


def check_sentences(c: TurnChain) -> list[str]:
    """Every numeric sentence of the board, from the same functions the pages and `chutes solve` use, checked
    against exact values from the distribution's terms; the sentences, for the tests to look at."""
    res = Results.model_validate(solve(c))
    rounds = {players: Rounds.model_validate(rounds_record(c, players)) for players in (1, 2, 3, 4)}
    g = res.game_length
    lengths = {int(k) for k in [*g.at_most, *g.over_within]} | {g.shortest.turns}
    lengths |= {n + d for r in rounds.values() for n in (r.median, r.ninety) for d in (-1, 0)}
    exact = Sums(c, lengths, set(BOUND_TURNS))
    said = []
    # the median and quartiles: their labels, and the true shares on their sides
    sentence = typical_game(g, "**")
    said.append(sentence)
    assert (g.lower_quartile, g.median, g.upper_quartile) == tuple(exact.quartiles[q] for q in (1, 2, 3))
    median = re.search(rf"^{SHARE} are over within \*\*([\d,]+) turns?\*\* \((the median[^)]*)\)", sentence)
    assert median and _int(median.group(2)) == g.median, sentence
    assert median.group(3) == ("the median and the lower quartile" if g.lower_quartile == g.median else "the median")
    assert_share(median.group(1), exact.at_most(g.median))
    lower = re.search(rf"; {SHARE} take ([\d,]+) turns? or fewer \(the lower quartile\)", sentence)
    assert (lower is None) == (g.lower_quartile == g.median), sentence
    if lower:
        assert _int(lower.group(2)) == g.lower_quartile
        assert_share(lower.group(1), exact.at_most(g.lower_quartile))
    upper = re.search(rf", and {SHARE} take more than ([\d,]+) \(the upper quartile\)\.$", sentence)
    assert upper and _int(upper.group(2)) == g.upper_quartile, sentence
    assert_share(upper.group(1), 1 - exact.at_most(g.upper_quartile))
    # 9 in 10 (the card) and every other landmark's shares
    for k, p in g.at_most.items():
        assert_share(share(p), exact.at_most(int(k)))
        assert_share(share(g.more_than[k]), 1 - exact.at_most(int(k)))
    # over within 20, 50, 100 turns
    for k, p in g.over_within.items():
        said.append(f"Over within {k} turns: {games(p)}.")
        assert_share(games(p), exact.at_most(int(k)))
    # the shortest game
    words = share_of_games(g.shortest.probability)
    said.append(words)
    assert g.shortest.turns == exact.shortest
    rare = re.fullmatch(r"about 1 in ([\d,]+) games", words)
    if words == "fewer than 1 in 10¹⁸ games":
        assert 0 < exact.first < Fraction(1, 10**18)
    elif rare:
        assert exact.first < Fraction(1, 100) and abs(1 / exact.first - _int(rare.group(1))) <= Fraction(1, 2)
    else:
        assert_share(words, exact.first)
    # the first player's chance: its headline digits, per thousand and the bounds
    p = res.first_player_wins.fraction
    if exact.over:
        assert p == Fraction(1, 2) + exact.diagonal[exact.terms] / 2
    assert 0 <= p * 10**50 - int(res.first_player_wins.truncated.replace(".", "")) < 1, "truncated, not rounded"
    thousand = per_thousand(res.first_player_wins.decimal)
    said.append(f"{thousand} of every 1,000 games")
    if thousand == "over 999":
        assert Fraction(9995, 10_000) <= p < 1
    else:
        assert abs(p * 1000 - _int(thousand)) <= Fraction(1, 2)
    for n in BOUND_TURNS:
        m = min(n, exact.terms)
        low = Fraction(1, 2) + exact.diagonal[m] / 2
        high = low + (1 - exact.cdf[m]) ** 2 / 2
        sentence = bounds_sentence(res.bounds_outward[str(n)], n)
        said.append(sentence)
        assert_bounds(sentence, low, high, p)
    if res.strategy is not None:
        said.append(check_advice(c, res))
    # rounds until someone wins: the card's true shares beside "at least half" and "at least 9 in 10"
    for players, r in rounds.items():
        for n, q, got in ((r.median, Fraction(1, 2), r.median_share), (r.ninety, Fraction(9, 10), r.ninety_share)):
            truth = 1 - (1 - exact.at_most(n)) ** players
            assert truth >= q > 1 - (1 - exact.at_most(n - 1)) ** players, "the quantile the header names"
            assert_share(share(got), truth)
    return said


def _tenths(words: str, x: Fraction) -> None:
    """`words` is x to one decimal (half-even; a tie is possible only when x is itself a multiple of 1/20)."""
    shown = Fraction(Decimal(words))
    assert len(words.partition(".")[2]) == 1 and abs(x - shown) <= Fraction(1, 20), (words, float(x))


def check_advice(c: TurnChain, res: Results) -> str:
    """A board with a choice: the sentence for the table is true. Its numbers are worked out here from turn chains
    (the board played best is `c`; never flipping is the board without the coin; a simple rule, the board played
    with its flips), not from the record's strategies; the best play is no worse than any of them."""
    from chutes.compute.record.results import SIMPLE_RULES
    from chutes.compute.record.words import ENGLISH
    from chutes.compute.solve.strategy import STRATEGIES, best_play

    strategy = res.strategy
    assert strategy is not None and strategy.bellman
    board = c.board
    best = c.moments[0]
    never = turn_chain(Board(**{**board.fields(), "choice": None, "flips": ()})).moments[0]
    assert best <= never
    if board.roll_again_limit is None:
        assert [list(f) for f in board.flips] == [list(f) for f in strategy.flips], "the chain is the best play's"
    else:  # the record names the first roll of a turn; the chain's board holds the play at every roll
        turn_squares = set(best_play(board.played(())).options.squares)
        first = {(f[0], f[1]) for f in board.flips if (len(f) == 2 or f[2:] == (0, f[0])) and f[0] in turn_squares}
        assert first == {tuple(f) for f in strategy.flips}, "the chain is the best play's"
    rows = {row.key: row for row in strategy.strategies}
    assert rows["best"].expected_turns.fraction == best and rows["never"].expected_turns.fraction == never
    assert all(row.loss is None or row.loss.fraction >= 0 for row in rows.values())
    advice = strategy.advice
    if not board.flips:
        m = re.fullmatch(r"Flipping never helps on this board: never flip \(the average game takes ([\d.]+) turns\)\.",
                         advice)
        assert m and best == never, advice
        _tenths(m.group(1), best)
        return advice
    m = re.fullmatch(r"Flip when (.+): the average game then takes ([\d.]+) turns instead of ([\d.]+); the best "
                     r"play, drawn on the board, takes ([\d.]+)\.", advice)
    if m is None:
        m = re.fullmatch(r"No simple rule beats never flipping here \(([\d.]+) turns on average\); the best play, "
                         r"drawn on the board, takes ([\d.]+)\.", advice)
        assert m, advice
        _tenths(m.group(1), never)
        _tenths(m.group(2), best)
        return advice
    words, value, before, after = m.groups()
    if board.roll_again_limit is not None:  # the rule holds at every roll but the penalty, which is not moved
        suffix = f" ({ENGLISH.unmoved(board.roll_again_limit, board.roll_again_on)}, coin or not)"
        assert words.endswith(suffix), advice
        words = words.removesuffix(suffix)
    assert strategy.simple_rule is not None
    assert words == ENGLISH.rule_words(strategy.simple_rule.rule, board.chute_word), advice
    keys = dict(SIMPLE_RULES)[strategy.simple_rule.rule]
    options = best_play(board.played(())).options
    named = {key: flips for key, _, flips in STRATEGIES}
    flips = set().union(*(named[k](options) for k in keys))
    rule = turn_chain(board.played(flips)).moments[0] if flips else never
    assert best <= rule < never, "the rule helps, and no more than the best play"
    _tenths(value, rule)
    _tenths(before, never)
    _tenths(after, best)
    return advice


def _int(text: str) -> int:
    return int(text.replace(",", ""))


# --- the claims, one by one -----------------------------------------------------------------------------------

def test_a_share_is_never_a_rounded_zero_or_hundred() -> None:
    assert percent("0.0000153136") == "under 0.1%" and percent("0.99999802") == "over 99.9%"
    assert percent("0") == "0%" and percent("1") == "100%" and percent("0.50780") == "50.8%"
    assert percent("1.0000000000000000000000000000000000000000000000000") == "over 99.9%", "1 − ε, not 1"
    assert percent(0.0) == "0%" and percent(1.0, 2) == "over 99.99%" and percent(2e-7, 4) == "under 0.0001%"
    assert per_thousand("0.50780") == "508" and per_thousand("1") == "1,000"
    assert per_thousand("0.99951") == "over 999" and per_thousand("0.0004") == "under 1"


def test_a_share_says_exactly_only_when_it_is_exact() -> None:
    assert share(_exact(Fraction(1, 2))) == "exactly 50%" and share(_exact(Fraction(3, 8))) == "exactly 37.5%"
    assert share(_exact(Fraction(1, 3))) == "33.3%" and share(_exact(Fraction(1, 2048))) == "under 0.1%"
    assert share(_exact(Fraction(1, 16))) == "6.2%", "6.25% is exact, but not to one decimal (half-even)"
    assert games(_exact(Fraction(0))) == "no games" and games(_exact(Fraction(1))) == "all games"
    assert share_of_games(_exact(Fraction(73, 46656))) == "about 1 in 639 games"
    assert share_of_games(_exact(Fraction(1, 12))) == "8.3% of games"
    assert share_of_games(_exact(Fraction(1, 6**40))) == "fewer than 1 in 10¹⁸ games"
    assert share_of_games(_exact(Fraction(1, 10**18 - 1))) == "about 1 in 999,999,999,999,999,999 games"


def test_certified_digits_come_from_the_error_bounds() -> None:
    assert certified(["5.871e-39", "9.019e-40"]) == "certified to 37 decimal places"
    assert certified(["0.000e+00"]) == "exact"


def test_bounds_are_rounded_outward_and_printed_until_they_differ() -> None:
    # noordenbos after 100 turns: the lower bound 0.50438756835788…, which rounds to nearest as …684
    bracket = Bracket(lower="0.504387568357886", upper="0.518967879437382", equal=False)
    assert bounds_sentence(bracket, 100) == "After 100 turns the answer lies between 0.5043875683 and 0.5189678795."
    close = Bracket(lower="0.5290058706465105", upper="0.5290058706484576", equal=False)
    assert bounds_sentence(close, 100) == ("After 100 turns the bounds agree in their first 11 decimals, so the "
                                           "answer begins 0.52900587064…: it lies between 0.529005870646 and "
                                           "0.529005870649.")
    same = Bracket(lower="0.59557", upper="0.59558", equal=True)
    assert "are equal" in bounds_sentence(same, 100) and "0.5955" not in bounds_sentence(same, 100)


def test_headline_digits_are_the_fractions_own() -> None:
    """The classic board's fraction reads …18794157…: its 50th decimal is 1 (rounding would make it 2), on the
    site, in the record, in `chutes solve` and in the README."""
    truncated = fixed_decimal(published_fraction(), 50)
    assert truncated.endswith("767187941")
    readme = (REPOSITORY / "README.md").read_text()
    shown = re.search(r"^ {4}(0\.\d+)…$", readme, re.MULTILINE).group(1)
    assert shown == truncated
    first = FirstPlayer.model_validate({**_exact(Fraction(2, 3)).model_dump(), "truncated": "0.666",
                                        "numerator_digits": 1, "denominator_digits": 1})
    assert first.truncated == "0.666"
    with pytest.raises(ValueError, match="leading digits"):
        FirstPlayer.model_validate({**_exact(Fraction(2, 3)).model_dump(), "truncated": "0.667",
                                    "numerator_digits": 1, "denominator_digits": 1})


def test_a_chance_that_ends_within_its_digits_is_shown_whole() -> None:
    def first(x: Fraction) -> FirstPlayer:
        return FirstPlayer.model_validate({**exact_json(x), "truncated": fixed_decimal(x), "numerator_digits": 1,
                                           "denominator_digits": 1})

    assert leading_digits(first(Fraction(3, 4))) == "0.75" and leading_digits(first(Fraction(1))) == "1"
    assert leading_digits(first(Fraction(2, 3))) == "0." + "6" * 50 + "…"
    assert PageWords().digit_groups("0." + "6" * 12 + "…") == "0.66666 66666 66…"
    # in any language: as the language writes the chance ('0,6666…' in French), grouped as the English is
    for lang in ("fr", "de", "hi", "ar"):
        words = PageWords(lang)
        digits = words.digit_groups(words.words.leading_digits(first(Fraction(2, 3))))
        point = words.words.decimal("0.5")[1:-1]
        assert digits.split(" ") == [f"0{point}66666"] + ["66666"] * 8 + ["66666…"], lang


def test_a_one_sided_die_is_estimated_and_stated() -> None:
    """A fair one-sided die (a scale of 1: the exact terms never grow) once stopped `chutes solve` with a
    division by zero in the cost estimate; its games all take as many turns as the board has squares."""
    line = board_from_mapping({"title": "line", "squares": 10, "die": 1}, "line.toml")
    assert 0 < estimated_seconds(line)[0] < 1
    said = check_sentences(turn_chain(line))
    assert said[0] == ("all games are over within **10 turns** (the median and the lower quartile), and none take "
                       "more than 10 (the upper quartile).")
    assert "Over within 20 turns: all games." in said and "1,000 of every 1,000 games" in said


def test_a_turn_may_pass_squares_where_no_turn_ends() -> None:
    """With a roll-again limit the rolls of a turn were counted by turn-start state, and a square a turn only
    passes through (here 3: a 1 from square 2 is the penalty roll) stopped `chutes solve` with a KeyError."""
    spec = {"title": "t", "squares": 4, "die": 2, "roll_again_on": 1, "roll_again_limit": 0,
            "roll_again_penalty": "undo", "enter_on": [1], "start": 2}
    said = check_sentences(turn_chain(board_from_mapping(spec, "t.toml")))
    assert said[0] == ("exactly 50% of games are over within **1 turn** (the median and the lower quartile), and "
                       "exactly 25% take more than 2 (the upper quartile).")


# --- the bundled boards the checks against an independent solver named ----------------------------------------

def test_zeilberger_line_states_its_large_atoms() -> None:
    """Every game ends by turn 29; exactly half take 19 turns or fewer, 9.5% more than 21; the bounds meet."""
    said = check_sentences(chain("zeilberger-line"))
    assert said[0] == ("exactly 50% of games are over within **19 turns** (the median and the lower quartile), "
                       "and 9.5% take more than 21 (the upper quartile).")
    assert "Over within 100 turns: all games." in said
    assert "After 100 turns the two bounds are equal" in " ".join(said)


def test_the_empty_board_never_rounds_to_zero_or_all() -> None:
    said = check_sentences(chain("empty"))
    assert "Over within 20 turns: under 0.1% of games." in said
    assert "Over within 100 turns: over 99.9% of games." in said
    assert any(s.startswith("After 100 turns the bounds agree in their first 11 decimals") for s in said)


@pytest.mark.parametrize("slug", ["classic", "noordenbos", "tiny", "classic-coin"])
def test_bundled_boards(slug: str) -> None:
    said = check_sentences(chain(slug))
    if slug == "noordenbos":
        assert "After 100 turns the answer lies between 0.5043875683 and 0.5189678795." in said


def test_chutes_solve_says_the_same() -> None:
    text = summary(solve(chain("zeilberger-line")))
    assert "Exactly 50% of games are over within 19 turns (the median and the lower quartile)" in text
    assert "First of two players wins: 0.59557257673274589804268686066279769875109195709228…" in text
    classic = summary(solve(chain("classic")))
    assert f"First of two players wins: {fixed_decimal(published_fraction(), 50)}…" in classic


def test_chutes_solve_for_three_players_cuts_its_digits_off() -> None:
    from click.testing import CliRunner

    from chutes.cli import main
    from chutes.compute.solve.threeplayer import first_of_three_wins

    out = CliRunner().invoke(main, ["solve", "tiny", "--players", "3", "--exact"])
    assert out.exit_code == 0, out.output
    exact = first_of_three_wins(chain("tiny"))
    assert f"First of three players wins: {fixed_decimal(exact)}…\n" in out.output


def test_the_board_page_says_it_in_these_words() -> None:
    """The board page's sentences are these functions' (on a board with large atoms and equal bounds)."""
    from chutes.compute.record.build import board_record
    from chutes.compute.record.schema import BoardRecord, Skipped
    from chutes.site_build.tree.render import render_pages

    computed = board_record(board("zeilberger-line"), Skipped(skipped="left out in this test"))
    record = BoardRecord.model_validate({**computed.json_form(), "checksum": "-"})
    page = render_pages([record])["boards/zeilberger-line.md"]
    g = record.results.game_length
    assert f"- **Typical game:** {typical_game(g, '**')} The single" in page
    assert "- **Over within 50 turns:** all games." in page
    assert bounds_sentence(record.results.bounds_outward["100"], 100) in page
    assert "0.59557 25767 32745 89804 26868 60662 79769 87510 91957 09228…" in page
    assert "exactly 50% of games are over within 19 turns" in page, "the description"
    assert "a quarter" not in page and "0.0%" not in page and "100.0%" not in page


def test_a_board_written_with_snakes_reads_snakes() -> None:
    """A board file's `snakes = [...]` names them on its page, in its drawing's legend and hover texts, and in its
    record (the bundled UK board): never "chutes"."""
    from chutes.compute.record.build import board_record
    from chutes.compute.record.schema import BoardRecord, Skipped
    from chutes.site_build.tree.render import render_pages

    computed = board_record(board("uk"), Skipped(skipped="left out in this test"))
    record = BoardRecord.model_validate({**computed.json_form(), "checksum": "-"})
    assert record.results.board.chute_word == "snakes"
    page = render_pages([record])["boards/uk.md"]
    assert re.findall(r"(?i)\bchutes?\b(?!-)", page) == [], "the page's words (its styles' classes aside)"
    assert "10 ladders and 11 snakes." in page and "red-orange arrows are snakes (down)" in page
    assert '"name":"Snake (down)"' in page and '"Square 21: snake down to 3"' in page
    assert "| Snake 21 → 3 |" in page


# --- every language ---------------------------------------------------------------------------------------------

def numbers(text: str, lang: str) -> list[Decimal]:
    """Every number written in `text`, read back as the locale writes numbers (Babel, strictly: a number grouped
    otherwise than the locale groups is refused), in increasing order (a translation may reorder them)."""
    from babel.numbers import get_decimal_symbol, get_group_symbol, parse_decimal

    point, group = re.escape(get_decimal_symbol(lang)), re.escape(get_group_symbol(lang))
    tokens = re.findall(rf"\d(?:[\d{group}]*\d)?(?:{point}\d+)?", text)
    return sorted(parse_decimal(token, lang, strict=True) for token in tokens)


TRANSLATED = languages()[1:]


def check_languages(c: TurnChain, lang: str) -> None:
    """Every sentence of the board in a language says the numbers the English sentence says, each written as the
    language's locale writes it (the English sentences are the ones `check_sentences` proves true): what is true in
    English is true in every language, whatever its words."""
    result = solve(c)
    res = Results.model_validate(result)
    g = res.game_length

    def sentences(w: Words) -> list[str]:
        said = [*w.summary(result).splitlines(), w.typical_game(g, "**")]
        said += [w.bounds_sentence(res.bounds_outward[str(n)], n) for n in BOUND_TURNS]
        said += [f(x) for x in [*g.at_most.values(), *g.more_than.values(), *g.over_within.values()]
                 for f in (w.share, w.games)]
        said += [w.per_thousand(res.first_player_wins.decimal), w.leading_digits(res.first_player_wins)]
        return said + [w.share_of_games(g.shortest.probability), w.certified(["5.871e-39", "0"])]

    english = sentences(Words("en"))
    translated = sentences(Words(lang))
    assert len(translated) == len(english)
    for source, sentence in zip(english, translated):
        assert numbers(sentence, lang) == numbers(source, "en"), (lang, source, sentence)


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("slug", ["classic", "tiny", "zeilberger-line"])
def test_every_language_says_the_same_numbers_on_bundled_boards(slug: str, lang: str) -> None:
    check_languages(chain(slug), lang)


def test_numbers_are_written_as_each_locale_writes_them() -> None:
    """Decimal comma, the locale's grouping (Hindi's lakh), the percent sign's place, an exact decimal's every
    digit and a fraction's digits as they are."""
    fr, de, hi, ar = (Words(lang) for lang in ("fr", "de", "hi", "ar"))
    assert fr.percent("0.50780277") == "50,8\u00a0%" and de.count(1_000_000) == "1.000.000"
    assert hi.count(1_000_000) == "10,00,000" and ar.percent("0.5078") == "50.8%"
    assert fr.decimal("0.50780277346091397787392387841954080716542767187941") == \
        "0,50780277346091397787392387841954080716542767187941"
    assert de.decimal("0.5000000000") == "0,5000000000" and hi.fraction("1234567", "9876543") == "1234567/9876543"
    assert de.label(1000) == "1000" and fr.count(4453) == "4\u202f453"


def test_plurals_follow_the_count() -> None:
    ar, fr = Words("ar"), Words("fr")
    assert [ar.turns(n) for n in (1, 2, 3, 11, 100)] == ["1 دور", "2 دور", "3 أدوار", "11 دورًا", "100 دور"]
    assert [fr.turns(n) for n in (0, 1, 2)] == ["0 tour", "1 tour", "2 tours"]


# --- random boards ---------------------------------------------------------------------------------------------

PROPERTY = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@settings(PROPERTY, max_examples=25)
@given(rule_boards(max_squares=20))
def test_every_sentence_is_true_on_random_boards(b: Board) -> None:
    check_sentences(turn_chain(b))


@pytest.mark.slow
@settings(PROPERTY, max_examples=400)
@given(rule_boards(max_squares=80))
def test_every_sentence_is_true_on_many_random_boards(b: Board) -> None:
    check_sentences(turn_chain(b))


@pytest.mark.parametrize("lang", TRANSLATED)
@settings(PROPERTY, max_examples=25)
@given(rule_boards(max_squares=20))
def test_every_language_says_the_same_numbers_on_random_boards(lang: str, b: Board) -> None:
    check_languages(turn_chain(b), lang)
