"""A board with a choice (the coin) against the same board without it, side by side in one run: the whole record's
CPU seconds (budget: at most 2×), `chutes solve --json` as a whole process (budget: at most 3×), the parts the
choice adds, and the two-player games of random coin boards from 100 to 400 squares (budget: 200 squares within
the cost model's 120 s). Writes its section of benchmarks/results.md.

Usage: python benchmarks/choice.py [--runs N]
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from sections import write_table

from chutes.compute.board.cost import BUDGET_SECONDS, estimated_seconds
from chutes.compute.board.file import board_from_mapping, load_board
from chutes.compute.record.build import board_experiments, board_record
from chutes.compute.solve import duel, strategy
from chutes.compute.solve.chain import turn_chain

HERE = Path(__file__).resolve().parent
BOARDS = HERE.parent / "site_src" / "boards"


def _cpu(work) -> float:
    started = time.process_time()
    work()
    return time.process_time() - started


def _fresh_record(slug: str) -> float:
    """CPU seconds of one board's whole record, every cache emptied first (experiments included)."""
    turn_chain.cache_clear()
    strategy.best_play.cache_clear()
    board = load_board(BOARDS / f"{slug}.toml")
    return _cpu(lambda: board_record(board, board_experiments(board)))


def random_coin_board(squares: int = 1000, seed: int = 7, jumps: int | None = None):
    """A random board of `squares` squares with the coin: a tenth of them the foot of a jump, or `jumps` ladders and
    `jumps` chutes."""
    rng = random.Random(seed)
    if jumps is not None:
        ends = iter(rng.sample(range(2, squares - 1), 4 * jumps))
        pairs = [sorted((next(ends), next(ends))) for _ in range(2 * jumps)]
        return board_from_mapping({"squares": squares, "die": 6, "choice": "coin", "ladders": pairs[:jumps],
                                   "chutes": [[high, low] for low, high in pairs[jumps:]]}, "random-coin",
                                  "random-coin")
    feet = rng.sample(range(2, squares - 1), squares // 10)
    used, ladders, chutes = set(feet), [], []
    for foot in feet:
        head = next(h for h in iter(lambda: rng.randint(1, squares - 1), None) if h != foot and h not in used)
        used.add(head)
        (ladders if head > foot else chutes).append([foot, head])
    return board_from_mapping({"squares": squares, "die": 6, "choice": "coin", "ladders": ladders,
                               "chutes": chutes}, "random-coin", "random-coin")


def _process(slug: str) -> float:
    """CPU seconds of `chutes solve SLUG --json` in a process of its own (the child's user + system time)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "chutes", "solve", slug, "--json"], check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def _duels(squares: int) -> tuple[int, float, float, float]:
    """A random coin board of `squares` squares, 10 ladders and 10 chutes: the squares a roll is made from, each
    duel's CPU seconds, and the cost model's estimate of the whole solve."""
    board = random_coin_board(squares, seed=1, jumps=10)
    play = strategy.best_play(board)
    box = _cpu(lambda: duel.best_against_box(play.options, play.flips))
    both = _cpu(lambda: duel.both_maximise(play.options, play.flips))
    return len(play.options.squares), box, both, estimated_seconds(play.board)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each record, interleaved (default 3)")
    parser.add_argument("--sizes", default="100,200,300,400", help="random boards' squares for the duels")
    args = parser.parse_args()
    runs = args.runs
    _fresh_record("classic-coin")  # compile and import once before timing
    plain, coin, plain_process, coin_process = [], [], [], []
    for _ in range(runs):
        plain.append(_fresh_record("classic"))
        coin.append(_fresh_record("classic-coin"))
        plain_process.append(_process("classic"))
        coin_process.append(_process("classic-coin"))
    opts = strategy.best_play(load_board(BOARDS / "classic-coin.toml")).options
    strategy.best_play.cache_clear()
    found = strategy.best_play(load_board(BOARDS / "classic-coin.toml"))
    strategy.best_play.cache_clear()
    parts = {"the best play": _cpu(lambda: strategy.best_play(load_board(BOARDS / "classic-coin.toml"))),
             "best against the box rules": _cpu(lambda: duel.best_against_box(opts, found.flips)),
             "both maximise": _cpu(lambda: duel.both_maximise(opts, found.flips))}
    p, c = statistics.median(plain), statistics.median(coin)
    pp, cp = statistics.median(plain_process), statistics.median(coin_process)
    rows = [f"| classic, whole record | {p:.2f} s | — |",
            f"| classic-coin, whole record | {c:.2f} s | {c / p:.2f}× (budget 2×) |",
            f"| `chutes solve classic --json`, whole process | {pp:.2f} s | — |",
            f"| `chutes solve classic-coin --json`, whole process | {cp:.2f} s | {cp / pp:.2f}× (budget 3×) |",
            *(f"| classic-coin: {name} | {seconds:.2f} s | — |" for name, seconds in parts.items())]
    for squares in (int(x) for x in args.sizes.split(",")):
        d, box, both, estimate = _duels(squares)
        budget = f" (budget {BUDGET_SECONDS:.0f} s)" if squares == 200 else ""
        rows.append(f"| random {squares}-square coin board (10 ladders, 10 chutes; d = {d}): both duels, certified "
                    f"to {duel.CERTIFIED_DIGITS} decimals | {box + both:.1f} s ({box:.1f} + {both:.1f}){budget} | "
                    f"cost model {estimate:.0f} s for the whole solve |")
    big = random_coin_board()
    estimate, _ = estimated_seconds(big)
    rows.append(f"| random 1,000-square board with the coin (seed 7) | refused | cost model {estimate:,.0f} s (limit "
                f"{BUDGET_SECONDS:.0f} s) |")
    print(write_table(HERE / "results.md", "<!-- choice.py: begin -->", "<!-- choice.py: end -->",
                      f"## A board with a choice\n\n`python benchmarks/choice.py --runs {runs}`: CPU seconds, medians "
                      f"of {runs} interleaved runs, every cache emptied before each; a whole process is the child's "
                      "CPU time. The experiments are left out of a board with a choice (they are made for the box "
                      "rules), the best play and its two-player games come in, at every size (d squares a roll is "
                      "made from: 2d² states). The duels grow like d³ (the Stein preconditioner's d × d products); "
                      "the cost model refuses a board whose estimate passes the limit. The cost model estimates a "
                      "board with a choice from the best play's chain (found first: seconds at most).",
                      ["what", "CPU", "ratio"], rows))


if __name__ == "__main__":
    main()
