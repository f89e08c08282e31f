"""The page scripts that need no page, on their own: engine.js and the design page's parts (design-*.js) loaded
into a blank page with the constants the build writes (no built site), called directly and checked against
the Python side: the board file reader, the exact engine, the rules' messages and the board pages' grid."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from helpers import REPOSITORY, Watched, board, browser_group
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playwright.sync_api import Browser
from strategies import boards

from chutes.compute.board.file import parse_board
from chutes.compute.board.limits import MAX_DIE, MAX_SQUARES
from chutes.compute.board.model import Board, BoardError
from chutes.compute.board.problems import board_problems
from chutes.compute.record.results import WITHIN
from chutes.compute.solve.chain import turn_chain
from chutes.compute.solve.jumps import shortest_game
from chutes.compute.solve.races import races_together
from chutes.site_build.constants import constants_script
from chutes.site_build.figures import cell, grid_columns

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group(browser_group(__name__))]

SCRIPTS = REPOSITORY / "site_src" / "assets" / "javascripts"
ALONE = ["engine.js", "design-address.js", "design-toml.js", "design-geometry.js", "design-edits.js"]
"""The scripts under test, in the order loader.js loads them (after constants.js)."""
TOLERANCE = 1e-9
QUICK = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
"""Each example is a round trip to the browser: a few dozen each, and no clock (the browser's pace varies)."""


def blank_page(browser: Browser, scripts: list[str], constants: bool = True) -> Watched:
    """A blank page (no site, no server) with the constants the build writes and the scripts given."""
    watched = Watched(browser.new_context().new_page())
    watched.page.set_content("<html><body></body></html>")
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


def fields(b: Board) -> dict[str, Any]:
    """A board as engine.js takes it."""
    return {"squares": b.squares, "die": b.die, "overshoot": b.overshoot, "roll_again_on": b.roll_again_on,
            "start": b.start, "ladders": [list(j) for j in b.ladders], "chutes": [list(j) for j in b.chutes],
            "chute_word": b.chute_word}


def design(b: Board, title: str = "My board") -> dict[str, Any]:
    """A board as the design page's form holds it (texts, and the jumps ladders first)."""
    return {"title": title, "squares": str(b.squares), "die": str(b.die), "overshoot": b.overshoot,
            "roll_again_on": "" if b.roll_again_on is None else str(b.roll_again_on), "start": str(b.start),
            "jumps": [list(j) for j in (*b.ladders, *b.chutes)]}


# --- loading ------------------------------------------------------------------------------------------------


def test_the_scripts_load_alone_touch_no_page_and_read_the_pythons_constants(js: Watched) -> None:
    assert call(js, "Object.keys(window.ChutesDesign).sort()") == ["address", "edits", "geometry", "toml"]
    assert call(js, "document.body.children.length === document.querySelectorAll('body > script').length")
    assert call(js, "[ChutesEngine.MAX_SQUARES, ChutesEngine.MAX_DIE, ChutesEngine.WITHIN]") == [
        MAX_SQUARES, MAX_DIE, list(WITHIN)]


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
"""Text without spaces: the address trims the roll-again face."""
DESIGNS = st.fixed_dictionaries({
    "title": TEXT, "squares": TEXT, "die": TEXT, "overshoot": TEXT, "start": TEXT, "roll_again_on": WORD,
    "jumps": st.lists(st.lists(st.integers(0, 10**6), min_size=2, max_size=2), max_size=8)})


@QUICK
@given(d=DESIGNS, players=st.sampled_from(["2", "3", "4", "5", "6"]))
def test_any_design_comes_back_from_its_address(js: Watched, d: dict[str, Any], players: str) -> None:
    search = call(js, "ChutesDesign.address.format(a0, a1)", d, players)
    assert search.startswith("?squares=") and "&jumps=" in search
    back = call(js, "ChutesDesign.address.parse(a0)", search)
    assert back == {"design": {**d, "title": d["title"] or "My board"}, "players": None if players == "2" else players,
                    "problems": []}
    assert call(js, "ChutesDesign.address.format(a0.design, a0.players || '2')", back) == search


ODD_ADDRESSES = [
    ("", {"design": None, "players": None, "problems": []}),
    ("?players=4&heat=off", {"design": None, "players": "4", "problems": []}),
    ("?players=7&squares=30", {"design": {"title": "My board", "squares": "30", "die": "6", "overshoot": "stay",
                                          "start": "0", "roll_again_on": "", "jumps": []},
                               "players": None, "problems": []}),
    ("?title=Our+board&squares=abc&die=&overshoot=wrap&start=-2&roll_again_on=%206%20&jumps=001-5,%204-14%20,,x-3,5-",
     {"design": {"title": "Our board", "squares": "abc", "die": "", "overshoot": "wrap", "start": "-2",
                 "roll_again_on": "6", "jumps": [[1, 5], [4, 14]]},
      "players": None,
      "problems": ["jumps: each one is two squares joined by '-', from and to, got 'x-3'",
                   "jumps: each one is two squares joined by '-', from and to, got '5-'"]}),
]


@pytest.mark.parametrize(("search", "expected"), ODD_ADDRESSES)
def test_odd_addresses_are_read_as_the_page_reads_them(js: Watched, search: str, expected: dict[str, Any]) -> None:
    assert call(js, "ChutesDesign.address.parse(a0)", search) == expected


def test_an_address_is_written_in_a_fixed_form(js: Watched) -> None:
    d = {"title": "My board", "squares": "50", "die": "6", "overshoot": "pass", "start": "0", "roll_again_on": "6",
         "jumps": [[2, 22], [25, 4]]}
    assert call(js, "ChutesDesign.address.format(a0, a1)", d, "2") == \
        "?squares=50&die=6&overshoot=pass&start=0&roll_again_on=6&jumps=2-22,25-4"
    titled = {**d, "title": "Ours, & yours", "roll_again_on": ""}
    assert call(js, "ChutesDesign.address.format(a0, a1)", titled, "4") == \
        "?squares=50&die=6&overshoot=pass&start=0&jumps=2-22,25-4&players=4&title=Ours,%20%26%20yours"


# --- the board file -----------------------------------------------------------------------------------------


def write(js: Watched, d: dict[str, Any], title: str = "My board", address: str = "http://x.test/design/?a=1") -> str:
    return call(js, "ChutesDesign.toml.write(a0, a1, a2)", d, title, address)


@QUICK
@given(b=boards(min_squares=2, max_squares=60), title=TEXT.filter(lambda t: t.strip() != ""))
def test_a_design_downloads_as_the_board_file_the_program_reads(js: Watched, b: Board, title: str) -> None:
    text = write(js, design(b), title, "http://x.test/design/?squares=1&title=a%22b")
    data = tomllib.loads(text)
    assert data["title"] == title
    assert data["source"] == "Designed on the 'Design a board' page: http://x.test/design/?squares=1&title=a%22b"
    again = parse_board(text.encode(), "board.toml")
    rules = ("squares", "die", "overshoot", "start", "roll_again_on", "ladders", "chutes")
    assert [again.fields()[k] for k in rules] == [b.fields()[k] for k in rules]


@pytest.mark.parametrize(("typed", "written"), [("007", 7), ("+5", 5), ("-0", 0), ("-12", -12),
                                                ("123456789012345678901234567890", 123456789012345678901234567890)])
def test_a_whole_number_is_written_as_the_number_typed(js: Watched, typed: str, written: int) -> None:
    d = {**design(board("tiny")), "squares": typed, "die": typed, "start": typed, "roll_again_on": typed}
    data = tomllib.loads(write(js, d))
    assert [data[k] for k in ("squares", "die", "start", "roll_again_on")] == [written] * 4


@pytest.mark.parametrize(("key", "typed"), [("squares", "1100"), ("squares", "abc"), ("die", "six"), ("die", "0"),
                                            ("overshoot", "wrap"), ("start", "1.5"), ("roll_again_on", "x")])
def test_a_broken_field_is_named_alike_by_the_page_and_by_the_program(js: Watched, key: str, typed: str) -> None:
    d = {**design(board("classic")), key: typed}
    problems = call(js, "ChutesDesign.edits.check(a0).problems", d)
    with pytest.raises(BoardError) as refused:
        parse_board(write(js, d).encode(), "board.toml")
    assert str(refused.value) == "board.toml: " + "; ".join(problems)


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
            complete: r.dist.complete};
})()"""
AGAIN = Board(title="again", squares=30, die=4, roll_again_on=4, overshoot="bounce", start=2,
              ladders=((3, 11), (8, 25)), chutes=((17, 4), (28, 1)))


@pytest.mark.parametrize("b", [board("tiny"), board("classic"), board("classic-pass"), board("uk"),
                               board("zeilberger-line"), AGAIN], ids=lambda b: b.slug or b.title)
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
