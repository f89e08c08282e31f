"""The exact first-player probability: full-degree against half-degree method, side by side in one run.

Random boards of 100, 200, 400 and 800 squares (benchmarks/run.py's `random_board`; the 800-square one is
built with the same generator but without the size check), plus the classic board. Every number is CPU time
of this process (time.process_time), one process; the half-degree method is also timed once at 800 squares
with its work shared by a second process (wall clock). Both methods must give the same fraction.

Results go to benchmarks/twoplayer_scaling.md.
Run: python benchmarks/twoplayer_scaling.py   (about three minutes on a 2-core machine)
"""

from __future__ import annotations

import math
import platform
import sys
import time
from pathlib import Path

import gmpy2

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

from run import random_board  # noqa: E402

from chutes.compute.board.file import load_board  # noqa: E402
from chutes.compute.board.model import Board  # noqa: E402
from chutes.compute.solve.chain import turn_chain  # noqa: E402
from chutes.compute.solve.modular import crt, krylov, primes_above_bits, reduced_fraction  # noqa: E402
from chutes.compute.solve.reference import _residues, _Setup  # noqa: E402
from chutes.compute.solve.twoplayer import _first_player_half  # noqa: E402

SIZES = (100, 200, 400, 800)
FULL_STAGES = ("chain", "charpoly", "krylov_and_H", "resultant", "modular", "crt")
HALF_STAGES = ("chain", "krylov", "minpoly", "transform", "modular", "crt")
clock = time.process_time


def board_of(squares: int, seed: int) -> Board:
    """run.py's random board (the size limit belongs to board files, so 800 squares are built the same way)."""
    return random_board(squares, seed)


def full_degree(board: Board):
    """The full-degree method stage by stage (serial), as compute.solve.reference.first_player_wins_full runs it."""
    st: dict[str, float] = {}
    t = clock()
    chain = turn_chain(board)
    st["chain"] = clock() - t
    t = clock()
    setup = _Setup(chain)
    st["charpoly"] = clock() - t
    t = clock()
    a = krylov(chain, chain.start, list(chain.finish), max(2 * setup.m - 1, 1))
    w = setup.functional(a, a)
    st["krylov_and_H"] = clock() - t
    t = clock()
    D = setup.denominator()
    st["resultant"] = clock() - t
    primes = primes_above_bits(setup.bound_bits)
    t = clock()
    residues = _residues(setup.F, setup.F_sharp, w, primes)
    st["modular"] = clock() - t
    t = clock()
    kept = [(r, p) for r, p in zip(residues, primes) if r is not None]
    numerator = crt([(r * (D % p)) % p for r, p in kept], [p for _, p in kept])
    v = reduced_fraction(numerator, D)
    value = reduced_fraction(v.denominator + v.numerator, 2 * v.denominator)
    st["crt"] = clock() - t
    st["total"] = sum(st[k] for k in FULL_STAGES)
    st["primes"] = len(primes)
    st["d"] = chain.size
    return value, st


def half_degree(board: Board, parallel: bool = False):
    """The half-degree method (compute.solve.twoplayer.first_player_wins) with its own stage timings."""
    st: dict[str, float] = {}
    t = clock()
    chain = turn_chain(board)
    st["chain"] = clock() - t
    value = _first_player_half(chain, parallel, st)
    st["total"] = sum(st[k] for k in HALF_STAGES)
    st["d"] = chain.size
    return value, st


def digits(n: int) -> int:
    return len(gmpy2.mpz(n).digits())


def exponent(t0: float, t1: float, d0: int, d1: int) -> float:
    return math.log(t1 / t0) / math.log(d1 / d0)


