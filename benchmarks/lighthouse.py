"""Lighthouse scores of the built site's pages, as a phone sees them, served compressed as GitHub Pages serves it.

Usage: python benchmarks/lighthouse.py [--runs N] [SITE_DIR] [PATH ...]   (run `chutes build` first; N defaults to
3; default paths: the home page, three board pages, the comparison, the House rules page, the literature, the
design page and the method). Lighthouse is pinned in benchmarks/lighthouse/package.json and its lock file;
`npm ci` there installs it (this script runs it when node_modules is missing). Each page is audited N times by
Lighthouse's default mobile form factor (a mid-range phone, simulated slow 4G and a 4× slower CPU) in Debian's
Chromium, from a local server that sends text gzip-compressed; the medians of the performance and
accessibility scores, the total blocking time and the time to interactive are reported. The budgets (issue
"Board pages as quick as the home page on a phone"): performance ≥ 90 on every page and ≥ 95 on the home page,
accessibility 100 everywhere.
The section between the markers in benchmarks/results.md is replaced (run.py writes the rest of that file).
"""

from __future__ import annotations

import argparse
import functools
import gzip
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from sections import write_table  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results.md"
BEGIN, END = "<!-- lighthouse.py: begin -->", "<!-- lighthouse.py: end -->"
TOOL = ROOT / "benchmarks" / "lighthouse"
CHROMIUM = "/usr/bin/chromium"
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run " \
               "--disable-background-networking --disable-component-update --disable-sync"
PATHS = ["/", "/boards/classic/", "/boards/noordenbos/", "/boards/classic-family/", "/compare/", "/house-rules/",
         "/literature/", "/design/", "/method/"]
COMPRESSED = {".html", ".js", ".css", ".json", ".svg", ".xml", ".txt", ".map"}
"""What GitHub Pages sends gzip-compressed (text); images and fonts go as they are."""
BUDGET_PERFORMANCE, BUDGET_HOME, BUDGET_ACCESSIBILITY = 90, 95, 100


class _Compressing(SimpleHTTPRequestHandler):
    """A static server that sends text gzip-compressed to a client that accepts it, as GitHub Pages does."""

    def log_message(self, format: str, *args: object) -> None:
        pass

    def send_head(self):  # type: ignore[override]
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if (path.suffix not in COMPRESSED or "gzip" not in self.headers.get("Accept-Encoding", "")
                or not path.is_file() or not self.path.split("?")[0].endswith(("/", path.name))):
            return super().send_head()
        body = _gzipped(path)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return _Body(body)


class _Body:
    """The bytes of a compressed file, as the file object `send_head` returns."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def read(self, *_: object) -> bytes:
        data, self.data = self.data, b""
        return data

    def close(self) -> None:
        pass


@functools.cache
def _gzipped(path: Path) -> bytes:
    return gzip.compress(path.read_bytes(), compresslevel=6)


def _installed() -> Path:
    """The pinned Lighthouse's command, installed by `npm ci` if missing."""
    command = TOOL / "node_modules" / ".bin" / "lighthouse"
    if not command.exists():
        if shutil.which("npm") is None:
            sys.exit("lighthouse: error: npm not found (Lighthouse 12 runs on Node.js 18.20 or newer)")
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=TOOL, check=True)
    return command


def audit(command: Path, url: str) -> dict[str, float]:
    """One Lighthouse run of `url` (mobile form factor): scores out of 100 and times in milliseconds."""
    done = subprocess.run([str(command), url, "--output=json", "--output-path=stdout", "--quiet",
                           "--only-categories=performance,accessibility", f"--chrome-flags={CHROME_FLAGS}"],
                          capture_output=True, text=True, env={**os.environ, "CHROME_PATH": CHROMIUM},
                          timeout=300)
    if done.returncode:
        raise RuntimeError(f"lighthouse failed on {url}: {done.stderr.strip()[-500:]}")
    report = json.loads(done.stdout)
    categories, audits = report["categories"], report["audits"]
    return {"performance": round(100 * categories["performance"]["score"]),
            "accessibility": round(100 * categories["accessibility"]["score"]),
            "blocking": audits["total-blocking-time"]["numericValue"],
            "interactive": audits["interactive"]["numericValue"],
            "contentful": audits["largest-contentful-paint"]["numericValue"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("site", nargs="?", type=Path, default=ROOT / "site")
    parser.add_argument("paths", nargs="*")
    args = parser.parse_args()
    if not (args.site / "index.html").is_file():
        sys.exit(f"lighthouse: error: {args.site}/index.html not found; run 'chutes build' first")
    paths = args.paths or [p for p in PATHS if (args.site / p.strip("/") / "index.html").is_file()]
    command = _installed()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Compressing, directory=str(args.site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    runs: dict[str, list[dict[str, float]]] = {path: [] for path in paths}
    for n in range(args.runs):
        for path in paths:  # interleaved: every page sees the same machine over the runs
            runs[path].append(audit(command, base + path))
            print(f"run {n + 1}/{args.runs} {path}: {runs[path][-1]}", flush=True)
    httpd.shutdown()
    rows = []
    for path, results in runs.items():
        median = {key: statistics.median(r[key] for r in results) for key in results[0]}
        least = BUDGET_HOME if path == "/" else BUDGET_PERFORMANCE
        within = "yes" if median["performance"] >= least and median["accessibility"] >= BUDGET_ACCESSIBILITY else "no"
        rows.append(f"| `{path}` | {median['performance']:.0f} ({min(r['performance'] for r in results):.0f}–"
                    f"{max(r['performance'] for r in results):.0f}) | {median['accessibility']:.0f} | "
                    f"{median['blocking']:,.0f} ms | {median['interactive'] / 1000:.1f} s | "
                    f"{median['contentful'] / 1000:.1f} s | {within} |")
    version = json.loads((TOOL / "node_modules" / "lighthouse" / "package.json").read_text())["version"]
    intro = (
        f"Lighthouse {version} (`python benchmarks/lighthouse.py`, {platform.machine()}, run "
        f"{time.strftime('%Y-%m-%d')}): each page {args.runs} times, interleaved, mobile form factor (simulated "
        f"slow 4G, 4× CPU slowdown) in Debian's Chromium, the site served gzip-compressed; medians (performance: "
        f"lowest–highest). Budgets: performance ≥ {BUDGET_PERFORMANCE} (home ≥ {BUDGET_HOME}), accessibility "
        f"{BUDGET_ACCESSIBILITY}.")
    columns = ["page", "performance", "accessibility", "total blocking time", "interactive", "largest paint",
               "within"]
    print(write_table(RESULTS, BEGIN, END, intro, columns, rows))


if __name__ == "__main__":
    main()
