"""The built site in a real browser: Debian's Chromium driven by Playwright, served on 127.0.0.1 only."""

from __future__ import annotations

import functools
import json
import math
import re
import struct
import threading
import zlib
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from helpers import REFERENCE_LANGUAGES, Watched, chain, new_project
from playwright.sync_api import Browser, Page

from chutes.cli.site import compute_stage
from chutes.compute.board.limits import MAX_PLAYERS
from chutes.compute.solve.races import position_chances
from chutes.site_build import pipeline
from chutes.site_build.pages import board_page, figures

pytestmark = pytest.mark.browser

# Charts are drawn as they come near the screen: waiting for all of them scrolls to the next one not yet drawn.
ALL_RENDERED = ("() => { const charts = Array.from(document.querySelectorAll('.chutes-chart'));"
                " const next = charts.find(e => !e.dataset.rendered);"
                " if (next) (next.closest('.tabbed-set') || next).scrollIntoView();"
                " return charts.every(e => e.dataset.rendered === 'done' && e.querySelector('svg.main-svg')); }")


def _pages(site: Path) -> list[str]:
    """The first language's pages (each other language has its own folder, with its own sitemap)."""
    others = {code for code in REFERENCE_LANGUAGES[1:] if (site / code).is_dir()}
    return sorted("/" + p.relative_to(site).parent.as_posix().strip(".") + "/" if p.name == "index.html"
                  else "/" + p.relative_to(site).as_posix() for p in site.rglob("*.html")
                  if p.relative_to(site).parts[0] not in others)


def test_charts_render_after_instant_navigation(server: str, watched: Watched) -> None:
    page = watched.page
    page.goto(server + "/")
    page.wait_for_load_state("networkidle")  # instant navigation takes over only the links of the sitemap it fetched
    page.evaluate("window.__sameDocument = true")
    for where, link, path, chart in (
            (".md-content", "Chutes and Ladders (Milton Bradley, 1943)", "/boards/classic/", "#chart-board"),
            (".md-nav--primary", "Compare boards", "/compare/", "#chart-compare-length"),
            (".md-nav--primary", "A UK Snakes and Ladders board, passing 100 wins", "/boards/uk/", "#chart-board")):
        page.locator(where).get_by_role("link", name=link).first.click()
        page.wait_for_url(server + path)
        # the address changes before the content: wait for a chart that the page before did not have
        page.wait_for_selector(chart, state="attached")
        page.wait_for_function(ALL_RENDERED, timeout=20_000)
        assert page.evaluate("window.__sameDocument === true"), "navigation reloaded the page instead of swapping it"
        assert page.locator(".chutes-chart svg.main-svg").count() >= 2
        # the look the figures share, written once for the site, reaches every chart drawn
        drawn = page.evaluate("[...document.querySelectorAll('.chutes-chart.js-plotly-plot')]"
                              ".map(el => el.layout.template.layout.colorway)")
        assert drawn and all(c == figures.PLOTLY_TEMPLATE["layout"]["colorway"] for c in drawn)
    watched.assert_clean()


SHIFTS = ("window.__shifts = 0; new PerformanceObserver(list => list.getEntries().forEach(e => {"
          " if (!e.hadRecentInput) window.__shifts += e.value; })).observe({type: 'layout-shift', buffered: true});")
"""Adds up the page's layout shifts as the browser reports them (those right after the reader's input aside)."""
DESIGN_READY = "document.querySelector('.design-announce')?.textContent.startsWith('Average game')"


@pytest.mark.xfail(strict=False, reason="a layout shift of about 0.0008 on a phone's screen since the languages "
                   "round (the page scripts' words load before the designer): to find (issue 52)")
def test_the_design_page_does_not_move_as_it_gets_ready_and_keeps_its_style_after_instant_navigation(
        server: str, open_page) -> None:
    """Loaded whole, the design page is laid out before its script runs (its stylesheet in the head, its list of
    boards in the page, room kept for the board): on a phone the browser reports no layout shift until the results
    are shown. On a wide screen the one thing that moves is the download button under the list of chutes and
    ladders, as the list is filled: a shift far below the 0.1 that counts as good (Web Vitals). Reached by instant
    navigation, which keeps the head, the page gets its stylesheet all the same."""
    for viewport, most in (({"width": 412, "height": 823}, 0), ({"width": 1280, "height": 900}, 0.01)):
        watched = open_page(viewport=viewport)
        page = watched.page
        page.add_init_script(SHIFTS)
        page.goto(server + "/design/")
        page.wait_for_function(DESIGN_READY)
        assert page.evaluate("window.__shifts") <= most, viewport
        watched.assert_clean()
    watched = open_page()
    page = watched.page
    page.goto(server + "/")
    page.wait_for_load_state("networkidle")  # instant navigation takes over only the links of the sitemap it fetched
    page.evaluate("window.__sameDocument = true")
    page.locator(".md-nav--primary").get_by_role("link", name="Design a board").first.click()
    page.wait_for_function(DESIGN_READY)
    assert page.evaluate("window.__sameDocument === true")
    assert page.evaluate("getComputedStyle(document.querySelector('#designer .design-settings')).display") == "flex"
    watched.assert_clean()


def _chart_width(page: Page, chart: str) -> float:
    return page.evaluate(f"document.querySelector('#{chart} svg.main-svg').getBoundingClientRect().width")


