"""The reference site built with each engine, MkDocs and Zensical, side by side in one run, from a warm cache.

Usage: python benchmarks/engines.py [REPEATS]   (run `chutes build` first, so that .cache/results holds every
record; default: 3 builds per engine, interleaved so that both see the same machine).
Each build is a whole `chutes build --engine E` process in a project of its own holding the bundled boards and
a copy of the records (nothing is computed): its wall time, its CPU (the process and its children, Zensical
runs in one), and the engine's own step as the build reports it. Medians are reported.
The section between the markers in benchmarks/results.md is replaced (run.py writes the rest of that file).
"""

from __future__ import annotations

import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sections import write_section

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results.md"
BEGIN, END = "<!-- engines.py: begin -->", "<!-- engines.py: end -->"
ENGINES = ("mkdocs", "zensical")
STEP = re.compile(r"building the site with \w+: done in ([\d.]+) s")


def project(root: Path) -> Path:
    """A project holding the bundled boards and a copy of this repository's records."""
    (root / "site_src").mkdir(parents=True)
    shutil.copy(ROOT / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copytree(ROOT / "site_src" / "boards", root / "site_src" / "boards")
    shutil.copytree(ROOT / ".cache" / "results", root / ".cache" / "results")
    return root


def build(root: Path, engine: str) -> tuple[float, float, float]:
    """One whole `chutes build`: wall seconds, CPU seconds (with its children), the engine step's seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "chutes", "build", "--engine", engine], cwd=root,
                          capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0 or "computed in" in done.stderr:
        sys.exit(f"engines.py: the {engine} build failed or computed a board (run `chutes build` first):\n"
                 f"{done.stderr}")
    step = STEP.search(done.stderr)
    assert step, done.stderr
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, float(step.group(1))


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    if not any((ROOT / ".cache" / "results").glob("*.json")):
        sys.exit("engines.py: no records in .cache/results: run `chutes build` first")
    runs: dict[str, list[tuple[float, float, float]]] = {e: [] for e in ENGINES}
    with tempfile.TemporaryDirectory() as tmp:
        roots = {e: project(Path(tmp) / e) for e in ENGINES}
        for engine in ENGINES:  # a first build each, not timed: the pages and the engine's own cache written
            build(roots[engine], engine)
        for _ in range(repeats):
            for engine in ENGINES:
                runs[engine].append(build(roots[engine], engine))
        pages = {e: len(list((roots[e] / "site").rglob("*.html"))) for e in ENGINES}
    med = {e: [statistics.median(r[i] for r in runs[e]) for i in range(3)] for e in ENGINES}
    rows = [f"| {label} | {med['mkdocs'][i]:.1f} s | {med['zensical'][i]:.1f} s | "
            f"{med['zensical'][i] / med['mkdocs'][i]:.2f} |"
            for i, label in enumerate(("`chutes build`, whole process, wall", "the same, CPU (with children)",
                                       "the engine's step alone, wall"))]
    text = "\n".join([
        BEGIN, "",
        f"Build engines (`python benchmarks/engines.py`, {platform.machine()}, run {time.strftime('%Y-%m-%d')}): "
        f"the reference site ({len(list((ROOT / 'site_src' / 'boards').glob('*.toml')))} bundled boards of the day, "
        f"{pages['mkdocs']} pages) rebuilt from a warm cache, medians of {repeats} builds each, interleaved:", "",
        "| what | MkDocs 1.6 + Material | Zensical 0.0.73 | Zensical ÷ MkDocs |", "|---|---|---|---|", *rows, "",
        END])
    write_section(RESULTS, BEGIN, END, text)
    print(text)


if __name__ == "__main__":
    main()
