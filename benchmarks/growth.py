"""How each cost of a board's record grows with the board: 100, 200, 400, 800 and 1,000 squares, fitted.

Usage: python benchmarks/growth.py   (about five minutes on two cores). Random boards of `benchmarks/run.py`
(seed 4: one jump per five squares, a six-sided die), each part timed as CPU seconds of this process on a
chain not used before (`in_one_process`: the primes are not shared with a second process, so the CPU time is
the whole work). Then the whole record as the compute stage makes it for such a board (experiments left out,
as they are above 400 squares), on a fresh chain. Each cost is fitted as t ≈ a·nᵇ by least squares on the
logarithms, over the sizes where it took at least 0.01 s and was computed: the exact three-player chance only
where the compute stage would compute it (its estimate within the site's budget; elsewhere the estimate is
shown), the landing chances up to `landing.MAX_ROLL_STATES` roll states, and the whole record over the sizes
whose record leaves the three-player chance out (the same parts).
The section between the markers in benchmarks/results.md is replaced (run.py writes the rest).
"""

from __future__ import annotations

import functools
import math
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from run import random_board  # noqa: E402
from sections import write_section  # noqa: E402

from chutes.compute.board.limits import MAX_PLAYERS  # noqa: E402
from chutes.compute.board.model import Board  # noqa: E402
from chutes.compute.record.build import board_record  # noqa: E402
from chutes.compute.record.key import SIMULATED_GAMES, SIMULATION_SEED  # noqa: E402
from chutes.compute.record.schema import Skipped  # noqa: E402
from chutes.compute.solve import threeplayer  # noqa: E402
from chutes.compute.solve.chain import TurnChain, turn_chain  # noqa: E402
from chutes.compute.solve.landing import MAX_ROLL_STATES  # noqa: E402
from chutes.compute.solve.modular import in_one_process  # noqa: E402
from chutes.compute.solve.races import races_together  # noqa: E402
from chutes.compute.solve.simulate import two_player_games  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results.md"
BEGIN, END = "<!-- growth.py: begin -->", "<!-- growth.py: end -->"
SIZES = (100, 200, 400, 800, 1000)
FITTED_FROM = 0.01
"""Seconds below which a time is too short to fit (timer resolution and noise)."""

CHAIN = "turn chain"
LANDING = "landing chances, exact"
PARTS: dict[str, Callable[[TurnChain], object]] = {
    "expected turns, exact": lambda chain: chain.expected_turns,
    "game-length distribution, exact": lambda chain: chain.distribution,
    LANDING: lambda chain: chain.landing_chances,
    "first of two players, exact": lambda chain: chain.first_player_wins,
    f"2 to {MAX_PLAYERS} players starting together, certified": lambda chain: races_together(
        chain, chain.board.start, list(range(2, MAX_PLAYERS + 1))),
    "1,000,000 simulated two-player games": lambda chain: two_player_games(chain.board, SIMULATED_GAMES,
                                                                           SIMULATION_SEED),
}
THREE = "first of three players, exact"
RECORD = "the whole record (no experiments)"


def cpu(work: Callable[[], object]) -> float:
    """CPU seconds of this process for one call."""
    t = time.process_time()
    work()
    return time.process_time() - t


@dataclass(frozen=True)
class Cost:
    """A part's CPU seconds, or why it has none: `left_out` says what the compute stage does instead."""

    seconds: float
    left_out: str | None = None

    def cell(self) -> str:
        if self.left_out:
            return self.left_out
        return f"{self.seconds:.3f} s" if self.seconds < 10 else f"{self.seconds:.1f} s"


def parts_of(board: Board) -> dict[str, Cost]:
    """CPU seconds of each part on a chain of its own, then the three players' (its estimate when the compute
    stage would leave it out), then the whole record on another fresh chain."""
    out: dict[str, Cost] = {}
    turn_chain.cache_clear()
    out[CHAIN] = Cost(cpu(lambda: turn_chain(board)))
    chain = turn_chain(board)
    with in_one_process():
        for name, part in PARTS.items():
            out[name] = Cost(cpu(functools.partial(part, chain)))
        if chain.landing_chances is None:
            out[LANDING] = Cost(0.0, f"left out (over {MAX_ROLL_STATES} roll states)")
        estimate = chain.first_of_three_seconds
        out[THREE] = Cost(cpu(lambda: chain.first_of_three_wins)) if estimate <= threeplayer.THREE_PLAYER_BUDGET \
            else Cost(estimate, f"left out (est. {estimate:,.0f} s)")
    turn_chain.cache_clear()
    record = Cost(cpu(lambda: board_record(board, Skipped(skipped="left out here"), jobs=1)))
    out[RECORD] = record if out[THREE].left_out else Cost(record.seconds, f"{record.cell()} (with three players)")
    return out


def fit(points: list[tuple[int, float]]) -> tuple[float, float] | None:
    """(a, b) of t ≈ a·nᵇ by least squares on (log n, log t); None from fewer than two points."""
    if len(points) < 2:
        return None
    xs, ys = [math.log(n) for n, _ in points], [math.log(t) for _, t in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return math.exp(my - b * mx), b


def main() -> None:
    two_player_games(random_board(100, 4), 1000, 1)  # Numba compiles the simulation once, outside the timings
    times = {n: parts_of(random_board(n, 4)) for n in SIZES}
    names = [CHAIN, *PARTS, THREE, RECORD]
    rows = []
    for name in names:
        points = [(n, times[n][name].seconds) for n in SIZES
                  if times[n][name].seconds >= FITTED_FROM and not times[n][name].left_out]
        fitted = fit(points)
        law = "—" if fitted is None else f"{fitted[0]:.2e}·n^{fitted[1]:.2f} ({points[0][0]:,}–{points[-1][0]:,})"
        rows.append(f"| {name} | " + " | ".join(times[n][name].cell() for n in SIZES) + f" | {law} |")
    text = "\n".join([
        BEGIN, "",
        f"Growth with the board (`python benchmarks/growth.py`, {platform.machine()}, Python "
        f"{platform.python_version()}, run {time.strftime('%Y-%m-%d')}): random boards of n squares "
        "(`benchmarks/run.py`'s, seed 4), each part's CPU seconds in one process (no second process sharing "
        "the primes), then the whole record on a fresh chain. Fitted t ≈ a·nᵇ over the sizes (in brackets) where "
        f"a part was computed and took at least {FITTED_FROM} s; \"est.\" is the cost model's estimate where the "
        f"compute stage leaves the exact three-player chance out (over its {threeplayer.THREE_PLAYER_BUDGET:.0f} s "
        "budget).", "",
        "| part | " + " | ".join(f"{n:,} squares" for n in SIZES) + " | fit |",
        "|---|" + "---|" * (len(SIZES) + 1), *rows, "",
        END])
    write_section(RESULTS, BEGIN, END, text)
    print(text)


if __name__ == "__main__":
    main()
