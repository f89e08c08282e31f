"""The exact methods' work modulo primes on a Dask cluster of 1 and 2 workers, beside one and two local processes;
and `chutes compute` of whole boards on 1, 2 and 4 workers.

Usage: python benchmarks/cluster.py [REPEATS]   (default 2, interleaved; about ten minutes on a 2-core machine;
needs the `dask` extra)
       python benchmarks/cluster.py --boards [COUNT]   (default 40 random boards of 30 to 69 squares)

With --boards: the compute stage (`compute.stage.update`, every record computed anew) of COUNT random boards on
this machine's two processes, then on a `LocalCluster` of 1, 2 and 4 single-threaded workers (whole boards sent
to the workers, longest first; their records checked and stored here). Wall seconds, the CPU seconds the workers
used, and whether every way stored the same bytes.

Two computations whose time is mostly residues modulo primes: the first player's exact chance on a random
800-square board (d = 640; `benchmarks/run.py`'s generator, the board of benchmarks/twoplayer_scaling.py) and
the first of three players' exact chance on the classic board. Each runs with its residues in this process,
in this process and a forked one (`parallel=True`, what `chutes solve` does without a cluster), and on a
`distributed.LocalCluster` of 1 and of 2 single-threaded worker processes on this machine (the setup, the
Chinese remainders and the checks stay here). Wall seconds, the best of the runs; and CPU seconds, which other
work on a shared machine disturbs less: the local run's own, split into its residues (timed around
`run_parallel`) and the serial rest, and each worker's. Serial CPU plus the residues' CPU over n is the
projection for n workers with a free core each. Every run must give the same fraction.
The section between the markers in benchmarks/results.md is replaced (run.py writes the rest of that file).
"""

from __future__ import annotations

import os
import platform
import resource
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from distributed import Client, LocalCluster  # noqa: E402
from run import random_board  # noqa: E402
from sections import write_table  # noqa: E402

from chutes.compute.board.file import load_board  # noqa: E402
from chutes.compute.numbers import digit_count  # noqa: E402
from chutes.compute.solve import threeplayer, twoplayer  # noqa: E402
from chutes.compute.solve.chain import turn_chain  # noqa: E402
from chutes.compute.solve.integer import IntegerChain  # noqa: E402
from chutes.compute.solve.modular import on_cluster  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results.md"
BEGIN, END = "<!-- cluster.py: begin -->", "<!-- cluster.py: end -->"
BOARDS_BEGIN, BOARDS_END = "<!-- cluster.py boards: begin -->", "<!-- cluster.py boards: end -->"
BOARD_WORKERS = (1, 2, 4)
WORKERS = (1, 2)
PROJECTED = (4, 8, 16)
Exact = Callable[..., Fraction]


def residue_clock(module) -> list[float]:
    """CPU seconds of this process in each call of the module's `run_parallel` (its residues modulo primes)."""
    spent: list[float] = []
    real = module.run_parallel

    def clocked(*args):
        started = time.process_time()
        value = real(*args)
        spent.append(time.process_time() - started)
        return value

    module.run_parallel = clocked
    return spent


