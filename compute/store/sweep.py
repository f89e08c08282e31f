"""Run a sweep's independent pieces in parallel — a local process pool or a Dask cluster — and resume it;
and spread one long list of work items over a Dask cluster in chunks (`run_chunks`).

Each finished piece is written at once (atomically) into a folder of parts, with a hash of the piece's
own input; a sweep that is interrupted and started again loads the parts whose input is the same and
computes only the rest (a part made for other input is never used). The parts are deleted when the whole
result has been stored. Workers die with the process that started them.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import multiprocessing
import multiprocessing.forkserver
import os
import shutil
import signal
import socket
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from threadpoolctl import threadpool_limits
from tqdm import tqdm

from .files import write_atomic


class SweepError(RuntimeError):
    """A sweep that cannot run (no such cluster, no workers, dask missing); the message is one line."""


class PartStore:
    """A folder holding the finished pieces of one sweep, one JSON file per piece."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder

    def _path(self, n: int) -> Path:
        assert self.folder is not None
        return self.folder / f"{n:05d}.json"

    @staticmethod
    def fingerprint(piece: Sequence[Any]) -> str:
        """A hash of a piece's input: a stored result is used only for the very same input."""
        return hashlib.sha256(json.dumps(piece, sort_keys=True, default=list).encode()).hexdigest()

    def load(self, n: int, piece: Sequence[Any] = ()) -> Any | None:
        """A finished piece made from `piece`, or None if missing, unreadable or made from other input."""
        if self.folder is None or not self._path(n).exists():
            return None
        try:
            stored = json.loads(self._path(n).read_text())
            return stored["value"] if stored.get("input") == self.fingerprint(piece) else None
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None

    def save(self, n: int, value: Any, piece: Sequence[Any] = ()) -> None:
        """Keep a finished piece, with the fingerprint of its input."""
        if self.folder is not None:
            write_atomic(self._path(n), json.dumps({"input": self.fingerprint(piece), "value": value}).encode())

    def clear(self) -> None:
        """Forget every piece (once the whole result is stored)."""
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)


def run_pieces(fn: Callable[..., Any], pieces: Sequence[tuple[Any, ...]], jobs: int = 1,
               scheduler: str | None = None, parts: PartStore | None = None, desc: str = "sweep",
               progress: bool | None = None) -> list[Any]:
    """fn(*piece) for every piece, in order; parallel over `jobs` processes or a Dask `scheduler`."""
    parts = parts or PartStore(None)
    results: list[Any] = [parts.load(n, piece) for n, piece in enumerate(pieces)]
    todo = [n for n, r in enumerate(results) if r is None]
    bar = tqdm(total=len(pieces), initial=len(pieces) - len(todo), desc=desc, unit="piece", leave=False,
               disable=None if progress is None else not progress)

    def finish(n: int, value: Any) -> None:
        results[n] = value
        parts.save(n, value, pieces[n])
        bar.update(1)

    try:
        if scheduler:
            with _connect(scheduler) as client:
                _run_dask(client, fn, pieces, todo, finish)
        elif jobs > 1 and len(todo) > 1:
            with ProcessPoolExecutor(max_workers=jobs, mp_context=_context(fn),
                                     initializer=_worker_start, initargs=(os.getpid(),)) as pool:
                futures = {pool.submit(fn, *pieces[n]): n for n in todo}
                for future in as_completed(futures):
                    finish(futures[future], future.result())
        else:
            for n in todo:
                finish(n, fn(*pieces[n]))
    finally:
        bar.close()
    return results


PR_SET_PDEATHSIG = 1
WATCH_SECONDS = 0.5


def die_with(owner: int) -> None:
    """Make this worker end when the run that started it (process `owner`) ends, even by SIGKILL.

    Workers are forked by the forkserver, not by the run itself, so besides Linux's parent-death signal
    (which covers the forkserver) a watchdog thread checks that the run is still alive."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the watchdog alone
        pass

    def watch() -> None:
        while True:
            try:
                os.kill(owner, 0)
            except ProcessLookupError:
                os._exit(1)
            except PermissionError:
                pass
            time.sleep(WATCH_SECONDS)

    threading.Thread(target=watch, name="die-with-owner", daemon=True).start()


def _context(fn: Callable[..., Any]) -> multiprocessing.context.BaseContext:
    """Workers forked from a clean server that has the work's module loaded: quick to start, and safe
    (no fork of a process whose thread pools are running)."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([fn.__module__])
    return context


