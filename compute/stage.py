"""The compute stage: every board of a project brought up to date in the results cache, in parallel, one run at a time.

A record file's name carries its key (`record.key.cache_key`: the board, the result schema, the package
version, the simulation settings, the compute stage's code), so an edited board, or edited code, never
matches an old file. A file is used only if it is whole, unaltered and plausible (`cached_record`);
otherwise it is reported and recomputed. The boards due are computed longest first, in worker processes
when there are several; one run at a time per cache folder (a file lock).
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from filelock import FileLock, Timeout
from pydantic import ValidationError

from .board.file import load_board, scan_board_files
from .board.model import Board
from .board.problems import BoardError
from .record.key import cache_key
from .store.results import ResultCache
from .store.sweep import PartStore, check_cluster, run_pieces, start_workers_early

if TYPE_CHECKING:
    from .record.schema import BoardRecord, ComputedRecord


@dataclass(frozen=True)
class Outcome:
    """What `update` did for one board: its cache key and record file, whether it was computed (else it was up to
    date), the seconds that took, and for a computed board the estimate it started with (`estimate`, seconds:
    `record.build.record_seconds`). A board found up to date comes with its record as the check read it
    (`record`), unless it was not read (`update(read=False)`); a computed record stays in its file (it was
    written by a worker process)."""

    slug: str
    key: str
    path: Path
    computed: bool
    seconds: float
    estimate: float | None = None
    record: BoardRecord | None = None


OnStart = Callable[[Board, float], None]
"""Called with a board about to be computed and its estimated seconds (`record.build.record_seconds`)."""
OnDone = Callable[[Outcome], None]
"""Called with each board's `Outcome` as soon as it is known (up to date, or computed and stored)."""


Known = dict[Path, tuple[tuple[int, int, int], "BoardRecord"]]
"""Records read before, by file, with the file's size, modification time and inode when it was read: a caller that
runs the stage again and again (`chutes serve`) passes the same one, and a file not changed since is not read again."""


def cached_record(cache: ResultCache, board: Board,
                  known: Known | None = None) -> tuple[BoardRecord | None, str | None]:
    """The board's cached record and None, or None and why it cannot be used (None, None: not cached yet).

    A record is used only if its file is whole and unaltered and it is plausible (`schema.checked_record`);
    its arithmetic is checked once for each checksum (`ResultCache.verified`), its structure on every read. With
    `known`, a record read before from the same file, unchanged since, is used as it was read (and one read now is
    added)."""
    from .record import schema  # the records' models, built only when a record is read

    key = cache_key(board)
    path = cache.path(board.slug, key)
    try:
        stat = path.stat()
        seen = (stat.st_size, stat.st_mtime_ns, stat.st_ino)
    except OSError:
        seen = None
    if known is not None and path in known and known[path][0] == seen:
        return known[path][1], None
    stored, problem = cache.load(board.slug, key)
    if stored is None:
        return None, problem
    checked_before = cache.verified(path) == stored["checksum"]
    record, problem = schema.checked_record(stored, checked_before=checked_before)
    if problem is not None or record is None:
        return None, f"{path}: {problem}"
    if not checked_before:
        cache.mark_verified(path, stored["checksum"])
    if known is not None and seen is not None:
        known[path] = (seen, record)
    return record, None


def load_all(boards_dir: Path, only: Iterable[str] = (),
             computed: Callable[[Board], bool] | None = None) -> list[Board]:
    """Every board of the folder (or just `only`), all validated and their cost checked before any heavy work.

    Every file is checked before the first problem is reported: if any is bad, one BoardError lists them
    all, one line per file naming it (in file-name order): a file name that is not a slug (any file of the
    folder), a file that cannot be read, parsed or breaks a rule, a board over the time budget
    (`compute.board.cost.check_cost`); then a line for each name of `only` with no board file. A board whose
    record is already `computed` (the cache's record for its key, unchanged) is not costed again: it was
    within the budget when it was computed, by the same code (the key names it), and nothing is left to do.
    """
    from .board.cost import check_cost
    from .solve.strategy import as_played

    if not boards_dir.is_dir():
        raise BoardError(f"{boards_dir}: no such folder of board files")
    files, problems = scan_board_files(boards_dir)
    wanted = list(dict.fromkeys(only))
    unknown = [f"{slug}: no board of that name in {boards_dir} (there are: {', '.join(files) or 'none'})"
               for slug in wanted if slug not in files]
    if not files and not problems:
        raise BoardError(f"{boards_dir}: no board files (*.toml) found")
    boards = []
    for slug in wanted or files:
        if slug not in files:
            continue
        try:
            board = load_board(files[slug])
            if computed is None or not computed(board):
                check_cost(as_played(board), str(files[slug]))
        except BoardError as exc:
            problems[files[slug]] = str(exc)
        else:
            boards.append(board)
    lines = [problems[path] for path in sorted(problems)] + unknown
    if lines:
        raise BoardError("\n".join(lines))
    return boards


