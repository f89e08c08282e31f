"""The public Python API (`chutes.__all__`): its docstrings' examples run, its numbers are the command line's on
every bundled board, its boards are found and refused as the command line finds and refuses them."""

from __future__ import annotations

import doctest
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from helpers import BUNDLED, REPOSITORY, board_file

import chutes
import chutes._api.boards
import chutes._api.results
import chutes._api.simulation
from chutes.cli import run
from chutes.compute.board.file import load_board
from chutes.compute.numbers import fraction_from_json
from chutes.compute.solve.chain import safe_squares, turn_chain


def _cli_json(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    """What the command line prints for `args` (run in this process), read as JSON."""
    capsys.readouterr()
    assert run([*args, "--json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def _as_printed(obj: Any) -> Any:
    """An object as the command line's JSON prints it and reads back (tuples become lists, keys strings)."""
    return json.loads(json.dumps(obj))


@pytest.mark.parametrize("module", [chutes, chutes._api.boards, chutes._api.results, chutes._api.simulation],
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
    assert _as_printed(two) == _cli_json(capsys, "solve", slug, "--players", "2")
    assert [c.value for c in result.players(2).chances] == [result.first_player_wins, 1 - result.first_player_wins]
    assert _as_printed(three) == _cli_json(capsys, "solve", slug, "--players", "3")
    printed_pair = _cli_json(capsys, "solve", slug, "--positions", f"{safe[-1]},{safe[0]}")
    assert _as_printed(pair.to_json()) == printed_pair
    assert [c.value for c in pair.chances] == [fraction_from_json(w) for w in printed_pair["win_probabilities"]]


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
