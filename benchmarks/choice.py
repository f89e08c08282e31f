"""A board with a choice (the coin) against the same board without it, side by side in one run: the whole record's
CPU seconds (budget: at most 2×), the parts the choice adds, and a random 1,000-square board with the coin
(budget: within the cost model's 120 s). Writes its section of benchmarks/results.md.

Usage: python benchmarks/choice.py [--runs N]
"""

from __future__ import annotations

import argparse
import random
import statistics
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


def random_coin_board(squares: int = 1000, seed: int = 7):
    """A random board of `squares` squares with a tenth of them the foot of a jump, and the coin."""
    rng = random.Random(seed)
    feet = rng.sample(range(2, squares - 1), squares // 10)
    used, ladders, chutes = set(feet), [], []
    for foot in feet:
        head = next(h for h in iter(lambda: rng.randint(1, squares - 1), None) if h != foot and h not in used)
        used.add(head)
        (ladders if head > foot else chutes).append([foot, head])
    return board_from_mapping({"squares": squares, "die": 6, "choice": "coin", "ladders": ladders,
                               "chutes": chutes}, "random-coin", "random-coin")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each record, interleaved (default 3)")
    runs = parser.parse_args().runs
    _fresh_record("classic-coin")  # compile and import once before timing
    plain, coin = [], []
    for _ in range(runs):
        plain.append(_fresh_record("classic"))
        coin.append(_fresh_record("classic-coin"))
    opts = strategy.best_play(load_board(BOARDS / "classic-coin.toml")).options
    strategy.best_play.cache_clear()
    parts = {"the best play": _cpu(lambda: strategy.best_play(load_board(BOARDS / "classic-coin.toml"))),
             "best against the box rules": _cpu(lambda: duel.best_against_box(opts)),
             "both maximise": _cpu(lambda: duel.both_maximise(opts))}
    big = random_coin_board()
    estimate, _ = estimated_seconds(strategy.as_played(big))
    turn_chain.cache_clear()
    strategy.best_play.cache_clear()
    from chutes.compute.record.results import solve

    solved = _cpu(lambda: solve(turn_chain(big)))
    p, c = statistics.median(plain), statistics.median(coin)
    rows = [f"| classic, whole record | {p:.2f} s | — |",
            f"| classic-coin, whole record | {c:.2f} s | {c / p:.2f}× (budget 2×) |",
            *(f"| classic-coin: {name} | {seconds:.2f} s | — |" for name, seconds in parts.items()),
            f"| random 1,000-square board with the coin (seed 7), `chutes solve` | {solved:.1f} s | cost model "
            f"{estimate:.0f} s (limit {BUDGET_SECONDS:.0f} s) |"]
    print(write_table(HERE / "results.md", "<!-- choice.py: begin -->", "<!-- choice.py: end -->",
                      f"## A board with a choice\n\n`python benchmarks/choice.py --runs {runs}`: CPU seconds, medians "
                      f"of {runs} interleaved runs, every cache emptied before each. The experiments are left out "
                      "of a board with a choice (they are made for the box rules), the best play and its "
                      "two-player games come in; the two-player games are solved up to "
                      f"{duel.MAX_STATES} squares a roll is made from. The cost model estimates a board with a "
                      "choice from the best play's chain (found first: seconds at most).",
                      ["what", "CPU", "ratio"], rows))


if __name__ == "__main__":
    main()
