"""`chutes compute` on the bundled boards with nothing to compute, as a whole process, beside another checkout.

Usage: python benchmarks/unchanged.py [--runs N] [--against DIR]   (N defaults to 7)

Each checkout gets a results cache of its own, filled by an untimed `chutes compute` (for this checkout the
repository's own `.cache/results` is copied in when it holds the records, so only `--against` computes from
cold). Then the first read of those records is timed on its own (every exact value checked: no record has been
read by this code yet), and N runs per checkout, interleaved, with nothing changed: wall and CPU seconds of
the child process, medians compared with the budget (2 s). Every run must find every board up to date.
The section between the markers in benchmarks/results.md is replaced (run.py writes the rest of that file).
"""

from __future__ import annotations

import os
import platform
import shutil
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
        for _ in range(repeats):
            for name, checkout in checkouts.items():
                wall, cpu, out = timed_compute(checkout, caches[name], env)
                if "computed in" in out:
                    raise SystemExit(f"{name}: a board was computed in a run with nothing changed:\n{out}")
                times[name].append((wall, cpu))
        load = max(load, os.getloadavg()[0])
    rows = [f"| {name} | {first[name]:.2f} s | {timing_cells(runs, BUDGET_SECONDS, 2)} |"
            for name, runs in times.items()]
    boards = len(list((ROOT / "site_src" / "boards").glob("*.toml")))
    intro = (
        f"Nothing to compute (`python benchmarks/unchanged.py`, {platform.machine()}, run {time.strftime('%Y-%m-%d')}):"
        f" `chutes compute` of the {boards} bundled boards of the day as a whole process, every record up to date; the "
        f"first read of the records alone, then {repeats} runs per checkout, interleaved; the load average reached "
        f"{load:.1f} on {os.cpu_count()} cores. Budget: median ≤ {BUDGET_SECONDS:.0f} s.")
    columns = ["code", "first read", "median wall", "fastest wall", "median CPU", "within budget"]
    print(write_table(RESULTS, BEGIN, END, intro, columns, rows))


if __name__ == "__main__":
    main()