def test_charts_resize_in_tabs_and_with_the_window(server: str, watched: Watched) -> None:
    page = watched.page
    page.goto(server + "/boards/classic/")
    page.wait_for_function(ALL_RENDERED, timeout=20_000)
    column = _chart_width(page, "chart-length")
    assert column > 500 and _chart_width(page, "chart-length-cumulative") == 0, "hidden in its tab at first"
    page.get_by_text("Over by this turn").first.click()
    page.wait_for_function(f"document.querySelector('#chart-length-cumulative svg.main-svg')"
                           f".getBoundingClientRect().width > {column} - 30")
    wide = _chart_width(page, "chart-length-cumulative")
    page.set_viewport_size({"width": 480, "height": 900})
    page.wait_for_function(f"document.querySelector('#chart-length-cumulative svg.main-svg')"
                           f".getBoundingClientRect().width < {wide} - 100")
    assert _chart_width(page, "chart-length-cumulative") <= page.evaluate("document.documentElement.clientWidth")
    watched.assert_clean()


def test_charts_follow_the_palette_switch(server: str, watched: Watched) -> None:
    page = watched.page
    page.goto(server + "/boards/classic/")
    page.wait_for_function(ALL_RENDERED, timeout=20_000)
    light = page.evaluate("document.querySelector('#chart-bounds').layout.font.color")
    page.locator("label[title='Switch to dark mode']:visible").first.click()
    page.wait_for_function("document.body.getAttribute('data-md-color-scheme') === 'slate'")
    page.wait_for_function(f"document.querySelector('#chart-bounds').layout.font.color !== {light!r}")
    dark = page.evaluate("document.querySelector('#chart-bounds').layout.font.color")
    assert dark != light
    watched.assert_clean()


def test_copy_button_copies_the_whole_fraction(server: str, watched: Watched, bundled_records: list[dict]) -> None:
    page = watched.page
    p = next(r for r in bundled_records if r["slug"] == "classic")["results"]["first_player_wins"]
    page.goto(server + "/boards/classic/")
    page.locator(".fraction summary").first.click()
    page.locator(".fraction button[data-md-type='copy']").click()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.strip() == f"{p['numerator']}/{p['denominator']}"
    assert len(copied.strip()) == 4453 * 2 + 1
    watched.assert_clean()


def test_the_three_player_fraction_loads_when_its_box_is_opened(server: str, watched: Watched,
                                                               bundled_records: list[dict]) -> None:
    page = watched.page
    three = next(r for r in bundled_records if r["slug"] == "classic")["players"]["first_of_three"]
    loaded: list[str] = []
    page.on("request", lambda request: loaded.append(request.url))
    page.goto(server + "/boards/classic/")
    page.wait_for_load_state("networkidle")
    assert not [u for u in loaded if u.endswith("first-of-three.txt")], "nothing is fetched before it is asked for"
    page.locator(".fraction summary", has_text="175,755 digits").click()
    box = page.locator("pre.chutes-fraction")
    page.wait_for_function("document.querySelector('pre.chutes-fraction').dataset.loaded === 'yes'")
    assert box.text_content() == f"{three['numerator']}/{three['denominator']}"
    assert page.evaluate("(p => p.scrollWidth <= p.clientWidth + 1)(document.querySelector('pre.chutes-fraction'))"), \
        "the digits wrap inside their box"
    watched.assert_clean()


def test_method_page_maths_is_laid_out(server: str, watched: Watched) -> None:
    page = watched.page
    page.goto(server + "/method/")
    sizes = page.evaluate("Array.from(document.querySelectorAll('math')).map(m => m.getBoundingClientRect().width)")
    assert len(sizes) >= 8 and min(sizes) > 5
    watched.assert_clean()


def test_the_calculator_agrees_with_the_command_line(server: str, watched: Watched) -> None:
    page = watched.page
    twelve = [0, 5, 10, 14, 20, 31, 38, 42, 50, 60, 77, 99]  # a class of twelve, each on a square of its own
    for slug, squares in (("uk", [0] * MAX_PLAYERS), ("classic", twelve), ("noordenbos", [14, 60, 31, 26, 48, 48]),
                          ("classic", [0, 99, 47])):
        page.goto(server + f"/boards/{slug}/")
        page.locator("#calculator .calc-count").select_option(str(len(squares)))
        inputs = page.locator("#calculator input.calc-square")
        assert inputs.count() == len(squares)
        # every square but the last set without an event, then the last typed: the chances are computed once
        inputs.evaluate_all("(els, squares) => els.slice(0, -1).forEach((e, n) => { e.value = squares[n]; })",
                            [str(q) for q in squares])
        inputs.nth(len(squares) - 1).fill(str(squares[-1]))
        page.wait_for_function(f"document.querySelectorAll('#calculator .calc-chance').length === {len(squares)}")
        values = page.eval_on_selector_all("#calculator .calc-chance", "els => els.map(e => e.dataset.value)")
        shown = [float(v) for v in values]
        expected = [float(w["decimal"]) for w in position_chances(chain(slug), squares)]
        assert max(abs(a - b) for a, b in zip(shown, expected)) < 1e-9, (slug, shown, expected)
    inputs.nth(0).fill("48")
    assert "not a square where a turn can start" in page.locator("#calculator .calc-status").inner_text()
    watched.assert_clean()


@pytest.mark.parametrize("path", ["/", "/boards/classic/", "/boards/classic-coin/", "/compare/", "/house-rules/",
                                  "/method/", "/data/"])
