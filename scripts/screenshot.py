"""Take the README's screenshot of a board page from the built site (run `chutes build` first).

Usage: python scripts/screenshot.py [SLUG]   → readme/board-page.png, using Debian's Chromium.
"""

from __future__ import annotations

import functools
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent  # this repository (the reference site), not the package


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def main() -> None:
    slug = sys.argv[1] if len(sys.argv) > 1 else "classic"
    site = ROOT / "site"
    if not (site / "boards" / slug / "index.html").exists():
        sys.exit(f"screenshot: error: site/boards/{slug}/index.html not found; run 'chutes build' first")
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    out = ROOT / "readme" / "board-page.png"
    out.parent.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                    args=["--headless", "--no-sandbox", "--disable-gpu",
                                          "--disable-background-networking"])
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        page.goto(f"http://127.0.0.1:{httpd.server_address[1]}/boards/{slug}/")
        page.wait_for_function("() => window.chutesCharts !== undefined")
        page.evaluate("() => window.chutesCharts.render()")  # charts are otherwise drawn when scrolled to
        page.wait_for_function("Array.from(document.querySelectorAll('.chutes-chart'))"
                               ".every(e => e.dataset.rendered === 'done')")
        page.screenshot(path=str(out))
        browser.close()
    httpd.shutdown()
    print(f"wrote {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
