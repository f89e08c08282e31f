"""A whole process timed as a person waits for it: wall seconds, and the CPU seconds it and its children used."""

from __future__ import annotations

import resource
import statistics
import subprocess
import time
from pathlib import Path


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
