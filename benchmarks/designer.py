"""The "Design a board" page: how long one recomputation takes in the browser (Debian's Chromium).

Usage: python benchmarks/designer.py [SITE_DIR] [REPEATS]   (run `chutes build` first; default: site/ and 200).
Serves the site on 127.0.0.1, opens the design page on the classic board (100 squares) with its length chart
drawn, and times designer.js's recomputation many times: the rules checked, the turn chain, the expected turns
(a linear solve), the game-length distribution, the seats, the board redrawn with its colours, the chart
and the calculator; then the same until the browser has drawn the next frame, and engine.js's mathematics
alone, also on a random 400-square board. Medians are reported; the budget is 0.1 s for 100 squares.
The section between the markers in benchmarks/results.md is replaced (run.py writes the rest of that file).
"""

from __future__ import annotations

import functools
import platform
import random
import statistics
import sys
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results.md"
BEGIN, END = "<!-- designer.py: begin -->", "<!-- designer.py: end -->"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
BUDGET_S = 0.1
CLASSIC = ("?squares=100&die=6&overshoot=stay&start=0&jumps=1-38,4-14,9-31,21-42,28-84,36-44,51-67,71-91,80-100,"
           "16-6,48-26,49-11,56-53,62-19,64-60,87-24,93-73,95-75,98-78")

TIMES = """async (repeats) => {
  const script = [], frame = [];
  for (let i = 0; i < repeats; i++) {
    const began = performance.now();
    chutesDesigner.recompute();
    script.push(performance.now() - began);
    await new Promise(resolve => requestAnimationFrame(() => setTimeout(resolve, 0)));
    frame.push(performance.now() - began);
  }
  return [script, frame];
}"""
ENGINE = """([fields, repeats]) => {
  const board = ChutesEngine.makeBoard(fields), times = [];
  for (let i = 0; i < repeats; i++) {
    const began = performance.now();
    ChutesEngine.analyse(board, 6);
    times.push(performance.now() - began);
  }
  return times;
}"""


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def random_400(seed: int = 400) -> dict[str, object]:
    """A valid-looking random 400-square board, one jump per five squares (checked by the page's rules)."""
    rng = random.Random(seed)
    used: set[int] = set()
    ladders, chutes = [], []
    while len(ladders) + len(chutes) < 80:
        a, b = rng.randint(1, 399), rng.randint(1, 399)
        if a != b and not {a, b} & used:
            used |= {a, b}
            (ladders if b > a else chutes).append([a, b])
    return {"squares": 400, "die": 6, "overshoot": "stay", "roll_again_on": None, "start": 0,
            "ladders": ladders, "chutes": chutes}


def classic_fields() -> dict[str, object]:
    """The classic board as the page's engine takes it, from the address above."""
    jumps = [[int(x) for x in pair.split("-")] for pair in CLASSIC.split("jumps=")[1].split(",")]
    return {"squares": 100, "die": 6, "overshoot": "stay", "roll_again_on": None, "start": 0,
            "ladders": [j for j in jumps if j[1] > j[0]], "chutes": [j for j in jumps if j[1] < j[0]]}


def measure(site: Path, repeats: int) -> dict[str, float]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_FLAGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(base + "/design/" + CLASSIC)
            page.wait_for_function("document.querySelector('#designer').dataset.state === 'ready'")
            page.locator("#chart-design-length").scroll_into_view_if_needed()
            page.wait_for_function("document.querySelector('#chart-design-length').dataset.rendered === 'done'")
            page.evaluate(TIMES, 10)  # warm up the compiler
            script, frame = page.evaluate(TIMES, repeats)
            page.evaluate(ENGINE, [classic_fields(), 10])
            engine = page.evaluate(ENGINE, [classic_fields(), repeats])
            big = random_400()
            problems = page.evaluate("f => ChutesEngine.problems(ChutesEngine.makeBoard(f))", big)
            big_times = page.evaluate(ENGINE, [big, max(10, repeats // 10)]) if not problems else []
            browser.close()
    finally:
        httpd.shutdown()
    return {"script_ms": statistics.median(script), "frame_ms": statistics.median(frame),
            "engine_ms": statistics.median(engine),
            "engine_400_ms": statistics.median(big_times) if big_times else float("nan"),
            "repeats": repeats}


def section(r: dict[str, float]) -> str:
    held = "yes" if r["frame_ms"] / 1000 <= BUDGET_S else "**no**"
    return "\n".join([
        BEGIN,
        "",
        f"The \"Design a board\" page in Debian's Chromium (`python benchmarks/designer.py`, {platform.machine()}, "
        f"run {time.strftime('%Y-%m-%d')}; medians of {r['repeats']} recomputations):",
        "",
        "| what | budget | measured | held |",
        "|---|---|---|---|",
        f"| one recomputation, classic board (100 squares): rules, chain, results, board, chart, calculator, "
        f"until the next frame is drawn | ≤ {BUDGET_S * 1000:.0f} ms | {r['frame_ms']:.1f} ms | {held} |",
        f"| the same, the page's script alone | — | {r['script_ms']:.1f} ms | — |",
        f"| the mathematics alone (engine.js: chain, expected turns, distribution, seats for 2 to 6) | — | "
        f"{r['engine_ms']:.1f} ms | — |",
        f"| the mathematics alone, a random 400-square board | — | {r['engine_400_ms']:.1f} ms | — |",
        "",
        END,
    ])


def write(text: str) -> None:
    old = RESULTS.read_text() if RESULTS.exists() else ""
    if BEGIN in old and END in old:
        new = old[:old.index(BEGIN)] + text + old[old.index(END) + len(END):]
    else:
        new = old.rstrip("\n") + "\n\n" + text + "\n"
    RESULTS.write_text(new)


def main() -> None:
    site = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "site"
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    if not (site / "design" / "index.html").is_file():
        sys.exit(f"designer: error: {site}/design/index.html not found; run 'chutes build' first")
    text = section(measure(site, repeats))
    write(text)
    print(text)


if __name__ == "__main__":
    main()
