"""`chutes compute` on the bundled boards with nothing to compute, as a whole process, beside another checkout.

Usage: python benchmarks/unchanged.py [--runs N] [--against DIR]   (N defaults to 7)

Each checkout gets a results cache of its own, filled by an untimed `chutes compute` (for this checkout the
repository's own `.cache/results` is copied in when it holds the records, so only `--against` computes from
cold). Then the first read of those records is timed on its own (every exact value checked: no record has been
read by this code yet), and N runs per checkout, interleaved, with nothing changed: wall and CPU seconds of
the child process, medians compared with the budget (2 s). Then, as root, COLD_RUNS more runs per checkout,
each after the kernel's page cache is emptied (`sync; echo 3 > /proc/sys/vm/drop_caches`: the Python files,
the libraries and the records read from the disk again, as in the first run in a new shell after the machine
has done other work); elsewhere those are left out, and said so. Every run must find every board up to date.
The section between the markers in benchmarks/results.md is replaced (run.py writes the rest of that file).
"""

from __future__ import annotations

import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from sections import write_table  # noqa: E402
from timing import side_by_side, timed_process, timing_cells  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results.md"
BEGIN, END = "<!-- unchanged.py: begin -->", "<!-- unchanged.py: end -->"
BUDGET_SECONDS = 2.0
COLD_RUNS = 3
DROP_CACHES = Path("/proc/sys/vm/drop_caches")


def drop_caches() -> bool:
    """Empty the kernel's page cache (root only); whether it was emptied."""
    os.sync()
    try:
        DROP_CACHES.write_text("3\n")
    except OSError:
        return False
    return True


def timed_compute(checkout: Path, cache: Path, env: dict[str, str]) -> tuple[float, float, str]:
    """Wall and CPU seconds of one `python -m chutes compute` of the bundled boards, run in `checkout`, and its
    output."""
    wall, cpu, done = timed_process([sys.executable, "-m", "chutes", "compute", "--boards",
                                     str(ROOT / "site_src" / "boards"), "--cache", str(cache)], checkout, env)
    return wall, cpu, done.stdout + done.stderr


def main() -> None:
    repeats, checkouts = side_by_side(__doc__.splitlines()[0], 7)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"NO_MKDOCS_2_WARNING": "1"}
    first: dict[str, float] = {}
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in checkouts}
    with tempfile.TemporaryDirectory() as scratch:
        caches = {name: Path(scratch) / str(n) for n, name in enumerate(checkouts)}
        for name, checkout in checkouts.items():
            ours = checkout / ".cache" / "results"
            caches[name].mkdir()
            for record in ours.glob("*.json") if ours.is_dir() else ():
                shutil.copy(record, caches[name] / record.name)
            timed_compute(checkout, caches[name], env)  # computes what the copy lacked; reads the rest once
            for marker in caches[name].glob(".*.verified"):  # this code's first read, timed alone
                marker.unlink()
            first[name] = timed_compute(checkout, caches[name], env)[0]
        load = os.getloadavg()[0]
        cold: dict[str, list[float]] = {name: [] for name in checkouts}
        for n in range(repeats + COLD_RUNS):
            for name, checkout in checkouts.items():
                if n >= repeats and not drop_caches():
                    break
                wall, cpu, out = timed_compute(checkout, caches[name], env)
                if "computed in" in out:
                    raise SystemExit(f"{name}: a board was computed in a run with nothing changed:\n{out}")
                if n < repeats:
                    times[name].append((wall, cpu))
                else:
                    cold[name].append(wall)
        load = max(load, os.getloadavg()[0])
    rows = [f"| {name} | {first[name]:.2f} s | "
            + (f"{statistics.median(cold[name]):.2f} s ({max(cold[name]):.2f} s) | " if cold[name] else "— | ")
            + f"{timing_cells(runs, BUDGET_SECONDS, 2)} |" for name, runs in times.items()]
    dropped = all(cold.values())
    boards = len(list((ROOT / "site_src" / "boards").glob("*.toml")))
    intro = (
        f"Nothing to compute (`python benchmarks/unchanged.py`, {platform.machine()}, run {time.strftime('%Y-%m-%d')}):"
        f" `chutes compute` of the {boards} bundled boards of the day as a whole process, every record up to date; "
        f"the first read of the records alone, then {repeats} runs per checkout, interleaved, "
        + (f"then {COLD_RUNS} each after the page cache was emptied (cold: median, and slowest)" if dropped else
           "(no cold runs: emptying the page cache needs root)")
        + f"; the load average reached {load:.1f} on {os.cpu_count()} cores. Budget: median ≤ "
        f"{BUDGET_SECONDS:.0f} s, cold or warm.")
    columns = ["code", "first read", "cold", "median wall", "fastest wall", "median CPU", "within budget (warm)"]
    print(write_table(RESULTS, BEGIN, END, intro, columns, rows))


if __name__ == "__main__":
    main()
