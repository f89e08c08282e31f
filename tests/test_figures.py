"""Every published one- and two-player figure the engine must reproduce (RobinFiveWords, Sierakowski,
Hochman, the Octave post), reproduced exactly."""

from __future__ import annotations

from fractions import Fraction

import pytest
from helpers import board, chain, published_fraction

from chutes.compute.numbers import decimal_string, digit_count, rounded
from chutes.compute.record.series import bound_series
from chutes.compute.solve.chain import turn_chain
from chutes.compute.solve.exact import EXACT_TURNS, bounds, distribution, expected_turns
from chutes.compute.solve.twoplayer import first_player_wins, pair_wins


def test_first_player_fraction_equals_seed_in_full(classic):
    p = first_player_wins(classic)
    expected = published_fraction()
    assert digit_count(expected.numerator) == 4453 and digit_count(expected.denominator) == 4453
    assert p == expected
    assert decimal_string(p, 50) == "0.50780277346091397787392387841954080716542767187942"


def test_first_player_serial_and_parallel_agree(classic):
    assert first_player_wins(classic, parallel=True) == first_player_wins(classic, parallel=False)


def test_first_turns_of_the_distribution(classic):
    dist = distribution(classic)
    assert dist.exact[:6] == (0,) * 6
    assert dist.exact[6] == Fraction(73, 46656)
    assert dist.exact[7] == Fraction(205, 46656)
    assert dist.exact[8] == Fraction(70579, 10077696)
    assert dist.shortest() == 7
    assert dist.terms == EXACT_TURNS and dist.exact_tail == 1 - sum(dist.exact)  # exact as far as the charts go


def test_bounds_after_n_turns(classic):
    dist = distribution(classic)
    assert [float(x) for x in bounds(dist, 9)] == [0.5000354014697371, 0.9871574175503698]
    assert [float(x) for x in bounds(dist, 100)] == [0.5077919995055961, 0.508324577264544]
    lower, upper = bounds(dist, 500)
    assert decimal_string(lower, 50) == "0.50780277346091397777988206902864358081717127162441"
    assert decimal_string(upper, 50) == "0.50780277346091398242854850838580730082375585977029"
    assert lower < first_player_wins(classic) < upper


def test_bounds_chart_series_matches_the_exact_bounds(classic):
    dist = distribution(classic)
    series = bound_series(dist)
    for n in (1, 9, 57, 120):
        lower, upper = bounds(dist, n)
        assert (series["lower"][n - 1], series["upper"][n - 1]) == (rounded(lower), rounded(upper))


def test_expected_turns_48_board(classic):
    t = expected_turns(classic)[classic.start]
    assert round(float(t), 1) == 39.6


def test_expected_turns_47_board(classic47):
    t = expected_turns(classic47)
    assert abs(float(t[classic47.start]) - 39.225122308234916) < 1e-12
    assert decimal_string(t[classic47.start], 9) == "39.2251223"


@pytest.mark.parametrize(("square", "value"), [(2, "39.6964061"), (5, "39.2950265"), (29, "36.8911770")])
def test_starting_elsewhere(classic47, square, value):
    t = expected_turns(classic47)[classic47.index[square]]
    assert decimal_string(t, 9) == value


@pytest.mark.parametrize(("jump", "value"), [((27, 29), "40.20"), ((29, 27), "38.05")])
def test_one_added_jump(jump, value):
    base = board("classic-47")
    key = "ladders" if jump[1] > jump[0] else "chutes"
    changed = base.variant(**{key: getattr(base, key) + (jump,)})
    c = turn_chain(changed)
    assert f"{float(expected_turns(c)[c.start]):.2f}" == value


HOCHMAN_DICE = {2: "60.7625788", 3: "65.9007753", 4: "54.4937116", 5: "45.5619456", 6: "39.2251223",
                7: "34.6965984", 8: "31.8532909", 9: "30.2952849", 10: "28.768692", 11: "27.427206",
                12: "27.017742", 13: "26.221553", 14: "25.980534", 15: "25.805895"}


@pytest.mark.parametrize("faces", sorted(HOCHMAN_DICE))
def test_hochman_die_table(faces):
    c = turn_chain(board("classic-47").variant(die=faces))
    value = HOCHMAN_DICE[faces]
    digits = len(value.replace(".", ""))
    assert decimal_string(expected_turns(c)[c.start], digits) == value


def test_p_99_99_is_six_elevenths(classic):
    assert pair_wins(classic, 99, 99) == Fraction(6, 11)


def test_pair_formula_at_the_start_equals_first_player(classic):
    assert pair_wins(classic, 0, 0) == first_player_wins(classic)


def test_noordenbos_board_rules():
    c = chain("noordenbos")
    assert c.board.start == 1 and c.board.overshoot == "bounce" and c.board.roll_again_on == 6
    dist = distribution(c)
    assert sum(dist.exact) + dist.exact_tail == 1


def test_long_charts_stop_at_their_caps(monkeypatch: pytest.MonkeyPatch) -> None:
    """The length and diagonal series stop at their mass, or at their caps on a long board (page weight)."""
    import numpy as np

    from chutes.compute.record import series

    dist = chain("uk").distribution
    games = np.array([1, 2, 3])
    full = series.length_series(dist, games)
    assert full["cumulative"][-1] >= series.CHART_MASS > full["cumulative"][-2]
    assert series.diagonal_series(dist)["turns"][-1] < series.DIAGONAL_MAX_SQUARES
    monkeypatch.setattr(series, "CHART_MAX_TURNS", 40)
    monkeypatch.setattr(series, "DIAGONAL_MAX_SQUARES", 15)
    short = series.length_series(dist, games)
    assert short["turns"] == list(range(1, 41)) and short["cumulative"] == full["cumulative"][:40]
    assert len(series.diagonal_series(dist)["turns"]) == 15
