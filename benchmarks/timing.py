"""A whole process timed as a person waits for it: wall seconds, and the CPU seconds it and its children used."""

from __future__ import annotations

import resource
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
