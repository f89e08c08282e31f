"""The results cache: one JSON file per board, named by a hash of what the results depend on.

A file's name carries the key (board's canonical form + result schema + package version + simulation
settings), so an edited board never matches an old file. Each file also carries a checksum of its own
content: a truncated or altered file is detected, reported, and recomputed. Writes are atomic (a
temporary file in the same folder, then a rename), so a killed run never leaves half a file.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from filelock import FileLock, Timeout
from tqdm import tqdm

from compute import __version__
from compute.boards import Board, BoardError, board_files, load_board
from compute.chain import turn_chain
from compute.checks import three_ways
from compute.exact import distribution
from compute.numbers import fraction_from_json
from compute.players import players_record
from compute.report import solve
from compute.series import bound_series, diagonal_series, length_series, square_series
from compute.simulate import two_player_games

SCHEMA_VERSION = 5
SIMULATED_GAMES = 1_000_000
SIMULATION_SEED = 20261122
EXPERIMENTS_MAX_SQUARES = 120  # the single-jump scan grows as squares⁴: larger boards get it on request only


def cache_key(board: Board) -> str:
    """SHA-256 of everything a board's results depend on."""
    basis = {"board": board.canonical(), "title": board.title, "source": board.source, "schema": SCHEMA_VERSION,
             "version": __version__, "games": SIMULATED_GAMES, "seed": SIMULATION_SEED}
    return hashlib.sha256(json.dumps(basis, sort_keys=True).encode()).hexdigest()


def dumps(obj: Any) -> bytes:
    """Deterministic JSON: sorted keys, fixed indentation, shortest round-trip floats, no NaN."""
    return (json.dumps(obj, sort_keys=True, indent=1, ensure_ascii=False, allow_nan=False) + "\n").encode()


def checksum(record: dict[str, Any]) -> str:
    """SHA-256 of a record's content, its own checksum field left out."""
    body = {k: v for k, v in record.items() if k != "checksum"}
    return hashlib.sha256(dumps(body)).hexdigest()


def board_record(board: Board, key: str | None = None, experiments_dir: Path | None = None,
                 jobs: int = 1, force: bool = False, experiments: bool = True) -> dict[str, Any]:
    """Everything the site shows about one board: exact results, chart series, three-way checks, experiments.

    The experiments are left out (the reason under "skipped") when `experiments` is false or the board
    has more than EXPERIMENTS_MAX_SQUARES squares; `chutes experiment` still runs them on request.
    """
    chain = turn_chain(board)
    dist = distribution(chain)
    results = solve(board, chain, dist)
    first, second = two_player_games(board, SIMULATED_GAMES, SIMULATION_SEED)
    record = {
        "schema": SCHEMA_VERSION,
        "version": __version__,
        "key": key or cache_key(board),
        "slug": board.slug,
        "results": results,
        "series": {
            "length": length_series(dist, np.concatenate([first, second])),
            "bounds": bound_series(dist),
            "diagonal": diagonal_series(dist),
            "squares": square_series(chain),
        },
        "checks": three_ways(chain, fraction_from_json(results["expected_turns"]),
                             fraction_from_json(results["first_player_wins"]), (first, second), SIMULATION_SEED),
        "players": players_record(chain, fraction_from_json(results["first_player_wins"])),
        "experiments": _experiments(board, experiments_dir, jobs, force)
        if experiments and board.squares <= EXPERIMENTS_MAX_SQUARES else
        {"skipped": f"computed for the site on boards of up to {EXPERIMENTS_MAX_SQUARES} squares"},
    }
    record["checksum"] = checksum(record)
    return record


def _experiments(board: Board, folder: Path | None, jobs: int, force: bool) -> dict[str, Any]:
    from compute import whatif

    return {"dice": whatif.dice(board, jobs=jobs, folder=folder, force=force),
            "start": whatif.start(board),
            "add_jump": whatif.add_jump(board, jobs=jobs, folder=folder, force=force)}


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that readers see the old file or the new one, never a mix."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            os.fchmod(fh.fileno(), 0o644)
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_checked(path: Path, key: str) -> tuple[dict[str, Any] | None, str | None]:
    """A stored record if it is intact and made for `key`; otherwise None and the reason (None, None: absent)."""
    if not path.exists():
        return None, None
    try:
        record = json.loads(path.read_bytes())
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return None, f"{path}: unreadable ({type(exc).__name__}: {str(exc).splitlines()[0]})"
    if not isinstance(record, dict) or record.get("checksum") != checksum(record):
        return None, f"{path}: checksum does not match its content (truncated or edited)"
    if record.get("key") != key:
        return None, f"{path}: made for other inputs (stale key)"
    problem = implausible(record)
    if problem:
        return None, f"{path}: {problem}"
    return record, None


def implausible(record: Any) -> str | None:
    """Why a record (with a valid checksum) cannot be right, or None: every exact value must be a reduced
    fraction whose decimal matches it, and every probability must lie in [0, 1]."""
    from compute.record import check_record

    return check_record(record)