def test_no_serious_accessibility_violations(server: str, watched: Watched, path: str) -> None:
    """axe-core (bundled with axe-playwright-python) on every kind of page, charts drawn and tables present."""
    from axe_playwright_python.sync_playwright import Axe

    page = watched.page
    page.goto(server + path)
    page.wait_for_function(ALL_RENDERED, timeout=20_000)
    results = Axe().run(page)
    serious = [f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
               for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    assert serious == []
    if "/boards/" in path:
        assert page.locator("details.chart-data").count() == page.locator(".chutes-chart").count()


# --- sharing, light pages, phones and forms ---------------------------------------------------------------

LOCAL_PREFIXES = ("http://127.0.0.1:", "data:", "blob:")


@pytest.fixture
def open_page(browser: Browser) -> Iterator:
    """Opens a watched page in a context of its own (options as for `browser.new_context`)."""
    contexts = []

    def open_with(**options) -> Watched:
        context = browser.new_context(**{"viewport": {"width": 1280, "height": 900}, **options})
        contexts.append(context)
        return Watched(context.new_page())

    yield open_with
    for context in contexts:
        context.close()


def png_pixels(data: bytes) -> tuple[int, int, int, list[bytes]]:
    """A PNG (8-bit RGB or RGBA, not interlaced, as browsers write them) decoded with zlib and struct:
    width, height, bytes per pixel and the rows of pixels."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", data[pos + 8:pos + 8 + length])
        elif kind == b"IDAT":
            idat.append(data[pos + 8:pos + 8 + length])
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, header
    bpp = 4 if colour == 6 else 3
    raw, stride = zlib.decompress(b"".join(idat)), width * bpp
    rows, prior = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride if kind else 0):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prior[i], (prior[i - bpp] if i >= bpp else 0)
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            else:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prior = line
    return width, height, bpp, rows


def test_no_button_link_or_form_of_a_board_page_sends_anything_away(server: str, open_page) -> None:
    """Every chart has the same mode bar, without a button that shares or edits elsewhere; every button of it
    (on the first chart and on the last, in a tab), every button of the page, every link that opens a window or
    downloads, every form: all of it clicked, and no request (of the page, a popup or a worker) leaves
    127.0.0.1."""
    watched = open_page(accept_downloads=True)
    page, context = watched.page, watched.page.context
    requests: list[str] = []
    context.on("request", lambda r: requests.append(r.url))
    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(LOCAL_PREFIXES) else r.abort())
    page.goto(server + "/boards/classic/")
    page.wait_for_function(ALL_RENDERED, timeout=20_000)
    titles = page.eval_on_selector_all(".chutes-chart", "els => els.map(c => Array.from("
                                       "c.querySelectorAll('.modebar-btn'), e => e.dataset.title).join('|'))")
    assert len(titles) >= 14 and len(set(titles)) == 1, titles
    assert not [t for t in titles[0].split("|") if any(w in t.lower() for w in ("cloud", "share", "studio", "edit"))]
    clicked = 0
    for n in (0, len(titles) - 1):
        chart = page.locator(".chutes-chart").nth(n)
        if not chart.is_visible():  # in a tab not shown: show it first
            block = chart.locator("xpath=ancestor::div[contains(@class, 'tabbed-block')]")
            index = block.evaluate("b => Array.prototype.indexOf.call(b.parentNode.children, b)")
            chart.locator("xpath=ancestor::div[contains(@class, 'tabbed-set')]").locator(
                ".tabbed-labels > label").nth(index).click()
        chart.scroll_into_view_if_needed()
        chart.hover()
        buttons = chart.locator(".modebar-btn")
        for b in range(buttons.count()):
            if "PNG" in (buttons.nth(b).get_attribute("data-title") or ""):
                with page.expect_download():
                    buttons.nth(b).click()
            else:
                buttons.nth(b).click()
            clicked += 1
    assert clicked >= 2 * 5
    downloads = page.locator("a[download]:visible")
    assert downloads.count() >= 3
    for n in range(downloads.count()):
        with page.expect_download():
            downloads.nth(n).click()
    for n in range(page.locator("a[target]").count()):
        page.locator("a[target]").nth(n).click()
    page.evaluate("document.querySelectorAll('.md-content button, .md-top').forEach(b => b.click())")
    page.evaluate("document.querySelectorAll('form').forEach(f => f.requestSubmit ? f.requestSubmit() : f.submit())")
    page.locator(".md-search__input").fill("ladder")
    page.locator(".md-search__input").press("Enter")
    page.wait_for_load_state("networkidle")
    assert [u for u in requests if not u.startswith(LOCAL_PREFIXES)] == []
    assert watched.outside == []


def test_a_saved_chart_is_on_white_titled_and_credited_in_dark_mode(server: str, open_page) -> None:
    watched = open_page(color_scheme="dark", accept_downloads=True)
    page = watched.page
    page.goto(server + "/boards/classic/")
    assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate"
    chart = page.locator("#chart-length")
    chart.scroll_into_view_if_needed()
    page.wait_for_function("document.querySelector('#chart-length').dataset.rendered === 'done'")
    saved = page.evaluate("""(() => { const f = chutesCharts.imageFigure(document.querySelector('#chart-length'));
                             return [f.title, f.board, f.credit, f.layout.paper_bgcolor, f.layout.font.color]; })()""")
    assert saved == ["How long a game lasts: Ends on this turn", "Chutes and Ladders (Milton Bradley, 1943)",
                     f"Chutes and Ladders, exactly — {server}/", "#ffffff", "#222222"]
    chart.hover()
    with page.expect_download() as download:
        chart.locator(".modebar-btn[data-title='Download this chart as a PNG image']").click()
    assert download.value.suggested_filename == "classic-length.png"
    width, height, bpp, rows = png_pixels(Path(download.value.path()).read_bytes())
    assert width >= 1000 and height > 420
    assert rows[0][:3] == b"\xff\xff\xff" and rows[-1][-bpp:][:3] == b"\xff\xff\xff", "white corners"
    if bpp == 4:
        assert all(row[3::4] == b"\xff" * width for row in rows), "no transparent pixel"
    dark = [any(v < 128 for v in row[::bpp]) for row in rows]
    scale = width // 1000
    assert any(dark[10 * scale:70 * scale]), "a title in dark letters at the top"
    assert any(dark[-30 * scale:]), "a credit line at the bottom"
    watched.assert_clean()


def test_the_calculator_keeps_its_positions_in_the_address(server: str, open_page) -> None:
    page = open_page().page
    page.goto(server + "/boards/noordenbos/")
    page.locator("#calculator .calc-count").select_option("4")
    for n, square in enumerate([14, 60, 31, 26]):
        page.locator("#calculator input.calc-square").nth(n).fill(str(square))
    page.wait_for_function("document.querySelectorAll('#calculator .calc-chance').length === 4")
    shown = page.eval_on_selector_all("#calculator .calc-chance", "els => els.map(e => e.textContent)")
    assert "?players=4&squares=14,60,31,26" in page.url
    again = open_page().page
    again.goto(page.url)
    again.wait_for_function("document.querySelectorAll('#calculator .calc-chance').length === 4")
    assert again.locator("#calculator .calc-count").input_value() == "4"
    assert again.eval_on_selector_all("#calculator input.calc-square", "els => els.map(e => e.value)") == \
        ["14", "60", "31", "26"]
    assert again.eval_on_selector_all("#calculator .calc-chance", "els => els.map(e => e.textContent)") == shown


def test_the_pace_field_rewrites_the_minutes_and_keeps_the_pace_in_the_address(server: str, open_page) -> None:
    """The home page comes with its minutes at 10 seconds a turn and without the scripts' words; a pace typed in
    rewrites every minute (rounds × players × seconds ÷ 60, in whole minutes) and goes into the address, and a link
    with the pace opens the page with its minutes."""
    watched = open_page()
    page = watched.page
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    page.goto(server + "/")
    page.wait_for_load_state("networkidle")
    assert not [url for url in fetched if "/words" in url], "the words wait until a pace is set"
    cells = "els => els.map(e => [e.textContent, +e.dataset.rounds, +e.dataset.players])"
    for text, rounds, players in page.eval_on_selector_all(".answer-card .pace-minutes", cells):
        assert re.search(r"\d+", text).group() == str(max(1, round(rounds * players * 10 / 60))), text
    page.locator(".answer-card .pace-input").fill("45")
    page.wait_for_function("document.querySelector('.pace-label').textContent.startsWith('45 ')")
    minutes = page.eval_on_selector_all(".answer-card .pace-minutes", cells)
    assert [re.search(r"\d+", text).group() for text, _, _ in minutes] == \
        [str(max(1, math.floor(rounds * players * 45 / 60 + 0.5))) for _, rounds, players in minutes]  # Math.round
    assert page.url.endswith("/?pace=45")
    again = open_page().page
    again.goto(page.url)
    again.wait_for_function("document.querySelector('.pace-label').textContent.startsWith('45 ')")
    assert again.eval_on_selector_all(".answer-card .pace-minutes", cells) == minutes
    watched.assert_clean()


PRINTED = ("e => e.dataset.rendered === 'done' || (!e.dataset.rendered"
           " && e.querySelector('img.chart-still').complete && e.querySelector('img.chart-still').naturalWidth > 0)")
"""A chart ready for paper: drawn, or not drawn and its still image loaded."""


def test_a_board_page_prints_as_a_handout(server: str, watched: Watched) -> None:
    page = watched.page
    page.goto(server + "/boards/classic/")
    page.emulate_media(media="print")
    # a chart drawn prints as drawn, one not drawn as its still image (fetched for the print): plotly.js draws
    # nothing more for paper
    page.wait_for_function(f"Array.from(document.querySelectorAll('.chutes-chart')).every({PRINTED})", timeout=20_000)
    assert page.evaluate("document.querySelectorAll('.chutes-chart:not([data-rendered])').length") >= 10
    for hidden in (".md-header", ".md-sidebar--primary", ".md-sidebar--secondary", ".md-search", ".md-footer",
                   ".modebar-container", "details.chart-data", "[data-md-component='palette']"):
        assert page.locator(hidden).first.is_hidden(), hidden
    sizes = page.eval_on_selector_all(".chutes-chart", "els => els.map(e => e.querySelector(e.dataset.rendered"
                                      " ? 'svg.main-svg' : 'img.chart-still').getBoundingClientRect())")
    assert len(sizes) == 15 and all(0 < s["width"] <= 700 and s["height"] > 300 for s in sizes), sizes
    tables = page.eval_on_selector_all(".md-typeset__table", "els => els.filter(e => !e.closest('details'))"
                                       ".map(e => e.getBoundingClientRect().width > 0)")
    assert len(tables) >= 3 and all(tables), "the tables are printed (those of every tab too)"
    assert page.locator("#cite-this-page").is_visible()
    watched.assert_clean()


def _first_visit(browser: Browser, url: str) -> dict[str, int]:
    """Bytes of every response when `url` is opened with an empty cache and scrolled to its end."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    sizes: dict[str, int] = {}
    page.on("response", lambda r: sizes.__setitem__(r.url, sizes.get(r.url, 0) + len(r.body()))
            if r.status == 200 else None)
    page.goto(url)
    page.wait_for_load_state("networkidle")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    # the charts near the end are drawn after the scroll, plotly.js fetched for them (networkidle was before it)
    page.wait_for_function("!document.querySelector('.chutes-chart')"
                           " || document.querySelector('.chutes-chart[data-rendered=\"done\"]')")
    context.close()
    return sizes


@pytest.mark.parametrize("code", REFERENCE_LANGUAGES)
def test_pages_stay_within_their_weight(server: str, browser: Browser, code: str) -> None:
    """A first visit in Chromium, every byte counted (uncompressed), of the reference site in each of its languages
    (the first at the root, each other in its folder): home ≤ 0.5 MB, the heaviest board pages ≤ 3 MB; no search
    index until the reader searches (the next test); plotly.js only where there are charts, and the one every
    language shares (see benchmarks/page_weight.py for the numbers)."""
    first = code == REFERENCE_LANGUAGES[0]
    prefix = "/" if first else f"/{code}/"
    home = _first_visit(browser, server + prefix)
    assert [u for u in home if u.endswith(f"{prefix}sitemap.xml")], "the page's requests are counted"
    assert not [u for u in home if "search_index" in u or "plotly" in u]
    assert sum(home.values()) <= 500_000, sorted(home.items(), key=lambda kv: -kv[1])[:5]
    for slug in ("noordenbos", "uk"):
        board = _first_visit(browser, server + f"{prefix}boards/{slug}/")
        assert sum(board.values()) <= 3_000_000, (slug, sorted(board.items(), key=lambda kv: -kv[1])[:5])
        assert [u for u in board if u.endswith("/assets/javascripts/plotly.min.js")], slug
        if not first:  # Material's own scripts come with each language's build; the site's are shared
            own = [u for u in board if f"{prefix}assets/javascripts/" in u and not re.search(
                r"/assets/javascripts/(bundle\.[0-9a-f]+\.min\.js|workers/|lunr/)", u)]
            assert own == [], (slug, "the first's, shared")


def test_the_search_index_comes_when_the_reader_turns_to_the_search(server: str, watched: Watched) -> None:
    """A page requests its language's search index only once the reader turns to the search (a press in the
    header's search, or its key "/"), or opens an address with a query; the search then finds the guide's pages
    too, and every other request went out at once (the page's own scripts ran)."""
    page = watched.page
    asked: list[str] = []
    page.on("request", lambda request: asked.append(urlsplit(request.url).path))
    page.goto(server + "/fr/")
    page.wait_for_load_state("networkidle")
    assert "/fr/sitemap.xml" in asked and not [path for path in asked if "search_index" in path]
    with page.expect_response(lambda response: response.url.endswith("/fr/search/search_index.json")):
        page.keyboard.press("/")
    page.goto(server + "/")
    page.wait_for_load_state("networkidle")
    with page.expect_response(lambda response: response.url.endswith("/search/search_index.json")):
        page.locator(".md-search__input").click()
    page.locator(".md-search__input").fill("engine")
    page.locator(".md-search__input").press("End")  # Material searches as keys come up
    page.locator(".md-search-result__item").first.wait_for(timeout=20_000)
    links = page.eval_on_selector_all(".md-search-result__link", "els => els.map(e => e.href)")
    assert [link for link in links if "/guide/" in link], links
    with page.expect_response(lambda response: response.url.endswith("/search/search_index.json")):
        page.goto(server + "/compare/?q=classic")
    watched.assert_clean()


def test_charts_below_the_fold_wait_until_they_come_into_view(server: str, watched: Watched) -> None:
    """A board page whose first chart lies below the screen loads no plotly.js until the reader scrolls; then the
    charts within a screen's height are drawn, and those further down only as they come near."""
    page = watched.page
    page.goto(server + "/boards/classic/")
    page.wait_for_load_state("networkidle")
    assert page.evaluate("document.querySelector('#chart-board').getBoundingClientRect().top") > 900
    assert page.evaluate("[typeof window.Plotly, document.querySelector('#chart-board').dataset.rendered]") == [
        "undefined", None]
    page.mouse.wheel(0, 200)
    page.wait_for_function("document.querySelector('#chart-board').dataset.rendered === 'done'")
    assert page.evaluate("document.querySelector('#chart-add-jump').dataset.rendered") is None
    page.locator("#chart-add-jump").scroll_into_view_if_needed()
    page.wait_for_function("document.querySelector('#chart-add-jump').dataset.rendered === 'done'")
    watched.assert_clean()


def test_on_a_phone_nothing_scrolls_sideways_and_the_mode_bar_leaves_the_legend_free(server: str, open_page) -> None:
    watched = open_page(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = watched.page
    page.goto(server + "/")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    assert page.eval_on_selector_all(".md-typeset__scrollwrap", "els => els.filter(e => e.scrollWidth > "
                                     "e.clientWidth + 1).length") == 0, "every table of the home page fits"
    page.goto(server + "/boards/classic/")
    page.wait_for_function(ALL_RENDERED, timeout=20_000)
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    boxes = page.evaluate("""Array.from(document.querySelectorAll('.chutes-chart')).map(el => {
        const box = s => { const e = el.querySelector(s); return e && e.getBoundingClientRect(); };
        return [el.id, box('.modebar'), box('.legend')]; })""")
    legends = [(name, m, g) for name, m, g in boxes if m and g and g["width"] > 0]
    assert len(legends) >= 4
    for name, m, g in legends:
        apart = (m["right"] <= g["left"] or g["right"] <= m["left"] or m["bottom"] <= g["top"]
                 or g["bottom"] <= m["top"])
        assert apart, (name, m, g)
    watched.assert_clean()


PHONE = 390
"""A phone's width in CSS pixels (an iPhone 12 to 15): every page must fit it."""
OUTSIDE_ITS_BOX = """width => Array.from(document.querySelectorAll('body *')).filter(e => {
    if (e.getBoundingClientRect().right <= width + 1) return false;
    for (let box = e.parentElement; box && box !== document.body; box = box.parentElement) {
      const clips = /auto|scroll|hidden|clip/.test(getComputedStyle(box).overflowX);
      if (clips && box.getBoundingClientRect().right <= width + 1) return false;
    }
    return true;
  }).map(e => e.tagName.toLowerCase() + (e.className && typeof e.className === 'string' ? '.' + e.className : ''))"""
"""What reaches past the right edge of a screen `width` wide without a box that scrolls (or clips) within the
screen, the page itself apart: what would make the page scroll sideways, or be cut off, on a phone."""


def _sitemap_paths(site: Path, address: str) -> list[str]:
    """Every page the built site's sitemap names, as paths on the test server."""
    locs = re.findall(r"<loc>([^<]+)</loc>", (site / "sitemap.xml").read_text())
    return ["/" + loc.removeprefix(address).lstrip("/") for loc in locs]


def _charts_expected(site: Path, url: str) -> int | None:
    """How many charts a board page draws: ten, four more for the experiments (which boards with house rules
    leave out), one more for the chance of landing on each square where the record has it, one more for the best
    play of a board with a choice."""
    if not url.startswith("/boards/"):
        return None
    record = json.loads((site / "data" / f"{url.split('/')[2]}.json").read_text())
    return ((10 if "skipped" in record["experiments"] else 14) + (record["results"]["landing_chance"] is not None)
            + (record["results"].get("strategy") is not None))


def _one_of_each_kind(site: Path, urls: list[str]) -> list[str]:
    """Every page that is neither a board page nor a guide page, one board page of each kind (each number of charts,
    with and without house rules), the classic board's among them (the board pages share one template), and the
    guide's first page and its command-line page (the widest tables; the guide's pages share one layout)."""
    kinds: dict[tuple, str] = {}
    for url in urls:
        if url.startswith("/boards/") and url != "/boards/classic/":
            record = json.loads((site / "data" / f"{url.split('/')[2]}.json").read_text())
            kinds.setdefault((_charts_expected(site, url), bool(record["results"]["board"].get("roll_again_on"))), url)
    return [u for u in urls if not u.startswith(("/boards/", "/guide/")) or u in ("/boards/classic/", *kinds.values())
            or u in ("/guide/", "/guide/cli/")]


def _walk_on_a_phone(built_site: Path, server: str, open_page, urls: list[str]) -> dict[str, list[str]]:
    """At 390 px, each page loads without an error or an outside request and draws every chart (each toggle
    opened); no page is wider than the screen: what is wider (a displayed equation, a table of 20 seats) scrolls
    inside its own box, which fits. Returns the classes of the boxes that scroll, by page."""
    watched = open_page(viewport={"width": PHONE, "height": 844}, has_touch=True, is_mobile=True)
    page = watched.page
    scrolling_boxes = {}
    for url in urls:
        page.goto(server + url)
        page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
        page.wait_for_function(ALL_RENDERED, timeout=20_000)
        charts = _charts_expected(built_site, url)
        assert charts is None or page.locator(".chutes-chart").count() == charts, url
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE, url
        assert page.evaluate(OUTSIDE_ITS_BOX, PHONE) == [], url
        scrolling_boxes[url] = page.evaluate("""Array.from(document.querySelectorAll('div.math, .chart-table'))
            .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.className)""")
    page.wait_for_load_state("networkidle")
    watched.assert_clean()
    return scrolling_boxes


def test_each_kind_of_page_loads_draws_its_charts_and_fits_a_phone(
        built_site: Path, built_site_address: str, server: str, open_page) -> None:
    """Every page but the board and guide pages, one board page of each kind, two of the guide and the 404 page, at
    390 px (the long checks walk every page)."""
    urls = _sitemap_paths(built_site, built_site_address)
    assert len(urls) == len(_pages(built_site)) - 1 and "/method/" in urls, urls  # every page but 404.html
    chosen = _one_of_each_kind(built_site, urls)
    boards = [u for u in chosen if u.startswith("/boards/")]
    assert len(boards) >= 3 and len({_charts_expected(built_site, u) for u in boards}) >= 2, chosen
    boxes = _walk_on_a_phone(built_site, server, open_page, [*chosen, "/404.html"])
    assert "math" in boxes["/method/"], "the method page's widest equation scrolls in its own box"
    assert "chart-table" in boxes["/boards/classic/"], "a wide table (20 seats) scrolls in its own box"


@pytest.mark.slow
def test_every_page_loads_draws_its_charts_and_fits_a_phone(
        built_site: Path, built_site_address: str, server: str, open_page) -> None:
    """The board pages the normal run leaves out, at 390 px."""
    urls = _sitemap_paths(built_site, built_site_address)
    walked = set(_one_of_each_kind(built_site, urls))
    _walk_on_a_phone(built_site, server, open_page, [u for u in urls if u not in walked])


def test_the_answer_the_headline_numbers_and_the_tables_need_no_script(server: str, open_page,
                                                                    bundled_records: list[dict]) -> None:
    """With JavaScript off, a phone still shows a board page's answer (the rounds and minutes for 2 to 4 players),
    its headline numbers from the record, and its tables (the charts' own data tables among them, in their
    closed boxes)."""
    record = next(r for r in bundled_records if r["slug"] == "classic")["results"]
    watched = open_page(java_script_enabled=False, viewport={"width": 390, "height": 844})
    page = watched.page
    page.goto(server + "/boards/classic/")
    text = page.locator("article").inner_text()
    assert f"{float(record['expected_turns']['decimal']):.1f} turns on average" in text
    assert f"{100 * float(record['first_player_wins']['decimal']):.1f}%" in text
    answer = page.locator("article table").first
    assert answer.is_visible() and "minutes" in answer.inner_text()
    assert answer.locator("tbody tr").count() == 3  # 2, 3 and 4 players
    assert page.locator("article table").count() >= page.locator("details.chart-data").count() > 0
    # every chart shows its still image, the narrow one on a phone, filling the chart's box (in a closed tab:
    # once the tab is opened)
    charts = page.locator(".chutes-chart")
    assert charts.count() == 15
    shown_charts = [charts.nth(k) for k in range(charts.count()) if charts.nth(k).is_visible()]
    assert len(shown_charts) >= 10
    for chart in (shown_charts[0], shown_charts[len(shown_charts) // 2], shown_charts[-1]):
        chart.evaluate("e => e.scrollIntoView()")
        still = chart.locator("img.chart-still")
        page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=still.element_handle())
        assert still.evaluate("img => img.currentSrc").endswith("-narrow.png")
        box, shown = chart.bounding_box(), still.bounding_box()
        assert box and shown and box["height"] > 300 and abs(shown["height"] - box["height"]) < 1
    watched.assert_clean()


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1280, "height": 900}])
def test_a_board_page_does_not_move_as_its_charts_are_drawn(server: str, open_page, viewport: dict) -> None:
    """Each chart's box has the chart's height from the start, its still image in it: drawing a chart as the
    reader scrolls to it moves nothing on the page."""
    watched = open_page(viewport=viewport)
    page = watched.page
    page.goto(server + "/boards/classic/")
    page.evaluate(SHIFTS)
    charts = page.locator(".chutes-chart")
    for k in range(charts.count()):
        chart = charts.nth(k)
        if chart.is_visible():  # a chart in a closed tab is drawn when its tab is opened
            chart.evaluate("e => e.scrollIntoView()")
            page.wait_for_function("e => e.dataset.rendered === 'done'", arg=chart.element_handle(), timeout=20_000)
    page.wait_for_timeout(200)
    assert page.evaluate("document.querySelectorAll('.chutes-chart[data-rendered=\"done\"]').length") >= 10
    assert page.evaluate("window.__shifts") < 0.01
    watched.assert_clean()


