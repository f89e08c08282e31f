"""The built site in a real browser: Debian's Chromium driven by Playwright, served on 127.0.0.1 only."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest
from conftest import chain
from playwright.sync_api import Browser, Page, sync_playwright

from compute.players import position_chances

pytestmark = pytest.mark.browser

CHROMIUM = os.environ.get("CHUTES_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ALL_RENDERED = ("() => Array.from(document.querySelectorAll('.chutes-chart'))"
                ".every(e => e.dataset.rendered === 'done' && e.querySelector('svg.main-svg'))")


@pytest.fixture(scope="session")
def server(built_site: Path, site_http: ThreadingHTTPServer) -> Iterator[str]:
    """The built site over HTTP on 127.0.0.1, at the address it was built for."""
    thread = threading.Thread(target=site_http.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{site_http.server_address[1]}"
    site_http.shutdown()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium; the test fails (it is not skipped) if it is missing: scripts/test installs it."""
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} not found: install Debian's chromium (scripts/test does)"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield b
        b.close()


class Watched:
    """A page with everything that went wrong on it recorded: console errors, page errors, outside requests."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.errors: list[str] = []
        self.outside: list[str] = []
        page.on("console", lambda m: self.errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        page.route("**/*", self._route)

    def _route(self, route) -> None:
        url = route.request.url
        if url.startswith(("http://127.0.0.1:", "data:", "blob:")):
            route.continue_()
        else:
            self.outside.append(url)
            route.abort()

    def assert_clean(self) -> None:
        assert self.errors == [] and self.outside == []


@pytest.fixture
def watched(browser: Browser) -> Iterator[Watched]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    yield Watched(context.new_page())
    context.close()


def _pages(site: Path) -> list[str]:
    return sorted("/" + p.relative_to(site).parent.as_posix().strip(".") + "/" if p.name == "index.html"
                  else "/" + p.relative_to(site).as_posix() for p in site.rglob("*.html"))


def test_every_page_loads_and_every_chart_renders(built_site: Path, server: str, watched: Watched) -> None:
    urls = [u.replace("//", "/") for u in _pages(built_site)]
    assert len(urls) >= 9
    for url in urls:
        watched.page.goto(server + url)
        watched.page.wait_for_function(ALL_RENDERED, timeout=20_000)
        charts = watched.page.locator(".chutes-chart").count()
        if "/boards/" in url:
            assert charts == 13, url
        watched.page.wait_for_load_state("networkidle")
    watched.assert_clean()


def test_charts_render_after_instant_navigation(server: str, watched: Watched) -> None:
    page = watched.page
    page.goto(server + "/")
    page.evaluate("window.__sameDocument = true")
    for where, link, path in ((".md-content", "Chutes and Ladders (Milton Bradley, 1943)", "/boards/classic/"),
                              (".md-nav--primary", "Compare boards", "/compare/"),
                              (".md-nav--primary", "A 10-square test board", "/boards/tiny/")):
        page.locator(where).get_by_role("link", name=link).first.click()
        page.wait_for_url(server + path)
        page.wait_for_function(ALL_RENDERED, timeout=20_000)
        assert page.evaluate("window.__sameDocument === true"), "navigation reloaded the page instead of swapping it"
        assert page.locator(".chutes-chart svg.main-svg").count() >= 2
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
    page.locator(".fraction summary").click()
    page.locator(".fraction button[data-md-type='copy']").click()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.strip() == f"{p['numerator']}/{p['denominator']}"
    assert len(copied.strip()) == 4453 * 2 + 1
    watched.assert_clean()


def test_method_page_maths_is_laid_out(server: str, watched: Watched) -> None:
    page = watched.page
    page.goto(server + "/method/")
    sizes = page.evaluate("Array.from(document.querySelectorAll('math')).map(m => m.getBoundingClientRect().width)")
    assert len(sizes) >= 8 and min(sizes) > 5
    watched.assert_clean()


def test_the_calculator_agrees_with_the_command_line(server: str, watched: Watched) -> None:
    page = watched.page
    for slug, squares in (("noordenbos", [14, 60, 31, 26, 48, 48]), ("classic", [0, 99, 47])):
        page.goto(server + f"/boards/{slug}/")
        page.locator("#calculator .calc-count").select_option(str(len(squares)))
        inputs = page.locator("#calculator input.calc-square")
        assert inputs.count() == len(squares)
        for n, square in enumerate(squares):
            inputs.nth(n).fill(str(square))
        page.wait_for_function(f"document.querySelectorAll('#calculator .calc-chance').length === {len(squares)}")
        values = page.eval_on_selector_all("#calculator .calc-chance", "els => els.map(e => e.dataset.value)")
        shown = [float(v) for v in values]
        expected = [float(w["decimal"]) for w in position_chances(chain(slug), squares)]
        assert max(abs(a - b) for a, b in zip(shown, expected)) < 1e-9, (slug, shown, expected)
    inputs.nth(0).fill("48")
    assert "not a square where a turn can start" in page.locator("#calculator .calc-status").inner_text()
    watched.assert_clean()


@pytest.mark.parametrize("path", ["/", "/boards/classic/", "/boards/noordenbos/", "/compare/", "/method/", "/data/"])
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