def start_workers_early(module: str) -> None:
    """Start the server that forks the workers of `run_pieces` for a function of `module` now (with that
    module imported), so that its imports overlap whatever the caller does before the pool starts."""
    multiprocessing.get_context("forkserver").set_forkserver_preload([module])
    multiprocessing.forkserver.ensure_running()


ONE_THREAD = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
"""What a BLAS library reads when it loads to know how many threads to start."""


def _worker_start(owner: int) -> None:
    """In each worker: end with the run, and do linear algebra on one thread (the processes are the
    parallelism; several BLAS threads per process would only compete for the same cores). The limit holds
    for the libraries already loaded (threadpoolctl) and for those loaded later (their variables): a BLAS
    library's floats depend on its thread count, and a record's floats must not depend on when the worker
    imported it."""
    die_with(owner)
    os.environ.update(dict.fromkeys(ONE_THREAD, "1"))
    threadpool_limits(1)


CONNECT_SECONDS = 10
"""How long to wait for a Dask scheduler to answer, and for it to have a worker."""
CHUNKS_PER_THREAD = 4
"""`run_chunks` makes this many chunks per worker thread of the cluster (the last ones to finish are short)."""


def _connect(scheduler: str) -> Any:
    """A Dask client of the cluster at `scheduler` that has at least one worker; else SweepError, in one line."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise SweepError("--scheduler needs dask.distributed: pip install 'chutes-exact[dask]'") from None
    try:
        _listening(scheduler)
        client = Client(scheduler, timeout=f"{CONNECT_SECONDS}s")
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        raise SweepError(f"--scheduler {scheduler}: cannot reach the Dask scheduler ({exc})") from None
    try:
        client.wait_for_workers(1, timeout=CONNECT_SECONDS)
    except TimeoutError:
        client.close()
        raise SweepError(f"--scheduler {scheduler}: the Dask cluster has no workers (start some with "
                         f"'dask worker {scheduler}')") from None
    return client


def _listening(scheduler: str) -> None:
    """For a tcp:// address, OSError at once if nothing listens there (Dask's client would retry a refused
    connection until CONNECT_SECONDS have passed); ValueError for an address with no port."""
    from distributed.comm.addressing import parse_address, parse_host_port

    protocol, location = parse_address(scheduler)
    if protocol == "tcp":
        socket.create_connection(parse_host_port(location), timeout=CONNECT_SECONDS).close()


def check_cluster(scheduler: str) -> None:
    """Nothing if the Dask cluster at `scheduler` answers and has a worker; else SweepError, in one line."""
    _connect(scheduler).close()


def _with_shared(fn: Callable[..., Any], shared: tuple[Any, ...], *piece: Any) -> Any:
    """fn(*shared, *piece) on a worker (`shared` arrives once per worker, not once per piece)."""
    return fn(*shared, *piece)


def _run_dask(client: Any, fn: Callable[..., Any], pieces: Sequence[tuple[Any, ...]], todo: Sequence[int],
              finish: Callable[[int, Any], None], shared: tuple[Any, ...] = ()) -> None:
    """fn(*shared, *piece) for the pieces numbered in `todo` on the client's cluster, each result handed to
    `finish` as it comes."""
    from dask.distributed import as_completed as dask_completed

    if shared:
        [data] = client.scatter([shared], broadcast=True, hash=False)
        futures = [client.submit(_with_shared, fn, data, *pieces[n], pure=False) for n in todo]
    else:
        futures = [client.submit(fn, *pieces[n], pure=False) for n in todo]
    index = {f.key: n for f, n in zip(futures, todo)}
    for future in dask_completed(futures):
        finish(index[future.key], future.result())


def run_chunks(fn: Callable[..., list[Any]], shared: tuple[Any, ...], items: list[Any], scheduler: str) -> list[Any]:
    """fn(*shared, chunk) over consecutive chunks of `items` on the Dask cluster at `scheduler`, joined in order
    (fn returns one result per item of its chunk): a few chunks per worker thread, `shared` sent once."""
    with _connect(scheduler) as client:
        threads = sum(client.nthreads().values())
        size = max(1, -(-len(items) // (CHUNKS_PER_THREAD * threads)))
        pieces = [(items[i:i + size],) for i in range(0, len(items), size)]
        results: list[list[Any]] = [[] for _ in pieces]
        _run_dask(client, fn, pieces, range(len(pieces)), results.__setitem__, shared)
    return [x for chunk in results for x in chunk]