def test_the_calculator_fields_look_editable_and_say_what_is_wrong(server: str, watched: Watched) -> None:
    page = watched.page
    page.goto(server + "/boards/classic/")
    inputs = page.locator("#calculator input.calc-square")
    page.wait_for_function("document.querySelectorAll('#calculator .calc-chance').length === 3")
    for n in range(inputs.count()):
        field = inputs.nth(n)
        label = page.locator(f"#calculator label[for='{field.get_attribute('id')}']")
        assert label.inner_text() == f"Player {n + 1} on square"
        style = field.evaluate("e => { const s = getComputedStyle(e); return [s.borderTopWidth, s.borderTopColor]; }")
        assert float(style[0][:-2]) >= 1 and "rgba(0, 0, 0, 0)" not in style[1], style
    assert page.locator("label[for='calc-count']").count() == 1
    cell = page.locator("#calculator .calc-results td").first.evaluate(
        "e => { const s = getComputedStyle(e); return [s.borderBottomWidth, s.paddingLeft]; }")
    head = page.locator("#calculator .calc-results th").first.evaluate("e => getComputedStyle(e).backgroundColor")
    assert float(cell[0][:-2]) >= 1 and float(cell[1][:-2]) >= 8 and head != "rgba(0, 0, 0, 0)"
    inputs.nth(1).fill("")
    status = page.locator("#calculator .calc-status")
    assert "Player 2's square is blank" in status.inner_text()
    assert inputs.nth(1).get_attribute("aria-invalid") == "true"
    assert page.locator("#calculator .calc-chance").count() == 0
    assert page.locator("#calculator .calc-results").is_hidden()
    inputs.nth(1).fill("12")
    page.wait_for_function("document.querySelectorAll('#calculator .calc-chance').length === 3")
    assert inputs.nth(1).get_attribute("aria-invalid") is None
    watched.assert_clean()


