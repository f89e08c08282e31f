"""A whole process timed as a person waits for it: wall seconds, and the CPU seconds it and its children used."""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def side_by_side(description: str, runs: int, per: str = "checkout") -> tuple[int, dict[str, Path]]:
    """The command line of a benchmark that times this checkout beside another: the number of runs (`--runs`,
    default `runs`, counted per `per`) and the checkouts by name (`--against DIR` adds one)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--runs", type=int, default=runs, help=f"runs per {per} (default {runs})")
    parser.add_argument("--against", type=Path, default=None, help="another checkout to time side by side")
    options = parser.parse_args()
    other = options.against.resolve() if options.against else None
    return options.runs, {"this checkout": ROOT} | ({other.name: other} if other else {})


def timed_process(command: list[str], cwd: Path,
                  env: dict[str, str]) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """Wall and CPU seconds of `command` run to its end in `cwd` (it must succeed), and the finished process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, done


def timing_cells(runs: list[tuple[float, float]], budget: float, digits: int) -> str:
    """A results table's timing cells for (wall, CPU) runs: median wall, fastest wall, median CPU, and whether
    the median wall is within `budget` seconds."""
    wall = statistics.median(w for w, _ in runs)
    return (f"{wall:.{digits}f} s | {min(w for w, _ in runs):.{digits}f} s | "
            f"{statistics.median(c for _, c in runs):.{digits}f} s | {'yes' if wall <= budget else 'no'}")
