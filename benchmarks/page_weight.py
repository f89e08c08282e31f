"""First-visit page weight: every byte a browser fetches for a page, with an empty cache, uncompressed.

Usage: python benchmarks/page_weight.py [SITE_DIR] [PATH ...]   (run `chutes build` first; default: site/ and
the home page, the lightest and the heaviest board pages, compare and data). Serves the site on 127.0.0.1,
opens each page in a fresh browser profile (Debian's Chromium), waits until the network is idle, scrolls to the
bottom (charts are drawn once the reader scrolls, those near the view), and adds up the bodies of all responses;
then opens the search (the key "/") and counts apart what that brings: the language's search index, which a
page requests only then, and its lunr scripts. The budgets (tests/test_browser.py checks them), on a first
visit: home page ≤ 0.5 MB, any board page ≤ 3 MB.
"""

from __future__ import annotations

import functools
import re
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
BUDGETS = {"home": 500_000, "board": 3_000_000}
SEARCH = re.compile(r"/search/search_index\.json$|/assets/javascripts/lunr/")
"""The search's own requests: the index, and the language's lunr scripts that the search worker then loads."""
PATHS = ["/", "/boards/tiny/", "/boards/classic/", "/boards/uk/", "/boards/noordenbos/", "/compare/", "/data/"]


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def first_visit(browser: Browser, url: str) -> tuple[dict[str, int], dict[str, int]]:
    """Bytes of every response (by URL) when `url` is opened in a fresh profile and scrolled to its end, and apart
    what opening the search then brings (`SEARCH`)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    sizes: dict[str, int] = {}

    def record(response) -> None:
        try:
            sizes[response.url] = sizes.get(response.url, 0) + len(response.body())
        except Exception:  # a redirect or an aborted request has no body
            pass

    page.on("response", record)
    page.goto(url)
    page.wait_for_load_state("networkidle")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    # the charts near the end are drawn after the scroll, plotly.js fetched for them (networkidle was before it)
    page.wait_for_function("!document.querySelector('.chutes-chart')"
                           " || document.querySelector('.chutes-chart[data-rendered=\"done\"]')")
    assert not [u for u in sizes if SEARCH.search(u)], "the search's files before the search was opened"
    meta = ".md-search-result__meta"
    before = page.locator(meta).text_content()  # "Initializing search", in the page's language
    with page.expect_response(lambda response: "/search/search_index.json" in response.url):
        page.keyboard.press("/")
    # the search is ready (its worker has loaded the language's scripts and the index) once its words change
    page.wait_for_function("([meta, before]) => document.querySelector(meta).textContent !== before",
                           arg=[meta, before])
    context.close()
    return ({u: n for u, n in sizes.items() if not SEARCH.search(u)},
            {u: n for u, n in sizes.items() if SEARCH.search(u)})


def main() -> None:
    site = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "site"
    paths = sys.argv[2:] or [p for p in PATHS if (site / p.strip("/") / "index.html").is_file()]
    if not (site / "index.html").is_file():
        sys.exit(f"page_weight: error: {site}/index.html not found; run 'chutes build' first")
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    print("| page | first visit (bytes) | MB | budget (MB) | requests | largest | the search opened, on top (bytes) |\n"
          "|---|---:|---:|---:|---:|---|---:|")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_FLAGS)
        for path in paths:
            sizes, searched = first_visit(browser, base + path)
            largest = max(sizes, key=sizes.get)
            total = sum(sizes.values())
            rel = re.sub(r"^/[a-z]{2}/", "/", path)  # a language's folder
            budget = BUDGETS["home"] if rel == "/" else BUDGETS["board"] if rel.startswith("/boards/") else None
            print(f"| {path} | {total:,} | {total / 1e6:.2f} | {budget / 1e6 if budget else '—'} | {len(sizes)} | "
                  f"{largest[len(base):]} ({sizes[largest] / 1e6:.2f} MB) | {sum(searched.values()):,} |")
        browser.close()
    httpd.shutdown()


if __name__ == "__main__":
    main()
