"""The page scripts that need no page, on their own: engine.js and the design page's parts (design-*.js) loaded
into a blank page with the constants the build writes (no built site), called directly and checked against
the Python side: the board file reader, the exact engine, the rules' messages, which squares can be reached and
the board pages' grid, with the house rules as well (a roll to enter, dice, weights, a limit on rolling again)."""

from __future__ import annotations

import itertools
import json
import tomllib
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from bad_boards import CASES
from helpers import BUNDLED, REPOSITORY, Watched, board, browser_group
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from playwright.sync_api import Browser
from strategies import boards

from chutes.compute.board.file import parse_board
from chutes.compute.board.limits import MAX_DICE, MAX_DIE, MAX_PLAYERS, MAX_ROLL_AGAIN_LIMIT, MAX_SQUARES, MAX_WEIGHT
from chutes.compute.board.model import Board, BoardError
from chutes.compute.board.problems import board_problems
from chutes.compute.board.reach import doomed_squares, reachable_squares, trapped_squares
from chutes.compute.record.results import WITHIN
from chutes.compute.solve.chain import turn_chain
from chutes.compute.solve.jumps import shortest_game
from chutes.compute.solve.landing import landing_chances
from chutes.compute.solve.races import races_together
from chutes.compute.solve.strategy import best_play
from chutes.site_build.pages.constants import constants_script
from chutes.site_build.pages.figures import cell, grid_columns
from chutes.site_build.pages.language import Language
from chutes.site_build.pages.script_words import words_script

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group(browser_group(__name__))]

SCRIPTS = REPOSITORY / "site_src" / "assets" / "javascripts"
ALONE = ["engine.js", "design-address.js", "design-toml.js", "design-geometry.js", "design-edits.js"]
"""The scripts under test, in the order loader.js loads them (after constants.js)."""
TOLERANCE = 1e-9
QUICK = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
"""Each example is a round trip to the browser: a few dozen each, and no clock (the browser's pace varies)."""


def blank_page(browser: Browser, scripts: list[str], constants: bool = True) -> Watched:
    """A blank page (no site, no server) with the English words and the constants the build writes, and the scripts
    given."""
    watched = Watched(browser.new_context().new_page())
    watched.page.set_content("<html><body></body></html>")
    watched.page.add_script_tag(content=words_script(Language()))
    watched.page.add_script_tag(path=SCRIPTS / "words.js")
    if constants:
        watched.page.add_script_tag(content=constants_script())
    for name in scripts:
        watched.page.add_script_tag(path=SCRIPTS / name)
    return watched


@pytest.fixture(scope="module")
def js(browser: Browser) -> Iterator[Watched]:
    """One page for the module: the scripts are pure, so a test's calls leave nothing for the next one."""
    watched = blank_page(browser, ALONE)
    yield watched
    watched.page.context.close()


def call(js: Watched, expression: str, *args: Any) -> Any:
    """`expression` (a function of the arguments, given as one array) evaluated in the page; nothing went wrong."""
    value = js.page.evaluate(f"([{', '.join(f'a{i}' for i in range(len(args)))}]) => ({expression})", list(args))
    js.assert_clean()
    return value


RULES = ("squares", "die", "dice", "weights", "overshoot", "enter_on", "roll_again_on", "roll_again_limit",
         "roll_again_penalty", "start", "ladders", "chutes", "choice")
"""What a board's game depends on: its keys but the title and the source."""


def fields(b: Board) -> dict[str, Any]:
    """A board as engine.js takes it (lists for tuples, None for a rule not used)."""
    def plain(value: Any) -> Any:
        return [plain(v) for v in value] if isinstance(value, tuple) else value
    return {**{key: plain(getattr(b, key)) for key in RULES}, "chute_word": b.chute_word}


def design(b: Board, title: str = "My board") -> dict[str, Any]:
    """A board as the design page's form holds it (texts, and the jumps ladders first)."""
    def text(value: int | str | None) -> str:
        return "" if value is None else str(value)
    return {"title": title, "squares": str(b.squares), "die": str(b.die), "dice": str(b.dice),
            "weights": [str(w) for w in b.weights or ()], "overshoot": b.overshoot,
            "enter_on": [str(r) for r in b.enter_on or ()], "roll_again_on": text(b.roll_again_on),
            "roll_again_limit": text(b.roll_again_limit), "roll_again_penalty": text(b.roll_again_penalty),
            "choice": text(b.choice), "start": str(b.start), "jumps": [list(j) for j in (*b.ladders, *b.chutes)]}


# --- loading ------------------------------------------------------------------------------------------------


def test_the_scripts_load_alone_touch_no_page_and_read_the_pythons_constants(js: Watched) -> None:
    assert call(js, "Object.keys(window.ChutesDesign).sort()") == ["address", "edits", "geometry", "toml"]
    assert call(js, "document.body.children.length === document.querySelectorAll('body > script').length")
    assert call(js, "[ChutesEngine.MAX_SQUARES, ChutesEngine.MAX_DIE, ChutesEngine.MAX_DICE, "
                    "ChutesEngine.MAX_ROLL_AGAIN_LIMIT, ChutesEngine.MAX_WEIGHT, ChutesEngine.WITHIN]") == [
        MAX_SQUARES, MAX_DIE, MAX_DICE, MAX_ROLL_AGAIN_LIMIT, MAX_WEIGHT, list(WITHIN)]


def test_without_the_constants_the_scripts_say_what_is_missing(browser: Browser) -> None:
    watched = blank_page(browser, ["engine.js", "design-geometry.js"], constants=False)
    assert watched.page.evaluate("typeof window.ChutesEngine") == "undefined"
    assert watched.errors == [
        "page error: engine.js needs window.ChutesConstants: load constants.js first",
        "page error: design-geometry.js needs window.ChutesConstants: load constants.js first"]
    watched.page.context.close()


