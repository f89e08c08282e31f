"""Where the token is after each turn: the series behind the board page's animation."""

from __future__ import annotations

from helpers import chain

from chutes.compute.record import series
from chutes.compute.record.series import POSITIONS_HOME, position_series


def test_positions_are_the_exact_distribution_to_chart_precision() -> None:
    c = chain("classic")
    series = position_series(c)
    board = c.board
    states = list(c.states)
    for n in (0, 1, 7, 40):
        row = series["on_square"][n]
        on_board = sum(row[q] for q in states)
        finished = float(c.distribution.cdf(n)) if n else 0.0
        assert abs(row[board.squares] - finished) < 1e-6
        assert abs(on_board + row[board.squares] - 1) < 1e-5
    assert series["on_square"][1][38] == 0.166667, "square 1's ladder takes a sixth of first rolls to 38"
    assert series["on_square"][1][1] == 0.166667, "and the foot shows how often a roll landed there"
    assert series["on_square"][-1][board.squares] >= POSITIONS_HOME > series["on_square"][-2][board.squares]


def test_landings_on_a_foot_match_the_exact_jump_usage() -> None:
    from chutes.compute.solve.jumps import jump_usage

    c = chain("classic-47")
    series = position_series(c)
    usage = jump_usage(c)
    for (foot, _head), per_game in usage.items():
        seen = sum(row[foot] for row in series["on_square"])
        assert abs(seen - float(per_game)) < 0.02 * float(per_game) + 1e-3, (foot, seen, float(per_game))
        assert seen <= float(per_game) + 1e-6  # the series stops when 99% of games are over


def test_a_long_board_shows_fewer_turns(monkeypatch) -> None:
    """The series holds at most POSITIONS_MAX_VALUES numbers: turns × (squares + 1)."""
    monkeypatch.setattr(series, "POSITIONS_MAX_VALUES", 2_020)
    shown = series.position_series(chain("classic"))
    assert len(shown["on_square"]) == 20 and shown["turns"] == list(range(20))
