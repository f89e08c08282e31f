"""A board with a choice (the coin) against the same board without it, side by side in one run: the whole record's
CPU seconds (budget: at most 2×), `chutes solve --json` as a whole process (budget: at most 3×), the parts the
choice adds, and the two-player games of random coin boards from 100 to 400 squares (budget: 200 squares within
the cost model's 120 s). Writes its section of benchmarks/results.md. With `--family`: the family rules with the
coin (a roll-again limit: the best play by the rolls so far in the turn) against the family rules (budget: at
most 3×), its two-player games, and those of random coin boards with the family rules' limit, in a section of its
own.

Usage: python benchmarks/choice.py [--runs N] [--family]
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


LIMITED = {"roll_again_on": 6, "roll_again_limit": 2, "roll_again_penalty": "undo"}
"""The family rules' roll-again limit, for the random boards' duels under a limit."""


def family(runs: int, sizes: str) -> None:
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
    box = _cpu(lambda: duel.best_against_box(play.options, play.flips))
    both = _cpu(lambda: duel.both_maximise(play.options, play.flips))
    p, c = statistics.median(plain), statistics.median(coin)
    d, m = len(play.options.squares), len(play.options.rolls)
    rows = [f"| classic-family, whole record | {p:.2f} s | — |",
            f"| classic-family-coin, whole record | {c:.2f} s | {c / p:.2f}× (budget 3×) |",
            f"| classic-family-coin: the best play ({m} states, {play.rounds} exact "
            f"round{'s' if play.rounds > 1 else ''}) | {best:.2f} s | — |",
            f"| classic-family-coin: Bellman's equation checked at every state and roll | {bellman:.2f} s | — |",
            f"| classic-family-coin: the turn chain of the best play (its roll paths) | {chain:.2f} s | — |",
            f"| classic-family-coin: both duels (d = {d} squares, m = {m} states of a turn: 2·m·d states), certified "
            f"to {duel.CERTIFIED_DIGITS} decimals | {box + both:.2f} s ({box:.2f} + {both:.2f}) | "
            f"{(box + both) / p:.2f}× classic-family's whole record |"]
    for squares in (int(x) for x in sizes.split(",")):
        d, m, box, both, estimate = _duels(squares, LIMITED)
        rows.append(f"| random {squares}-square coin board (10 ladders, 10 chutes; d = {d}), a third 6 undoes the "
                    f"turn (m = {m:,}): both duels, certified to {duel.CERTIFIED_DIGITS} decimals | {box + both:.1f} s "
                    f"({box:.1f} + {both:.1f}) | cost model {estimate:.0f} s for the whole solve |")
    print(write_table(HERE / "results.md", "<!-- choice.py family: begin -->", "<!-- choice.py family: end -->",
                      f"## A board with a choice under a roll-again limit\n\n`python benchmarks/choice.py --family "
                      f"--runs {runs}`: CPU seconds (the whole records with the second process the exact methods "
                      f"fork), medians of {runs} interleaved runs, every cache emptied before each. The family "
                      "rules' experiments are left out with the coin, as on every board with a choice; the best "
                      "play over (square, rolls so far in the turn, square where it began) and its turn chain come "
                      "in, and the two-player games, each choice by the other's square too (the mover's states "
                      "inside a turn against the other's square); the random boards' duels are run once each.",
                      ["what", "CPU", "ratio"], rows))


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


def _duels(squares: int, rules: dict | None = None) -> tuple[int, int, float, float, float]:
    """A random coin board of `squares` squares, 10 ladders and 10 chutes (with `rules` changed): the squares a
    roll is made from, the mover's states (as many without a roll-again limit, the states of a turn under one),
    each duel's CPU seconds, and the cost model's estimate of the whole solve."""
    board = random_coin_board(squares, seed=1, jumps=10)
    if rules:
        board = board.variant(**rules)
    play = strategy.best_play(board)
    box = _cpu(lambda: duel.best_against_box(play.options, play.flips))
    both = _cpu(lambda: duel.both_maximise(play.options, play.flips))
    d = len(play.options.squares)
    return d, len(play.options.rolls) if board.roll_again_limit is not None else d, box, both, \
        estimated_seconds(play.board)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each record, interleaved (default 3)")
    parser.add_argument("--sizes", default=None, help="random boards' squares for the duels (default 100,200,300,400; "
                        "with --family 100,200)")
    parser.add_argument("--family", action="store_true", help="the family rules with and without the coin only")
    args = parser.parse_args()
    runs = args.runs
    if args.family:
        family(runs, args.sizes or "100,200")
        return
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
    for squares in (int(x) for x in (args.sizes or "100,200,300,400").split(",")):
        d, _, box, both, estimate = _duels(squares)
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
