"""Benchmarks for the exact engine and the site pipeline, side by side in one run.

Results go to benchmarks/results.{json,md}.
Run: python benchmarks/run.py   (about ten minutes on a 2-core machine)

The machine is shared: stages are timed in CPU seconds (of the process and the processes it waited for),
as the best of several runs where they are short; whole processes in wall and CPU seconds.
"""

from __future__ import annotations

import json
import os
import platform
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

from chutes.compute.board.file import board_files, load_board
from chutes.compute.board.limits import MAX_DIE, MAX_SQUARES
from chutes.compute.board.model import Board
from chutes.compute.experiments import sweeps as whatif
from chutes.compute.experiments.variants import candidates, first_player_floats, scan_exact
from chutes.compute.numbers import digit_count
from chutes.compute.record.build import EXPERIMENTS_MAX_SQUARES, board_record
from chutes.compute.record.schema import Skipped
from chutes.compute.solve.chain import TurnChain, turn_chain
from chutes.compute.solve.exact import bounds, distribution
from chutes.compute.solve.jumps import jump_usage, shortest_game
from chutes.compute.solve.modular import krylov, primes_above_bits
from chutes.compute.solve.reference import _residues, _Setup
from chutes.compute.solve.simulate import game_lengths
from chutes.compute.solve.twoplayer import first_player_wins

HERE = Path(__file__).parent
BOARDS = HERE.parent / "site_src" / "boards"
SOLVE_BUDGET = {400: 6.0, 1000: 90.0}
"""`chutes solve` on a random board of this many squares, whole process, wall seconds."""
COMPUTE_BUDGET = 30.0
"""`chutes compute` of every bundled board with an empty cache, wall seconds."""
SLOWEST_RATIO_BUDGET = 1.5
"""The slowest bundled board's record over the classic board's."""


def bundled(slug: str) -> Board:
    return load_board(board_files(BOARDS)[slug])


