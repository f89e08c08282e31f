"""A site built with each engine, MkDocs (the default) and Zensical, from the same records: the same pages, the
same exact numbers in them, the site checks passing, charts drawn and axe content in Chromium."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from test_browser import ALL_RENDERED, _pages

from chutes.site_build.checks import site_problems
from chutes.site_build.engine.engines import zensical_theme_dirs

pytestmark = [pytest.mark.browser]
NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?(?:/\d[\d,]*)?")
"""A number as the pages write it: 0.5078…, 4,453, 6/11."""
ARTICLE = re.compile(r"<article\b.*?</article>", re.S)
TAG = re.compile(r"<[^>]+>")


@pytest.fixture(scope="module")
def zensical_site(engine_sites: dict[str, tuple[Path, str]]) -> tuple[Path, str]:
    return engine_sites["zensical"]


def _numbers(page: Path, address: str) -> Counter[str]:
    """Every number of at least five digits in the page's article (its content, not the theme's frame), the
    site's own address (in the citation) left out."""
    html = page.read_text(encoding="utf-8").replace(address, "")
    text = " ".join(TAG.sub(" ", part) for part in ARTICLE.findall(html))
    return Counter(n for n in NUMBER.findall(text) if sum(c.isdigit() for c in n) >= 5)


def test_both_engines_publish_the_same_pages_with_the_same_numbers(
        engine_sites: dict[str, tuple[Path, str]]) -> None:
    (built_site, mkdocs_address), (site, address) = engine_sites["mkdocs"], engine_sites["zensical"]
    assert _pages(site) == _pages(built_site)
    assert (site / "404.html").is_file() and (site / "sitemap.xml").is_file()
    for page in sorted(built_site.rglob("index.html")):
        rel = page.relative_to(built_site)
        ours = _numbers(page, mkdocs_address)
        assert ours == _numbers(site / rel, address), rel
        if rel.parts[0] == "boards":
            assert len(ours) > 20, rel
    classic = (site / "boards" / "classic" / "index.html").read_text()
    fraction = (built_site / "data" / "classic-first-player.txt").read_text().strip()
    assert fraction.split("/")[0] in classic, "the whole exact fraction is on the page"
    downloads = sorted(p.relative_to(built_site).as_posix() for p in (built_site / "data").iterdir())
    assert downloads == sorted(p.relative_to(site).as_posix() for p in (site / "data").iterdir())


def test_both_engines_publish_the_guide_as_a_tab_of_its_own(engine_sites: dict[str, tuple[Path, str]]) -> None:
    """The guide ("Make your own") is a tab beside the site's own pages in both engines, every page of it built
    from the same Markdown, with the tables generated from the code (the board file's keys, the commands)."""
    from chutes.site_build.guide import PAGES, TAB, page_address
    from chutes.site_build.tree.nav import RESULTS_TAB

    for engine, (site, _) in engine_sites.items():
        for name in PAGES:
            page = site / page_address(name) / "index.html"
            assert page.is_file(), (engine, name)
        for path in ("guide/boards/index.html", "boards/classic/index.html"):
            html = (site / path).read_text(encoding="utf-8")
            tabs = re.findall(r'class="md-tabs__link[^"]*"[^>]*>\s*([^<]+?)\s*<', html)
            assert tabs == [RESULTS_TAB, TAB], (engine, path, tabs)
        keys = (site / "guide" / "boards" / "index.html").read_text(encoding="utf-8")
        assert 'id="roll_again_limit"' in keys and "1,000" in keys, engine
        cli = (site / "guide" / "cli" / "index.html").read_text(encoding="utf-8")
        assert 'id="chutes-experiment-add-jump"' in cli and "--site-url" in cli, engine
        home = (site / "index.html").read_text(encoding="utf-8")
        assert 'href="guide/"' in home or 'href="./guide/"' in home, engine


def test_the_zensical_site_passes_the_site_checks_and_is_searchable(zensical_site: tuple[Path, str]) -> None:
    site, url = zensical_site
    theme = [site.parent / ".cache" / "theme", *zensical_theme_dirs()]
    assert site_problems(site, theme, url + "/") == []
    index = site / "search.json"
    assert index.is_file() and "Chutes and Ladders" in index.read_text()


@pytest.mark.parametrize("path", ["/", "/boards/classic/", "/design/", "/compare/", "/guide/customising/"])
def test_zensical_pages_draw_their_charts_and_axe_finds_nothing_serious(zensical_site: tuple[Path, str],
                                                                        watched, path: str) -> None:
    from axe_playwright_python.sync_playwright import Axe

    _, server = zensical_site
    page = watched.page
    page.goto(server + path)
    page.wait_for_function(ALL_RENDERED, timeout=30_000)
    if path == "/boards/classic/":
        assert page.locator(".chutes-chart").count() == 15  # the classic board: every chart
    results = Axe().run(page)
    serious = [f"{v['id']} ({v['impact']}): {v['help']}" for v in results.response["violations"]
               if v["impact"] in ("serious", "critical")]
    assert serious == []
    watched.assert_clean()


def test_zensical_keeps_dark_mode_and_its_search_dialog(zensical_site: tuple[Path, str], watched) -> None:
    _, server = zensical_site
    page = watched.page
    page.goto(server + "/boards/classic/")
    scheme = page.evaluate("() => document.body.getAttribute('data-md-color-scheme')")
    page.locator("label[for='__palette_1'], label[for='__palette_0']").first.click()
    page.wait_for_function(f"() => document.body.getAttribute('data-md-color-scheme') !== {scheme!r}")
    page.wait_for_function(ALL_RENDERED, timeout=30_000)
    assert page.locator("[role='dialog'][aria-label]").count() >= 1
    watched.assert_clean()


def test_zensical_requests_its_search_index_once_the_reader_opens_the_search(zensical_site: tuple[Path, str],
                                                                           watched) -> None:
    """As with MkDocs (test_browser): no search.json on a first visit; the search button brings it, and the search
    finds pages."""
    _, server = zensical_site
    page = watched.page
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(server + "/")
    page.wait_for_load_state("networkidle")
    assert asked and not [url for url in asked if url.endswith("/search.json")]
    with page.expect_response(lambda response: response.url.endswith("/search.json")):
        page.locator(".md-search__button").click()
    page.locator("dialog[open] input").fill("ladder")  # Zensical's dialog (in its shadow root)
    page.locator("dialog[open] [role='listbox'] > *").first.wait_for(timeout=20_000)
    watched.assert_clean()
