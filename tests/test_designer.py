"""The "Design a board" page: its numbers against the exact engine (house rules included), its messages against the
command line's, the address and the downloaded board file, the keyboard, the pointer and axe-core, in Debian's
Chromium."""

from __future__ import annotations

import functools
import json
import random
import re
import threading
import tomllib
from collections.abc import Iterator
from fractions import Fraction
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import BUNDLED, SITE_GROUP, Watched, board
from playwright.sync_api import Browser, Page
from pydantic import ValidationError

from chutes.compute.board.file import parse_board
from chutes.compute.board.limits import MAX_DICE, MAX_DIE, MAX_ROLL_AGAIN_LIMIT, MAX_SQUARES, MAX_WEIGHT, RANGES
from chutes.compute.board.model import Board, BoardError
from chutes.compute.board.problems import board_problems
from chutes.compute.record.results import WITHIN, solve
from chutes.compute.solve.chain import turn_chain
from chutes.compute.solve.jumps import shortest_game
from chutes.compute.solve.landing import landing_chances
from chutes.compute.solve.races import races_together, seat_chances
from chutes.site_build.pages import figures
from chutes.site_build.pages.constants import constants_script, site_constants

READY = ("document.querySelector('#designer') && "
         "['ready', 'invalid', 'unsolved'].includes(document.querySelector('#designer').dataset.state)")
VALUES = ("Object.fromEntries(Array.from(document.querySelectorAll('[data-result]'))"
          ".map(e => [e.dataset.result, e.dataset.value]))")
TOLERANCE = 1e-9


def query(b: Board, players: int = 2) -> str:
    """The design page's address for a board, as the page writes it: the house rules only when used (the penalty
    whenever there is a limit), jumps as from-to pairs, ladders first as in the board file."""
    parts = [f"squares={b.squares}", f"die={b.die}"]
    if b.dice > 1:
        parts.append(f"dice={b.dice}")
    if b.weights is not None:
        parts.append("weights=" + "-".join(map(str, b.weights)))
    parts += [f"overshoot={b.overshoot}", f"start={b.start}"]
    if b.enter_on is not None:
        parts.append("enter_on=" + ",".join(map(str, b.enter_on)))
    house = {"roll_again_on": b.roll_again_on, "roll_again_limit": b.roll_again_limit, "roll_again_penalty": b.penalty}
    parts += [f"{k}={v}" for k, v in house.items() if v is not None]
    if b.choice is not None:
        parts.append(f"choice={b.choice}")
    parts.append("jumps=" + ",".join(f"{a}-{c}" for a, c in (*b.ladders, *b.chutes)))
    if players != 2:
        parts.append(f"players={players}")
    return "?" + "&".join(parts)


