"""The compute stage's progress hooks and its cache key: what a caller learns of each board, and code that
changed misses the cache."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import bundled_boards

from chutes import compute
from chutes.compute import code_hash
from chutes.compute.board.file import load_board
from chutes.compute.board.model import Board
from chutes.compute.record.build import record_seconds
from chutes.compute.record.key import cache_key
from chutes.compute.stage import Outcome, cached_record, load_all, update
from chutes.compute.store import sweep
from chutes.compute.store.results import ResultCache


@pytest.fixture
def two_boards(tmp_path: Path) -> Path:
    """The 10-square test board, and the same with a 4-sided die."""
    folder = tmp_path / "boards"
    folder.mkdir()
    text = bundled_boards()["tiny"].read_text()
    (folder / "tiny.toml").write_text(text)
    (folder / "tiny-d4.toml").write_text(text.replace("die = 6", "die = 4"))
    return folder


class Events:
    """Everything the hooks report, in order."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str, object]] = []

    def start(self, board: Board, estimate: float) -> None:
        self.seen.append(("start", board.slug, estimate))

    def done(self, outcome: Outcome) -> None:
        self.seen.append(("done", outcome.slug, outcome))

    def run(self, boards: list[Board], cache: ResultCache, **kw) -> list[Outcome]:
        self.seen.clear()
        return update(boards, cache, log=lambda _: None, progress=False, on_start=self.start, on_done=self.done,
                      **kw)


def test_one_after_another_each_board_is_announced_as_it_starts(two_boards: Path, tmp_path: Path,
                                                               monkeypatch) -> None:
    bars: list[tuple[str, object]] = []
    real = sweep.tqdm

    def tqdm(*args, **kw):
        bars.append((kw.get("desc"), kw.get("disable")))
        return real(*args, **kw)

    monkeypatch.setattr(sweep, "tqdm", tqdm)
    boards = load_all(two_boards)
    estimates = {b.slug: record_seconds(b) for b in boards}
    longest, shortest = sorted(estimates, key=estimates.get, reverse=True)
    events, cache = Events(), ResultCache(tmp_path / "cache")
    outcomes = events.run(boards, cache, jobs=1)
    assert [(kind, slug) for kind, slug, _ in events.seen] == [
        ("start", longest), ("done", longest), ("start", shortest), ("done", shortest)]
    assert {slug: x for kind, slug, x in events.seen if kind == "start"} == estimates
    done = [x for kind, _, x in events.seen if kind == "done"]
    assert sorted(done, key=lambda o: o.slug) == sorted(outcomes, key=lambda o: o.slug)
    assert all(o.computed and o.seconds > 0 and o.estimate == estimates[o.slug] and o.path.is_file() for o in done)
    assert {"compute", "die sizes", "added jumps"} <= {desc for desc, _ in bars}
    assert all(disable is True for _, disable in bars), "progress=False turns every bar off, the sweeps' too"

    again = events.run(boards, cache, jobs=1)
    assert [(kind, slug) for kind, slug, _ in events.seen] == [("done", b.slug) for b in boards]
    assert [x for _, _, x in events.seen] == again and not any(o.computed for o in again)
    assert [o.path for o in again] == [o.path for o in outcomes]


def test_in_parallel_every_board_is_announced_when_queued(two_boards: Path, tmp_path: Path) -> None:
    events, cache = Events(), ResultCache(tmp_path / "cache")
    outcomes = events.run(load_all(two_boards), cache, jobs=2)
    kinds = [kind for kind, _, _ in events.seen]
    assert kinds == ["start", "start", "done", "done"]
    assert sorted(slug for kind, slug, _ in events.seen if kind == "done") == ["tiny", "tiny-d4"]
    assert all(o.computed and o.seconds > 0 and o.estimate is not None and o.path.is_file() for o in outcomes)


def test_a_read_only_cache_reports_its_boards_too(two_boards: Path, tmp_path: Path, monkeypatch) -> None:
    boards, cache = load_all(two_boards), ResultCache(tmp_path / "cache")
    update(boards, cache, log=lambda _: None, progress=False)

    class ReadOnly:
        def __init__(self, path: object) -> None:
            pass

        def acquire(self, timeout: float = -1) -> None:
            raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("chutes.compute.stage.FileLock", ReadOnly)
    events = Events()
    outcomes = events.run(boards, cache)
    assert [(kind, slug) for kind, slug, _ in events.seen] == [("done", b.slug) for b in boards]
    assert [x for _, _, x in events.seen] == outcomes and not any(o.computed for o in outcomes)


def _copy_of_compute(to: Path) -> Path:
    shutil.copytree(Path(compute.__file__).parent, to)  # __pycache__ included: only the *.py files count
    return to


def test_the_code_hash_follows_the_code_and_nothing_else(tmp_path: Path) -> None:
    real = code_hash()
    assert len(real) == 64 and set(real) <= set("0123456789abcdef") and code_hash() == real
    assert code_hash(_copy_of_compute(tmp_path / "same")) == real
    changed = _copy_of_compute(tmp_path / "changed")
    path = changed / "solve" / "chain.py"
    data = bytearray(path.read_bytes())
    data[-2] ^= 1
    path.write_bytes(bytes(data))
    assert code_hash(changed) != real
    renamed = _copy_of_compute(tmp_path / "renamed")
    (renamed / "solve" / "chain.py").rename(renamed / "solve" / "chain2.py")
    assert code_hash(renamed) != real
    other = _copy_of_compute(tmp_path / "other")
    (other / "notes.txt").write_text("not code")
    assert code_hash(other) == real


def test_changed_compute_code_misses_the_cache(tmp_path: Path, monkeypatch) -> None:
    board = load_board(bundled_boards()["tiny"])
    cache = ResultCache(tmp_path / "cache")
    [first] = update([board], cache, log=lambda _: None, progress=False)
    record, problem = cached_record(cache, board)
    assert first.computed and record is not None and problem is None, "unchanged code: a hit"
    experiments = sorted(p.name for p in (cache.directory / "experiments").glob("*.json"))
    assert len(experiments) == 2

    other = "f" * 64
    assert other != code_hash()
    monkeypatch.setattr("chutes.compute.record.key.code_hash", lambda: other)
    monkeypatch.setattr("chutes.compute.experiments.sweeps.code_hash", lambda: other)
    assert cache_key(board) != record.key
    assert cached_record(cache, board) == (None, None), "changed code: a miss"
    [second] = update([board], cache, log=lambda _: None, progress=False)
    assert second.computed and second.path != first.path and not first.path.exists()
    assert cached_record(cache, board)[0].key == cache_key(board)
    now = sorted(p.name for p in (cache.directory / "experiments").glob("*.json"))
    assert len(set(now) - set(experiments)) == 2, "the experiment sweeps are keyed by the code too"