# --- the address ----------------------------------------------------------------------------------------------

TEXT = st.text(max_size=30)
"""Any text (Hypothesis leaves out lone surrogates, which no address can carry)."""
WORD = st.text(st.characters(categories=["L", "N", "P", "S"]), max_size=12)
"""Text without spaces: the address trims the roll-again rules."""
ITEMS = st.lists(st.from_regex(r"-?[0-9A-Za-z+.]{1,6}", fullmatch=True), max_size=8)
"""A list's items as the form splits them: no spaces, commas or semicolons, a "-" only as a sign."""
DESIGNS = st.fixed_dictionaries({
    "title": TEXT, "squares": TEXT, "die": TEXT, "dice": TEXT, "weights": ITEMS, "overshoot": TEXT, "start": TEXT,
    "enter_on": ITEMS, "roll_again_on": WORD, "roll_again_limit": WORD, "roll_again_penalty": WORD, "choice": WORD,
    "jumps": st.lists(st.lists(st.integers(0, 10**6), min_size=2, max_size=2), max_size=8)})


@QUICK
@given(d=DESIGNS, players=st.sampled_from([str(n) for n in range(2, MAX_PLAYERS + 1)]))
def test_any_design_comes_back_from_its_address(js: Watched, d: dict[str, Any], players: str) -> None:
    search = call(js, "ChutesDesign.address.format(a0, a1)", d, players)
    assert search.startswith("?squares=") and "&jumps=" in search
    back = call(js, "ChutesDesign.address.parse(a0)", search)
    assert back == {"design": {**d, "title": d["title"] or "My board"}, "players": None if players == "2" else players,
                    "problems": []}
    assert call(js, "ChutesDesign.address.format(a0.design, a0.players || '2')", back) == search


NO_HOUSE_RULES = {"dice": "1", "weights": [], "enter_on": [], "roll_again_limit": "", "roll_again_penalty": "",
                  "choice": ""}
ODD_ADDRESSES = [
    ("", {"design": None, "players": None, "problems": []}),
    ("?players=4&heat=off", {"design": None, "players": "4", "problems": []}),
    ("?players=21&squares=30", {"design": {"title": "My board", "squares": "30", "die": "6", "overshoot": "stay",
                                           "start": "0", "roll_again_on": "", "jumps": [], **NO_HOUSE_RULES},
                                "players": None, "problems": []}),
    ("?players=12&players=20", {"design": None, "players": "12", "problems": []}),
    ("?players=012", {"design": None, "players": None, "problems": []}),
    ("?title=Our+board&squares=abc&die=&overshoot=wrap&start=-2&roll_again_on=%206%20&jumps=001-5,%204-14%20,,x-3,5-",
     {"design": {"title": "Our board", "squares": "abc", "die": "", "overshoot": "wrap", "start": "-2",
                 "roll_again_on": "6", "jumps": [[1, 5], [4, 14]], **NO_HOUSE_RULES},
      "players": None,
      "problems": ["jumps: each one is two squares joined by '-', from and to, got 'x-3'",
                   "jumps: each one is two squares joined by '-', from and to, got '5-'"]}),
    ("?enter_on=6", {"design": {"title": "My board", "squares": "100", "die": "6", "overshoot": "stay", "start": "0",
                                "roll_again_on": "", "jumps": [], **NO_HOUSE_RULES, "enter_on": ["6"]},
                     "players": None, "problems": []}),
    ("?squares=30&dice=2&weights=1-2--3-x-&enter_on=5,%206;,7-8&roll_again_on=12&roll_again_limit=%202%20"
     "&roll_again_penalty=later",
     {"design": {"title": "My board", "squares": "30", "die": "6", "dice": "2", "weights": ["1", "2", "-3", "x"],
                 "overshoot": "stay", "start": "0", "enter_on": ["5", "6", "7", "8"], "roll_again_on": "12",
                 "roll_again_limit": "2", "roll_again_penalty": "later", "choice": "", "jumps": []},
      "players": None, "problems": []}),
]


@pytest.mark.parametrize(("search", "expected"), ODD_ADDRESSES)
def test_odd_addresses_are_read_as_the_page_reads_them(js: Watched, search: str, expected: dict[str, Any]) -> None:
    assert call(js, "ChutesDesign.address.parse(a0)", search) == expected


INVALID = [  # (address, the board file the same design is): one of each kind of problem
    ("?squares=30&die=6&jumps=3-10,10-20", dict(squares=30, die=6, ladders=((3, 10), (10, 20)))),
    ("?squares=30&die=6&jumps=3-10,3-1", dict(squares=30, die=6, ladders=((3, 10),), chutes=((3, 1),))),
    ("?squares=30&die=6&jumps=3-31,40-2,7-7", dict(squares=30, die=6, ladders=((3, 31),), chutes=((40, 2), (7, 7)))),
    ("?squares=20&die=2&jumps=10-20,18-12,19-12", dict(squares=20, die=2, ladders=((10, 20),),
                                                       chutes=((18, 12), (19, 12)))),
    ("?squares=20&die=2&overshoot=bounce&jumps=15-3,16-3,18-17,19-17",
     dict(squares=20, die=2, overshoot="bounce", chutes=((15, 3), (16, 3), (18, 17), (19, 17)))),
    ("?squares=12&die=14&overshoot=bounce&roll_again_on=15&start=12",
     dict(squares=12, die=14, overshoot="bounce", roll_again_on=15, start=12)),
    ("?squares=30&die=1&roll_again_on=1&start=4&jumps=4-9", dict(squares=30, die=1, roll_again_on=1, start=4,
                                                                   ladders=((4, 9),))),
]


