"""`chutes solve classic --json` as a whole process, with and without this project's cached bytecode.

Usage: python benchmarks/startup.py [--runs N] [--against DIR]   (N defaults to 15)

Each run is a fresh `python -m chutes solve classic --json` (imports, the board, the exact solve, the JSON),
timed in wall seconds, and in CPU seconds of the child process. "Warm": the project's modules are read from
their cached bytecode (written by an untimed first run). "No bytecode": the packages are copied without their
`__pycache__` folders and run with PYTHONDONTWRITEBYTECODE=1, so every run compiles the project's own modules
(as a fresh clone's first run does; installed libraries keep their bytecode). `--against DIR` times another
checkout of the project (an older commit, say; named by its folder) the same way, interleaved run by run, for
a before-and-after on the same machine state. Every run must print the same bytes. Medians are compared with
the budget (0.30 s).
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
BEGIN, END = "<!-- startup.py: begin -->", "<!-- startup.py: end -->"
COMMAND = ("-m", "chutes", "solve", "classic", "--json")
BUDGET_SECONDS = 0.30
PACKAGES = ("chutes", "compute", "site_build", "templates", "site_src", "mkdocs.yml")
"""A checkout's `chutes` package (chutes/compute, chutes/site_build, … are links to the others) and the project
file that makes the folder a project, as in the checkout itself."""


def timed_run(folder: Path, env: dict[str, str]) -> tuple[float, float, str]:
    """Wall and CPU seconds of one `python -m chutes solve classic --json` started in `folder`, and its output."""
    wall, cpu, done = timed_process([sys.executable, *COMMAND], folder, env)
    return wall, cpu, done.stdout


def without_bytecode(checkout: Path, into: Path) -> Path:
    """A copy of the checkout's packages with no cached bytecode, to run from."""
    into.mkdir()
    for name in PACKAGES:
        source = checkout / name
        if source.is_dir():
            shutil.copytree(source, into / name, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
        elif source.is_file():
            shutil.copy(source, into / name)
    return into


def main() -> None:
    repeats, checkouts = side_by_side(__doc__.splitlines()[0], 15, per="checkout and condition")
    base = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}
    cold_env = {**base, "PYTHONDONTWRITEBYTECODE": "1"}
    load = os.getloadavg()[0]
    times: dict[tuple[str, str], list[tuple[float, float]]] = {}
    outputs: set[str] = set()
    with tempfile.TemporaryDirectory() as scratch:
        folders = {}
        for n, (name, checkout) in enumerate(checkouts.items()):
            timed_run(checkout, base)  # writes the warm condition's bytecode
            cold = without_bytecode(checkout, Path(scratch) / str(n))
            folders[name] = {"warm": (checkout, base), "no bytecode": (cold, cold_env)}
        for _ in range(repeats):
            for name, conditions in folders.items():
                for condition, (folder, env) in conditions.items():
                    wall, cpu, out = timed_run(folder, env)
                    times.setdefault((name, condition), []).append((wall, cpu))
                    outputs.add(out)
    load = max(load, os.getloadavg()[0])
    if len(outputs) != 1:
        raise SystemExit("the runs printed different output")
    rows = [f"| {name} | {condition} | {timing_cells(runs, BUDGET_SECONDS, 3)} |"
            for (name, condition), runs in times.items()]
    intro = (
        f"Start-up (`python benchmarks/startup.py`, {platform.machine()}, Python {platform.python_version()}, run "
        f"{time.strftime('%Y-%m-%d')}): `chutes solve classic --json` as a whole process, {repeats} runs per "
        f"row, interleaved; warm = the project's cached bytecode, no bytecode = its modules compiled on every run "
        f"(installed libraries keep theirs); the load average reached {load:.1f} on 2 cores. Budget: median ≤ "
        f"{BUDGET_SECONDS:.2f} s. Every run printed the same {len(next(iter(outputs))):,} bytes.")
    columns = ["code", "bytecode", "median wall", "fastest wall", "median CPU", "within budget"]
    print(write_table(RESULTS, BEGIN, END, intro, columns, rows))


if __name__ == "__main__":
    main()
