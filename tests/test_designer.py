"""The "Design a board" page: its numbers against the exact engine, its messages against the command line's,
the address and the downloaded board file, the keyboard, the pointer and axe-core, in Debian's Chromium."""

from __future__ import annotations

import functools
import json
import random
import re
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import BUNDLED, REPOSITORY, Watched, board
from playwright.sync_api import Browser, Page
from pydantic import ValidationError

from compute.boards import Board, BoardError, board_problems, parse_board
from compute.chain import turn_chain
from compute.limits import MAX_DIE, MAX_SQUARES
from compute.players import seat_chances
from compute.report import solve

ENGINE = REPOSITORY / "site_src" / "assets" / "javascripts" / "engine.js"
READY = ("document.querySelector('#designer') && "
         "['ready', 'invalid'].includes(document.querySelector('#designer').dataset.state)")
VALUES = ("Object.fromEntries(Array.from(document.querySelectorAll('[data-result]'))"
          ".map(e => [e.dataset.result, e.dataset.value]))")
TOLERANCE = 1e-9


def query(b: Board, players: int = 2) -> str:
    """The design page's address for a board (jumps as from-to pairs, ladders first as in the board file)."""
    parts = [f"squares={b.squares}", f"die={b.die}", f"overshoot={b.overshoot}", f"start={b.start}"]
    if b.roll_again_on is not None:
        parts.append(f"roll_again_on={b.roll_again_on}")
    parts.append("jumps=" + ",".join(f"{a}-{c}" for a, c in (*b.ladders, *b.chutes)))
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


# --- no browser ------------------------------------------------------------------------------------------


def test_the_page_script_has_the_board_files_limits() -> None:
    text = ENGINE.read_text()
    assert re.search(r"var MAX_SQUARES = (\d+);", text).group(1) == str(MAX_SQUARES)
    assert re.search(r"var MAX_DIE = (\d+);", text).group(1) == str(MAX_DIE)


@pytest.mark.xdist_group("browser")  # beside the browser tests: the worker that builds the site anyway
def test_the_design_page_is_built_with_the_listed_boards_and_in_the_menu(built_site: Path,
                                                                         bundled_records: list[dict]) -> None:
    html = (built_site / "design" / "index.html").read_text()
    data = re.search(r'<div class="chutes-designer-data" hidden data-search-exclude data-for="designer">(.*?)</div>',
                     html, re.S).group(1)
    boards = json.loads(data)
    listed = sorted(r["slug"] for r in bundled_records if r["results"]["board"]["listed"])
    assert sorted(b["slug"] for b in boards) == listed
    classic = next(b for b in boards if b["slug"] == "classic")
    assert classic["ladders"][0] == [1, 38] and classic["squares"] == 100 and classic["roll_again_on"] is None
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


def _agrees(shown: dict[str, str], b: Board, players: int, certified: list[dict] | None) -> None:
    exact = solve(b)
    g = exact["game_length"]
    where = (b.slug or b.canonical(), players)
    assert abs(float(shown["expected-turns"]) - float(exact["expected_turns"]["decimal"])) < TOLERANCE, where
    assert abs(float(shown["first-player"]) - float(exact["first_player_wins"]["decimal"])) < TOLERANCE, where
    for name, key in (("median", "median"), ("lower-quartile", "lower_quartile"), ("upper-quartile", "upper_quartile")):
        assert int(shown[name]) == g[key], (where, name)
    assert int(shown["shortest"]) == g["shortest"]["turns"], where
    for k, v in g["over_within"].items():
        assert abs(float(shown[f"over-{k}"]) - float(v["decimal"])) < TOLERANCE, (where, k)
    seats = certified or seat_chances(turn_chain(b), players)
    assert [k for k in shown if k.startswith("seat-")] == [f"seat-{n}" for n in range(1, players + 1)]
    for n, seat in enumerate(seats, start=1):
        assert abs(float(shown[f"seat-{n}"]) - float(seat["decimal"])) < TOLERANCE, (where, n)


@pytest.mark.browser
def test_every_bundled_board_and_random_boards_agree_with_the_exact_engine(
        site: str, designer: Watched, bundled_records: list[dict]) -> None:
    page = designer.page
    page.route("**/plotly.min.js", lambda route: route.abort())  # the numbers only: no chart needed here
    records = {r["slug"]: r for r in bundled_records}
    for n, slug in enumerate(BUNDLED):
        players = 3 + n % 4
        shown = open_design(page, site, query(board(slug), players))
        _agrees(shown, board(slug), players, records[slug]["players"]["seats"][str(players)])
    boards = random_boards(32)
    assert {b.overshoot for b in boards} == {"stay", "bounce", "pass"}
    assert sum(b.roll_again_on is not None for b in boards) >= 6 and sum(b.start > 0 for b in boards) >= 3
    for n, b in enumerate(boards):
        players = 2 + n % 5
        _agrees(open_design(page, site, query(b, players)), b, players, None)
    refused = ("plotly", "Failed to load resource: net::ERR_FAILED")  # the chart library, turned away above
    assert [e for e in designer.errors if not any(r in e for r in refused)] == [] and designer.outside == []


INVALID = [  # (address, the board file the same design is)
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


@pytest.mark.browser
def test_an_invalid_design_gives_the_command_lines_message_and_keeps_the_last_results(
        site: str, designer: Watched, tmp_path: Path) -> None:
    page = designer.page
    for address, fields in INVALID:
        open_design(page, site, address)
        expected = "; ".join(board_problems(Board.unchecked(title="x", **fields)))
        assert expected and page.locator("[role='alert']").inner_text() == expected, address
        assert page.evaluate("document.querySelector('#designer').dataset.state") == "invalid"
    open_design(page, site, INVALID[3][0])
    assert page.locator("[role='alert']").inner_text() == (
        "the game can fail to end: from the start a player can reach squares 11-17, from which square 20 can never "
        "be reached")
    for address, problem in (("?squares=500&die=6", "squares: input should be less than or equal to 400, got 500"),
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
    page.goto(site + "/design/?squares=400&die=20&jumps=5-390,399-1")
    page.wait_for_function(READY)
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    phone.close()