@pytest.mark.parametrize("search, fields", INVALID)
def test_an_invalid_address_is_named_as_the_program_names_its_board(js: Watched, search: str,
                                                                    fields: dict[str, Any]) -> None:
    """What the design page says about an address (the address read, then its design checked, as the page does)
    is what the board file reader says about the same board."""
    read = call(js, "ChutesDesign.address.parse(a0)", search)
    assert read["problems"] == []
    problems = call(js, "ChutesDesign.edits.check(a0).problems", read["design"])
    assert problems and problems == board_problems(Board.unchecked(title="x", **fields))


def test_an_address_is_written_in_a_fixed_form(js: Watched) -> None:
    d = {"title": "My board", "squares": "50", "die": "6", "overshoot": "pass", "start": "0", "roll_again_on": "6",
         "jumps": [[2, 22], [25, 4]], **NO_HOUSE_RULES}
    assert call(js, "ChutesDesign.address.format(a0, a1)", d, "2") == \
        "?squares=50&die=6&overshoot=pass&start=0&roll_again_on=6&jumps=2-22,25-4", "as before the house rules"
    titled = {**d, "title": "Ours, & yours", "roll_again_on": ""}
    assert call(js, "ChutesDesign.address.format(a0, a1)", titled, "4") == \
        "?squares=50&die=6&overshoot=pass&start=0&jumps=2-22,25-4&players=4&title=Ours,%20%26%20yours"
    house = {**d, "dice": "2", "weights": ["1", "2", "3", "4", "5", "6"], "enter_on": ["6"], "roll_again_on": "12",
             "roll_again_limit": "2", "roll_again_penalty": "undo"}
    assert call(js, "ChutesDesign.address.format(a0, a1)", house, "2") == (
        "?squares=50&die=6&dice=2&weights=1-2-3-4-5-6&overshoot=pass&start=0&enter_on=6&roll_again_on=12"
        "&roll_again_limit=2&roll_again_penalty=undo&jumps=2-22,25-4")


# --- the board file -----------------------------------------------------------------------------------------


def write(js: Watched, d: dict[str, Any], title: str = "My board", address: str = "http://x.test/design/?a=1") -> str:
    return call(js, "ChutesDesign.toml.write(a0, a1, a2)", d, title, address)


CHECKED = """(() => {
    const b = ChutesDesign.edits.check(a0).board;
    return Object.fromEntries(a1.map(k => [k, b[k]]));
})()"""
"""The board the design page makes of a design: the keys asked for."""


@QUICK
@given(b=st.one_of(boards(min_squares=2, max_squares=60), st.deferred(lambda: house_boards(valid=True))),
       title=TEXT.filter(lambda t: t.strip() != ""))
def test_a_design_downloads_as_the_board_file_the_program_reads(js: Watched, b: Board, title: str) -> None:
    """Every key of the board, house rules included, comes back from the file the page writes, as the page
    itself holds it."""
    text = write(js, design(b), title, "http://x.test/design/?squares=1&title=a%22b")
    data = tomllib.loads(text)
    assert data["title"] == title
    assert data["source"] == "Designed on the 'Design a board' page: http://x.test/design/?squares=1&title=a%22b"
    again = parse_board(text.encode(), "board.toml")
    assert {k: getattr(again, k) for k in RULES} == {k: getattr(b, k) for k in RULES}
    assert call(js, CHECKED, design(b), list(RULES)) == {k: v for k, v in fields(b).items() if k in RULES}


@QUICK
@given(b=st.one_of(boards(min_squares=2, max_squares=60), st.deferred(lambda: house_boards())),
       players=st.sampled_from(["2", "3", "4", "5", "6"]))
def test_a_boards_address_brings_back_the_same_board(js: Watched, b: Board, players: str) -> None:
    got = call(js, "(() => { const A = ChutesDesign.address, back = A.parse(A.format(a0, a1)); "
                   "return ChutesDesign.edits.check(back.design).board; })()", design(b), players)
    assert {k: got[k] for k in RULES} == {k: v for k, v in fields(b).items() if k in RULES}


@pytest.mark.parametrize(("typed", "written"), [("007", 7), ("+5", 5), ("-0", 0), ("-12", -12),
                                                ("123456789012345678901234567890", 123456789012345678901234567890)])
def test_a_whole_number_is_written_as_the_number_typed(js: Watched, typed: str, written: int) -> None:
    d = {**design(board("tiny")), "squares": typed, "die": typed, "start": typed, "roll_again_on": typed}
    data = tomllib.loads(write(js, d))
    assert [data[k] for k in ("squares", "die", "start", "roll_again_on")] == [written] * 4


@pytest.mark.parametrize(("key", "typed"), [
    ("squares", "1100"), ("squares", "abc"), ("die", "six"), ("die", "0"), ("overshoot", "wrap"), ("start", "1.5"),
    ("roll_again_on", "x"), ("dice", "5"), ("dice", "two"), ("dice", "123456789012345678901234567890"),
    ("weights", ["1", "x"]), ("weights", ["1", "-1", "1", "1", "1", str(MAX_WEIGHT + 1)]), ("enter_on", ["6.5"]),
    ("roll_again_limit", "21"), ("roll_again_limit", "-1"), ("roll_again_penalty", "later")])
def test_a_broken_field_is_named_alike_by_the_page_and_by_the_program(js: Watched, key: str, typed: Any) -> None:
    d = {**design(board("classic")), "roll_again_on": "6", "roll_again_limit": "2", key: typed}
    problems = call(js, "ChutesDesign.edits.check(a0).problems", d)
    with pytest.raises(BoardError) as refused:
        parse_board(write(js, d).encode(), "board.toml")
    assert str(refused.value) == "board.toml: " + "; ".join(problems)


def program_says(text: str) -> str:
    """What the board file reader says about a board file: "" when it takes it."""
    try:
        parse_board(text.encode(), "board.toml")
    except BoardError as refused:
        return str(refused)
    return ""


