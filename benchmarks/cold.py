"""`chutes compute` of every bundled board into an empty cache, as a whole process, beside another checkout.

Usage: python benchmarks/cold.py [--runs N] [--against DIR]   (N defaults to 3)

Each run computes the bundled boards of this repository into a new, empty results cache (its experiments'
pieces included), with the command of the checkout being timed; the runs of the checkouts are interleaved so
that each sees the same machine. Reported: seconds by the clock, medians compared with the budget (30 s on two
cores), and the CPU seconds the whole machine spent meanwhile (`/proc/stat`: the compute's workers are not the
command's waited-for children, so its own CPU count leaves them out; run it on an otherwise idle machine).
The Numba cache of the simulation is the user's, kept between runs: a first run anywhere compiles it once,
which is not the compute's work.
The section between the markers in benchmarks/results.md is replaced (run.py writes the rest of that file).
"""

from __future__ import annotations

import os
import platform
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from sections import write_table  # noqa: E402
from timing import side_by_side, timed_process, timing_cells  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results.md"
BEGIN, END = "<!-- cold.py: begin -->", "<!-- cold.py: end -->"
BUDGET_SECONDS = 30.0


def busy_seconds() -> float:
    """CPU seconds the machine has spent busy since it started, over all cores (`/proc/stat`)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle and waiting for input or output
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    repeats, checkouts = side_by_side(__doc__.splitlines()[0], 3)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"NO_MKDOCS_2_WARNING": "1"}
    boards = ROOT / "site_src" / "boards"
    bundled = len(list(boards.glob("*.toml")))
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in checkouts}
    load = os.getloadavg()[0]
    for _ in range(repeats):
        for name, checkout in checkouts.items():
            with tempfile.TemporaryDirectory() as cache:
                busy = busy_seconds()
                wall, _, done = timed_process([sys.executable, "-m", "chutes", "compute", "--boards", str(boards),
                                                 "--cache", cache], checkout, env)
                cpu = busy_seconds() - busy
                computed = (done.stdout + done.stderr).count("computed in")
            if computed != bundled:
                raise SystemExit(f"{name}: {computed} boards computed, not every bundled board")
            times[name].append((wall, cpu))
            load = max(load, os.getloadavg()[0])
    rows = [f"| {name} | {timing_cells(runs, BUDGET_SECONDS, 1)} |" for name, runs in times.items()]
    intro = (
        f"Every bundled board from cold (`python benchmarks/cold.py`, {platform.machine()}, {os.cpu_count()} cores, "
        f"run {time.strftime('%Y-%m-%d')}): `chutes compute` of the "
        f"{bundled} bundled boards of the day into an empty cache as a whole process, {repeats} "
        f"runs per checkout, interleaved; the load average reached {load:.1f}. Budget: median ≤ "
        f"{BUDGET_SECONDS:.0f} s by the clock.")
    columns = ["code", "median wall", "fastest wall", "median CPU (the machine's)", "within budget"]
    print(write_table(RESULTS, BEGIN, END, intro, columns, rows))


if __name__ == "__main__":
    main()