def _own_cpu() -> float:
    """CPU seconds of the process it runs in (on each worker, through `Client.run`)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def worker_cpu(client: Client) -> list[float]:
    """Each worker's CPU seconds so far."""
    return sorted(client.run(_own_cpu).values())


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    classic = load_board(ROOT / "site_src" / "boards" / "classic.toml")
    jobs: dict[str, tuple[Exact, IntegerChain]] = {
        "two": (twoplayer.first_player_wins, turn_chain(random_board(800, 800))),
        "three": (threeplayer.first_of_three_wins, turn_chain(classic))}
    residues = {"two": residue_clock(twoplayer), "three": residue_clock(threeplayer)}
    clusters = {n: LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0")
                for n in WORKERS}
    clients = {n: Client(cluster) for n, cluster in clusters.items()}
    ways: list[str | int] = ["one process", "two local processes", *WORKERS]
    walls: dict[tuple[str, str | int], list[float]] = {}
    cpu: dict[tuple[str, str | int], list[list[float]]] = {}
    values: dict[str, set[Fraction]] = {name: set() for name in jobs}
    load = os.getloadavg()[0]
    try:
        for _ in range(repeats):
            for name, (fn, chain) in jobs.items():
                for way in ways:
                    residues[name].clear()
                    before = worker_cpu(clients[way]) if isinstance(way, int) else [time.process_time()]
                    started = time.perf_counter()
                    if isinstance(way, int):
                        with on_cluster(clusters[way].scheduler_address):
                            value = fn(chain)
                    else:
                        value = fn(chain, parallel=way == "two local processes")
                    walls.setdefault((name, way), []).append(time.perf_counter() - started)
                    after = worker_cpu(clients[way]) if isinstance(way, int) else [time.process_time()]
                    used = [b - a for a, b in zip(before, after)]
                    cpu.setdefault((name, way), []).append(used + [sum(residues[name])] * (way == "one process"))
                    values[name].add(value)
                    print(f"{name} players, {way}: {walls[name, way][-1]:.1f} s wall, CPU {used}", flush=True)
    finally:
        for n in WORKERS:
            clients[n].close()
            clusters[n].close()
    load = max(load, os.getloadavg()[0])
    if any(len(v) != 1 for v in values.values()):
        raise SystemExit("the runs gave different fractions")

    def row(name: str, title: str) -> str:
        wall = {way: min(walls[name, way]) for way in ways}
        total, shared = min(cpu[name, "one process"])
        serial = total - shared
        busiest = {n: min(max(run) for run in cpu[name, n]) for n in WORKERS}
        projected = ", ".join(f"{n}: {serial + shared / n:.1f} s" for n in PROJECTED)
        return (f"| {title} | {wall['one process']:.1f} s ({total:.1f} s CPU, {shared:.1f} s of it residues) | "
                f"{wall['two local processes']:.1f} s | "
                + " | ".join(f"{wall[n]:.1f} s ({busiest[n]:.1f} s CPU)" for n in WORKERS)
                + f" | {projected} |")

    two, three = (next(iter(values[name])) for name in jobs)
    rows = [row("two", f"first player, random 800 squares (d = {jobs['two'][1].size}, "
                       f"{digit_count(two.denominator):,} digits)"),
            row("three", f"first of three, classic ({digit_count(three.denominator):,} digits)")]
    intro = (
        f"Work modulo primes on a Dask cluster (`python benchmarks/cluster.py`, {platform.machine()}, 2 cores, run "
        f"{time.strftime('%Y-%m-%d')}; the load average reached {load:.1f}: other work shared the cores). Wall "
        f"seconds, the best of {repeats} interleaved runs: the residues in one local process; in two "
        f"(`parallel=True`: this process and a forked one, what `chutes solve` does without a cluster); on a "
        f"`LocalCluster` of 1 and of 2 single-threaded workers on the same machine, with the busiest worker's CPU "
        f"seconds (the setup, the Chinese remainders and the checks stay in this process). Identical fractions. "
        f"Projected for n workers with a free core each: the local run's serial CPU plus its residues' CPU over n "
        f"(transfers not counted).")
    columns = ["computation", "one process", "two local processes", "1 worker", "2 workers",
               "projected for n workers"]
    print(write_table(RESULTS, BEGIN, END, intro, columns, rows))


def whole_boards(count: int) -> None:
    """`update` of `count` random boards here (two processes) and on clusters of BOARD_WORKERS workers."""
    import tempfile

    from chutes.compute.stage import update
    from chutes.compute.store.results import ResultCache

    boards = [random_board(30 + n % 40, n).model_copy(update={"slug": f"random-{n}"}) for n in range(count)]
    ways: list[str | int] = ["two local processes", *BOARD_WORKERS]
    rows, stored = [], {}
    load = os.getloadavg()[0]
    for way in ways:
        with tempfile.TemporaryDirectory() as scratch:
            cache = ResultCache(Path(scratch))
            cluster = (LocalCluster(n_workers=way, threads_per_worker=1, processes=True, dashboard_address=":0")
                       if isinstance(way, int) else None)
            client = Client(cluster) if cluster else None
            try:
                before = worker_cpu(client) if client else []
                started = time.perf_counter()
                update(boards, cache, force=True, log=lambda line: None, progress=False, jobs=2,
                       scheduler=cluster.scheduler_address if cluster else None)
                wall = time.perf_counter() - started
                used = sum(b - a for a, b in zip(before, worker_cpu(client))) if client else 0.0
            finally:
                if client and cluster:
                    client.close()
                    cluster.close()
            stored[way] = {p.name: p.read_bytes() for p in cache.records()}
        load = max(load, os.getloadavg()[0])
        print(f"{way}: {wall:.1f} s wall", flush=True)
        cpu = f"{used:.1f} s" if isinstance(way, int) else "—"
        rows.append(f"| {way if isinstance(way, str) else f'{way} worker' + 's' * (way > 1)} | {wall:.1f} s | {cpu} |")
    same = all(files == stored[ways[0]] and len(files) == count for files in stored.values())
    intro = (f"## Whole boards on a Dask cluster\n\n`python benchmarks/cluster.py --boards` ({platform.machine()}, "
             f"{os.cpu_count()} cores, run {time.strftime('%Y-%m-%d')}; the load average reached {load:.1f}): "
             f"`chutes compute`'s stage for {count} random boards of 30 to 69 squares, every record computed anew, "
             f"here on two processes and on a `LocalCluster` of 1, 2 and 4 single-threaded workers on this machine "
             f"(whole boards sent longest first, records checked and stored here); the workers' CPU seconds. "
             f"Every way stored the same bytes: {'yes' if same else 'NO'}. On two cores, 4 workers share 2 cores: "
             f"the wall time falls with workers only while each has a core of its own.")
    print(write_table(RESULTS, BOARDS_BEGIN, BOARDS_END, intro, ["where", "wall", "workers' CPU"], rows))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--boards"]:
        whole_boards(int(sys.argv[2]) if len(sys.argv) > 2 else 40)
    else:
        main()