# --- the board comes alive ---------------------------------------------------------------------------------

SHOWN = """(() => {
    const gd = document.querySelector('#chart-alive');
    const [heat, feet, labels] = ['squares', 'feet', 'labels'].map(uid => gd.data.find(t => t.uid === uid));
    const shown = {};
    labels.customdata.forEach((q, i) => {
        const r = labels.y[i], c = labels.x[i];
        shown[q] = {z: heat.z[r][c], foot: feet ? feet.z[r][c] : null, hover: heat.customdata[r][c],
                    labels: [heat.text[r][c], feet ? feet.text[r][c] : '', labels.text[i]].filter(Boolean)};
    });
    return {turn: Number(document.querySelector('#alive').dataset.turn), title: gd.layout.title.text, shown: shown};
})()"""
TABLE = ("Array.from(document.querySelectorAll('#alive .alive-table tbody tr')).map(tr => "
         "[Number(tr.cells[0].dataset.square), Number(tr.cells[1].dataset.value), tr.cells[1].textContent])")
PRECISION = 5.000001e-7  # the page carries the record's values in millionths


def _wait_for_turn(page: Page, turn: int) -> None:
    page.wait_for_function(f"document.querySelector('#alive').dataset.turn === '{turn}' && "
                           f"document.querySelector('#chart-alive').dataset.rendered === 'done' && "
                           f"document.querySelector('#chart-alive').layout.title.text.indexOf("
                           f"{'Before the first turn' if turn == 0 else f'After {turn} turn'!r}) === 0")


