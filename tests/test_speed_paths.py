"""The fast paths give the answers of the straightforward ones.

The game-length distribution keeps exact terms only as far as the reported values and the charts need them
(integer numerators over sᵏ, no fraction per term). Here a straightforward reference implementation (a reduced
fraction per term, kept until the tail is below 10⁻³⁰ or the denominators pass 40,000 bits) checks every
landmark `solve` reports, to the digit, and every chart series, each value correctly rounded to 12 significant
digits, to the bit, on every bundled board and on random boards.
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np
import pytest
from helpers import board, bundled_params, chain
from hypothesis import HealthCheck, given, settings
from strategies import boards

from chutes.compute import numbers
from chutes.compute.board.file import board_from_mapping
from chutes.compute.board.model import Board
from chutes.compute.numbers import decimal_string, exact_json, rounded
from chutes.compute.record import results as report
from chutes.compute.record.series import (
    CHART_MAX_TURNS,
    DIAGONAL_MAX_SQUARES,
    bound_series,
    diagonal_series,
    length_series,
)
from chutes.compute.solve.chain import TurnChain, turn_chain
from chutes.compute.solve.exact import DECIDED_QUANTILE, EXACT_TURNS, bounds, by_series, distribution
from chutes.compute.solve.jumps import shortest_game

SIMULATED = np.array([1, 2, 3, 3, 5, 8, 13, 21, 40, 70], dtype=np.int64)
"""Stand-in simulated games for the length series (the simulation is not what is compared here)."""


# --- the reference: one reduced fraction per term, as the distribution used to be kept ---------------------


class Reference:
    """P(T = k) as fractions until the tail is below 10⁻³⁰ or sᵏ passes 40,000 bits."""

    def __init__(self, c: TurnChain, tail: Fraction = Fraction(1, 10**30), bits: int = 40_000) -> None:
        rows = [[(j, int(w)) for j, w in enumerate(row) if w] for row in c.M.tolist()]
        vector = [int(i == c.start) for i in range(c.size)]  # integers over scaleᵏ
        self.exact: list[Fraction] = []
        power = 1
        while True:
            power *= c.scale
            self.exact.append(Fraction(sum(v * f for v, f in zip(vector, c.finish)), power))
            step = [0] * c.size
            for i, v in enumerate(vector):
                for j, w in rows[i]:
                    step[j] += v * w
            vector = step
            alive = Fraction(sum(vector), power)
            if alive < tail or power.bit_length() > bits or len(self.exact) >= 100_000:
                break
        self.tail = alive

    @cached_property
    def cumulative(self) -> list[Fraction]:
        out, total = [], Fraction(0)
        for p in self.exact:
            total += p
            out.append(total)
        return out

    def quantile(self, q: Fraction) -> int:
        return next(k for k, c in enumerate(self.cumulative, start=1) if c >= q)

    def mode(self) -> int:
        return self.exact.index(max(self.exact)) + 1

    def game_length(self, c: TurnChain) -> dict[str, Any]:
        short = shortest_game(c)
        cumulative = self.cumulative
        named = [self.quantile(Fraction(q)) for q in ("1/4", "1/2", "3/4")]
        landmarks = sorted({*named, *(self.quantile(Fraction(p) / 100) for p in report.PERCENTILES)})
        return {
            "mode": self.mode(),
            "lower_quartile": self.quantile(Fraction(1, 4)),
            "median": self.quantile(Fraction(1, 2)),
            "upper_quartile": self.quantile(Fraction(3, 4)),
            "shortest": {"turns": short.turns, "rolls": list(short.rolls), "squares": list(short.squares),
                         "probability": exact_json(self.exact[short.turns - 1]),
                         "path_probability": exact_json(short.path_probability)},
            "percentiles": {p: self.quantile(Fraction(p) / 100) for p in report.PERCENTILES},
            "over_within": {str(k): exact_json(cumulative[min(k, len(self.exact)) - 1]) for k in report.WITHIN
                            if k <= len(self.exact) or self.tail == 0},  # every game over sooner: exactly 1
            "at_most": {str(k): exact_json(cumulative[k - 1]) for k in landmarks},
            "more_than": {str(k): exact_json(1 - cumulative[k - 1]) for k in landmarks},
        }

    def bounds(self) -> dict[str, list[float]]:
        out = {}
        for n in report.BOUND_TURNS:
            head = self.exact[:min(n, len(self.exact))]
            lower = Fraction(1, 2) + sum((p * p for p in head), Fraction(0)) / 2
            out[str(n)] = [float(lower), float(lower + (1 - sum(head, Fraction(0))) ** 2 / 2)]
        return out

    def series(self) -> dict[str, dict[str, Any]]:
        """The length, bounds and diagonal series drawn from the reference terms (with the caps of a long board)."""
        cumulative: list[Fraction] = []
        for total in self.cumulative:
            cumulative.append(total)
            if total >= 1 - Fraction(1, 10**6) or len(cumulative) >= CHART_MAX_TURNS:
                break
        turns = len(cumulative)
        length = {"turns": list(range(1, turns + 1)), "probability": [rounded(p) for p in self.exact[:turns]],
                  "cumulative": [rounded(c) for c in cumulative]}
        lower: list[float] = []
        upper: list[float] = []
        gap: list[float] = []
        squares, done = Fraction(0), Fraction(0)
        for p in self.exact:
            squares += p * p
            done += p
            low, width = Fraction(1, 2) + squares / 2, (1 - done) ** 2 / 2
            lower.append(rounded(low))
            upper.append(rounded(low + width))
            gap.append(rounded(width))
            if gap[-1] < 1e-60 or len(gap) >= 600:
                break
        diagonal: dict[str, list[Any]] = {"turns": [], "corner": [], "side": []}
        start = Fraction(0)
        for k, p in enumerate(self.exact, start=1):
            if p:
                diagonal["turns"].append(k)
                diagonal["corner"].append(rounded(start))
                diagonal["side"].append(rounded(p))
            start += p
            if start >= Fraction(995, 1000) or len(diagonal["turns"]) >= DIAGONAL_MAX_SQUARES:
                break
        return {"length": length, "bounds": {"lower": lower, "upper": upper, "gap": gap}, "diagonal": diagonal}


def check(b: Board, series: bool = True) -> None:
    c = turn_chain(b)
    ref = Reference(c)
    result = report.solve(c)
    game_length = dict(result["game_length"])
    terms = game_length.pop("exact_terms")
    assert game_length == ref.game_length(c)
    assert result["bounds"] == ref.bounds()
    assert terms <= len(ref.exact)
    if series:
        dist = c.distribution
        old = ref.series()
        length = length_series(dist, SIMULATED)
        bound, diagonal = bound_series(dist), diagonal_series(dist)
        assert length["turns"] == old["length"]["turns"] and diagonal["turns"] == old["diagonal"]["turns"]
        for key in ("probability", "cumulative"):
            assert length[key] == old["length"][key], f"length {key}"
        for key in ("lower", "upper", "gap"):
            assert bound[key] == old["bounds"][key], f"bounds {key}"
        for key in ("corner", "side"):
            assert diagonal[key] == old["diagonal"][key], f"diagonal {key}"


@pytest.mark.parametrize("slug", bundled_params())
def test_every_reported_landmark_and_series_as_before_on_the_bundled_boards(slug: str) -> None:
    check(board(slug))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards(max_squares=14))
def test_every_reported_landmark_and_series_as_before_on_random_boards(b: Board) -> None:
    check(b)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards(min_squares=15, max_squares=40))
def test_every_reported_landmark_and_series_as_before_on_larger_random_boards(b: Board) -> None:
    check(b)


def _board(**fields: Any) -> Board:
    return board_from_mapping({"title": "t", "source": "test", **fields}, "t", slug="t")


SLOW_BOARDS = [
    # a long game (97.5% of games over only after about 680 turns): the landmarks decide the exact part
    {"squares": 30, "die": 3, "chutes": [[29, 1], [28, 2], [26, 1], [20, 2]], "ladders": []},
    # roll-again with a cycle: a common scale of 26 bits
    {"squares": 24, "die": 6, "overshoot": "bounce", "roll_again_on": 6, "chutes": [[22, 3], [17, 2]],
     "ladders": [[4, 12]]},
    # a scale of 122 bits: the exact part stops at 40,000 bits, after 328 turns, as it used to
    {"squares": 39, "die": 12, "overshoot": "bounce", "roll_again_on": 2, "chutes": [[10, 2], [36, 3]],
     "ladders": []},
]


@pytest.mark.parametrize("fields", SLOW_BOARDS)
def test_landmarks_as_before_where_they_lie_past_the_exact_turns_or_the_scale_is_large(fields: dict[str, Any]) -> None:
    check(_board(**fields), series=fields["die"] > 3)


def test_the_exact_part_covers_what_solve_reports() -> None:
    """`solve`'s turn counts and percentiles lie within what `distribution` keeps exact."""
    assert max(report.BOUND_TURNS + report.WITHIN) <= EXACT_TURNS
    assert max(Fraction(p) / 100 for p in report.PERCENTILES) <= DECIDED_QUANTILE
    assert Fraction(3, 4) <= DECIDED_QUANTILE


