"""How the cost of several players grows with their number: `chutes solve --players n` for n = 2 to 20, side by side.

Usage: python benchmarks/players.py [REPEATS]   (default 3, interleaved so that every count sees the same machine).
For the classic board and the bundled board with the longest games (noordenbos, 84 turn states, 62 turns on
average), CPU seconds of this process for the command's work once the board's turn chain is built: n players
starting together (`compute.solve.races.race`, and for two the exact fraction as well), and n players on n
different squares (`--positions`, the calculator's question: one row of the ball matrix per square). Then the
record's races of 2 to 20 players beside those of 2 to 8 (what every board's computation now adds), and a
random 1,000-square board (`benchmarks/run.py`'s, seed 4, the largest accepted) starting together, run once.
Medians; the section between the markers in benchmarks/results.md is replaced (run.py writes the rest).
"""

from __future__ import annotations

import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from run import random_board  # noqa: E402
from sections import write_section  # noqa: E402

from chutes.compute.board.file import load_board  # noqa: E402
from chutes.compute.board.model import Board  # noqa: E402
from chutes.compute.solve.chain import TurnChain, safe_squares, turn_chain  # noqa: E402
from chutes.compute.solve.races import position_chances, race, races_together  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results.md"
BEGIN, END = "<!-- players.py: begin -->", "<!-- players.py: end -->"
COUNTS = (2, 4, 8, 12, 16, 20)
BUNDLED = ("classic", "noordenbos")


def cpu(work: Callable[[], object]) -> float:
    """CPU seconds of this process for one call."""
    started = time.process_time()
    work()
    return time.process_time() - started


def command(chain: TurnChain, squares: list[int]) -> Callable[[], object]:
    """What `chutes solve --players` / `--positions` computes once it has the chain (`Result._race` in
    chutes/_api/results.py)."""
    return lambda: position_chances(chain, squares, result=race(chain, squares))


def spread(board: Board, n: int) -> list[int]:
    """n different squares where a turn can start, evenly spaced over the board."""
    safe = safe_squares(board)
    return [safe[round(j * (len(safe) - 1) / (n - 1))] for j in range(n)]


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    chains = {slug: turn_chain(load_board(ROOT / "site_src" / "boards" / f"{slug}.toml")) for slug in BUNDLED}
    jobs: dict[tuple[str, str, int], Callable[[], object]] = {}
    for slug, chain in chains.items():
        start = chain.board.start
        for n in COUNTS:
            jobs[slug, "together", n] = command(chain, [start] * n)
            jobs[slug, "apart", n] = command(chain, spread(chain.board, n))
        for most in (8, 20):
            jobs[slug, "record", most] = lambda c=chain, m=most: races_together(c, c.board.start, list(range(2, m + 1)))
    times: dict[tuple[str, str, int], list[float]] = {key: [] for key in jobs}
    for _ in range(repeats):
        for key, job in jobs.items():
            times[key].append(cpu(job))
    med = {key: statistics.median(t) for key, t in times.items()}
    big = turn_chain(random_board(1000, 4))
    large = {n: cpu(command(big, [big.board.start] * n)) for n in COUNTS}
    record_big = {most: cpu(lambda m=most: races_together(big, big.board.start, list(range(2, m + 1))))
                  for most in (8, 20)}

    def row(name: str, values: list[float]) -> str:
        return f"| {name} | " + " | ".join(f"{v:.3f} s" if v < 1 else f"{v:.1f} s" for v in values) + " |"

    header = "| players | " + " | ".join(str(n) for n in COUNTS) + " |"
    rule = "|---|" + "---|" * len(COUNTS)
    rows = []
    for slug, chain in chains.items():
        rows.append(row(f"{slug} (d = {chain.size}), starting together", [med[slug, "together", n] for n in COUNTS]))
        rows.append(row(f"{slug}, on n different squares", [med[slug, "apart", n] for n in COUNTS]))
    rows.append(row(f"random 1,000 squares (d = {big.size}), starting together, once", [large[n] for n in COUNTS]))
    record_rows = [f"| {slug} | {med[slug, 'record', 8]:.3f} s | {med[slug, 'record', 20]:.3f} s |" for slug in chains]
    record_rows.append(f"| random 1,000 squares, once | {record_big[8]:.1f} s | {record_big[20]:.1f} s |")
    text = "\n".join([
        BEGIN, "",
        f"Players (`python benchmarks/players.py`, {platform.machine()}, run {time.strftime('%Y-%m-%d')}): CPU "
        f"seconds of `chutes solve --players n` (or `--positions` with n different squares) once the turn chain is "
        f"built, 35 certified digits; medians of {repeats} interleaved runs (for two players the exact fraction "
        f"too):", "", header, rule, *rows, "",
        "Every board's record: the races of 2 to 8 players starting together against 2 to 20, CPU:", "",
        "| board | 2 to 8 | 2 to 20 |", "|---|---|---|", *record_rows, "",
        END])
    write_section(RESULTS, BEGIN, END, text)
    print(text)


if __name__ == "__main__":
    main()
