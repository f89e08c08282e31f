"""The reference site in English alone beside the same site in six languages, side by side, from warm records.

Usage: python benchmarks/languages.py [--runs N]   (run `chutes build` first, so that .cache/results holds every
record; every language needs its catalogue in site_build/pages/catalogues; default: 1 run of each kind)

Two projects hold the bundled boards and a copy of this repository's records (nothing is computed), one publishing
English alone, the other LANGUAGES (the guide left out of both: it is English only). Each `chutes build --engine
mkdocs` is a whole process, timed with its children (the engines' processes): once with the charts' stills cold
(the project's `.cache/stills` emptied before it: every still drawn) and once warm (taken from those kept), then an
unchanged build (nothing to do: the budget is 2 s). The build's own phases give the pages (with their stills) and
the engine's step. The budget: six languages cost at most 3 times English alone. Medians of N runs, interleaved.
The section between the markers in benchmarks/results.md is replaced (run.py writes the rest of that file).
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from sections import write_section  # noqa: E402
from timing import timed_process  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results.md"
BEGIN, END = "<!-- languages.py: begin -->", "<!-- languages.py: end -->"
LANGUAGES = ("en", "es", "fr", "de", "hi", "ar")
BUDGET_RATIO = 3.0
UNCHANGED_SECONDS = 2.0
PAGES = re.compile(r"writing the pages[^:]*: done in ([\d.]+) s")
ENGINE = re.compile(r"building the site with [^:]*: done in ([\d.]+) s")
KINDS = ("stills cold", "stills warm", "unchanged")


def project(root: Path, languages: tuple[str, ...]) -> Path:
    """A project holding the bundled boards, a copy of the records, and the reference mkdocs.yml publishing
    `languages` (without the guide)."""
    (root / "site_src").mkdir(parents=True)
    config = (ROOT / "mkdocs.yml").read_text()
    config = re.sub(r"^ +(languages|guide):.*\n", "", config, flags=re.M)
    config = config.replace("  - chutes:\n", f"  - chutes:\n      languages: [{', '.join(languages)}]\n", 1)
    (root / "mkdocs.yml").write_text(config)
    shutil.copytree(ROOT / "site_src" / "boards", root / "site_src" / "boards")
    shutil.copytree(ROOT / ".cache" / "results", root / ".cache" / "results")
    return root


def build(root: Path, kind: str) -> tuple[float, float, float, float]:
    """One whole `chutes build`: wall and CPU seconds (with its children), the pages' phase and the engines'
    (summed over the languages), in seconds of wall time."""
    if kind == "stills cold":
        shutil.rmtree(root / ".cache" / "stills", ignore_errors=True)
    if kind != "unchanged":
        (root / ".cache" / "published.json").unlink(missing_ok=True)  # built again, though nothing changed
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"NO_MKDOCS_2_WARNING": "1"}
    wall, cpu, done = timed_process([sys.executable, "-m", "chutes", "build", "--engine", "mkdocs"], root, env)
    out = done.stdout + done.stderr
    if "computed in" in out:
        sys.exit(f"languages.py: a board was computed (run `chutes build` first):\n{out}")
    pages = sum(float(m) for m in PAGES.findall(out))
    engine = sum(float(m) for m in ENGINE.findall(out))
    if kind == "unchanged" and "nothing changed" not in out:
        sys.exit(f"languages.py: the unchanged build built again:\n{out}")
    return wall, cpu, pages, engine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="runs of each kind (default 1)")
    runs = parser.parse_args().runs
    if not any((ROOT / ".cache" / "results").glob("*.json")):
        sys.exit("languages.py: no records in .cache/results: run `chutes build` first")
    sites = {"English alone": ("en",), f"{len(LANGUAGES)} languages": LANGUAGES}
    times: dict[tuple[str, str], list[tuple[float, float, float, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        roots = {name: project(Path(tmp) / str(n), langs) for n, (name, langs) in enumerate(sites.items())}
        for root in roots.values():  # a first build each, not timed: the engine's imports and caches warm
            build(root, "stills warm")
        for _ in range(runs):
            for kind in KINDS:
                for name, root in roots.items():
                    times.setdefault((name, kind), []).append(build(root, kind))
        pages = {name: len(list((root / "site").rglob("*.html"))) for name, root in roots.items()}
    rows = []
    english, many = sites
    for kind in KINDS:
        med = {name: [statistics.median(r[i] for r in times[(name, kind)]) for i in range(4)] for name in sites}
        for name in sites:
            wall, cpu, page_s, engine_s = med[name]
            ratio = "" if name == english else f"{wall / med[english][0]:.2f}× wall, {cpu / med[english][1]:.2f}× CPU"
            held = ("yes" if wall <= UNCHANGED_SECONDS else "no") if kind == "unchanged" else (
                "" if name == english else "yes" if wall <= BUDGET_RATIO * med[english][0] else "no")
            step = "—" if kind == "unchanged" else f"{page_s:.1f} s | {engine_s:.1f} s"
            rows.append(f"| {kind} | {name} | {wall:.1f} s | {cpu:.1f} s | "
                        f"{step if kind != 'unchanged' else '— | —'} | {ratio} | {held} |")
    text = "\n".join([
        BEGIN, "",
        f"A site in several languages (`python benchmarks/languages.py --runs {runs}`, {platform.machine()}, "
        f"{os.cpu_count()} cores, run {time.strftime('%Y-%m-%d')}): the reference site's bundled boards from warm "
        f"records, English alone ({pages[english]} pages) beside {', '.join(LANGUAGES)} ({pages[many]} pages), "
        f"each a whole `chutes build` process (CPU with its children), medians of {runs}. Budget: the six "
        f"languages at most {BUDGET_RATIO:g}× English alone; an unchanged build under {UNCHANGED_SECONDS:g} s.", "",
        "| build | site | wall | CPU | pages and stills (wall) | engines (wall) | six ÷ one | held |",
        "|---|---|---|---|---|---|---|---|", *rows, "", END])
    write_section(RESULTS, BEGIN, END, text)
    print(text)


if __name__ == "__main__":
    main()