def _wait_for_address(page: Page, ending: str) -> None:
    """The page's address (less any #fragment) ends with `ending`."""
    page.wait_for_function(f"location.href.split('#')[0].endsWith({ending!r})")


def _alive_matches_the_record(page: Page, record: dict, turn: int) -> dict:
    """The heat map, its hover texts and the table show the record's positions after `turn` turns."""
    positions = record["series"]["positions"]
    row, feet = positions["on_square"][turn], set(positions["feet"])
    last = len(row) - 1
    shown = page.evaluate(SHOWN)
    assert shown["turn"] == turn and sorted(int(q) for q in shown["shown"]) == list(range(1, last + 1))
    for key, cell in shown["shown"].items():
        q, value = int(key), row[int(key)]
        if q == last:
            assert cell["z"] is None and f"{round(value * 1e6) / 1e4:.4f}% of games are over" in cell["hover"]
            assert cell["labels"] == [f"{q}<br>{round(value * 1e6) // 10000}%"]
        elif q in feet:
            assert cell["z"] is None and abs((cell["foot"] or 0) - value) <= PRECISION, (turn, q, cell, value)
            assert (cell["foot"] is None) == (value == 0)
            assert "no turn ends here" in cell["hover"] and (turn == 0 or "a roll lands here" in cell["hover"])
        else:
            assert abs((cell["z"] or 0) - value) <= PRECISION, (turn, q, cell, value)
            assert (cell["z"] is None) == (value == 0)
        if q != last:
            assert cell["labels"] == [str(q)], "each square's number written once, on top of its colour"
    assert f"{round(row[last] * 1e6) / 1e4:.4f}% of games are over" in shown["title"]
    table = page.evaluate(TABLE)
    assert [q for q, _, _ in table] == [q for q, v in enumerate(row) if round(v * 1e6) > 0]
    assert all(abs(v - row[q]) <= PRECISION for q, v, _ in table)
    assert all(text.endswith(" landings") == (q in feet) for q, _, text in table)
    caption = page.locator("#alive .alive-table caption").inner_text()
    assert caption.startswith("Where the token is " + ("before the first turn" if turn == 0 else f"after {turn} turn"))
    assert page.locator("#alive-turn").input_value() == str(turn)
    return shown