def main() -> None:
    rows = []
    classic = load_board(HERE.parent / "site_src" / "boards" / "classic.toml")
    full_degree(classic)  # warm up (imports, caches)
    classic_value, classic_stats = half_degree(classic)
    classic_full = min(full_degree(classic)[1]["total"] for _ in range(5))
    classic_half = min(half_degree(classic)[1]["total"] for _ in range(5))
    print(f"classic: full {classic_full:.3f} s, half {classic_half:.3f} s", flush=True)
    for squares in SIZES:
        board = board_of(squares, seed=squares)
        half_value, half = half_degree(board)
        print(f"{squares} squares, d = {half['d']}: half {half['total']:.2f} s "
              + ", ".join(f"{k} {half[k]:.3f}" for k in HALF_STAGES), flush=True)
        full_value, full = full_degree(board)
        print(f"{squares} squares, d = {full['d']}: full {full['total']:.2f} s "
              + ", ".join(f"{k} {full[k]:.3f}" for k in FULL_STAGES), flush=True)
        if half_value != full_value:
            raise SystemExit(f"the two methods disagree on the {squares}-square board")
        rows.append({"squares": squares, "d": half["d"], "k": half["k"], "full": full, "half": half,
                     "digits": digits(half_value.denominator)})
    big = board_of(SIZES[-1], seed=SIZES[-1])
    w = time.perf_counter()
    c = clock()
    two_value, _ = half_degree(big, parallel=True)
    two_wall, two_cpu = time.perf_counter() - w, clock() - c
    assert two_value == half_value
    print(f"{SIZES[-1]} squares, half, 2 processes: wall {two_wall:.1f} s, CPU in this process {two_cpu:.1f} s")

    first, last = rows[0], rows[-1]
    growth = {key: exponent(first[key]["total"], last[key]["total"], first["d"], last["d"]) for key in ("full", "half")}
    dominant = {key: max(HALF_STAGES if key == "half" else FULL_STAGES, key=lambda s: last[key][s])
                for key in ("full", "half")}
    lines = [
        "# Exact first-player probability: full-degree against half-degree method", "",
        f"Machine: {platform.machine()}, Python {platform.python_version()}, 2 cores; run {time.strftime('%Y-%m-%d')} "
        "with `python benchmarks/twoplayer_scaling.py`. CPU seconds of one process (`time.process_time`); "
        "random boards from `benchmarks/run.py` (one jump per five squares, six-sided die; the 800-square board "
        "is built without the 400-square limit). Both methods gave the same fraction on every board.", "",
        "| board | states d | degree k | digits of the denominator | full-degree | half-degree | speed-up |",
        "|---|---|---|---|---|---|---|",
        f"| classic | {classic_stats['d']} | {classic_stats['k']} | {digits(classic_value.denominator):,} | "
        f"{classic_full:.3f} s | {classic_half:.3f} s | "
        f"{classic_full / classic_half:.1f}× |",
    ]
    for r in rows:
        lines.append(f"| random, {r['squares']} squares | {r['d']} | {r['k']} | {r['digits']:,} | "
                     f"{r['full']['total']:.2f} s | {r['half']['total']:.2f} s | "
                     f"{r['full']['total'] / r['half']['total']:.1f}× |")
    lines += [
        "", f"Growth exponent in d ({first['squares']} → {last['squares']} squares, d {first['d']} → {last['d']}): "
        f"full-degree {growth['full']:.2f}, half-degree {growth['half']:.2f}. "
        "Step by step (half-degree): " + ", ".join(
            f"{a['d']}→{b['d']}: {exponent(a['half']['total'], b['half']['total'], a['d'], b['d']):.2f}"
            for a, b in zip(rows, rows[1:])) + ".", "",
        f"Half-degree at {last['squares']} squares with a second process sharing the primes: "
        f"{two_wall:.1f} s wall clock ({two_cpu:.1f} s CPU in the first process).", "",
        "Stages, half-degree (CPU s): chain = the turn chain; krylov = 2d exact terms of γ; minpoly = minimal "
        "polynomial (Berlekamp–Massey modulo 512-bit primes, exact check); transform = Cayley transform, even/odd "
        "split; modular = one xgcd and one resultant at degree k/2 per prime; crt = Chinese remainders and "
        "the certificate.", "",
        "| squares | " + " | ".join(HALF_STAGES) + " | primes | dominant |",
        "|---|" + "---|" * (len(HALF_STAGES) + 2),
    ]
    for r in rows:
        h = r["half"]
        lines.append(f"| {r['squares']} | " + " | ".join(f"{h[s]:.3f}" for s in HALF_STAGES)
                     + f" | {h['primes']:,} | {max(HALF_STAGES, key=lambda s: h[s])} |")
    lines += [
        "", "Stages, full-degree (CPU s): charpoly = characteristic polynomial of M; krylov_and_H = 2d terms and "
        "the functional; resultant = the exact denominator Res(F, F#); modular = one inverse modulo F of degree d "
        "per prime; crt = Chinese remainders.", "",
        "| squares | " + " | ".join(FULL_STAGES) + " | primes | dominant |",
        "|---|" + "---|" * (len(FULL_STAGES) + 2),
    ]
    for r in rows:
        f = r["full"]
        lines.append(f"| {r['squares']} | " + " | ".join(f"{f[s]:.3f}" for s in FULL_STAGES)
                     + f" | {f['primes']:,} | {max(FULL_STAGES, key=lambda s: f[s])} |")
    lines += ["", f"Dominant stage at {last['squares']} squares: half-degree {dominant['half']}, "
              f"full-degree {dominant['full']}."]
    (HERE / "twoplayer_scaling.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