def cpu() -> float:
    """CPU seconds of this process and of the processes it has waited for."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def best_cpu(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = cpu()
        fn()
        times.append(cpu() - t)
    return min(times)


def best_of(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def random_board(squares: int, seed: int) -> Board:
    """A random valid board with about one jump per five squares."""
    rng = random.Random(seed)
    ladders, chutes, used = [], [], set()
    while len(ladders) + len(chutes) < squares // 5:
        a, b = rng.randrange(1, squares), rng.randrange(0, squares + 1)
        if a == b or a in used or b in used:
            continue
        used |= {a, b}
        (ladders if b > a else chutes).append((a, b))
    board = Board(title=f"random {squares}", squares=squares, die=6, ladders=tuple(ladders), chutes=tuple(chutes),
                  source="benchmark")
    return board


def stages(board: Board) -> dict[str, float]:
    """Time each stage of the fast exact two-player method (serial, to show what dominates)."""
    out: dict[str, float] = {}
    t = time.perf_counter()
    chain = turn_chain(board)
    out["chain"] = time.perf_counter() - t
    t = time.perf_counter()
    st = _Setup(chain)
    out["charpoly"] = time.perf_counter() - t
    t = time.perf_counter()
    a = krylov(chain, chain.start, list(chain.finish), 2 * st.m - 1)
    w = st.functional(a, a)
    out["krylov_and_H"] = time.perf_counter() - t
    t = time.perf_counter()
    st.denominator()
    out["resultant"] = time.perf_counter() - t
    primes = primes_above_bits(st.bound_bits)
    t = time.perf_counter()
    _residues(st.F, st.F_sharp, w, primes)
    out["modular"] = time.perf_counter() - t
    out["primes"] = len(primes)
    return out


def _timed_process(*command: str) -> tuple[float, float, str]:
    """Wall and CPU seconds of a whole process (with its children), and what it printed."""
    t, c = time.perf_counter(), cpu()
    done = subprocess.run(list(command), check=True, capture_output=True, text=True,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    return time.perf_counter() - t, cpu() - c, done.stdout + done.stderr


def _timed_command(*args: str) -> float:
    return _timed_process("chutes", *args)[0]


# --- the game-length distribution, before and after; what each stage costs now ---------------------------


def distribution_before(chain: TurnChain) -> int:
    """The distribution as it was computed before: a reduced fraction per term until the tail is below 10⁻³⁰
    or the denominators pass 40,000 bits, then floats to 10⁻¹⁵. Returns the number of exact terms."""
    s, finish = chain.scale, chain.finish
    vector = [0] * chain.size
    vector[chain.start] = 1
    exact: list[Fraction] = []
    power = 1
    while True:
        power *= s
        exact.append(Fraction(sum(v * f for v, f in zip(vector, finish) if v), power))
        vector = chain.step(vector)
        alive = sum(vector)
        if alive * 10**30 < power or len(exact) >= 100_000 or power.bit_length() > 40_000:
            break
    x = np.array([float(Fraction(v, power)) for v in vector])
    while alive and x.sum() >= 1e-15:
        x = x @ chain.Q_float
    return len(exact)


def distribution_side_by_side(boards: dict[str, Board]) -> dict[str, dict[str, float]]:
    """CPU seconds of the exact distribution before (a fraction per term) and now (integers, as far as used)."""
    out = {}
    for name, board in boards.items():
        chain = turn_chain(board)
        chain.Q_float, chain.rows  # noqa: B018 (built once, shared by both)
        repeat = 1 if board.squares > 200 else 3
        before_terms = distribution_before(chain)
        before = best_cpu(lambda c=chain: distribution_before(c), repeat)
        after = best_cpu(lambda c=chain: distribution(c), 3)
        out[name] = {"before_s": before, "after_s": after, "before_terms": before_terms,
                     "after_terms": distribution(chain).terms}
    return out


SOLVE_STAGES = ("turn chain", "expected turns, visits, jumps", "game-length distribution", "exact two-player chance",
                "the rest (landmarks, bounds, text)")


def solve_stages(board: Board) -> dict[str, float]:
    """CPU seconds of each stage of `compute.record.results.solve` on a fresh chain, in the order solve needs them."""
    from chutes.compute.record.results import solve

    turn_chain.cache_clear()
    out: dict[str, float] = {}
    t = cpu()
    chain = turn_chain(board)
    out["turn chain"] = cpu() - t
    t = cpu()
    chain.expected_turns, chain.expected_visits, chain.moments  # noqa: B018
    jump_usage(chain), shortest_game(chain)
    out["expected turns, visits, jumps"] = cpu() - t
    t = cpu()
    chain.distribution  # noqa: B018
    out["game-length distribution"] = cpu() - t
    t = cpu()
    chain.first_player_wins  # noqa: B018
    out["exact two-player chance"] = cpu() - t
    t = cpu()
    solve(chain)
    out["the rest (landmarks, bounds, text)"] = cpu() - t
    return out


def solve_processes() -> dict[str, dict[str, object]]:
    """`chutes solve` on random boards as whole processes (wall and CPU, best of 2), with the stages in-process."""
    out: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for squares in sorted(SOLVE_BUDGET):
            board = random_board(squares, seed=squares)
            path = Path(tmp) / f"random-{squares}.toml"
            path.write_text(_toml(board))
            runs = [_timed_process("chutes", "solve", str(path))[:2] for _ in range(2 if squares <= 400 else 1)]
            wall, spent = min(runs)
            stages = solve_stages(board)
            out[str(squares)] = {"wall_s": wall, "cpu_s": spent, "budget_s": SOLVE_BUDGET[squares],
                                 "stages_cpu_s": stages, "dominant_stage": max(stages, key=stages.get)}
    return out


def record_stages(slugs: list[str]) -> dict[str, dict[str, object]]:
    """What each bundled board's record spends its time on: CPU seconds of each step `board_record` calls
    (every function it finds in compute.record.build's namespace, timed where board_record calls it)."""
    from chutes.compute.record import build as assemble

    spent: dict[str, float] = {}
    depth = [0]

    def timed(name: str, fn):
        def wrapper(*args, **kwargs):
            if depth[0]:
                return fn(*args, **kwargs)
            depth[0] += 1
            t = cpu()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[name] = spent.get(name, 0.0) + cpu() - t
                depth[0] -= 1
        return wrapper

    steps = {name: fn for name, fn in vars(assemble).items()
             if callable(fn) and not isinstance(fn, type) and name not in ("board_record", "cache_key")}
    out: dict[str, dict[str, object]] = {}
    try:
        for name, fn in steps.items():
            setattr(assemble, name, timed(name, fn))
        for slug in slugs:
            board = bundled(slug)
            turn_chain.cache_clear()
            spent.clear()
            t = cpu()
            assemble.board_record(board, assemble.board_experiments(board))
            total = cpu() - t
            largest = dict(sorted(spent.items(), key=lambda kv: -kv[1])[:6])
            out[slug] = {"cpu_s": total, "steps_cpu_s": largest, "dominant_stage": next(iter(largest))}
    finally:
        for name, fn in steps.items():
            setattr(assemble, name, fn)
    return out


def float_scan_stage() -> dict[str, dict[str, float]]:
    """The added-jump scan's double-precision part (every changed candidate, pieces of 200, serially)."""
    out = {}
    for slug in ("classic", "noordenbos"):
        board = bundled(slug)
        effects = scan_exact(board, candidates(board))
        changed = [(e.source, e.target) for e in effects if e.status == "changed"]
        pieces = [changed[n:n + 200] for n in range(0, len(changed), 200)]
        spent = best_cpu(lambda b=board, ps=pieces: [first_player_floats(b, piece) for piece in ps], 2)
        out[slug] = {"candidates": len(changed), "cpu_s": spent}
    return out


def _toml(board: Board) -> str:
    pairs = lambda jumps: "[" + ", ".join(f"[{a}, {b}]" for a, b in jumps) + "]"  # noqa: E731
    return (f'title = "{board.title}"\nsquares = {board.squares}\ndie = {board.die}\n'
            f"ladders = {pairs(board.ladders)}\nchutes = {pairs(board.chutes)}\nsource = \"benchmark\"\n")


def limits_stage() -> dict[str, object]:
    """`chutes solve` on the largest board accepted, with a six-sided and the largest die; a new project
    holding that board built from scratch (`chutes new`, then `chutes build`: every record, page and check), with
    its record and page sizes; and the refusal of a board one square larger."""
    out: dict[str, object] = {"max_squares": MAX_SQUARES, "max_die": MAX_DIE}
    with tempfile.TemporaryDirectory() as tmp:
        base = random_board(MAX_SQUARES, seed=MAX_SQUARES)
        for die in (6, MAX_DIE):
            path = Path(tmp) / f"largest-d{die}.toml"
            path.write_text(_toml(Board(**{**base.fields(), "die": die, "title": f"largest, d{die}"})))
            out[f"solve_d{die}_s"] = _timed_command("solve", str(path))
        project = Path(tmp) / "project"
        subprocess.run(["chutes", "new", str(project)], check=True, capture_output=True)
        (project / "site_src" / "boards" / "largest.toml").write_text(_toml(base))
        t = time.perf_counter()
        subprocess.run(["chutes", "build", "--project", str(project)], check=True, capture_output=True)
        out["build_largest_s"] = time.perf_counter() - t
        out["record_bytes"] = sum(f.stat().st_size for f in (project / ".cache" / "results").glob("largest-*.json"))
        out["page_bytes"] = (project / "site" / "boards" / "largest" / "index.html").stat().st_size
        path = Path(tmp) / "too-big.toml"
        path.write_text(_toml(Board(**{**base.fields(), "squares": MAX_SQUARES + 1, "title": "too big"})))
        t = time.perf_counter()
        refused = subprocess.run(["chutes", "solve", str(path)], capture_output=True, text=True)
        out["refusal_s"] = time.perf_counter() - t
        out["refusal"] = refused.stderr.strip()
    return out


def experiments_stage() -> dict[str, object]:
    """Hochman's single-jump scan of the classic board: exact part alone, then the whole scan by jobs."""
    board = bundled("classic")
    pairs = candidates(board)
    exact = best_of(lambda: scan_exact(board, pairs), 3)
    whole = {}
    for jobs in (1, 2):
        t = time.perf_counter()
        whatif.add_jump(board, jobs=jobs, folder=None, progress=False)
        whole[str(jobs)] = time.perf_counter() - t
    return {"candidates": len(pairs), "exact_s": exact, "whole_s_by_jobs": whole}


def site_stage() -> dict[str, object]:
    """The published-site pipeline as a user runs it (separate processes, so start-up counts)."""
    with tempfile.TemporaryDirectory() as tmp:
        cache, site = Path(tmp) / "cache", Path(tmp) / "site"
        cold, _, log = _timed_process("chutes", "compute", "--cache", str(cache))
        unchanged = _timed_command("compute", "--cache", str(cache))
        build = _timed_command("build", "--cache", str(cache), "--site-dir", str(site))
        pages = {p.parent.name: p.stat().st_size for p in sorted((site / "boards").glob("*/index.html"))}
        plotly = site / "assets" / "javascripts" / "plotly.min.js"
        shared = plotly.stat().st_size if plotly.exists() else None
    per_board = {m[1]: float(m[2]) for m in re.finditer(r"^\s*([\w-]+): computed in ([\d.]+) s", log, re.M)}
    return {"compute_cold_s": cold, "compute_per_board_s": per_board,
            "compute_unchanged_s": unchanged, "build_from_cache_s": build,
            "board_page_bytes": pages, "plotly_js_bytes": shared}


def budget_lines(results: dict[str, object]) -> list[str]:
    """The speed budgets side by side, then what each stage costs."""
    solve = dict(sorted(results["solve"].items(), key=lambda kv: int(kv[0])))
    site, records = results["site"], results["records"]
    per_board = site["compute_per_board_s"]
    slowest = max(per_board, key=per_board.get)
    cpu_slowest = max(records, key=lambda s: records[s]["cpu_s"])
    shares: dict[str, float] = {}
    for r in records.values():
        for step, spent in r["steps_cpu_s"].items():
            shares[step] = shares.get(step, 0.0) + spent
    def held(ok: bool) -> str:
        return "yes" if ok else "**no**"

    lines = ["| what | budget | wall | CPU | held | what dominates |", "|---|---|---|---|---|---|"]
    for squares, s in solve.items():
        lines.append(f"| `chutes solve`, random {squares}-square board, whole process | ≤ {s['budget_s']:.0f} s | "
                     f"{s['wall_s']:.1f} s | {s['cpu_s']:.1f} s | {held(s['wall_s'] <= s['budget_s'])} | "
                     f"{s['dominant_stage']} |")
    top = sorted(shares.items(), key=lambda kv: -kv[1])[:3]
    ratio = per_board[slowest] / per_board["classic"]
    cpu_ratio = records[cpu_slowest]["cpu_s"] / records["classic"]["cpu_s"]
    lines += [
        f"| `chutes compute`, the {len(per_board)} bundled boards of the day, empty cache | ≤ {COMPUTE_BUDGET:.0f} s | "
        f"{site['compute_cold_s']:.1f} s | {sum(r['cpu_s'] for r in records.values()):.1f} s (the boards one by one, "
        f"in-process; the command spreads them over the cores) | "
        f"{held(site['compute_cold_s'] <= COMPUTE_BUDGET)} | "
        + ", ".join(f"{k} {v:.0f} s" for k, v in top) + " (CPU, all boards, in-process) |",
        f"| slowest bundled board ÷ classic, `chutes compute` | ≤ {SLOWEST_RATIO_BUDGET}× | "
        f"{ratio:.2f}× ({slowest}) | {cpu_ratio:.2f}× ({cpu_slowest}) | "
        f"{held(max(ratio, cpu_ratio) <= SLOWEST_RATIO_BUDGET)} | {records[cpu_slowest]['dominant_stage']} |",
        "",
        f"Boards are accepted up to {results['limits']['max_squares']:,} squares (below). `first_of_three` is the "
        "exact chance of the first of three players (cached in each record where it fits), `_experiments` the die, "
        "start and added-jump experiments.",
        "", "The exact game-length distribution, before (a reduced fraction per term, until less than 10⁻³⁰ of the "
        "games run or the denominators pass 40,000 bits) and now (integer numerators over sᵏ, as far as the "
        "reported values need), CPU seconds:", "",
        "| board | exact terms before → now | before | now | faster |", "|---|---|---|---|---|",
    ]
    for name, d in results["distribution"].items():
        lines.append(f"| {name} | {d['before_terms']:,} → {d['after_terms']:,} | {d['before_s']:.2f} s | "
                     f"{d['after_s']:.3f} s | {d['before_s'] / d['after_s']:.0f}× |")
    lines += ["", "`chutes solve`'s stages (CPU seconds, in-process, a fresh chain):", "",
              "| board | " + " | ".join(SOLVE_STAGES) + " |", "|---|" + "---|" * len(SOLVE_STAGES)]
    for squares, s in solve.items():
        lines.append(f"| random {squares} | " + " | ".join(f"{s['stages_cpu_s'][k]:.2f}" for k in SOLVE_STAGES) + " |")
    lines += ["", "Each bundled board's record (`board_record` in-process, CPU seconds: its largest steps):", "",
              "| board | CPU | largest steps |", "|---|---|---|"]
    for slug, r in records.items():
        steps = ", ".join(f"{k} {v:.2f}" for k, v in sorted(r["steps_cpu_s"].items(), key=lambda kv: -kv[1])
                          if v >= 0.05)
        lines.append(f"| {slug} | {r['cpu_s']:.1f} s | {steps} |")
    lines += ["", "The added-jump scan's double-precision part (every changed candidate, serially):", "",
              "| board | candidates | CPU |", "|---|---|---|"]
    for slug, f in results["float_scan"].items():
        lines.append(f"| {slug} | {f['candidates']:,} | {f['cpu_s']:.2f} s |")
    return lines


def main() -> None:
    results: dict[str, object] = {"machine": f"{platform.machine()}, {platform.python_version()}",
                                  "date": time.strftime("%Y-%m-%d")}
    classic = turn_chain(bundled("classic"))
    first_player_wins(classic)
    results["two_player_classic_s"] = best_of(lambda: first_player_wins(turn_chain(bundled("classic"))), 5)
    results["solve_classic_json_s"] = min(_timed_process("chutes", "solve", "classic", "--json")[0] for _ in range(3))
    results["bounds_500_s"] = best_of(lambda: bounds(distribution(classic, max_terms=500, float_tail=0), 500), 3)
    board = bundled("classic")
    game_lengths(board, 10_000, 1)
    n = 20_000_000
    sim = best_of(lambda: game_lengths(board, n, 11), 3)
    results["simulation_games_per_s"] = n / sim
    growth = []
    for squares in (100, 200, 400):
        b = random_board(squares, seed=squares)
        chain = turn_chain(b)
        t = time.perf_counter()
        p = first_player_wins(chain)
        total = time.perf_counter() - t
        st = stages(b)
        dominant = max(("charpoly", "krylov_and_H", "resultant", "modular"), key=lambda k: st[k])
        t = time.perf_counter()
        board_record(b, Skipped(skipped="not timed here"))
        record = time.perf_counter() - t
        growth.append({"squares": squares, "states": chain.size, "seconds": total, "record_seconds": record,
                       "digits": digit_count(p.denominator), "dominant_stage": dominant, "stages_serial": st})
    results["growth"] = growth
    results["distribution"] = distribution_side_by_side({"classic": bundled("classic"),
                                                         "noordenbos": bundled("noordenbos"),
                                                         "random 400": random_board(400, seed=400)})
    results["solve"] = solve_processes()
    results["float_scan"] = float_scan_stage()
    results["records"] = record_stages(list(board_files(BOARDS)))
    results["experiments"] = experiments_stage()
    results["limits"] = limits_stage()
    results["site"] = site_stage()
    (HERE / "results.json").write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    write_markdown(results)


def write_markdown(results: dict[str, object]) -> None:
    """benchmarks/results.md from the results (`python benchmarks/run.py --markdown` redoes it from results.json)."""
    growth = results["growth"]
    lines = [
        "# Benchmark results", "",
        f"Machine: {results['machine']}, 2 cores (shared with other work: CPU seconds are the steadier measure); "
        f"run {results['date']} with `python benchmarks/run.py`.", "",
        *budget_lines(results), "",
        "| what | seed / peer | budget | measured |", "|---|---|---|---|",
        f"| `chutes solve classic --json`, whole process (imports and all) | — | ≤ 0.30 s | "
        f"{results.get('solve_classic_json_s', float('nan')):.2f} s |",
        f"| exact first-player probability, classic board | 99 minutes | ≤ 0.1 s | "
        f"{results['two_player_classic_s']:.3f} s |",
        f"| exact bounds after 500 turns | 11.8 s (sympy) | ≤ 0.2 s | {results['bounds_500_s']:.3f} s |",
        f"| one-player games simulated per second | ~10,000 | ≥ 10 million | "
        f"{results['simulation_games_per_s'] / 1e6:.1f} million |",
        "", "Growth with board size (random boards, one jump per five squares, exact first-player probability):", "",
        "| squares | states d | time | digits of the denominator | dominant stage | stages (serial, s) "
        "| whole cached record |",
        "|---|---|---|---|---|---|---|",
    ]
    lines.insert(-2, "The last column is everything `chutes compute` stores for such a board (exact results, "
                     "chart series, a million simulated games), without the experiments (boards over "
                     f"{EXPERIMENTS_MAX_SQUARES} squares get them on request only).\n")
    for g in growth:
        st = g["stages_serial"]
        detail = ", ".join(f"{k} {v:.2f}" for k, v in st.items() if k != "primes") + f"; {st['primes']} primes"
        lines.append(f"| {g['squares']} | {g['states']} | {g['seconds']:.2f} s | {g['digits']:,} | "
                     f"{g['dominant_stage']} | {detail} | {g['record_seconds']:.1f} s |")
    ex = results["experiments"]
    lines += [
        "", f"Hochman's scan of every added chute or ladder, classic board ({ex['candidates']:,} candidates):", "",
        "| what | budget | measured |", "|---|---|---|",
        f"| exact change in expected turns, every candidate | ≤ 60 s | {ex['exact_s']:.2f} s |",
        f"| whole scan (plus the first player's chance in double precision), 1 process | — | "
        f"{ex['whole_s_by_jobs']['1']:.1f} s |",
        f"| the same, 2 processes | — | {ex['whole_s_by_jobs']['2']:.1f} s |",
    ]
    lim = results["limits"]
    lines += [
        "", f"Limits: boards of up to {lim['max_squares']} squares and dice of up to {lim['max_die']} faces "
        "(a random board of the largest size, one jump per five squares):", "",
        "| what | measured |", "|---|---|",
        f"| `chutes solve`, {lim['max_squares']} squares, 6-sided die | {lim['solve_d6_s']:.1f} s |",
        f"| `chutes solve`, {lim['max_squares']} squares, {lim['max_die']}-sided die | "
        f"{lim['solve_d{}_s'.format(lim['max_die'])]:.1f} s |",
        f"| `chutes new`, then `chutes build` of that project with the {lim['max_squares']:,}-square board "
        f"(6-sided die) added: every record, page and check, whole process | {lim['build_largest_s']:.0f} s |",
        f"| that board's cached record (the site's data download: the exact fractions of a few hundred thousand "
        f"digits each) | {lim['record_bytes'] / 1e6:.1f} MB |",
        f"| that board's page, without the shared plotly.js | {lim['page_bytes'] / 1e6:.2f} MB (budget 1.5 MB, "
        "as every board page) |",
        f"| refusing a board of {lim['max_squares'] + 1} squares | {lim['refusal_s']:.1f} s: `{lim['refusal']}` |",
    ]
    site = results["site"]
    heaviest = max(site["board_page_bytes"], key=site["board_page_bytes"].get)
    lines += [
        "", "The published site (each step a separate `chutes` process, all bundled boards):", "",
        "| what | budget | measured |", "|---|---|---|",
        f"| `chutes compute`, empty cache | ≤ {COMPUTE_BUDGET:.0f} s | {site['compute_cold_s']:.1f} s |",
        f"| `chutes compute`, nothing changed | ≤ 2 s | {site['compute_unchanged_s']:.1f} s |",
        f"| `chutes build` from the cache | ≤ 30 s | {site['build_from_cache_s']:.1f} s |",
        f"| heaviest board page without the shared plotly.js ({heaviest}) | ≤ 1.5 MB | "
        f"{site['board_page_bytes'][heaviest] / 1e6:.2f} MB |",
    ]
    if site["plotly_js_bytes"]:
        lines += ["", f"plotly.js, shared by every page and cached by the browser: "
                      f"{site['plotly_js_bytes'] / 1e6:.1f} MB."]
    (HERE / "results.md").write_text("\n".join(lines) + "\n" + _other_sections())
    print("\n".join(lines))


def _other_sections() -> str:
    """The sections other benchmark scripts keep in results.md, between their `<!-- name: begin -->` and
    `<!-- name: end -->` markers (kept as they are)."""
    path = HERE / "results.md"
    text = path.read_text() if path.exists() else ""
    blocks = re.findall(r"\n<!-- ([\w.-]+): begin -->.*?<!-- \1: end -->\n", text, re.S)
    kept = [re.search(rf"\n<!-- {re.escape(name)}: begin -->.*?<!-- {re.escape(name)}: end -->\n", text, re.S)
            for name in blocks]
    return "".join(m.group(0) for m in kept if m)


if __name__ == "__main__":
    if sys.argv[1:] == ["--markdown"]:
        write_markdown(json.loads((HERE / "results.json").read_text()))
    else:
        main()