def test_the_board_comes_alive_with_its_slider_play_button_and_table(server: str, watched: Watched,
                                                                      bundled_records: list[dict]) -> None:
    page = watched.page
    record = next(r for r in bundled_records if r["slug"] == "classic")
    last_turn = record["series"]["positions"]["turns"][-1]
    page.goto(server + "/")
    page.wait_for_load_state("networkidle")  # instant navigation takes over only the links of the sitemap it fetched
    page.evaluate("window.__sameDocument = true")
    page.locator(".md-content").get_by_role("link", name="Chutes and Ladders (Milton Bradley, 1943)").first.click()
    page.wait_for_url(server + "/boards/classic/")
    page.wait_for_selector("#alive[data-ready]", state="attached")
    page.locator("#chart-alive").scroll_into_view_if_needed()
    _wait_for_turn(page, 0)
    start = _alive_matches_the_record(page, record, 0)
    assert page.evaluate("window.__sameDocument === true"), "reached by instant navigation"
    slider = page.get_by_label("Turns played")
    assert slider.get_attribute("type") == "range" and slider.get_attribute("max") == str(last_turn)
    slider.focus()
    page.keyboard.press("End")
    _wait_for_turn(page, last_turn)
    end = _alive_matches_the_record(page, record, last_turn)
    assert end["shown"] != start["shown"], "the heat map moved"
    _wait_for_address(page, f"/boards/classic/?turn={last_turn}")
    page.keyboard.press("Home")
    for _ in range(12):
        page.keyboard.press("ArrowRight")
    _wait_for_turn(page, 12)
    _alive_matches_the_record(page, record, 12)
    _wait_for_address(page, "/boards/classic/?turn=12")
    play = page.get_by_role("button", name="Play")
    play.click()
    page.wait_for_function("Number(document.querySelector('#alive').dataset.turn) >= 15")
    page.get_by_role("button", name="Pause").click()
    turn = int(page.evaluate("document.querySelector('#alive').dataset.turn"))
    page.wait_for_timeout(600)
    assert int(page.evaluate("document.querySelector('#alive').dataset.turn")) == turn, "paused"
    assert page.get_by_role("button", name="Play").is_visible()
    _alive_matches_the_record(page, record, turn)
    _wait_for_address(page, f"/boards/classic/?turn={turn}")
    watched.assert_clean()


