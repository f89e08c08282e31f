"""The public Python API (`chutes.__all__`): its docstrings' examples run, its numbers are the command line's on
every bundled board, its boards are found and refused as the command line finds and refuses them."""

from __future__ import annotations

import doctest
import json
import pickle
import subprocess
import sys
from base64 import b64encode
from fractions import Fraction
from html import escape
from pathlib import Path
from typing import Any

import pytest
from helpers import BUNDLED, REPOSITORY, board_file

import chutes
import chutes._api.boards
import chutes._api.exact
import chutes._api.play
import chutes._api.results
import chutes._api.simulation
from chutes._api.exact import SHORT_DIGITS
from chutes.cli import run
from chutes.compute.board.file import load_board
from chutes.compute.numbers import decimal_string, fraction_from_json, integer_text
from chutes.compute.record.results import board_json
from chutes.compute.record.schema import BoardDefinition
from chutes.compute.solve.chain import safe_squares, turn_chain
from chutes.site_build.pages.figures import board_figure, play_figure
from chutes.site_build.pages.stills import still


def _cli_json(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    """What the command line prints for `args` (run in this process), read as JSON."""
    capsys.readouterr()
    assert run([*args, "--json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def _as_printed(obj: Any) -> Any:
    """An object as the command line's JSON prints it and reads back (tuples become lists, keys strings)."""
    return json.loads(json.dumps(obj))


@pytest.mark.parametrize("module", [chutes, chutes._api.boards, chutes._api.exact, chutes._api.play,
                                    chutes._api.results, chutes._api.simulation],
                         ids=lambda m: m.__name__)
def test_the_docstrings_examples_run(module: Any) -> None:
    failed, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=True)
    assert tried > 0 and failed == 0


def test_every_public_name_is_documented_and_importing_chutes_imports_none_of_them() -> None:
    assert set(chutes.__all__) <= set(dir(chutes))
    for name in chutes.__all__:
        assert (getattr(chutes, name).__doc__ or "").strip(), f"chutes.{name} has no docstring"
    with pytest.raises(AttributeError):
        _ = chutes.no_such_name
    out = subprocess.run([sys.executable, "-X", "importtime", "-c", "import chutes"], capture_output=True, text=True,
                         timeout=60, check=True)
    loaded = {line.rsplit("|", 1)[1].strip() for line in out.stderr.splitlines() if line.startswith("import time:")}
    assert "chutes" in loaded and not {"pydantic", "flint", "numpy", "chutes._api.results"} & loaded


@pytest.mark.parametrize("slug", BUNDLED)
def test_the_api_gives_the_command_lines_numbers(slug: str, capsys: pytest.CaptureFixture[str]) -> None:
    """On every bundled board: the API's fractions are the command line's (`chutes solve BOARD --json`), each read
    from its own JSON field, and the API's JSON is the command line's whole. The command line solves the board
    afresh (its chain is not the API's), so a value computed or written wrongly on either path shows."""
    board = chutes.Board.load(slug)
    result = chutes.solve(board)
    length = result.length
    values = (result.expected_turns, length.mean, length.variance, result.first_player_wins)
    mine = _as_printed(result.to_json())
    two, three = result.players(2).to_json(), result.players(3).to_json()
    safe = safe_squares(board)
    pair = result.positions([safe[-1], safe[0]])
    turn_chain.cache_clear()
    printed = _cli_json(capsys, "solve", slug)
    assert values == (fraction_from_json(printed["expected_turns"]), fraction_from_json(printed["expected_turns"]),
                      fraction_from_json(printed["variance"]), fraction_from_json(printed["first_player_wins"]))
    lengths = printed["game_length"]
    assert (length.mode, length.median) == (lengths["mode"], lengths["median"])
    assert (length.quantile(Fraction(1, 4)), length.quantile("3/4")) == (lengths["lower_quartile"],
                                                                         lengths["upper_quartile"])
    assert {p: length.quantile(Fraction(p) / 100) for p in lengths["percentiles"]} == lengths["percentiles"]
    assert {k: length.cdf(int(k)) for k in lengths["at_most"]} == {
        k: fraction_from_json(p) for k, p in lengths["at_most"].items()}
    assert {k: length.cdf(int(k)) for k in lengths["over_within"]} == {
        k: fraction_from_json(p) for k, p in lengths["over_within"].items()}
    shortest = lengths["shortest"]
    assert length.pmf(shortest["turns"]) == fraction_from_json(shortest["probability"]) > 0
    assert length.pmf(shortest["turns"] - 1) == 0
    assert mine == printed
    for value in (*values, length.pmf(shortest["turns"]), length.cdf(length.median), *(c.value for c in pair.chances)):
        _assert_prints(value)
    assert "digits" in result._repr_html_() or _is_short(result.first_player_wins)
    assert _as_printed(result.strategy.to_json() if result.strategy else None) == printed.get("strategy")
    shown = [result._repr_html_(), result.players(3)._repr_html_(), pair._repr_html_(), board._repr_png_()[0],
             *((result.strategy._repr_html_(),) if result.strategy else ())]  # what Jupyter shows of each
    assert shown[3].startswith(b"\x89PNG") and all(len(html) < 100_000 for html in shown[:3])
    assert _as_printed(two) == _cli_json(capsys, "solve", slug, "--players", "2")
    assert [c.value for c in result.players(2).chances] == [result.first_player_wins, 1 - result.first_player_wins]
    assert _as_printed(three) == _cli_json(capsys, "solve", slug, "--players", "3")
    printed_pair = _cli_json(capsys, "solve", slug, "--positions", f"{safe[-1]},{safe[0]}")
    assert _as_printed(pair.to_json()) == printed_pair
    assert [c.value for c in pair.chances] == [fraction_from_json(w) for w in printed_pair["win_probabilities"]]


def _is_short(x: Fraction) -> bool:
    return len(integer_text(x.numerator)) + len(integer_text(x.denominator)) <= SHORT_DIGITS


def _assert_prints(x: Fraction) -> None:
    """An exact value of the API prints, shows and formats at any length, without Python's limit on integers' text
    (4,300 digits) being lifted: its text is its every digit, its representation short, its float formats
    correctly rounded."""
    assert isinstance(x, chutes.Exact)
    whole = f"{integer_text(x.numerator)}/{integer_text(x.denominator)}" if x.denominator != 1 else \
        integer_text(x.numerator)
    assert str(x) == f"{x}" == whole and print(x) is None
    shown, html = repr(x), x._repr_html_()
    if _is_short(x):
        assert shown == f"Exact({integer_text(x.numerator)}, {integer_text(x.denominator)})" and whole in html
        assert decimal_string(x, 12) in html
    else:
        top, bottom = x.digits
        leading = shown.removeprefix("Exact(").partition("…")[0]
        assert shown == f"Exact({leading}…, {top:,} digits over {bottom:,})" and len(shown) < 80
        assert f"{leading}…" in html and f"{top:,} digits over {bottom:,}" in html and len(html) < 300
        # x's own first 12 significant digits, cut: x lies within one unit of the last one shown above them
        cut, digits = Fraction(leading), leading.lstrip("-0.").replace(".", "")
        unit = Fraction(1, 10 ** len(leading.partition(".")[2])) if "." in leading else Fraction(1)
        assert len(digits) <= 12 and 0 <= abs(x) - abs(cut) < unit
    assert abs(Fraction(f"{x:.15e}") - x) <= abs(x) / (2 * 10**15)  # rounded from the exact value
    assert float(x) == float(Fraction(x)) and Fraction(x) == x and hash(Fraction(x)) == hash(x)
    assert isinstance(x + 1, chutes.Exact) and str(2 * x - x) == whole and repr((x, x)) == f"({shown}, {shown})"
    assert pickle.loads(pickle.dumps(x)) == x


def test_exact_values_keep_the_arithmetic_and_formats_of_fractions() -> None:
    """What a user does with an exact value: arithmetic with integers, fractions and floats (an `Exact` where a
    fraction would be, so the result prints too), comparisons, and the float formats, each correctly rounded from
    the exact value (a float's rounding would lose digits past the 17th)."""
    x = chutes.Exact(-53, 6)
    assert (x + 1, 1 - x, x * Fraction(6, 53), x / 2, x**2, abs(x), -x, round(x, 1), x % 5) == (
        Fraction(-47, 6), Fraction(59, 6), -1, Fraction(-53, 12), Fraction(2809, 36), Fraction(53, 6),
        Fraction(53, 6), Fraction(-44, 5), Fraction(7, 6))
    assert all(type(v) is chutes.Exact for v in (x + 1, 1 - x, Fraction(1, 2) + x, x**2, -x, divmod(x, 2)[1]))
    assert isinstance(x + 0.5, float) and x < 0 < -x and x == Fraction(-53, 6) and divmod(x, 2)[0] == -5
    for spec in (".3f", "10.3f", "<10.3f", "*^12.2e", "010.3f", "+.2%", "g", ".3g", ",.2f", "e", "=+10.1f", "_.3f",
                 "#g", ".0f"):
        for v in (x, chutes.Exact(1, 8), chutes.Exact(5, 8), chutes.Exact(0), chutes.Exact(1, 10**40)):
            assert format(v, spec) == format(float(v), spec), (v, spec)
    third = chutes.Exact(10**30, 3)
    assert f"{third:.2f}" == "3" * 30 + ".33" != f"{float(third):.2f}"
    assert f"{x:>8}" == "   -53/6" and f"{x}" == "-53/6"
    with pytest.raises(ValueError, match="invalid format specification"):
        format(x, "12.4")


def test_printing_exact_values_leaves_pythons_limit_on_integers_text_alone() -> None:
    """Python refuses to write an integer of more than 4,300 digits as text (a guard for the whole process):
    `chutes` neither lifts it on import nor while showing values longer than that."""
    script = ("import sys; before = sys.get_int_max_str_digits(); import chutes\n"
              "r = chutes.solve(chutes.Board.load('classic'))\n"
              "x = r.first_player_wins\n"
              "print(len(str(x)), repr(x), x._repr_html_()[:20], r._repr_html_()[:8])\n"
              "print(repr(r.players(2).chances), f'{x:.20f}', r.length.pmf(30))\n"
              "assert sys.get_int_max_str_digits() == before == 4300\n"
              "try:\n    str(10**5000)\nexcept ValueError:\n    print('limit in force')\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("8907 Exact(0.507802773460…, 4,453 digits over 4,453) <span>")
    assert done.stdout.rstrip().endswith("limit in force") and " 0.50780277346091397787 " in done.stdout


def test_certified_chances_hold_their_bounds() -> None:
    """Three players or more: each chance is certified (decimals and an error bound), and the seats' chances add
    up to one within their bounds."""
    race = chutes.solve(chutes.Board.load("classic")).players(4)
    assert len(race.chances) == 4 and not any(c.exact for c in race.chances)
    assert all(0 < c.error_bound < Fraction(1, 10**30) for c in race.chances)
    total, bound = (sum((getattr(c, part) for c in race.chances), Fraction(0)) for part in ("value", "error_bound"))
    assert -bound <= total - 1 <= bound
    assert float(race.chances[0]) > float(race.chances[3]) and 10 < float(race.expected_rounds) < 40


def test_boards_are_found_as_the_command_line_finds_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A path, else a board of the project (the working directory, or `project`), else a bundled board; a board
    equals the compute stage's board with the same fields, and shares its chain."""
    bundled = chutes.Board.load("classic")
    assert bundled == load_board(board_file("classic")) and hash(bundled) == hash(load_board(board_file("classic")))
    assert turn_chain(bundled) is turn_chain(load_board(board_file("classic")))
    assert chutes.Board.load(board_file("tiny")) == chutes.Board.load("tiny") != bundled
    (tmp_path / "site_src" / "boards").mkdir(parents=True)
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n")
    (tmp_path / "site_src" / "boards" / "classic.toml").write_text('title = "Mine"\nsquares = 5\ndie = 2\n')
    assert chutes.Board.load("classic", project=tmp_path).title == "Mine"
    assert chutes.Board.load("classic") == bundled
    monkeypatch.chdir(tmp_path)
    assert chutes.Board.load("classic").title == "Mine"
    assert isinstance(chutes.Board.load("tiny"), chutes.Board)


BAD_BOARDS = ['squares = 10\ndie = 6\nladders = [[4, 2]]\n', "squares = [\n", "die = 6\n",
              'squares = 10\ndie = 6\ncolour = "red"\n', 'squares = 10\ndie = 6\nchutes = [[5, 9]]\n']
"""A ladder going down, TOML cut short, a missing key, an unknown key, a chute going up."""


@pytest.mark.parametrize("text", BAD_BOARDS)
def test_bad_boards_raise_the_command_lines_one_line_errors(text: str, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "board.toml"
    path.write_text(text)
    with pytest.raises(chutes.BoardError) as raised:
        chutes.Board.from_toml(text)
    message = str(raised.value)
    assert "\n" not in message and message.startswith("board: ")
    assert "pydantic" not in message.lower() and "validation error" not in message.lower()
    assert run(["solve", str(path)]) == 2
    assert capsys.readouterr().err == f"chutes: error: {path}: {message.removeprefix('board: ')}\n"
    with pytest.raises(chutes.BoardError, match="no such board file or board"):
        chutes.Board.load("no-such-board")


def test_a_board_too_long_to_solve_is_refused_at_once(tmp_path: Path) -> None:
    ladders = [[k, k + 7] for k in range(5, 990, 23)]
    board = chutes.Board.from_toml(f'squares = 1000\ndie = 20\novershoot = "bounce"\nroll_again_on = 20\n'
                                   f'ladders = {ladders}\n', name="huge")
    with pytest.raises(chutes.BoardError, match=r"^huge: solving this board would take about .*limit 120 s"):
        chutes.solve(board)


def test_questions_out_of_range_are_refused() -> None:
    result = chutes.solve(chutes.Board.load("tiny"))
    for bad, why in (([3], "give 2 to 20 squares"), ([3, 10], "square 10 is not on the board"),
                     ([4, 3], "square 4 is the foot of a jump")):
        with pytest.raises(ValueError, match=why):
            result.positions(bad)
    with pytest.raises(ValueError, match="2 to 20 players"):
        result.players(1)
    with pytest.raises(ValueError, match="above 0 and at most 1"):
        result.length.quantile(0)
    zeilberger = chutes.solve(chutes.Board.load("zeilberger-line")).length
    assert zeilberger.pmf(zeilberger.exact_terms + 1) == 0 and zeilberger.cdf(10**6) == 1
    classic = chutes.solve(chutes.Board.load("classic")).length
    with pytest.raises(ValueError, match="beyond the exact part"):
        classic.pmf(classic.exact_terms + 1)


def test_a_result_shows_its_headline_table_with_the_title_as_text() -> None:
    board = chutes.Board.from_toml('title = "<script>alert(1)</script> & co"\nsquares = 10\ndie = 6\n')
    html = chutes.solve(board)._repr_html_()
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in html
    assert "Expected turns" in html and "Median game length" in html and "First of two players" in html
    classic = chutes.solve(chutes.Board.load("classic"))._repr_html_()
    assert "0.507802773461" in classic and "4,453 digits" in classic


def test_a_race_shows_its_seats_and_a_board_itself_drawn() -> None:
    result = chutes.solve(chutes.Board.load("tiny"))
    html = result.players(3)._repr_html_()
    assert html.count("<tr><td>") == 3 and "0.377617242198 (± 8.9e-39)" in html and "Expected rounds" in html
    exact = result.positions([8, 3])._repr_html_()
    assert "294/481" in exact and "187/481" in exact
    png, words = result.board._repr_png_()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and png == still(board_figure(_definition(result.board)))
    assert words == {"alt": "The board A 10-square test board drawn: its 10 squares, its ladders and chutes as arrows"}
    assert result.board.figure().to_dict()["data"][0]["type"] == "heatmap"


def _definition(board: chutes.Board) -> BoardDefinition:
    return BoardDefinition.model_validate(board_json(board))


COIN = 'title = "A coin"\nsquares = 10\ndie = 6\nchoice = "coin"\nladders = [[4, 9]]\nchutes = [[8, 2]]\n'
"""A small board with a choice."""


def test_the_best_play_is_a_typed_object_with_the_command_lines_json(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Its flips, each strategy's exact expected turns, the two-player chances (exact, or certified to the
    decimals the JSON gives), its JSON that of `chutes strategy`, and its drawing the site's figure of the play."""
    path = tmp_path / "coin.toml"
    path.write_text(COIN)
    result = chutes.solve(chutes.Board.from_toml(COIN))
    play = result.strategy
    assert isinstance(play, chutes.BestPlay) and chutes.solve(chutes.Board.load("tiny")).strategy is None
    printed = _cli_json(capsys, "strategy", str(path))["strategy"]
    assert _as_printed(play.to_json()) == printed
    assert play.flips == tuple(tuple(f) for f in printed["flips"]) and play.rounds == printed["rounds"]
    assert [(s.key, s.expected_turns, s.loss) for s in play.strategies] == [
        (row["key"], fraction_from_json(row["expected_turns"]), fraction_from_json(row["loss"]))
        for row in printed["strategies"]]
    assert all(isinstance(s.expected_turns, chutes.Exact) for s in play.strategies)
    assert play.expected_turns == result.expected_turns == min(s.expected_turns for s in play.strategies)
    assert play.both_best == chutes.Bounded(fraction_from_json(printed["both_best"]))
    assert play.both_best.value == result.first_player_wins
    assert play.against_box is not None and play.both_maximise is not None
    for pair, duel in ((play.against_box, printed["against_box"]), (play.both_maximise, printed["both_maximise"])):
        for bounded, decimal in zip(pair, (duel["first"], duel["second"])):
            places = len(decimal.partition(".")[2])
            assert bounded.value == Fraction(decimal) and bounded.error_bound == Fraction(1, 2 * 10**places)
    html = play._repr_html_()
    assert "The best play" in html and "13181/2574" in html and escape(play.advice) in html
    drawn = b64encode(still(play_figure(_definition(result.board), list(play.flips)))).decode()
    assert f'<img src="data:image/png;base64,{drawn}"' in html
    assert play.figure().to_dict()["data"][0]["name"] == "squares where the best play flips"


def test_the_figures_are_the_board_pages_as_plotly_figures() -> None:
    """Built by the build stage from the board's record (plotly is imported then, never by the compute stage)."""
    import plotly.graph_objects as go

    figures = chutes.solve(chutes.Board.load("tiny")).figures()
    assert {"board", "length", "length-cumulative", "bounds", "diagonal", "seats"} <= set(figures)
    assert all(isinstance(f, go.Figure) for f in figures.values())


def test_simulate_is_the_command_lines(capsys: pytest.CaptureFixture[str]) -> None:
    games = chutes.simulate(chutes.Board.load("tiny"), games=20_000, seed=3)
    assert games.to_json() == _cli_json(capsys, "simulate", "tiny", "--games", "20000", "--seed", "3")
    assert games.exact_mean_turns == Fraction(53, 6) and games.mean_turns.games == 40_000
    with pytest.raises(ValueError, match="number of games"):
        chutes.simulate(chutes.Board.load("tiny"), games=0)


def test_the_command_line_is_built_on_the_api() -> None:
    """The commands reach results through `chutes._api` (one path to every result), not the compute stage's
    solvers directly."""
    source = (REPOSITORY / "chutes" / "cli" / "solve.py").read_text()
    assert "chutes._api.results import solve" in source and "chutes._api.simulation import simulate" in source
    for bypass in ("record.results import solve", "solve.races import", "simulate_summary", "turn_chain"):
        assert bypass not in source
