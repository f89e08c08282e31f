"""The "Design a board" page: how long one recomputation takes in the browser (Debian's Chromium).

Usage: python benchmarks/designer.py [SITE_DIR] [REPEATS]   (run `chutes build` first; default: site/ and 200).
Serves the site on 127.0.0.1, opens the design page on the classic board (100 squares) with its length chart
drawn, and times designer.js's recomputation many times: the rules checked, the turn chain, the expected turns
(a linear solve), the game-length distribution, the seats, the board redrawn with its colours, the chart
and the calculator; then the same until the browser has drawn the next frame, and engine.js's mathematics
alone. The same on random valid boards of 400 and 1,000 squares (the largest a board file may have).
Medians are reported; the budgets are 0.1 s for 100 squares and 0.3 s for 1,000.
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

from playwright.sync_api import Page, sync_playwright
from sections import write_section

from chutes.compute.board.limits import MAX_SQUARES
from chutes.compute.board.model import Board

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results.md"
BEGIN, END = "<!-- designer.py: begin -->", "<!-- designer.py: end -->"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
BUDGET_S = 0.1
LARGE_BUDGET_S = 0.3  # the largest board a board file may have
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


def random_board(squares: int, seed: int) -> Board:
    """A random valid board, one jump per five squares, die 6 (checked by the board file's own rules)."""
    rng = random.Random(seed)
    used: set[int] = set()
    ladders, chutes = [], []
    while len(ladders) + len(chutes) < squares // 5:
        a, b = rng.randint(1, squares - 1), rng.randint(0, squares)
        if a != b and not {a, b} & used:
            used |= {a, b}
            (ladders if b > a else chutes).append((a, b))
    return Board(title=f"random {squares}", squares=squares, die=6, ladders=tuple(ladders), chutes=tuple(chutes))


def address(b: Board) -> str:
    """The design page's address for a board."""
    jumps = ",".join(f"{a}-{c}" for a, c in (*b.ladders, *b.chutes))
    return f"?squares={b.squares}&die={b.die}&overshoot={b.overshoot}&start={b.start}&jumps={jumps}"


def fields(b: Board) -> dict[str, object]:
    """A board as the page's engine takes it."""
    return {"squares": b.squares, "die": b.die, "overshoot": b.overshoot, "roll_again_on": b.roll_again_on,
            "start": b.start, "ladders": [list(j) for j in b.ladders], "chutes": [list(j) for j in b.chutes]}


def classic() -> Board:
    """The classic board, from the address above."""
    jumps = [tuple(int(x) for x in pair.split("-")) for pair in CLASSIC.split("jumps=")[1].split(",")]
    return Board(title="classic", squares=100, die=6, ladders=tuple(j for j in jumps if j[1] > j[0]),
                 chutes=tuple(j for j in jumps if j[1] < j[0]))


def one_board(page: Page, base: str, b: Board, repeats: int) -> dict[str, float]:
    """Medians for one board: the page's recomputation (script alone, and until the next frame is drawn) with
    the length chart on screen, and engine.js's mathematics alone."""
    page.goto(base + "/design/" + address(b))
    page.wait_for_function("document.querySelector('#designer').dataset.state === 'ready'")
    page.locator("#chart-design-length").scroll_into_view_if_needed()
    page.wait_for_function("document.querySelector('#chart-design-length').dataset.rendered === 'done'")
    warm = max(3, repeats // 20)
    page.evaluate(TIMES, warm)  # warm up the compiler
    script, frame = page.evaluate(TIMES, repeats)
    page.evaluate(ENGINE, [fields(b), warm])
    engine = page.evaluate(ENGINE, [fields(b), repeats])
    return {"script_ms": statistics.median(script), "frame_ms": statistics.median(frame),
            "engine_ms": statistics.median(engine), "repeats": repeats}


def measure(site: Path, repeats: int) -> dict[str, dict[str, float]]:
    """The classic board, then random boards of 400 and MAX_SQUARES squares (a tenth of the repeats)."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    boards = {"classic": (classic(), repeats)}
    boards.update({str(n): (random_board(n, seed=n), max(10, repeats // 10)) for n in (400, MAX_SQUARES)})
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_FLAGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            out = {name: one_board(page, base, b, n) for name, (b, n) in boards.items()}
            browser.close()
    finally:
        httpd.shutdown()
    return out


def held(ms: float, budget_s: float) -> str:
    """The table's "held" column."""
    return "yes" if ms / 1000 <= budget_s else "**no**"


def section(r: dict[str, dict[str, float]]) -> str:
    c, large = r["classic"], r[str(MAX_SQUARES)]
    rows = [
        f"| one recomputation, classic board (100 squares): rules, chain, results, board, chart, calculator, "
        f"until the next frame is drawn | ≤ {BUDGET_S * 1000:.0f} ms | {c['frame_ms']:.1f} ms | "
        f"{held(c['frame_ms'], BUDGET_S)} |",
        f"| the same, the page's script alone | — | {c['script_ms']:.1f} ms | — |",
        f"| the mathematics alone (engine.js: chain, expected turns, distribution, seats for 2 to 6) | — | "
        f"{c['engine_ms']:.1f} ms | — |",
        f"| one recomputation, a random 400-square board, until the next frame | — | "
        f"{r['400']['frame_ms']:.1f} ms | — |",
        f"| the mathematics alone, the same board | — | {r['400']['engine_ms']:.1f} ms | — |",
        f"| one recomputation, a random {MAX_SQUARES:,}-square board (the largest allowed), until the next frame | "
        f"≤ {LARGE_BUDGET_S * 1000:.0f} ms | {large['frame_ms']:.1f} ms | {held(large['frame_ms'], LARGE_BUDGET_S)} |",
        f"| the same, the page's script alone | — | {large['script_ms']:.1f} ms | — |",
        f"| the mathematics alone, the same board | — | {large['engine_ms']:.1f} ms | — |",
    ]
    return "\n".join([
        BEGIN,
        "",
        f"The \"Design a board\" page in Debian's Chromium (`python benchmarks/designer.py`, {platform.machine()}, "
        f"run {time.strftime('%Y-%m-%d')}; medians of {c['repeats']} recomputations of the classic board and "
        f"{large['repeats']} of each random board, one jump per five squares):",
        "",
        "| what | budget | measured | held |",
        "|---|---|---|---|",
        *rows,
        "",
        END,
    ])


def main() -> None:
    site = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "site"
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    if not (site / "design" / "index.html").is_file():
        sys.exit(f"designer: error: {site}/design/index.html not found; run 'chutes build' first")
    text = section(measure(site, repeats))
    write_section(RESULTS, BEGIN, END, text)
    print(text)


if __name__ == "__main__":
    main()