def page_says(js: Watched, d: dict[str, Any]) -> str:
    """What the design page says about a design, as the board file reader would put it."""
    problems = call(js, "ChutesDesign.edits.check(a0).problems", d)
    return "board.toml: " + "; ".join(problems) if problems else ""


NUMBERS = st.one_of(st.integers(-2, 30).map(str), st.sampled_from(["", "x", "6.0", "+5", "007", "-0", "1e3"]))
"""What a number field may hold: mostly numbers, some of them out of range, and some texts that are none."""
FORM_DESIGNS = st.fixed_dictionaries({
    "title": st.just("My board"), "squares": st.one_of(st.integers(2, 30).map(str), NUMBERS),
    "die": st.one_of(st.integers(1, 8).map(str), NUMBERS), "dice": st.one_of(st.sampled_from(["1", "2", "3"]), NUMBERS),
    "weights": st.one_of(st.just([]), st.lists(st.one_of(st.integers(0, 3).map(str), NUMBERS), max_size=8)),
    "overshoot": st.sampled_from(["stay", "bounce", "pass", "wrap"]),
    "enter_on": st.lists(st.one_of(st.integers(1, 12).map(str), NUMBERS), max_size=3),
    "roll_again_on": st.one_of(st.just(""), st.integers(1, 12).map(str), NUMBERS),
    "roll_again_limit": st.one_of(st.just(""), st.integers(0, 3).map(str), NUMBERS),
    "roll_again_penalty": st.sampled_from(["", "undo", "start", "later"]), "start": NUMBERS,
    "choice": st.sampled_from(["", "", "coin", "dice"]),
    "jumps": st.lists(st.lists(st.integers(0, 32), min_size=2, max_size=2), max_size=6)})
"""Designs as the form may hold them: any of the board's keys broken, or none."""


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(d=FORM_DESIGNS)
def test_any_design_is_named_as_the_program_names_its_board_file(js: Watched, d: dict[str, Any]) -> None:
    """The page's problems, in order, are what the board file reader says about the file the page writes."""
    assert page_says(js, d) == program_says(write(js, d))


def form_cases() -> list[tuple[str, dict[str, Any]]]:
    """The bad board files of tests/bad_boards.py that the design page's form can hold (whole numbers and texts in
    its keys, ladders going up and chutes down, as the page lists them), each as that design."""
    found = []
    for text, _ in CASES:
        try:
            data = tomllib.loads(text)
        except (tomllib.TOMLDecodeError, UnicodeDecodeError, TypeError):
            continue
        ladders, chutes = data.get("ladders", []), data.get("chutes", [])
        jumps = [*ladders, *chutes]
        if not (set(data) <= {"title", "source", *RULES} and "squares" in data
                and all(type(data[k]) in (int, str) for k in data if k not in ("ladders", "chutes"))
                and all(isinstance(j, list) and len(j) == 2 and all(type(x) is int and x >= 0 for x in j)
                        for j in jumps)
                and all(b > a for a, b in ladders) and all(b <= a for a, b in chutes)):
            continue
        form = {"title": "My board", "die": "6", "dice": "1", "weights": [], "overshoot": "stay", "enter_on": [],
                "roll_again_on": "", "roll_again_limit": "", "roll_again_penalty": "", "choice": "", "start": "0"}
        keys = {k: str(v) for k, v in data.items() if k in RULES and k not in ("ladders", "chutes")}
        found.append((text, {**form, **keys, "jumps": jumps}))
    return found


@pytest.mark.parametrize(("text", "d"), form_cases())
def test_a_bad_board_file_the_form_can_hold_is_named_as_the_program_names_it(js: Watched, text: str,
                                                                           d: dict[str, Any]) -> None:
    said = program_says(text)
    assert said and page_says(js, d) == said == program_says(write(js, d))


def test_the_form_holds_most_of_the_bad_board_files() -> None:
    assert len(form_cases()) >= 14


def test_the_house_rules_are_written_in_the_board_file_only_when_used(js: Watched) -> None:
    d = {**design(board("classic")), "dice": "2", "weights": ["1", "02", "x"], "enter_on": ["6", "+12"],
         "roll_again_on": "12", "roll_again_limit": "2", "roll_again_penalty": "start", "choice": "coin"}
    data = tomllib.loads(write(js, d))
    assert {k: data[k] for k in NO_HOUSE_RULES} == {"dice": 2, "weights": [1, 2, "x"], "enter_on": [6, 12],
                                                    "roll_again_limit": 2, "roll_again_penalty": "start",
                                                    "choice": "coin"}
    assert list(data)[:9] == ["title", "squares", "die", "dice", "weights", "overshoot", "enter_on", "roll_again_on",
                              "roll_again_limit"]
    assert not set(NO_HOUSE_RULES) & set(tomllib.loads(write(js, design(board("classic")))))


def test_the_file_name_comes_from_the_title(js: Watched) -> None:
    names = call(js, "a0.map(ChutesDesign.toml.fileName)", ["Our board!", "  ", "ÉTÉ", "a" * 80])
    assert names == ["our-board.toml", "my-board.toml", "t.toml", "a" * 60 + ".toml"]


# --- the grid -----------------------------------------------------------------------------------------------


def test_every_size_of_board_has_the_board_pages_columns(js: Watched) -> None:
    sizes = list(range(1, MAX_SQUARES + 1))
    assert call(js, "a0.map(ChutesDesign.geometry.columns)", sizes) == [grid_columns(n) for n in sizes]