def update(boards: list[Board], cache: ResultCache, force: bool = False, log: Callable[[str], None] = print,
           progress: bool | None = None, jobs: int = 1, prune: bool = False, on_start: OnStart | None = None,
           on_done: OnDone | None = None, scheduler: str | None = None, known: Known | None = None,
           read: bool = True) -> list[Outcome]:
    """Bring the cache up to date for `boards`: reuse valid files, recompute missing, stale or corrupt ones.

    With `prune`, the records of boards that are not in `boards` are removed (the project deleted them).
    A read-only cache still serves a run whose results are all in it.

    One run at a time per cache folder: a second `chutes compute` waits for the first (and then finds
    its results), so two runs never write the same files at once. Temporary files left by a run that
    was killed mid-write are removed first.

    Progress, for a caller that reports it its own way (nothing here prints but `log`): `progress` turns
    the tqdm bars on (True), off (False) or on only when standard error is a terminal (None), the
    experiments' bars inside each board included. `on_done(outcome)` is called once per board, as soon as
    its outcome is known: the boards that are up to date while the cache is checked, each computed board
    when its record is stored. `on_start(board, estimate_seconds)` is called for each board that will be
    computed, longest estimate first: just before it starts when the boards are computed one after
    another (`jobs` = 1 or a single board due), but for all of them at once, when they are queued, when
    several are computed in parallel worker processes (they start as workers come free).

    With a Dask `scheduler`, each board due is computed whole on a worker of that cluster, longest first
    (`cluster_record`), and its record comes back to be checked and stored here (`_FromCluster`). `known`: the
    records read by earlier runs of the same caller (`cached_record`). With `read` false, a record the same
    bytes as when it last passed every check (`ResultCache.unchanged`) is not read again: its outcome comes
    without it (`chutes compute`, which only brings the cache up to date).
    """
    try:
        cache.directory.mkdir(parents=True, exist_ok=True)
        lock = FileLock(cache.directory / ".lock")
        lock.acquire(timeout=1)
    except Timeout:
        log(f"waiting for another run to finish with {cache.directory}")
        lock.acquire()
    except OSError:
        if force:
            raise
        found = [cached_record(cache, b, known)[0] for b in boards]
        if any(record is None for record in found):
            raise
        outcomes = [Outcome(b.slug, key, cache.path(b.slug, key), False, 0.0, record=record)
                    for b, key, record in zip(boards, map(cache_key, boards), found)]
        if on_done:
            for outcome in outcomes:
                on_done(outcome)
        return outcomes
    try:
        for leftover in cache.directory.rglob(".*.tmp"):
            leftover.unlink(missing_ok=True)
        outcomes = _update(boards, cache, force, log, progress, jobs, on_start, on_done, scheduler, known, read)
        if prune:
            for gone in cache.prune(b.slug for b in boards):
                log(f"removed {gone.name}: its board is no longer in the project")
        return outcomes
    finally:
        lock.release()


def _update(boards: list[Board], cache: ResultCache, force: bool, log: Callable[[str], None],
            progress: bool | None, jobs: int, on_start: OnStart | None, on_done: OnDone | None,
            scheduler: str | None, known: Known | None, read: bool) -> list[Outcome]:
    missing = [b for b in boards if force or not cache.path(b.slug, cache_key(b)).exists()]
    if jobs > 1 and len(missing) > 1:
        # the workers' imports (the solvers: `record.build`) overlap the checks of the cached records below
        start_workers_early(f"{__package__}.record.build")
    outcomes: dict[str, Outcome] = {}
    todo: list[Board] = []
    for board in boards:
        started = time.perf_counter()
        key = cache_key(board)
        if not force and not read and cache.unchanged(board.slug, key):
            outcomes[board.slug] = Outcome(board.slug, key, cache.path(board.slug, key), False,
                                           time.perf_counter() - started)
            if on_done:
                on_done(outcomes[board.slug])
            continue
        record, problem = (None, None) if force else cached_record(cache, board, known)
        if problem:
            log(f"warning: {problem}; recomputing")
        if record is None:
            todo.append(board)
        else:
            outcomes[board.slug] = Outcome(board.slug, key, cache.path(board.slug, key), False,
                                           time.perf_counter() - started, record=record)
            if on_done:
                on_done(outcomes[board.slug])
    if not todo:
        return [outcomes[board.slug] for board in boards]
    from .record.build import record_seconds  # the solvers: imported only when there is something to solve

    estimates = {board.slug: record_seconds(board) for board in todo}
    todo.sort(key=lambda b: estimates[b.slug], reverse=True)  # the longest first: the last ones to finish are short
    workers = min(jobs, len(todo))
    if scheduler:
        check_cluster(scheduler)  # a bad address is one line at once, not one per board from the workers
        into = _FromCluster(cache, outcomes, estimates, on_done, on_start, todo, one_by_one=False)
        into.announce()
        run_pieces(cluster_record, [(board,) for board in todo], scheduler=scheduler, parts=into, desc="compute",
                   progress=progress)
        return [outcomes[board.slug] for board in boards]
    pieces = [(board, cache.directory, force, 1 if len(todo) > 1 else jobs, progress) for board in todo]
    parts = _Into(outcomes, estimates, on_done, on_start, todo, one_by_one=workers <= 1)
    parts.announce()
    run_pieces(stored_record, pieces, jobs=workers, parts=parts, desc="compute", progress=progress)
    return [outcomes[board.slug] for board in boards]


