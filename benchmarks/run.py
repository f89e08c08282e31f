"""Benchmarks for the exact engine and the site pipeline, side by side in one run.

Results go to benchmarks/results.{json,md}.
Run: python benchmarks/run.py   (about a minute on a 2-core machine)
"""

from __future__ import annotations

import json
import os
import platform
import random
import subprocess
import tempfile
import time
from pathlib import Path

from compute import whatif
from compute.assemble import EXPERIMENTS_MAX_SQUARES, board_record
from compute.boards import Board, resolve_board
from compute.chain import turn_chain
from compute.exact import bounds, distribution
from compute.experiments import candidates, scan_exact
from compute.limits import MAX_DIE, MAX_SQUARES
from compute.numbers import digit_count
from compute.simulate import game_lengths
from compute.twoplayer import _primes_above_bits, _residues, _Setup, first_player_wins, krylov

HERE = Path(__file__).parent


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
    primes = _primes_above_bits(st.bound_bits)
    t = time.perf_counter()
    _residues(st.F, st.F_sharp, w, primes)
    out["modular"] = time.perf_counter() - t
    out["primes"] = len(primes)
    return out


def _timed_command(*args: str) -> float:
    t = time.perf_counter()
    subprocess.run(["chutes", *args], check=True, capture_output=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    return time.perf_counter() - t


def _toml(board: Board) -> str:
    pairs = lambda jumps: "[" + ", ".join(f"[{a}, {b}]" for a, b in jumps) + "]"  # noqa: E731
    return (f'title = "{board.title}"\nsquares = {board.squares}\ndie = {board.die}\n'
            f"ladders = {pairs(board.ladders)}\nchutes = {pairs(board.chutes)}\nsource = \"benchmark\"\n")


def limits_stage() -> dict[str, object]:
    """`chutes solve` on the largest board accepted, with a six-sided and the largest die; and the refusal."""
    out: dict[str, object] = {"max_squares": MAX_SQUARES, "max_die": MAX_DIE}
    with tempfile.TemporaryDirectory() as tmp:
        base = random_board(MAX_SQUARES, seed=MAX_SQUARES)
        for die in (6, MAX_DIE):
            path = Path(tmp) / f"largest-d{die}.toml"
            path.write_text(_toml(Board(**{**base.fields(), "die": die, "title": f"largest, d{die}"})))
            out[f"solve_d{die}_s"] = _timed_command("solve", str(path))
        path = Path(tmp) / "too-big.toml"
        path.write_text(_toml(Board(**{**base.fields(), "squares": MAX_SQUARES + 1, "title": "too big"})))
        t = time.perf_counter()
        refused = subprocess.run(["chutes", "solve", str(path)], capture_output=True, text=True)
        out["refusal_s"] = time.perf_counter() - t
        out["refusal"] = refused.stderr.strip()
    return out


def experiments_stage() -> dict[str, object]:
    """Hochman's single-jump scan of the classic board: exact part alone, then the whole scan by jobs."""
    board = resolve_board("classic")
    pairs = candidates(board)
    exact = best_of(lambda: scan_exact(board, pairs), 3)
    whole = {}
    for jobs in (1, 2):
        t = time.perf_counter()
        whatif.add_jump(board, jobs=jobs, folder=None, progress=False)
        whole[jobs] = time.perf_counter() - t
    return {"candidates": len(pairs), "exact_s": exact, "whole_s_by_jobs": whole}


def site_stage() -> dict[str, object]:
    """The published-site pipeline as a user runs it (separate processes, so start-up counts)."""
    with tempfile.TemporaryDirectory() as tmp:
        cache, site = Path(tmp) / "cache", Path(tmp) / "site"
        cold = _timed_command("compute", "--cache", str(cache))
        unchanged = _timed_command("compute", "--cache", str(cache))
        build = _timed_command("build", "--cache", str(cache), "--site-dir", str(site))
        pages = {p.parent.name: p.stat().st_size for p in sorted((site / "boards").glob("*/index.html"))}
        shared = (site / "assets" / "javascripts" / "plotly.min.js").stat().st_size
    return {"compute_cold_s": cold, "compute_unchanged_s": unchanged, "build_from_cache_s": build,
            "board_page_bytes": pages, "plotly_js_bytes": shared}


def main() -> None:
    results: dict[str, object] = {"machine": f"{platform.machine()}, {platform.python_version()}",
                                  "date": time.strftime("%Y-%m-%d")}
    classic = turn_chain(resolve_board("classic"))
    first_player_wins(classic)
    results["two_player_classic_s"] = best_of(lambda: first_player_wins(turn_chain(resolve_board("classic"))), 5)
    results["bounds_500_s"] = best_of(lambda: bounds(distribution(classic, max_terms=500, float_tail=0), 500), 3)
    board = resolve_board("classic")
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
        board_record(b, experiments=False)
        record = time.perf_counter() - t
        growth.append({"squares": squares, "states": chain.size, "seconds": total, "record_seconds": record,
                       "digits": digit_count(p.denominator), "dominant_stage": dominant, "stages_serial": st})
    results["growth"] = growth
    results["experiments"] = experiments_stage()
    results["limits"] = limits_stage()
    results["site"] = site_stage()
    (HERE / "results.json").write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    lines = [
        "# Benchmark results", "",
        f"Machine: {results['machine']}, 2 cores; run {results['date']} with `python benchmarks/run.py`.", "",
        "| what | seed / peer | budget | measured |", "|---|---|---|---|",
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
        f"{ex['whole_s_by_jobs'][1]:.1f} s |",
        f"| the same, 2 processes | — | {ex['whole_s_by_jobs'][2]:.1f} s |",
    ]
    lim = results["limits"]
    record_400 = next((g["record_seconds"] for g in growth if g["squares"] == lim["max_squares"]), None)
    lines += [
        "", f"Limits: boards of up to {lim['max_squares']} squares and dice of up to {lim['max_die']} faces "
        "(a random board of the largest size, one jump per five squares):", "",
        "| what | measured |", "|---|---|",
        f"| `chutes solve`, {lim['max_squares']} squares, 6-sided die | {lim['solve_d6_s']:.1f} s |",
        f"| `chutes solve`, {lim['max_squares']} squares, {lim['max_die']}-sided die | "
        f"{lim['solve_d{}_s'.format(lim['max_die'])]:.1f} s |",
        f"| everything `chutes compute` stores, {lim['max_squares']} squares, 6-sided die | "
        f"{record_400:.1f} s |" if record_400 else "| — | — |",
        f"| refusing a board of {lim['max_squares'] + 1} squares | {lim['refusal_s']:.1f} s: `{lim['refusal']}` |",
    ]
    site = results["site"]
    heaviest = max(site["board_page_bytes"], key=site["board_page_bytes"].get)
    lines += [
        "", "The published site (each step a separate `chutes` process, all bundled boards):", "",
        "| what | budget | measured |", "|---|---|---|",
        f"| `chutes compute`, empty cache | ≤ 60 s | {site['compute_cold_s']:.1f} s |",
        f"| `chutes compute`, nothing changed | ≤ 2 s | {site['compute_unchanged_s']:.1f} s |",
        f"| `chutes build` from the cache | ≤ 30 s | {site['build_from_cache_s']:.1f} s |",
        f"| heaviest board page without the shared plotly.js ({heaviest}) | ≤ 1.5 MB | "
        f"{site['board_page_bytes'][heaviest] / 1e6:.2f} MB |",
        "", f"plotly.js, shared by every page and cached by the browser: {site['plotly_js_bytes'] / 1e6:.1f} MB.",
    ]
    (HERE / "results.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