@pytest.mark.parametrize("n", [1, 2, 7, 10, 11, 30, 99, 100, 101, 121, 122, 400, 999, MAX_SQUARES])
def test_each_square_is_drawn_where_the_board_pages_draw_it(js: Watched, n: int) -> None:
    got = call(js, """(() => {
        const G = ChutesDesign.geometry, g = G.grid(a0), out = [];
        for (let s = 0; s <= a0; s++) {
          const p = G.place(g, s);
          out.push([p, G.at(g, p[0], p[1]), G.centre(g, s)]);
        }
        return {g, out, extent: G.extent(g), outside: [G.at(g, -1, 0), G.at(g, g.cols, 0), G.at(g, 1, -1)]};
    })()""", n)
    width = grid_columns(n)
    rows = -(-n // width)
    assert got["g"] == {"n": n, "cols": width, "rows": rows}
    assert got["extent"] == [width * 60, (rows + 1) * 60] and got["outside"] == [None, None, None]
    assert got["out"][0] == [[0, -1], 0, [30, rows * 60 + 30]], "square 0 below square 1"
    for square, (place, back, centre) in enumerate(got["out"][1:], start=1):
        assert tuple(place) == cell(square, width), (n, square)
        assert back == square
        assert centre == [place[0] * 60 + 30, (rows - 1 - place[1]) * 60 + 30]


# --- the edits ------------------------------------------------------------------------------------------------


def test_edits_make_a_new_list_and_say_what_they_did(js: Watched) -> None:
    got = call(js, """(() => {
        const J = ChutesDesign.edits, jumps = [[3, 18], [25, 12]];
        const added = J.add(jumps, 2, 22), moved = J.move(jumps, 0, 1, 17), same = J.move(jumps, 1, 0, 25);
        const flipped = J.move(jumps, 1, 1, 30), removed = J.remove(jumps, 0);
        const at = J.removeAt(jumps, 12), none = J.removeAt(jumps, 5);
        return {jumps, added, moved, same, flipped, removed, at, none,
                ends: [J.endAt(jumps, 18), J.endAt(jumps, 25), J.endAt(jumps, 4)],
                newest: J.endAt([[3, 18], [18, 9]], 18), split: J.split([[3, 18], [25, 12], [7, 7]]),
                names: J.names([[3, 18], [18, 9]], 20)};
    })()""")
    assert got["jumps"] == [[3, 18], [25, 12]], "the list given is left as it was"
    assert got["added"] == {"jumps": [[3, 18], [25, 12], [2, 22]], "said": "Added the ladder from 2 to 22."}
    assert got["moved"] == {"jumps": [[3, 17], [25, 12]],
                            "said": "Moved: the ladder from 3 to 18 is now the ladder from 3 to 17."}
    assert got["same"] == {"jumps": [[3, 18], [25, 12]], "said": "Nothing moved."}
    assert got["flipped"]["said"] == "Moved: the chute from 25 to 12 is now the ladder from 25 to 30."
    assert got["removed"] == {"jumps": [[25, 12]], "said": "Removed the ladder from 3 to 18."}
    assert got["at"] == {"jumps": [[3, 18]], "said": "Removed the chute from 25 to 12."}
    assert got["none"] == {"jumps": [[3, 18], [25, 12]], "said": "No chute or ladder starts or ends on square 5."}
    assert got["ends"] == [[0, 1], [1, 0], None] and got["newest"] == [1, 0]
    assert got["split"] == {"ladders": [[3, 18]], "chutes": [[25, 12], [7, 7]]}
    assert got["names"] == {"0": "off the board", "3": "the foot of a ladder to 18",
                            "18": "the end of a ladder from 3; the foot of a chute to 9",
                            "9": "the end of a chute from 18", "20": "the finish"}


def test_a_chain_made_by_an_edit_is_named_as_the_program_names_it(js: Watched) -> None:
    base = {**design(Board(title="t", squares=40, die=6)), "jumps": [[3, 20]]}
    got = call(js, """(() => {
        const J = ChutesDesign.edits, made = J.add(a0.jumps, 20, 35);
        return [J.check(a0).problems, J.check(Object.assign({}, a0, {jumps: made.jumps})).problems];
    })()""", base)
    chained = Board.unchecked(title="t", squares=40, die=6, ladders=((3, 20), (20, 35)))
    assert got == [[], board_problems(chained)]
    assert got[1] == ["ladders[0] = [3, 20]: ends on square 20, where ladders[1] = [20, 35] starts "
                      "(jumps may not chain)"]


@st.composite
def any_boards(draw) -> Board:
    """A board with any jumps, start, face and end rule: most break a rule, some do not."""
    squares = draw(st.integers(2, 40))
    square = st.integers(-1, squares + 1)
    jumps = draw(st.lists(st.tuples(square, square), max_size=6))
    return Board.unchecked(title="t", squares=squares, die=draw(st.integers(1, 8)),
                           overshoot=draw(st.sampled_from(["stay", "bounce", "pass"])),
                           roll_again_on=draw(st.one_of(st.none(), st.integers(0, 9))),
                           start=draw(st.integers(0, squares + 1)), ladders=tuple(j for j in jumps if j[1] > j[0]),
                           chutes=tuple(j for j in jumps if j[1] <= j[0]))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(b=any_boards())
def test_the_rules_are_checked_in_the_programs_words(js: Watched, b: Board) -> None:
    assert call(js, "ChutesDesign.edits.check(a0).problems", design(b)) == board_problems(b)


# --- engine.js ----------------------------------------------------------------------------------------------


ENGINE = """(() => {
    const E = ChutesEngine, b = E.makeBoard(a0), r = E.analyse(b, 3);
    return {expected: r.expectedTurns, median: r.median, quartiles: [r.lowerQuartile, r.upperQuartile],
            first: r.firstPlayer, shortest: r.shortest.turns, within: r.overWithin, seats: r.seats[3],
            complete: r.dist.complete, landing: E.landingChances(r.board),
            flips: r.play && r.play.flips, never: r.play && r.play.never};
})()"""
AGAIN = Board(title="again", squares=30, die=4, roll_again_on=4, overshoot="bounce", start=2,
              ladders=((3, 11), (8, 25)), chutes=((17, 4), (28, 1)))
BACK = Board(title="back", squares=12, die=3, enter_on=(2, 3), chutes=((2, 0), (9, 0)))
"""A roll from square 0 that lands on a chute back to 0 still lands on a square."""


@pytest.mark.parametrize("b", [board("tiny"), board("classic"), board("classic-pass"), board("uk"),
                               board("zeilberger-line"), AGAIN, BACK,
                               *(board(s) for s in BUNDLED if board(s).house_rules  # the page works it out:
                                 and not (board(s).choice and board(s).roll_again_limit is not None))],
                         ids=lambda b: b.slug or b.title)
def test_the_engine_alone_agrees_with_the_exact_engine(js: Watched, b: Board) -> None:
    got = call(js, ENGINE, fields(b))
    chain = turn_chain(b)
    dist = chain.distribution
    races = races_together(chain, b.start, [2, 3])
    assert got["complete"]
    assert abs(got["expected"] - float(chain.moments[0])) < TOLERANCE
    assert got["median"] == dist.quantile(Fraction(1, 2))
    assert got["quartiles"] == [dist.quantile(Fraction(1, 4)), dist.quantile(Fraction(3, 4))]
    assert abs(got["first"] - float(races[2].wins[0])) < TOLERANCE
    assert all(abs(p - float(w)) < TOLERANCE for p, w in zip(got["seats"], races[3].wins, strict=True))
    assert got["shortest"] == shortest_game(chain).turns
    assert sorted(got["within"], key=int) == [str(k) for k in WITHIN]
    for k in WITHIN:
        over = dist.cdf(min(k, dist.terms))  # a distribution shorter than k: every game is over by then
        assert k <= dist.terms or over == 1
        assert abs(got["within"][str(k)] - float(over)) < TOLERANCE, k
    landing = landing_chances(chain.board)  # with a choice: the board as played best
    assert got["landing"][0] is None and landing is not None
    assert all(abs(got["landing"][q] - float(p)) < TOLERANCE for q, p in landing.items())


BAD = [
    Board.unchecked(title="t", squares=20, die=6, ladders=((3, 11), (11, 15)), chutes=((17, 4),)),
    Board.unchecked(title="t", squares=20, die=6, ladders=((3, 25), (0, 11)), chutes=((17, 4), (4, 17))),
    Board.unchecked(title="t", squares=20, die=6, start=3, roll_again_on=7, ladders=((3, 11), (3, 12))),
    Board.unchecked(title="t", squares=8, die=12, overshoot="bounce"),
    Board.unchecked(title="t", squares=20, die=1, roll_again_on=1, start=20),
    Board.unchecked(title="t", squares=20, die=6, chutes=tuple((s, 1) for s in range(14, 20))),
    Board.unchecked(title="t", squares=20, die=2, chutes=((18, 12), (19, 12)), chute_word="snakes"),
]


@pytest.mark.parametrize("b", BAD)
def test_the_engine_alone_names_a_bad_board_as_the_program_does(js: Watched, b: Board) -> None:
    problems = call(js, "ChutesEngine.problems(ChutesEngine.makeBoard(a0))", fields(b))
    assert problems and problems == board_problems(b)


@pytest.mark.parametrize(("key", "text", "low", "high"), [("die", "six", 1, MAX_DIE), ("die", "6.0", 1, MAX_DIE),
                                                          ("die", "0", 1, MAX_DIE), ("die", "6000", 1, MAX_DIE),
                                                          ("squares", "10000000", 2, MAX_SQUARES)])
def test_the_engine_alone_words_a_bad_number_as_the_board_file_does(js: Watched, key: str, text: str, low: int,
                                                                      high: int) -> None:
    problem = call(js, "ChutesEngine.wholeNumber(a0, a1, a2, a3).problem", key, text, low, high)
    value = json.dumps(text) if not text.isdigit() else text
    good = {"title": '"t"', "squares": "20", "die": "6", "source": '"s"'}
    file = "\n".join(f"{k} = {value if k == key else v}" for k, v in good.items())
    with pytest.raises(BoardError) as refused:
        parse_board(file.encode(), "board.toml")
    assert str(refused.value) == f"board.toml: {problem}"


# --- the house rules ------------------------------------------------------------------------------------------


@st.composite
def house_boards(draw, valid: bool = False) -> Board:
    """A small board that keeps the old rules, with house rules drawn on top: one or two dice, maybe loaded (some
    faces maybe never coming up), maybe rolls to enter, maybe a roll again with or without a limit, maybe another
    start, every roll named one the dice can make, so that the one rule it may break is that the game must end
    (`valid`: it keeps that one too). Not checked: the rules are the tests' to check."""
    base = draw(boards(min_squares=4, max_squares=16))
    feet = {a for a, _ in (*base.ladders, *base.chutes)}
    start = draw(st.sampled_from([0, *(s for s in range(1, base.squares) if s not in feet)]))
    die = base.die
    dice = 1 if base.overshoot == "bounce" and 2 * die > base.squares else draw(st.integers(1, 2))
    weights = draw(st.one_of(st.none(), st.lists(st.integers(0, 3), min_size=die, max_size=die).filter(any)))
    faces = [f for f in range(1, die + 1) if weights is None or weights[f - 1]]
    totals = sorted({sum(roll) for roll in itertools.product(faces, repeat=dice)})
    again = draw(st.one_of(st.none(), st.sampled_from(totals)))
    limit = None if again is None else draw(st.one_of(st.none(), st.integers(0, 3)))
    if limit is None and totals == [again]:  # every roll a roll again: a turn would never end
        again = None
    enter_on = draw(st.one_of(st.none(), st.lists(st.sampled_from(totals), min_size=1, max_size=3)))
    penalty = None if limit is None else draw(st.sampled_from([None, "undo", "start"]))
    b = Board.unchecked(**{**base.fields(), "start": start, "dice": dice,
                           "weights": None if weights is None else tuple(weights),
                           "enter_on": None if enter_on is None else tuple(sorted(set(enter_on))),
                           "roll_again_on": again, "roll_again_limit": limit, "roll_again_penalty": penalty})
    if valid:
        assume(board_problems(b) == [])
    return b


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(b=house_boards())
def test_the_squares_reached_and_trapped_are_the_programs(js: Watched, b: Board) -> None:
    """Which squares a turn can reach, and from which the game can fail to end, as compute/board/reach.py finds
    them, under every combination of the house rules (a roll-again limit, faces of weight 0, rolls to enter)."""
    got = call(js, """(() => {
        const E = ChutesEngine, b = E.makeBoard(a0), sorted = set => Array.from(set).sort((x, y) => x - y);
        return [sorted(E.reachableSquares(b)), sorted(E.trappedSquares(b)), sorted(E.doomedSquares(b))];
    })()""", fields(b))
    assert got == [sorted(reachable_squares(b)), sorted(trapped_squares(b)), sorted(doomed_squares(b))]


HOUSE_ENGINE = """(() => {
    const E = ChutesEngine, b = E.makeBoard(a0), r = E.analyse(b, 2);
    return {expected: r.expectedTurns, median: r.median, first: r.firstPlayer, shortest: r.shortest.turns,
            complete: r.dist.complete, landing: E.landingChances(r.board)};
})()"""
PROBLEMS = "ChutesEngine.problems(ChutesEngine.makeBoard(a0))"


HOUSE_PROPERTY = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@settings(HOUSE_PROPERTY, max_examples=30)
@given(b=house_boards())
def test_the_house_rules_on_small_boards_agree_with_the_exact_engine(js: Watched, b: Board) -> None:
    house_rules_agree(js, b)


@pytest.mark.slow
@settings(HOUSE_PROPERTY, max_examples=300)
@given(b=house_boards())
def test_the_house_rules_on_many_small_boards_agree_with_the_exact_engine(js: Watched, b: Board) -> None:
    house_rules_agree(js, b)


def house_rules_agree(js: Watched, b: Board) -> None:
    """engine.js and the exact engine agree on a board: its problems, or its expected turns, shortest game,
    median, first player's chance and landing chances."""
    problems = board_problems(b)
    assert call(js, PROBLEMS, fields(b)) == problems
    assume(not problems)
    got, chain = call(js, HOUSE_ENGINE, fields(b)), turn_chain(b)
    assert abs(got["expected"] - float(chain.moments[0])) < TOLERANCE
    assert got["shortest"] == shortest_game(chain).turns
    if got["complete"]:  # else a game that barely ends, which the page follows only so far (engine.js, MAX_WORK)
        assert got["median"] == chain.distribution.quantile(Fraction(1, 2))
        assert abs(got["first"] - float(chain.first_player_wins)) < TOLERANCE
    landing = chain.landing_chances
    assert landing is not None
    assert all(abs(got["landing"][q] - float(p)) < TOLERANCE for q, p in landing.items())


def small(**rules: Any) -> Board:
    """A board of 20 squares and one six-faced die, no jumps, with the rules given (not checked)."""
    return Board.unchecked(**{"title": "t", "squares": 20, "die": 6, **rules})


HOUSE_BAD = [
    small(weights=(1, 1, 1, 1, 1)),
    small(weights=(0,) * 6, roll_again_on=9),
    small(enter_on=(0, 7)),
    small(dice=2, enter_on=(1, 12, 13, 14), roll_again_on=13),
    small(weights=(1, 1, 0, 1, 1, 1), roll_again_on=3),
    small(weights=(1, 1, 1, 1, 1, 0), roll_again_on=7, enter_on=(6,)),
    small(roll_again_on=7),
    small(die=1, roll_again_on=2),
    small(roll_again_limit=2),
    small(roll_again_penalty="start"),
    small(roll_again_on=6, roll_again_penalty="undo"),
    small(squares=10, dice=2, overshoot="bounce"),
    small(squares=9, die=12, weights=(1,) * 10 + (0, 0), overshoot="bounce"),
    small(squares=7, dice=2, weights=(1, 1, 1, 1, 0, 0), overshoot="bounce"),
    small(weights=(0, 0, 0, 0, 0, 1), roll_again_on=6),
    small(dice=2),
    small(enter_on=(6,), chutes=((6, 0),)),
    small(squares=10, die=2, roll_again_on=1, roll_again_limit=0, start=9),
    small(squares=10, die=2, roll_again_on=2, roll_again_limit=0, roll_again_penalty="start", enter_on=(2,)),
    small(squares=6, overshoot="bounce", choice="coin"),
]
"""Boards that break a house rule, or several."""


@pytest.mark.parametrize("b", HOUSE_BAD)
def test_a_broken_house_rule_is_named_as_the_program_names_it(js: Watched, b: Board) -> None:
    problems = call(js, PROBLEMS, fields(b))
    assert problems and problems == board_problems(b)


def test_the_house_rules_are_named_in_the_programs_words(js: Watched) -> None:
    """A few of the phrases, written out (the test above holds them to the program's)."""
    said = call(js, "a0.map(f => ChutesEngine.problems(ChutesEngine.makeBoard(f)))", [fields(b) for b in HOUSE_BAD])
    assert said[3] == ["roll_again_on: 2 dice of 6 faces never make a total of 13 (they make 2-12)",
                       "enter_on: no roll makes 1, 13-14 (a roll makes 2-12)"]
    assert said[4] == ["roll_again_on: the die never shows a 3 (its weight is 0)"]
    assert said[12] == ['die: with overshoot = "bounce" the die may have at most 9 faces (one per square), got 12']
    assert said[13] == ['dice: with overshoot = "bounce" a roll may be at most 7 (the squares), but 2 dice of 6 '
                        "faces make up to 8"]
    assert said[16] == ["the game can fail to end: from the start a player can reach square 0, from which square 20 "
                        "can never be reached"]


def test_a_limit_of_rolls_again_can_be_the_one_way_to_finish(js: Watched) -> None:
    """Every roll is a roll again, so only the limit ends a turn: within it, every turn finishes."""
    for b in (small(squares=12, weights=(0, 0, 0, 0, 0, 1), roll_again_on=6, roll_again_limit=2),
              small(squares=3, die=1, roll_again_on=1, roll_again_limit=3)):
        got, chain = call(js, HOUSE_ENGINE, fields(b)), turn_chain(b)
        assert board_problems(b) == [] == call(js, PROBLEMS, fields(b))
        assert chain.moments[0] == 1 and shortest_game(chain).turns == 1
        assert got["expected"] == 1 and got["shortest"] == 1 and got["first"] == 1


# --- the coin ---------------------------------------------------------------------------------------------------


def coin(b: Board, **rules: Any) -> Board:
    """The board with the coin rule (and any other rules given), checked."""
    return Board(**{**b.fields(), "choice": "coin", "slug": f"{b.slug or b.title}-coin", **rules})


COIN = [coin(board("tiny")), coin(AGAIN), coin(BACK), coin(board("classic"), overshoot="bounce"),
        coin(board("uk"), dice=2, weights=(1, 2, 3, 1, 1, 2)), coin(board("classic"), enter_on=(6,), roll_again_on=6),
        coin(board("zeilberger-line"))]
"""Boards with the coin: roll-again (a flipped roll again splits the turn), bounce, a roll to enter (no choice
off the board until it comes), dice and weights, another start."""


def coin_agrees(js: Watched, b: Board) -> dict[str, Any]:
    """engine.js finds the exact engine's best play (every flip of it, by value iteration in floats) and the
    results of the board played so, and what never flipping takes."""
    got = call(js, ENGINE, fields(b))
    play, chain = best_play(b), turn_chain(b)
    assert got["flips"] == [list(f) for f in play.flips]
    assert chain.board.flips == play.flips
    never = turn_chain(Board(**{**b.fields(), "choice": None})).moments[0]
    assert abs(got["never"] - float(never)) < TOLERANCE
    assert abs(got["expected"] - float(chain.moments[0])) < TOLERANCE
    assert abs(got["first"] - float(chain.first_player_wins)) < TOLERANCE
    assert got["shortest"] == shortest_game(chain).turns
    if got["complete"]:
        assert got["median"] == chain.distribution.quantile(Fraction(1, 2))
    landing = chain.landing_chances
    assert landing is not None
    assert all(abs(got["landing"][q] - float(p)) < TOLERANCE for q, p in landing.items())
    return got


@pytest.mark.parametrize("b", COIN, ids=lambda b: b.slug)
def test_the_engine_alone_plays_the_coin_as_the_exact_engine(js: Watched, b: Board) -> None:
    coin_agrees(js, b)


@st.composite
def coin_boards(draw) -> Board:
    """A small valid board with the coin, under any end rule, sometimes roll-again, a roll to enter, dice or
    weights (never a roll-again limit: the page does not work that out, `ChutesEngine.unsolved`)."""
    b = draw(house_boards(valid=True))
    assume(b.roll_again_limit is None)
    b = Board.unchecked(**{**b.fields(), "choice": "coin"})
    assume(board_problems(b) == [])
    return b


@settings(HOUSE_PROPERTY, max_examples=25)
@given(b=coin_boards())
def test_the_coin_on_small_boards_agrees_with_the_exact_engine(js: Watched, b: Board) -> None:
    coin_agrees(js, b)


def test_the_coin_with_a_roll_again_limit_is_valid_and_named_unsolved(js: Watched) -> None:
    """The program takes the coin with a limit; the page finds no problem in it either, and says instead that it does
    not work out that board (`ChutesEngine.unsolved`); without the limit it does."""
    d = {**design(board("classic")), "roll_again_on": "6", "roll_again_limit": "1", "choice": "coin"}
    assert call(js, "ChutesDesign.edits.check(a0).problems", d) == []
    assert page_says(js, d) == program_says(write(js, d)) == ""
    notice = call(js, "ChutesEngine.unsolved(ChutesDesign.edits.check(a0).board)", d)
    assert "not worked out on this page" in notice
    assert call(js, "ChutesEngine.unsolved(ChutesDesign.edits.check(a0).board)", {**d, "roll_again_limit": ""}) is None
    data = tomllib.loads(write(js, {**d, "roll_again_limit": ""}))
    assert data["choice"] == "coin" and list(data)[list(data).index("roll_again_on") + 1] == "choice"
    search = call(js, "ChutesDesign.address.format(a0, '2')", {**d, "roll_again_limit": ""})
    assert "&roll_again_on=6&choice=coin&jumps=" in search
    assert call(js, "ChutesDesign.address.parse(a0).design.choice", search) == "coin"


def test_the_best_play_on_a_large_board_is_quick(js: Watched) -> None:
    """Value iteration in floats on the largest board allowed, with the coin: well under a second or two."""
    jumps: dict[int, int] = {}
    for a, b in [*((a, a + 37) for a in range(5, MAX_SQUARES - 40, 53)),
                 *((a, a - 29) for a in range(44, MAX_SQUARES - 1, 61))]:
        if not {a, b} & {*jumps, *jumps.values()}:
            jumps[a] = b
    ladders = tuple((a, b) for a, b in jumps.items() if b > a)
    chutes = tuple((a, b) for a, b in jumps.items() if b < a)
    b = Board(title="big", squares=MAX_SQUARES, die=6, ladders=ladders, chutes=chutes, choice="coin")
    ms = call(js, "(() => { const t = performance.now(); ChutesEngine.analyse(ChutesEngine.makeBoard(a0), 2); "
                  "return performance.now() - t; })()", fields(b))
    assert ms < 5000, ms