def stored_record(board: Board, directory: Path, force: bool, jobs: int,
                  progress: bool | None = None) -> tuple[str, float]:
    """Compute a board's record, check it and store it in the cache folder; where, and the seconds it took.

    Run in a worker when several boards are due (the record is written there and never travels back)."""
    started = time.perf_counter()
    record = _record(board, directory / "experiments", jobs, force, progress)
    stored = ResultCache(directory).store(record.json_form())
    return str(stored), time.perf_counter() - started


def cluster_record(board: Board) -> tuple[dict[str, Any], float]:
    """A board's whole record computed on a Dask worker, as the cache stores it, and the seconds it took there.
    The worker keeps nothing (its experiments' pieces go to a folder of its own, removed after): the record
    travels back, and the run that sent the board checks and stores it (`_FromCluster`)."""
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="chutes-") as scratch:
        record = _record(board, Path(scratch), 1, True, False)
    return record.json_form(), time.perf_counter() - started


def _record(board: Board, experiments_dir: Path, jobs: int, force: bool, progress: bool | None) -> ComputedRecord:
    """A board's record (its experiments' pieces kept in `experiments_dir` to resume from), checked by its model."""
    from .record.build import board_experiments, board_record
    from .record.schema import record_problem

    try:
        experiments = board_experiments(board, experiments_dir, jobs=jobs, force=force, progress=progress)
        return board_record(board, experiments, jobs=jobs)
    except ValidationError as exc:
        raise ArithmeticError(f"{board.slug}: the computed record is not plausible: {record_problem(exc)}") from None


class _Into(PartStore):
    """What `run_pieces` does with each finished board: note the outcome and report it (nothing to resume
    from); and the boards' announcements as they start (`announce`): if they run `one_by_one`, the first
    before the run and each next one when the one before it is stored, else all at once before the run
    (they are queued for the workers together)."""

    def __init__(self, outcomes: dict[str, Outcome], estimates: dict[str, float], on_done: OnDone | None,
                 on_start: OnStart | None, todo: list[Board], one_by_one: bool) -> None:
        super().__init__(None)
        self.outcomes = outcomes
        self.estimates = estimates
        self.on_done = on_done
        self.on_start = on_start
        self.waiting = list(todo)
        self.one_by_one = one_by_one

    def announce(self) -> None:
        """`on_start` for the next board due (one by one), or for every board due."""
        while self.waiting:
            board = self.waiting.pop(0)
            if self.on_start:
                self.on_start(board, self.estimates[board.slug])
            if self.one_by_one:
                return

    def save(self, n: int, value: Any, piece: Sequence[Any] = ()) -> None:
        path, seconds = value
        board = piece[0]
        outcome = Outcome(board.slug, cache_key(board), Path(path), True, seconds, self.estimates[board.slug])
        self.outcomes[board.slug] = outcome
        if self.on_done:
            self.on_done(outcome)
        self.announce()


class _FromCluster(_Into):
    """What `run_pieces` does with each board a Dask worker computed (`cluster_record`): refuse a record made for
    other inputs (a worker running other code: its key differs), store it in the cache here, read it back with
    every check a cached record gets (`cached_record`: whole, unaltered, plausible, its arithmetic checked), and
    only then note and report it. The boards go to the cluster longest first (Dask runs them in the order sent)."""

    def __init__(self, cache: ResultCache, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.cache = cache

    def save(self, n: int, value: Any, piece: Sequence[Any] = ()) -> None:
        stored, seconds = value
        board = piece[0]
        if stored.get("key") != cache_key(board):
            raise ArithmeticError(f"{board.slug}: the cluster's worker computed it for other inputs (is it running "
                                  "the same version of chutes?)")
        path = self.cache.store(stored)
        record, problem = cached_record(self.cache, board)
        if record is None:
            path.unlink(missing_ok=True)
            raise ArithmeticError(f"{board.slug}: the record computed on the cluster is not plausible: {problem}")
        outcome = Outcome(board.slug, stored["key"], path, True, seconds, self.estimates[board.slug], record)
        self.outcomes[board.slug] = outcome
        if self.on_done:
            self.on_done(outcome)