def test_the_exact_part_stops_where_the_landmarks_are_decided() -> None:
    dist = distribution(turn_chain(_board(**SLOW_BOARDS[0])), exact_turns=500)
    assert dist.terms > 500
    assert dist.quantile(Fraction(39, 40)) == dist.terms or dist.mode() == dist.terms
    assert distribution(chain("classic")).terms == EXACT_TURNS  # the charts' last turn
    assert CHART_MAX_TURNS <= EXACT_TURNS


def test_the_mode_is_decided_by_the_tail_bound_only_when_no_later_term_can_reach_it() -> None:
    """Every later term is at most P(T > k)·max(f)/s, so the mode found by then is the mode of all terms."""
    for fields in SLOW_BOARDS + [{"squares": 12, "die": 6, "chutes": [[11, 1]], "ladders": [[2, 9]]}]:
        c = turn_chain(_board(**fields))
        alone = distribution(c, exact_turns=1, decide=Fraction(0))  # exact only until the mode is decided
        longer = Reference(c, tail=Fraction(1, 10**6))  # every term after it is below 10⁻⁶
        assert alone.terms < len(longer.exact)
        assert alone.mode() == longer.mode()
        assert max(longer.exact[alone.terms:]) < alone.term(alone.mode())


def test_landmarks_past_the_bit_limit_are_decided_by_more_exact_terms_never_guessed() -> None:
    """With a tiny bit limit the exact part still reaches every landmark; what it cannot reach raises."""
    c = chain("classic")
    dist = distribution(c, exact_bits=10)
    assert dist.quantile(Fraction(39, 40)) == distribution(c).quantile(Fraction(39, 40))
    assert dist.mode() == distribution(c).mode()
    cut = distribution(c, max_terms=20)
    with pytest.raises(ValueError):
        cut.quantile(Fraction(1, 2))
    with pytest.raises(ValueError):
        cut.mode()
    with pytest.raises(ValueError):
        cut.cdf(21)


