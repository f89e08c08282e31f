"""An edit shown by `chutes serve`, and `chutes build` with nothing changed, on the reference site, beside
another checkout.

Usage: python benchmarks/preview.py [--runs N] [--against DIR]   (N defaults to 3)

Each checkout gets a copy of the reference project as the other checkout has it (mkdocs.yml, site_src/,
templates/, guide/, the measurements: the code before must build it too) and this checkout's cached records, built
once untimed. Then N runs per checkout, interleaved, of `chutes build` with nothing changed (wall seconds of the
whole process); then, per run and checkout, interleaved: `chutes serve` until its home page answers, its preview
folder removed first, then started again (the folder kept); `site_src/method.md` edited, until the served page
shows it; `templates/index.md.j2` edited, until the home page shows it; the `tiny` board's title edited, until its
page shows it (its record recomputed). Medians are compared with the budgets (DESIGN.md §6). The section between
the markers in benchmarks/results.md is replaced.
"""

from __future__ import annotations

import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from sections import write_table  # noqa: E402
from timing import side_by_side, timed_process  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results.md"
BEGIN, END = "<!-- preview.py: begin -->", "<!-- preview.py: end -->"
PROJECT_FILES = ("mkdocs.yml", "site_src", "templates", "guide", "benchmarks/results.md")
ROWS = ("unchanged `chutes build`", "`chutes serve` until the first page answers, a new preview",
        "`chutes serve` started again, until the first page answers", "`site_src/method.md` edited",
        "`templates/index.md.j2` edited", "the `tiny` board's title edited")
BUDGETS = (0.25, 0.5, 0.5, 0.2, 0.2, 0.3)
"""Each row's budget as a share of the other checkout's median (and under 2 s for a page or template)."""
UNDER_TWO_SECONDS = (3, 4)


def project_copy(source_root: Path, into: Path) -> Path:
    """A copy of the reference project as `source_root` has it, with this checkout's cached records."""
    for name in PROJECT_FILES:
        source, target = source_root / name, into / name
        target.parent.mkdir(parents=True, exist_ok=True)
        (shutil.copytree if source.is_dir() else shutil.copy)(source, target)
    shutil.copytree(ROOT / ".cache" / "results", into / ".cache" / "results")
    return into


def fetch(port: int, path: str) -> str:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/{path}", timeout=30) as reply:
            return reply.read().decode()
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return ""


def until(port: int, path: str, ok: Callable[[str], bool], started: float) -> float:
    """Seconds from `started` until the page at `path` satisfies `ok`."""
    while not ok(fetch(port, path)):
        if time.perf_counter() - started > 300:
            raise SystemExit(f"/{path}: not shown after 300 s")
        time.sleep(0.05)
    return time.perf_counter() - started


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{path}: {old!r} not found"
    path.write_text(text.replace(old, new))


def serve_run(checkout: Path, project: Path, env: dict[str, str], port: int, n: int) -> list[float]:
    """Seconds to the first answer of a new preview (its folder removed first, then stopped), then of a preview
    started again, then to each edit shown."""
    shutil.rmtree(project / ".cache" / "preview", ignore_errors=True)
    return [first_answer(checkout, project, env, port), *edits(checkout, project, env, port, n)]


def first_answer(checkout: Path, project: Path, env: dict[str, str], port: int) -> float:
    """Seconds until a preview's home page answers."""
    started = time.perf_counter()
    server = subprocess.Popen([sys.executable, "-m", "chutes", "serve", "--project", str(project), "--dev-addr",
                               f"127.0.0.1:{port}"], cwd=checkout, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        return until(port, "", lambda t: "</html>" in t, started)
    finally:
        server.terminate()
        server.wait(timeout=30)


def edits(checkout: Path, project: Path, env: dict[str, str], port: int, n: int) -> list[float]:
    """A preview started again: seconds to its first answer, then to each edit shown."""
    started = time.perf_counter()
    server = subprocess.Popen([sys.executable, "-m", "chutes", "serve", "--project", str(project), "--dev-addr",
                               f"127.0.0.1:{port}"], cwd=checkout, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        times = [until(port, "", lambda t: "</html>" in t, started)]
        time.sleep(1)
        word = f"Edited{n}x"
        edit(project / "site_src" / "method.md", "# Method", f"# Method\n\n{word} method.")
        times.append(until(port, "method/", lambda t: f"{word} method." in t, time.perf_counter()))
        time.sleep(1)
        template = project / "templates" / "index.md.j2"
        template.write_text(template.read_text() + f"\n{word} home.\n")
        times.append(until(port, "", lambda t: f"{word} home." in t, time.perf_counter()))
        time.sleep(1)
        edit(project / "site_src" / "boards" / "tiny.toml", 'title = "', f'title = "{word} ')
        times.append(until(port, "boards/tiny/", lambda t: f"{word} " in t, time.perf_counter()))
        return times
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> None:
    runs, checkouts = side_by_side(__doc__.splitlines()[0], 3)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CHUTES_SITE_URL")}
    env["NO_MKDOCS_2_WARNING"] = "1"
    times: dict[str, list[list[float]]] = {name: [[] for _ in ROWS] for name in checkouts}
    with tempfile.TemporaryDirectory() as scratch:
        oldest = list(checkouts.values())[-1]  # the code before must build it as well
        projects = {name: project_copy(oldest, Path(scratch) / str(n)) for n, name in enumerate(checkouts)}
        for name, checkout in checkouts.items():
            timed_process([sys.executable, "-m", "chutes", "build", "--project", str(projects[name])], checkout, env)
        load = os.getloadavg()[0]
        for _ in range(runs):  # before any edit: every one of these builds has nothing changed
            for name, checkout in checkouts.items():
                wall, _, _ = timed_process([sys.executable, "-m", "chutes", "build", "--project",
                                            str(projects[name])], checkout, env)
                times[name][0].append(wall)
        for n in range(runs):
            for k, (name, checkout) in enumerate(checkouts.items()):
                for row, seconds in enumerate(serve_run(checkout, projects[name], env, 8700 + k, n), start=1):
                    times[name][row].append(seconds)
                load = max(load, os.getloadavg()[0])
    names = list(checkouts)
    medians = {name: [statistics.median(t) for t in times[name]] for name in names}
    rows = []
    for row, what in enumerate(ROWS):
        cells = [f"{medians[name][row]:.2f} s" for name in names]
        if len(names) > 1:
            ratio = medians[names[0]][row] / medians[names[1]][row]
            within = ratio <= BUDGETS[row] and (row not in UNDER_TWO_SECONDS or medians[names[0]][row] < 2)
            cells += [f"{ratio:.2f}×", f"≤ {BUDGETS[row]}×", "yes" if within else "no"]
        rows.append(f"| {what} | " + " | ".join(cells) + " |")
    intro = (f"## Edit to preview\n\n`python benchmarks/preview.py`, {platform.machine()}, run "
             f"{time.strftime('%Y-%m-%d')}: the reference site, every record cached, {runs} runs per checkout, "
             f"interleaved, medians of wall seconds; the load average reached {load:.1f} on {os.cpu_count()} cores. "
             "An edit is timed from the file's write to the served page showing it.")
    columns = ["what", *names] + (["ratio", "budget", "within budget"] if len(names) > 1 else [])
    print(write_table(RESULTS, BEGIN, END, intro, columns, rows))


if __name__ == "__main__":
    main()