def test_the_turn_shown_is_in_the_address(server: str, open_page, bundled_records: list[dict]) -> None:
    record = next(r for r in bundled_records if r["slug"] == "noordenbos")
    watched = open_page()
    page = watched.page
    page.goto(server + "/boards/noordenbos/?players=2&squares=14,60&turn=17")
    page.locator("#chart-alive").scroll_into_view_if_needed()
    _wait_for_turn(page, 17)
    _alive_matches_the_record(page, record, 17)
    page.get_by_label("Turns played").focus()
    page.keyboard.press("ArrowRight")
    _wait_for_turn(page, 18)
    _wait_for_address(page, "/boards/noordenbos/?players=2&squares=14,60&turn=18")
    again = open_page()
    again.page.goto(page.url)
    again.page.locator("#chart-alive").scroll_into_view_if_needed()
    _wait_for_turn(again.page, 18)
    assert again.page.evaluate(SHOWN) == page.evaluate(SHOWN)
    assert again.page.evaluate(TABLE) == page.evaluate(TABLE)
    again.page.goto(server + "/boards/noordenbos/?turn=99999")  # past the end: the last turn
    again.page.locator("#chart-alive").scroll_into_view_if_needed()
    last_turn = record["series"]["positions"]["turns"][-1]
    _wait_for_turn(again.page, last_turn)
    _alive_matches_the_record(again.page, record, last_turn)
    watched.assert_clean()
    again.assert_clean()


class _QuietFiles(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def test_a_long_two_player_fraction_loads_when_its_box_is_opened(tmp_path: Path, monkeypatch,
                                                                 watched: Watched) -> None:
    """A site whose two-player fraction is past the inline limit (lowered here, so that the 10-square board's
    is): the page has a box that fetches nothing until it is opened, then shows the fraction from its file."""
    monkeypatch.setattr(board_page, "INLINE_FRACTION_CHARS", 5)
    project = new_project(tmp_path / "long")
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietFiles, directory=str(project.site_dir)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{httpd.server_address[1]}/"
        site = pipeline.build_site(project, compute_stage(quiet=True), url)
        fraction = (site / "data" / "tiny-first-player.txt").read_text().strip()
        page = watched.page
        loaded: list[str] = []
        page.on("request", lambda request: loaded.append(request.url))
        page.goto(url + "boards/tiny/")
        page.wait_for_load_state("networkidle")
        assert not [u for u in loaded if u.endswith("first-player.txt")], "nothing is fetched before it is asked for"
        box = page.locator(".fraction details", has=page.locator('a[href$="tiny-first-player.txt"]'))
        assert box.locator("code").count() == 0, "the fraction is not in the page"
        box.locator("summary").click()
        pre = box.locator("pre.chutes-fraction")
        pre.and_(page.locator("[data-loaded='yes']")).wait_for()
        assert pre.text_content() == fraction
    finally:
        httpd.shutdown()
        httpd.server_close()
    watched.assert_clean()