@pytest.mark.parametrize("slug", ["classic-roll-again", "classic-three-sixes"])
def test_the_terms_from_the_finishing_recurrence_are_the_walk_s(slug: str) -> None:
    """Where the chain's distribution comes from the series (a dense roll-again chain), its exact terms are the
    integer walk's."""
    c = chain(slug)
    assert by_series(c)
    walked, series = distribution(c), distribution(c, c.finishing)
    assert (series.numerators, series.alive, series.peak) == (walked.numerators, walked.alive, walked.peak)


def test_the_integer_terms_are_the_fractions() -> None:
    c = chain("noordenbos")
    dist = distribution(c)
    assert sum(dist.exact) + dist.exact_tail == 1
    assert all(dist.term(k) == p for k, p in enumerate(dist.exact, start=1))
    assert dist.cdf(57) == sum(dist.exact[:57])
    lower, upper = bounds(dist, 100)
    assert lower == Fraction(1, 2) + sum(p * p for p in dist.exact[:100]) / 2
    assert upper == lower + (1 - sum(dist.exact[:100])) ** 2 / 2
    assert dist.pmf_float == [float(p) for p in dist.exact]


def test_long_numbers_are_written_from_a_stand_in_that_rounds_alike(monkeypatch) -> None:
    """`numbers.decimal_string` writes fractions of BIG_BITS bits or more from a short stand-in: with the stand-in
    used for every value (ties, values that end within the digits, signs), the text is the one written from the
    whole fraction."""
    rng = random.Random(11)
    values = [Fraction(1, 2), Fraction(-3, 8), Fraction(7, 3), Fraction(10**80 + 5, 10**30), Fraction(1, 10**70)]
    for _ in range(400):
        values.append(Fraction(rng.getrandbits(rng.randrange(1, 3000)) * rng.choice((1, -1)),
                               rng.getrandbits(rng.randrange(1, 3000)) + 1))
        n, k = rng.getrandbits(180), rng.randrange(120)
        values += [Fraction(2 * n + 1, 2 * 10**k), Fraction(2 * n + 1, 2 * 10**k) + Fraction(1, 10**200)]
    whole = {(x, digits): decimal_string(x, digits) for x in values for digits in (20, 50)}
    monkeypatch.setattr(numbers, "BIG_BITS", 0)
    assert {(x, digits): decimal_string(x, digits) for x, digits in whole} == whole