def random_boards(count: int, seed: int = 13) -> list[Board]:
    """Valid boards of 10 to 60 squares, every end rule, some with a roll-again face or another start."""
    rng = random.Random(seed)
    found: list[Board] = []
    while len(found) < count:
        n, die = rng.randint(10, 60), rng.randint(1, 8)
        overshoot = ("stay", "bounce", "pass")[len(found) % 3]
        again = rng.randint(1, die) if len(found) % 4 == 1 and die > 1 else None
        jumps, used = [], set()
        for _ in range(rng.randint(0, n // 4)):
            a, c = rng.randint(1, n - 1), rng.randint(0, n)
            if a != c and not {a, c} & used:
                used |= {a, c}
                jumps.append((a, c))
        start = rng.randint(0, n // 2) if len(found) % 5 == 2 else 0
        try:
            found.append(Board(title="random", squares=n, die=die, overshoot=overshoot, roll_again_on=again,
                               start=start, ladders=tuple(j for j in jumps if j[1] > j[0]),
                               chutes=tuple(j for j in jumps if j[1] < j[0])))
        except ValidationError:
            continue
    return found


def largest_board(seed: int = 1000) -> Board:
    """A random valid board of the largest size allowed, one jump per five squares, bouncing back at the end."""
    rng = random.Random(seed)
    ladders, chutes, used = [], [], set()
    while len(ladders) + len(chutes) < MAX_SQUARES // 5:
        a, c = rng.randint(1, MAX_SQUARES - 1), rng.randint(0, MAX_SQUARES)
        if a != c and not {a, c} & used:
            used |= {a, c}
            (ladders if c > a else chutes).append((a, c))
    return Board(title="largest", squares=MAX_SQUARES, die=6, overshoot="bounce", ladders=tuple(ladders),
                 chutes=tuple(chutes))


# --- no browser ------------------------------------------------------------------------------------------


def test_the_scripts_constants_are_the_python_sides() -> None:
    shared = site_constants()
    assert (shared["MAX_SQUARES"], shared["MAX_DIE"], shared["WITHIN"]) == (MAX_SQUARES, MAX_DIE, list(WITHIN))
    assert (shared["MAX_DICE"], shared["MAX_ROLL_AGAIN_LIMIT"], shared["MAX_WEIGHT"]) == \
        (MAX_DICE, MAX_ROLL_AGAIN_LIMIT, MAX_WEIGHT)
    assert (shared["LADDER"], shared["CHUTE"], shared["PLAIN"]) == (figures.LADDER, figures.CHUTE, list(figures.PLAIN))
    assert shared["PALETTE"] == list(figures.OKABE_ITO)
    assert [[stop, "#" + bytes(rgb).hex()] for stop, rgb in shared["CIVIDIS"]] == figures.CIVIDIS
    steps = shared["GRID_COLUMNS"]
    assert [[c for first, c in steps if first <= n][-1] for n in range(1, MAX_SQUARES + 1)] == \
        [figures.grid_columns(n) for n in range(1, MAX_SQUARES + 1)]


@pytest.mark.xdist_group(SITE_GROUP)  # beside the browser tests of the built site
def test_the_built_site_carries_the_constants(built_site: Path) -> None:
    text = (built_site / "assets" / "javascripts" / "constants.js").read_text()
    assert text == constants_script()
    assert json.loads(re.search(r"^window\.ChutesConstants = (\{.*\});$", text, re.M).group(1)) == site_constants()
    html = (built_site / "design" / "index.html").read_text()
    assert [int(k) for k in re.findall(r'data-result="over-(\d+)"', html)] == list(WITHIN)


@pytest.mark.xdist_group(SITE_GROUP)  # beside the browser tests of the built site
def test_the_design_page_is_built_with_the_listed_boards_and_in_the_menu(built_site: Path,
                                                                         bundled_records: list[dict]) -> None:
    html = (built_site / "design" / "index.html").read_text()
    data = re.search(r'<div class="chutes-designer-data" hidden data-search-exclude data-for="designer">(.*?)</div>',
                     html, re.S).group(1)
    boards = json.loads(data)
    listed = sorted(r["slug"] for r in bundled_records if r["results"]["board"]["listed"])
    assert sorted(b["slug"] for b in boards) == listed and "classic-family" in listed
    classic = next(b for b in boards if b["slug"] == "classic")
    assert classic["ladders"][0] == [1, 38] and classic["squares"] == 100 and classic["roll_again_on"] is None
    assert [classic[k] for k in ("dice", "weights", "enter_on", "roll_again_limit", "roll_again_penalty")] == \
        [None] * 5, "a house rule not used is null"
    family = next(b for b in boards if b["slug"] == "classic-family")
    assert (family["enter_on"], family["roll_again_on"], family["roll_again_limit"]) == ([6], 6, 2)
    weighted = next(b for b in boards if b["slug"] == "classic-weighted")
    assert weighted["weights"] == list(board("classic-weighted").weights)
    assert 'role="alert"' in html and 'aria-live="polite"' in html
    home = (built_site / "index.html").read_text()
    assert re.search(r'<a href="design/" class="md-nav__link">\s*<span class="md-ellipsis">\s*Design a board', home)


# --- in the browser -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def site(built_site: Path) -> Iterator[str]:
    """The built site on a server of this module's own (127.0.0.1, a free port)."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(built_site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def designer(browser: Browser) -> Iterator[Watched]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    yield Watched(context.new_page())
    context.close()


def open_design(page: Page, site: str, address: str) -> dict[str, str]:
    page.goto(f"{site}/design/{address}")
    page.wait_for_function(READY)
    return page.evaluate(VALUES)


def solved(b: Board, players: int, record: dict | None = None) -> dict[str, float]:
    """What the page shows, from the exact engine (`chutes solve`; the seats certified by interval arithmetic):
    solved here, or read from the board's record, which the compute stage wrote with the same engine."""
    exact = record["results"] if record else solve(turn_chain(b))
    g = exact["game_length"]
    seats = record["players"]["seats"][str(players)] if record else seat_chances(turn_chain(b), players)
    return {"expected-turns": float(exact["expected_turns"]["decimal"]),
            "first-player": float(exact["first_player_wins"]["decimal"]),
            "median": g["median"], "lower-quartile": g["lower_quartile"], "upper-quartile": g["upper_quartile"],
            "shortest": g["shortest"]["turns"],
            **{f"over-{k}": float(v["decimal"]) for k, v in g["over_within"].items()},
            **{f"seat-{n}": float(seat["decimal"]) for n, seat in enumerate(seats, start=1)}}


def solved_quickly(b: Board, players: int) -> dict[str, float]:
    """The same for a board whose exact two-player fraction would take minutes: the exact expected turns and
    distribution, and every chance (the first player's too) from the certified race of players starting
    together."""
    chain = turn_chain(b)
    dist = chain.distribution
    races = races_together(chain, b.start, [2, players])
    quartiles = {name: dist.quantile(Fraction(q, 4)) for name, q in
                 (("lower-quartile", 1), ("median", 2), ("upper-quartile", 3))}
    return {"expected-turns": float(chain.expected_turns[chain.start]), "first-player": float(races[2].wins[0]),
            **quartiles, "shortest": shortest_game(chain).turns,
            **{f"over-{k}": float(dist.cdf(k)) for k in (20, 50, 100) if k <= dist.terms},
            **{f"seat-{n}": float(w) for n, w in enumerate(races[players].wins, start=1)}}


def _agrees(shown: dict[str, str], exact: dict[str, float], where: object) -> None:
    """The page's numbers are the exact engine's: whole numbers equal, chances and averages within TOLERANCE."""
    seats = sorted(k for k in exact if k.startswith("seat-"))
    assert [k for k in shown if k.startswith("seat-")] == seats, where
    for name, value in exact.items():
        if isinstance(value, int):
            assert int(shown[name]) == value, (where, name)
        else:
            assert abs(float(shown[name]) - value) < TOLERANCE, (where, name)


@pytest.mark.browser
def test_every_bundled_board_agrees_with_the_exact_engine(site: str, designer: Watched,
                                                          bundled_records: list[dict]) -> None:
    page = designer.page
    page.route("**/plotly.min.js", lambda route: route.abort())  # the numbers only: no chart needed here
    records = {r["slug"]: r for r in bundled_records}
    assert sum(board(s).house_rules for s in BUNDLED) >= 6
    for n, slug in enumerate(BUNDLED):
        players = 3 + n % 4
        address = query(board(slug), players)
        shown = open_design(page, site, address)
        if board(slug).choice is not None and board(slug).roll_again_limit is not None:  # the page says it does not
            assert page.evaluate("document.querySelector('#designer').dataset.state") == "unsolved"  # work it out
            continue
        _agrees(shown, solved(board(slug), players, records[slug]), (slug, players))
        page.wait_for_function(f"location.search === {address!r}")  # every key of the board came in from the address
    _no_errors_but_the_chart_library(designer)


def _random_boards_agree(site: str, designer: Watched, count: int) -> None:
    page = designer.page
    page.route("**/plotly.min.js", lambda route: route.abort())  # the numbers only: no chart needed here
    boards = random_boards(count)
    assert {b.overshoot for b in boards} == {"stay", "bounce", "pass"}
    assert sum(b.roll_again_on is not None for b in boards) >= count // 6 and sum(b.start > 0 for b in boards) >= 2
    for n, b in enumerate(boards):
        players = 2 + n % 5
        _agrees(open_design(page, site, query(b, players)), solved(b, players), (b.canonical(), players))
    _no_errors_but_the_chart_library(designer)


def _no_errors_but_the_chart_library(designer: Watched) -> None:
    refused = ("plotly", "Failed to load resource: net::ERR_FAILED")  # the chart library, turned away above
    assert [e for e in designer.errors if not any(r in e for r in refused)] == [] and designer.outside == []


@pytest.mark.browser
def test_random_boards_agree_with_the_exact_engine(site: str, designer: Watched) -> None:
    _random_boards_agree(site, designer, 12)


@pytest.mark.browser
@pytest.mark.slow
def test_many_random_boards_agree_with_the_exact_engine(site: str, designer: Watched) -> None:
    _random_boards_agree(site, designer, 60)


def pitch(page: Page) -> float:
    """The distance on screen between the centres of squares 500 and 501 (side by side on a large board)."""
    a, b = (page.locator(f".design-square[data-square='{n}'] rect").bounding_box() for n in (500, 501))
    return abs(a["x"] - b["x"])


@pytest.mark.browser
def test_a_board_of_the_largest_size_agrees_is_kept_in_its_address_and_downloads(site: str, designer: Watched) -> None:
    page = designer.page
    b = largest_board()
    address = query(b, 4)
    shown = open_design(page, site, address)
    _agrees(shown, solved_quickly(b, 4), "largest")
    page.wait_for_function(f"location.search === {address!r}")
    assert len(address) > 1500 and page.locator(".design-jump-list li").count() == MAX_SQUARES // 5
    with page.expect_download() as download:
        page.locator(".design-download").click()
    again = parse_board(Path(download.value.path()).read_bytes(), "board.toml")
    rules = ("squares", "die", "overshoot", "start", "roll_again_on", "ladders", "chutes")
    assert [again.fields()[k] for k in rules] == [b.fields()[k] for k in rules]
    assert page.locator("#designer.design-wide").count() == 1, "a board this wide has the whole width"
    assert pitch(page) >= 28 and page.evaluate("document.scrollingElement.scrollWidth") <= 1280
    designer.assert_clean()


@pytest.mark.browser
def test_a_board_of_the_largest_size_scrolls_in_its_box_on_a_phone_and_is_edited_there(site: str,
                                                                                          browser: Browser) -> None:
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = phone.new_page()
    open_design(page, site, f"?squares={MAX_SQUARES}&die=6&jumps=")
    state = "document.querySelector('#designer').dataset.query"
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390, "the board scrolls in its box, not the page"
    assert pitch(page) >= 28, "a square is still a target for a finger"
    page.locator(".design-square[data-square='990']").tap()
    page.locator(".design-square[data-square='10']").tap()
    page.wait_for_function(f"{state}.endsWith('&jumps=990-10')")
    box = page.locator(".design-board").bounding_box()

    def in_sight(square: int) -> bool:
        r = page.locator(f".design-square[data-square='{square}'] rect").bounding_box()
        return box["x"] - 1 <= r["x"] and r["x"] + r["width"] <= box["x"] + box["width"] + 1  # to a pixel

    page.evaluate("document.querySelector('.design-board').scrollLeft = 0")
    page.locator(".design-board svg").focus()
    for key in ("End", "ArrowRight", "Enter", "ArrowDown", "Enter"):  # 1000 → 999, pick; down to 986, end
        page.keyboard.press(key)
    page.wait_for_function(f"{state}.endsWith('&jumps=990-10,999-986')")
    assert in_sight(986), "the keyboard's square is scrolled into sight"
    phone.close()


@pytest.mark.browser
def test_an_invalid_design_gives_the_command_lines_message_and_keeps_the_last_results(
        site: str, designer: Watched, tmp_path: Path) -> None:
    """The page shows the command line's message for the board the address describes (every kind of problem is
    checked against the command line in the page's scripts alone, test_design_js)."""
    page = designer.page
    open_design(page, site, "?squares=20&die=2&jumps=10-20,18-12,19-12")
    assert page.locator("[role='alert']").inner_text() == (
        "the game can fail to end: from the start a player can reach squares 11-17, from which square 20 can never "
        "be reached")
    assert page.evaluate("document.querySelector('#designer').dataset.state") == "invalid"
    too_many = MAX_SQUARES + 100
    for address, problem in ((f"?squares={too_many}&die=6",
                              f"squares: {too_many} is out of range ({RANGES['squares']})"),
                             ("?squares=100&die=abc", "die: expected a whole number, got 'abc'"),
                             ("?squares=100&die=6&overshoot=wrap",
                              "overshoot: must be one of \"stay\", \"bounce\", \"pass\", got 'wrap'")):
        open_design(page, site, address)
        assert page.locator("[role='alert']").inner_text() == problem
        with page.expect_download() as download:
            page.locator(".design-download").click()
        with pytest.raises(BoardError) as refused:
            parse_board(Path(download.value.path()).read_bytes(), "board.toml")
        assert str(refused.value) == f"board.toml: {problem}", "the downloaded file: the same message"
    before = open_design(page, site, "?squares=40&die=6&jumps=3-20")
    assert before["expected-turns"] and page.locator(".design-stale-note").is_hidden()
    page.locator(".design-add-from").fill("20")
    page.locator(".design-add-to").fill("35")
    page.locator(".design-add-button").click()
    page.wait_for_function("document.querySelector('#designer').dataset.state === 'invalid'")
    assert page.locator("[role='alert']").inner_text() == \
        "ladders[0] = [3, 20]: ends on square 20, where ladders[1] = [20, 35] starts (jumps may not chain)"
    assert page.evaluate(VALUES) == before, "the last good results stay"
    assert page.locator(".design-stale-note").is_visible() and page.locator(".design-results").is_visible()
    page.locator(".design-remove").nth(1).click()
    page.wait_for_function("document.querySelector('#designer').dataset.state === 'ready'")
    assert page.locator("[role='alert']").inner_text() == "" and page.locator(".design-stale-note").is_hidden()
    designer.assert_clean()


@pytest.mark.browser
def test_address_page_board_file_and_command_line_agree(site: str, designer: Watched, tmp_path: Path) -> None:
    from chutes.cli import main

    page = designer.page
    address = ("?squares=60&die=5&overshoot=bounce&start=2&roll_again_on=5&jumps=1-38,4-14,16-6,47-26&players=4"
               "&title=Our+board")
    shown = open_design(page, site, address)
    page.wait_for_function(f"location.search === {address.replace('+', '%20')!r}")
    with page.expect_download() as download:
        page.locator(".design-download").click()
    assert download.value.suggested_filename == "our-board.toml"
    path = tmp_path / "our-board.toml"
    download.value.save_as(path)
    text = path.read_text()
    assert 'title = "Our board"' in text and "ladders = [[1, 38], [4, 14]]" in text
    assert "chutes = [[16, 6], [47, 26]]" in text
    out = CliRunner().invoke(main, ["solve", str(path), "--json"])
    assert out.exit_code == 0, out.output
    exact = json.loads(out.output)
    assert exact["board"]["title"] == "Our board" and exact["board"]["roll_again_on"] == 5
    assert abs(float(shown["expected-turns"]) - float(exact["expected_turns"]["decimal"])) < TOLERANCE
    assert abs(float(shown["first-player"]) - float(exact["first_player_wins"]["decimal"])) < TOLERANCE
    assert int(shown["median"]) == exact["game_length"]["median"]
    assert int(shown["shortest"]) == exact["game_length"]["shortest"]["turns"]
    seats = json.loads(CliRunner().invoke(main, ["solve", str(path), "--players", "4", "--json"]).output)
    assert len(seats["win_probabilities"]) == 4
    for seat in seats["win_probabilities"]:
        assert abs(float(shown[f"seat-{seat['seat']}"]) - float(seat["decimal"])) < TOLERANCE
    designer.assert_clean()


@pytest.mark.browser
def test_keyboard_pointer_and_form_make_move_and_remove_jumps(site: str, designer: Watched) -> None:
    page = designer.page
    open_design(page, site, "?squares=30&die=6&jumps=")
    state = "document.querySelector('#designer').dataset.query"

    def wait_for(jumps: str) -> None:
        page.wait_for_function(f"{state}.includes('&jumps={jumps}&') || {state}.endsWith('&jumps={jumps}')")

    board_svg = page.locator(".design-board svg")
    board_svg.focus()
    for key in ("ArrowRight", "ArrowRight", "Enter", "ArrowUp", "Enter"):  # square 1 → 3, pick; up to 18, end
        page.keyboard.press(key)
    wait_for("3-18")
    assert "Added the ladder from 3 to 18" in page.locator(".design-cursor").inner_text()
    for key in ("Enter", "ArrowRight", "Enter"):  # pick up the ladder's top on 18 and move it to 17
        page.keyboard.press(key)
    wait_for("3-17")
    page.keyboard.press("Delete")
    wait_for("")
    page.locator(".design-square[data-square='25']").click()
    page.locator(".design-square[data-square='12']").click()
    wait_for("25-12")
    head = page.locator(".design-handle-head").first.bounding_box()
    target = page.locator(".design-square[data-square='9'] rect").bounding_box()
    page.mouse.move(head["x"] + head["width"] / 2, head["y"] + head["height"] / 2)
    page.mouse.down()
    page.mouse.move(target["x"] + 20, target["y"] + 20, steps=5)
    page.mouse.up()
    wait_for("25-9")
    page.locator(".design-add-from").fill("2")
    page.locator(".design-add-to").fill("22")
    page.locator(".design-add-to").press("Enter")
    wait_for("25-9,2-22")
    assert page.locator(".design-jump-list li").nth(1).inner_text().startswith("Ladder")
    page.locator(".design-jump-list li").nth(0).locator(".design-jump-to").fill("4")
    wait_for("25-4,2-22")
    page.get_by_role("button", name="Remove jump 1, the chute from 25 to 4").click()
    wait_for("2-22")
    page.locator(".design-squares").fill("50")
    page.locator(".design-overshoot").select_option("pass")
    page.locator(".design-again").select_option("6")
    page.wait_for_function(f"{state} === '?squares=50&die=6&overshoot=pass&start=0&roll_again_on=6&jumps=2-22'")
    page.wait_for_function("location.search === '?squares=50&die=6&overshoot=pass&start=0&roll_again_on=6&jumps=2-22'")
    assert page.evaluate("document.querySelector('#designer').dataset.state") == "ready"
    page.locator(".design-from").select_option("uk")
    page.locator(".design-use").click()
    page.wait_for_function(f"{state}.startsWith('?squares=100&die=6&overshoot=pass')")
    assert page.locator(".design-jump-list li").count() == len(board("uk").ladders) + len(board("uk").chutes)
    landed = landing_chances(board("uk"))
    foot = board("uk").chutes[0][0]  # a square's title says the share of games that land on it (a chute's foot)
    title = page.locator(f".design-square[data-square='{foot}'] title").text_content()
    assert f"{100 * float(landed[foot]):.1f}% of games land here at least once" in title, title
    designer.assert_clean()


@pytest.mark.browser
def test_the_design_page_is_accessible_light_and_fits_a_phone(site: str, browser: Browser) -> None:
    from axe_playwright_python.sync_playwright import Axe

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    sizes: dict[str, int] = {}
    page.on("response", lambda r: sizes.__setitem__(r.url, len(r.body())) if r.status == 200 else None)
    page.goto(site + "/design/")
    page.wait_for_function(READY)
    page.locator("#chart-design-length").scroll_into_view_if_needed()
    page.wait_for_function("document.querySelector('#chart-design-length').dataset.rendered === 'done'")
    page.wait_for_load_state("networkidle")
    assert sum(sizes.values()) <= 3_000_000, sorted(sizes.items(), key=lambda kv: -kv[1])[:5]
    results = Axe().run(page)
    serious = [f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
               for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    assert serious == []
    assert page.locator(".design-announce").get_attribute("aria-live") == "polite"
    page.wait_for_function("document.querySelector('.design-announce').textContent.startsWith('Average game 39.60')")
    context.close()
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = phone.new_page()
    page.goto(site + f"/design/?squares={MAX_SQUARES}&die=20&jumps=5-{MAX_SQUARES - 10},{MAX_SQUARES - 1}-1")
    page.wait_for_function(READY)
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    phone.close()


@pytest.mark.browser
def test_the_house_rules_are_set_in_the_form_kept_in_the_address_downloaded_and_named(site: str,
                                                                                       designer: Watched) -> None:
    from axe_playwright_python.sync_playwright import Axe

    page = designer.page
    open_design(page, site, "?squares=30&die=6&jumps=")
    state = "document.querySelector('#designer').dataset.query"
    limit, penalty = page.locator(".design-limit-field"), page.locator(".design-penalty-field")
    assert limit.is_hidden() and penalty.is_hidden(), "nothing to limit yet"
    page.get_by_label("Number of dice").fill("2")
    page.locator(".design-overshoot").select_option("bounce")
    page.get_by_label("Loaded die: how often each face comes up").fill("1, 1 1;1 1 2")
    page.get_by_label("To get onto the board, a player must roll").fill("6 12")
    page.get_by_label("Roll again on").select_option("12")  # the dice's totals: 2 to 12
    assert limit.is_visible() and penalty.is_hidden()
    page.get_by_label("Rolls again in one turn, at most").select_option("2")
    assert penalty.is_visible()
    page.get_by_label("The penalty roll is not moved and").select_option("start")
    address = ("?squares=30&die=6&dice=2&weights=1-1-1-1-1-2&overshoot=bounce&start=0&enter_on=6,12&roll_again_on=12"
               "&roll_again_limit=2&roll_again_penalty=start&jumps=")
    page.wait_for_function(f"{state} === {address!r} && location.search === {address!r}")
    assert page.evaluate("document.querySelector('#designer').dataset.state") == "ready"
    rules = {"squares": 30, "die": 6, "dice": 2, "weights": [1, 1, 1, 1, 1, 2], "overshoot": "bounce",
             "enter_on": [6, 12], "roll_again_on": 12, "roll_again_limit": 2, "roll_again_penalty": "start"}
    made = Board(title="My board", **rules)
    _agrees(page.evaluate(VALUES), solved(made, 2), "the form")
    with page.expect_download() as download:
        page.locator(".design-download").click()
    text = Path(download.value.path()).read_text()
    assert {k: tomllib.loads(text)[k] for k in rules} == rules
    assert parse_board(text.encode(), "board.toml").canonical() == made.canonical(), "the program reads that board"
    axe = Axe().run(page)
    assert [v["id"] for v in axe.response["violations"] if v["impact"] in ("serious", "critical")] == []
    page.get_by_label("Roll again on").select_option("")
    page.wait_for_function(f"{state} === '?squares=30&die=6&dice=2&weights=1-1-1-1-1-2&overshoot=bounce&start=0"
                           "&enter_on=6,12&jumps='")
    assert limit.is_hidden() and penalty.is_hidden(), "the limit and its penalty went with the roll again"
    one_die = Board.unchecked(**{**made.fields(), "dice": 1, "roll_again_on": None, "roll_again_limit": None,
                                 "roll_again_penalty": None})
    assert board_problems(one_die) == ["enter_on: no roll makes 12 (a roll makes 1-6)"]
    for typed, problem in (("5", f"dice: 5 is out of range ({RANGES['dice']})"),
                           ("1", board_problems(one_die)[0])):
        page.get_by_label("Number of dice").fill(typed)
        page.wait_for_function(f"document.querySelector('.design-alert').textContent === {problem!r}")
        assert page.evaluate("document.querySelector('#designer').dataset.state") == "invalid"
    for address, fields in (("?squares=20&die=6&dice=2&jumps=", dict(dice=2)),
                            ("?squares=20&roll_again_limit=2", dict(roll_again_limit=2)),
                            ("?squares=20&roll_again_on=6&roll_again_penalty=start",
                             dict(roll_again_on=6, roll_again_penalty="start"))):
        open_design(page, site, address)
        problem = "; ".join(board_problems(Board.unchecked(title="x", squares=20, die=6, **fields)))
        assert problem and page.locator("[role='alert']").inner_text() == problem, address
    assert penalty.is_visible(), "a penalty named is in sight"
    designer.assert_clean()


@pytest.mark.browser
def test_the_coin_is_ticked_in_the_form_played_best_kept_in_the_address_and_refused_with_a_limit(
        site: str, designer: Watched, bundled_records: list[dict]) -> None:
    """Ticking the coin on the classic board gives the classic-coin board's page: its results for the best play
    (engine.js finds it in floats), the play square by square, the address and the board file with the coin; a
    roll-again limit beside it is a valid board the page says it does not work out (its file still downloads)."""
    from axe_playwright_python.sync_playwright import Axe

    page = designer.page
    page.route("**/plotly.min.js", lambda route: route.abort())  # the numbers only: no chart needed here
    classic = board("classic")
    open_design(page, site, query(classic))
    assert page.locator(".design-play").is_hidden(), "no coin, no play"
    page.get_by_label("Coin flip: after each roll, the player may flip for one square more or less").check()
    address = query(board("classic-coin"))
    state = "document.querySelector('#designer').dataset.query"
    page.wait_for_function(f"{state} === {address!r} && location.search === {address!r}")
    page.wait_for_function("document.querySelector('#designer').dataset.state === 'ready'")
    record = {r["slug"]: r for r in bundled_records}["classic-coin"]
    _agrees(page.evaluate(VALUES), solved(board("classic-coin"), 2, record), "the coin ticked")
    flips = record["results"]["strategy"]["flips"]
    squares = sorted({q for q, _ in flips})
    assert page.locator(".design-play").is_visible()
    rows = page.evaluate("Array.from(document.querySelectorAll('.design-play-table tbody tr'))"
                         ".map(tr => Array.from(tr.cells).map(td => td.textContent))")  # behind a toggle
    assert [r[0] for r in rows] == ["0 (off the board)" if q == 0 else str(q) for q in squares]
    assert rows[1][1] == ", ".join(str(r) for q, r in flips if q == squares[1])
    words = page.locator(".design-play-words").inner_text()
    assert f"flips on {len(squares)} squares" in words and "against 39.60 never flipping" in words
    assert "Best play: flip the coin on a roll of" in page.locator(f"[data-square='{squares[1]}'] title").text_content()
    with page.expect_download() as download:
        page.locator(".design-download").click()
    text = Path(download.value.path()).read_text()
    assert tomllib.loads(text)["choice"] == "coin"
    assert parse_board(text.encode(), "board.toml").canonical() == board("classic-coin").canonical()
    axe = Axe().run(page)
    assert [v["id"] for v in axe.response["violations"] if v["impact"] in ("serious", "critical")] == []
    page.get_by_label("Roll again on").select_option("6")
    page.get_by_label("Rolls again in one turn, at most").select_option("1")
    limited = Board.unchecked(**{**classic.fields(), "choice": "coin", "roll_again_on": 6, "roll_again_limit": 1})
    assert board_problems(limited) == []  # a valid board that the page does not work out, and says so
    page.wait_for_function("document.querySelector('#designer').dataset.state === 'unsolved'")
    notice = page.locator(".design-alert").text_content()
    assert "not worked out on this page" in notice and "chutes strategy" in notice
    with page.expect_download() as download:
        page.locator(".design-download").click()
    kept = parse_board(Path(download.value.path()).read_bytes(), "board.toml")
    assert (kept.choice, kept.roll_again_limit) == ("coin", 1)
    page.get_by_label("Coin flip: after each roll, the player may flip for one square more or less").uncheck()
    page.wait_for_function("document.querySelector('#designer').dataset.state === 'ready'")
    assert page.locator(".design-play").is_hidden()
    _no_errors_but_the_chart_library(designer)