@dataclass
class ResultCache:
    """The cache folder: `<slug>-<key prefix>.json` per board."""

    directory: Path

    def path(self, slug: str, key: str) -> Path:
        """Where the results for this slug and key live."""
        return self.directory / f"{slug}-{key[:16]}.json"

    def load(self, board: Board) -> tuple[dict[str, Any] | None, str | None]:
        """The cached record and None, or None and why it cannot be used (None, None: not cached yet)."""
        key = cache_key(board)
        return read_checked(self.path(board.slug, key), key)

    def store(self, record: dict[str, Any]) -> Path:
        """Write a record atomically and remove older files for the same board."""
        path = self.path(record["slug"], record["key"])
        write_atomic(path, dumps(record))
        for old in self.records():
            if old != path and self.slug_of(old) == record["slug"]:
                old.unlink(missing_ok=True)
        return path

    def records(self) -> list[Path]:
        """The board record files in the folder (temporary files and experiments left out)."""
        if not self.directory.is_dir():
            return []
        return sorted(p for p in self.directory.iterdir() if p.suffix == ".json" and not p.name.startswith(".")
                      and p.is_file() and self.slug_of(p))

    @staticmethod
    def slug_of(path: Path) -> str:
        """The slug a record file belongs to ('' if the name is not `<slug>-<16 hex digits>.json`)."""
        slug, _, key = path.stem.rpartition("-")
        return slug if len(key) == 16 and all(c in "0123456789abcdef" for c in key) else ""

    def prune(self, keep: Iterable[str]) -> list[Path]:
        """Remove the record files of boards not in `keep` (boards deleted from the project); the files removed."""
        wanted = set(keep)
        gone = [p for p in self.records() if self.slug_of(p) not in wanted]
        for path in gone:
            path.unlink(missing_ok=True)
        return gone


@dataclass(frozen=True)
class Outcome:
    """What `update` did for one board."""

    slug: str
    path: Path
    computed: bool
    seconds: float
    warning: str | None = None


def load_all(boards_dir: Path, only: Iterable[str] = ()) -> list[Board]:
    """Every board of the folder (or just `only`), all validated and their cost checked before any heavy work."""
    from compute.cost import check_cost

    if not boards_dir.is_dir():
        raise BoardError(f"{boards_dir}: no such folder of board files")
    files = board_files(boards_dir)
    wanted = list(only)
    for slug in wanted:
        if slug not in files:
            raise BoardError(f"{slug}: no board of that name in {boards_dir} "
                             f"(there are: {', '.join(files) or 'none'})")
    if not files:
        raise BoardError(f"{boards_dir}: no board files (*.toml) found")
    boards = [load_board(files[slug]) for slug in (wanted or files)]
    for board in boards:
        check_cost(board, str(files[board.slug]))
    return boards


def update(boards: list[Board], cache: ResultCache, force: bool = False, log: Callable[[str], None] = print,
           progress: bool | None = None, jobs: int = 1, prune: bool = False) -> list[Outcome]:
    """Bring the cache up to date for `boards`: reuse valid files, recompute missing, stale or corrupt ones.

    With `prune`, the records of boards that are not in `boards` are removed (the project deleted them).
    A read-only cache still serves a run whose results are all in it.

    One run at a time per cache folder: a second `chutes compute` waits for the first (and then finds
    its results), so two runs never write the same files at once. Temporary files left by a run that
    was killed mid-write are removed first.
    """
    try:
        cache.directory.mkdir(parents=True, exist_ok=True)
        lock = FileLock(cache.directory / ".lock")
        lock.acquire(timeout=1)
    except Timeout:
        log(f"waiting for another run to finish with {cache.directory}")
        lock.acquire()
    except OSError:
        if not force and all(cache.load(b)[0] is not None for b in boards):
            return [Outcome(b.slug, cache.path(b.slug, cache_key(b)), False, 0.0) for b in boards]
        raise
    try:
        for leftover in cache.directory.rglob(".*.tmp"):
            leftover.unlink(missing_ok=True)
        outcomes = _update(boards, cache, force, log, progress, jobs)
        if prune:
            for gone in cache.prune(b.slug for b in boards):
                log(f"removed {gone.name}: its board is no longer in the project")
        return outcomes
    finally:
        lock.release()


def _update(boards: list[Board], cache: ResultCache, force: bool, log: Callable[[str], None],
            progress: bool | None, jobs: int) -> list[Outcome]:
    outcomes = []
    bar = tqdm(boards, desc="compute", unit="board", disable=None if progress is None else not progress, leave=False)
    for board in bar:
        bar.set_postfix_str(board.slug)
        started = time.perf_counter()
        record, problem = (None, None) if force else cache.load(board)
        if problem:
            log(f"warning: {problem}; recomputing")
        if record is None:
            record = board_record(board, experiments_dir=cache.directory / "experiments", jobs=jobs, force=force)
            path = cache.store(record)
            outcome = Outcome(board.slug, path, True, time.perf_counter() - started, problem)
        else:
            outcome = Outcome(board.slug, cache.path(board.slug, record["key"]), False,
                              time.perf_counter() - started)
        outcomes.append(outcome)
    bar.close()
    return outcomes
