"""The classic board's whole exact solve under each house rule, beside the plain board, in one run.

Usage: python benchmarks/house_rules.py [REPEATS]   (default 5, interleaved so that every rule sees the same
machine). One solve is a fresh process's work for one board: the turn chain, the expected turns from every
square, the exact game-length distribution and the first player's exact fraction (what `chutes solve` prints),
timed as CPU seconds of this process (the classic board's solve runs in it alone), after a garbage collection;
medians are reported with their ratio to the plain board's. Then, once the classic board's rules are done (a
large solve just before a small one slows the small one: the plain board, timed first in each round, used to
come right after them), a 1,000-square board with two dice beside the same board with one die, timed by the
clock: there the first player's fraction shares its primes with a second process, and the budget is
`chutes solve`'s time.
The section between the markers in benchmarks/results.md is replaced (run.py writes the rest of that file).
"""

from __future__ import annotations

import gc
import platform
import statistics
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from run import random_board  # noqa: E402
from sections import write_section  # noqa: E402

from chutes.compute.board.file import board_from_mapping  # noqa: E402
from chutes.compute.board.model import Board  # noqa: E402
from chutes.compute.record.results import solve  # noqa: E402
from chutes.compute.solve.chain import turn_chain  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results.md"
BEGIN, END = "<!-- house_rules.py: begin -->", "<!-- house_rules.py: end -->"
RULES = {
    "plain (the box rules)": {},
    "a six to enter": {"enter_on": [6]},
    "a six rolls again": {"roll_again_on": 6},
    "a six rolls again, a third undoes the turn": {"roll_again_on": 6, "roll_again_limit": 2},
    "a six rolls again, a third sends you home": {"roll_again_on": 6, "roll_again_limit": 2,
                                                  "roll_again_penalty": "start"},
    "two dice, passing 100 wins": {"dice": 2, "overshoot": "pass"},
    "weighted spinner 1:2:3:4:5:6": {"weights": [1, 2, 3, 4, 5, 6]},
    "family: six to enter, three sixes undo": {"enter_on": [6], "roll_again_on": 6, "roll_again_limit": 2},
}


def time_of_solve(board: Board) -> tuple[float, float]:
    """CPU seconds of this process and seconds by the clock of the whole exact solve of a board not solved
    before in this process."""
    turn_chain.cache_clear()
    gc.collect()
    cpu, clock = time.process_time(), time.perf_counter()
    solve(turn_chain(board))
    return time.process_time() - cpu, time.perf_counter() - clock


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    classic = tomllib.loads((ROOT / "site_src" / "boards" / "classic.toml").read_text())
    boards = {name: board_from_mapping({**classic, **rules}, f"{name}.toml") for name, rules in RULES.items()}
    big = random_board(1000, 4).fields()
    large = {"one die, 1,000 squares": Board(**{**big, "overshoot": "pass"}),
             "two dice, 1,000 squares": Board(**{**big, "overshoot": "pass", "dice": 2})}
    times: dict[str, list[float]] = {name: [] for name in [*boards, *large]}
    for group in (boards, large):
        for _ in range(repeats if group is boards else min(repeats, 3)):
            for name, board in group.items():
                cpu, clock = time_of_solve(board)
                times[name].append(clock if name in large else cpu)
    med = {name: statistics.median(t) for name, t in times.items()}
    plain = med["plain (the box rules)"]
    rows = [f"| {name} | {med[name]:.2f} s | {med[name] / plain:.2f}× |" for name in boards]
    one = med["one die, 1,000 squares"]
    big_rows = [f"| {name} | {med[name]:.1f} s | {med[name] / one:.2f}× |" for name in large]
    text = "\n".join([
        BEGIN, "",
        f"House rules (`python benchmarks/house_rules.py`, {platform.machine()}, run {time.strftime('%Y-%m-%d')}): "
        f"the classic board's whole exact solve (chain, expected turns, length distribution, the first player's "
        f"fraction, and the landing chances `chutes solve` also prints), CPU seconds, medians of {repeats} "
        f"interleaved runs (these boards alone, each after a garbage collection); target at most 2× the plain "
        f"board:", "",
        "| rules | CPU | ÷ plain |", "|---|---|---|", *rows, "",
        "A random 1,000-square board (`benchmarks/run.py`'s, seed 4, reaching or passing the end wins), the whole "
        f"solve by the clock, medians of {min(repeats, 3)} interleaved runs after the classic board's (budget "
        f"90 s):", "",
        "| dice | seconds | ÷ one die |", "|---|---|---|", *big_rows, "",
        END])
    write_section(RESULTS, BEGIN, END, text)
    print(text)


if __name__ == "__main__":
    main()
