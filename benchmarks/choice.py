"""A board with a choice (the coin) against the same board without it, side by side in one run: the whole record's
CPU seconds (budget: at most 2×), the parts the choice adds, and a random 1,000-square board with the coin
(budget: within the cost model's 120 s). Writes its section of benchmarks/results.md. With `--family`: the family
rules with the coin (a roll-again limit: the best play by the rolls so far in the turn) against the family rules
(budget: at most 3×), in a section of its own.

Usage: python benchmarks/choice.py [--runs N] [--family]
"""

from __future__ import annotations

import argparse
import random
import resource
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


def _cpu_with_children(work) -> float:
    """CPU seconds of `work`, the processes it forks and waits for included (the exact methods' second process)."""
    def now() -> float:
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.process_time() + children.ru_utime + children.ru_stime

    started = now()
    work()
    return now() - started


def _fresh_record(slug: str, cpu=_cpu) -> float:
    """CPU seconds of one board's whole record, every cache emptied first (experiments included)."""
    turn_chain.cache_clear()
    strategy.best_play.cache_clear()
    board = load_board(BOARDS / f"{slug}.toml")
    return cpu(lambda: board_record(board, board_experiments(board)))


def family(runs: int) -> None:
    """The family rules with and without the coin, whole records side by side (its own section)."""
    _fresh_record("classic-family-coin")  # compile and import once before timing
    plain, coin = [], []
    for _ in range(runs):
        plain.append(_fresh_record("classic-family", _cpu_with_children))
        coin.append(_fresh_record("classic-family-coin", _cpu_with_children))
    b = load_board(BOARDS / "classic-family-coin.toml")
    strategy.best_play.cache_clear()
    best = _cpu(lambda: strategy.best_play(b))
    play = strategy.best_play(b)
    bellman = _cpu(lambda: strategy.bellman_holds(play))
    turn_chain.cache_clear()
    chain = _cpu(lambda: turn_chain(b))
    p, c = statistics.median(plain), statistics.median(coin)
    rows = [f"| classic-family, whole record | {p:.2f} s | — |",
            f"| classic-family-coin, whole record | {c:.2f} s | {c / p:.2f}× (budget 3×) |",
            f"| classic-family-coin: the best play ({len(play.options.rolls)} states, {play.rounds} exact "
            f"round{'s' if play.rounds > 1 else ''}) | {best:.2f} s | — |",
            f"| classic-family-coin: Bellman's equation checked at every state and roll | {bellman:.2f} s | — |",
            f"| classic-family-coin: the turn chain of the best play (its roll paths) | {chain:.2f} s | — |"]
    print(write_table(HERE / "results.md", "<!-- choice.py family: begin -->", "<!-- choice.py family: end -->",
                      f"## A board with a choice under a roll-again limit\n\n`python benchmarks/choice.py --family "
                      f"--runs {runs}`: CPU seconds (the whole records with the second process the exact methods "
                      f"fork), medians of {runs} interleaved runs, every cache emptied before each. The family "
                      "rules' experiments are left out with the coin, as on every board with a choice; the best "
                      "play over (square, rolls so far in the turn, square where it began) and its turn chain come "
                      "in; the two-player games that depend on the other's square are not computed under a limit.",
                      ["what", "CPU", "ratio"], rows))


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
    parser.add_argument("--family", action="store_true", help="the family rules with and without the coin only")
    given = parser.parse_args()
    runs = given.runs
    if given.family:
        family(runs)
        return
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
