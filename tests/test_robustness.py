"""Bad input, killed runs and concurrent runs: one clear line, and nothing lost or half-written."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from bad_boards import CASES
from helpers import board_file, new_project

from chutes.cli import run
from chutes.compute.store.files import checksum


def _snapshot(folder: Path) -> dict[str, bytes]:
    """Every file of the folder but its locks and the records' markers (written when a record is found up to
    date: `ResultCache.verified`)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
            and not p.name.endswith((".lock", ".verified"))}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A board folder with one good board, its cache and its site, built once (in a project of its own: the
    build's working files go to the project's .cache, never to the repository's)."""
    project = new_project(tmp_path_factory.mktemp("robust"), ["tiny"])
    paths = {"project": project.root, "boards": project.boards_dir, "cache": project.cache_dir,
             "site": project.site_dir}
    assert run(_build_args(paths)) == 0
    return paths


def _build_args(paths: dict[str, Path]) -> list[str]:
    return ["build", "--project", str(paths["project"]), "--boards", str(paths["boards"]), "--cache",
            str(paths["cache"]), "--site-dir", str(paths["site"])]


BAD_FILES = [(f"bad-{n:02d}.toml", text.encode() if isinstance(text, str) else text, expected)
             for n, (text, expected) in enumerate(CASES)]


def test_there_are_at_least_25_kinds_of_bad_board() -> None:
    assert len(BAD_FILES) >= 25


@pytest.mark.xdist_group("robustness-built")  # on one worker, which builds the project once
@pytest.mark.parametrize(("name", "data", "expected"), BAD_FILES, ids=[n for n, _, _ in BAD_FILES])
def test_a_bad_board_among_good_ones_stops_the_build_cleanly(built: dict[str, Path], capsys, name: str,
                                                             data: bytes, expected: str) -> None:
    cache, site = _snapshot(built["cache"]), _snapshot(built["site"])
    bad = built["boards"] / name
    bad.write_bytes(data)
    try:
        status = run(_build_args(built))
    finally:
        bad.unlink()
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2
    assert len(err) == 1 and err[0].startswith(f"chutes: error: {bad}: ") and expected in err[0], err
    assert _snapshot(built["cache"]) == cache and _snapshot(built["site"]) == site


@pytest.mark.xdist_group("robustness-built")
def test_every_bad_board_is_named_at_once_and_nothing_changes(built: dict[str, Path], capsys) -> None:
    """All the kinds of bad board in one folder beside a good one: a line for each file, in one run."""
    cache, site = _snapshot(built["cache"]), _snapshot(built["site"])
    written = [built["boards"] / name for name, _, _ in BAD_FILES]
    for path, (_, data, _) in zip(written, BAD_FILES):
        path.write_bytes(data)
    try:
        status = run(_build_args(built))
    finally:
        for path in written:
            path.unlink()
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == len(BAD_FILES), err
    for line, path, (_, _, expected) in zip(err, written, BAD_FILES):
        assert line.startswith(f"chutes: error: {path}: ") and expected in line, line
    assert _snapshot(built["cache"]) == cache and _snapshot(built["site"]) == site


def _chutes(*args: str, **kw) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "chutes", *args],
                          capture_output=True, text=True, timeout=600, **kw)


@pytest.mark.parametrize("name, data", [("garbage.toml", b"\x00\xff\xfe" * 50), ("syntax.toml", b"title = [\n"),
                                        ("huge.toml", b'title="x"\nsquares=100000\ndie=6\nsource="s"\n')])
@pytest.mark.xdist_group("robustness-built")
def test_no_traceback_from_a_real_process(built: dict[str, Path], name: str, data: bytes) -> None:
    bad = built["boards"] / name
    bad.write_bytes(data)
    try:
        out = _chutes("compute", "--boards", str(built["boards"]), "--cache", str(built["cache"]))
    finally:
        bad.unlink()
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and name in out.stderr
    missing = _chutes("solve", str(built["boards"] / "missing.toml"))
    assert missing.returncode == 2 and "no such file" in missing.stderr


def _valid_cache(folder: Path) -> list[str]:
    """Names of the visible result files, each checked to be whole (parses and matches its checksum)."""
    names = []
    for path in sorted(folder.rglob("*.json")):
        if path.name.startswith(".") or ".parts" in path.parent.name:
            continue
        record = json.loads(path.read_bytes())
        assert record["checksum"] == checksum(record), path
        names.append(path.relative_to(folder).as_posix())
    return names


def _two_boards(tmp_path: Path) -> Path:
    boards = tmp_path / "boards"
    boards.mkdir()
    for slug in ("tiny", "short"):
        (boards / f"{slug}.toml").write_bytes(board_file(slug).read_bytes())
    return boards


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The cache of one uninterrupted `chutes compute` of the two boards, alone."""
    folder = tmp_path_factory.mktemp("reference")
    done = _chutes("compute", "--boards", str(_two_boards(folder)), "--cache", str(folder / "cache"))
    assert done.returncode == 0, done.stderr
    return folder / "cache"


@pytest.mark.xdist_group("robustness-reference")  # on one worker, which computes the reference once
def test_a_killed_compute_leaves_no_partial_result(tmp_path: Path, reference: Path) -> None:
    boards, cache = _two_boards(tmp_path), tmp_path / "cache"
    for moment in ("experiments/*.parts/*.json", "short-*.json"):  # mid-sweep, then between boards
        proc = subprocess.Popen([sys.executable, "-m", "chutes", "compute",
                                 "--boards", str(boards), "--cache", str(cache), "--force"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 300
        while not list(cache.glob(moment)):
            assert proc.poll() is None and time.monotonic() < deadline, f"the run ended before {moment} appeared"
            time.sleep(0.02)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        _valid_cache(cache)
    done = _chutes("compute", "--boards", str(boards), "--cache", str(cache))
    assert done.returncode == 0, done.stderr
    assert not list(cache.rglob(".*.tmp")) and not list(cache.rglob("*.parts"))
    assert _valid_cache(cache) == _valid_cache(reference)
    assert _snapshot(cache) == _snapshot(reference)


@pytest.mark.xdist_group("robustness-reference")
def test_two_computes_at_once_do_not_corrupt_the_cache(tmp_path: Path, reference: Path) -> None:
    boards, cache = _two_boards(tmp_path), tmp_path / "cache"
    command = [sys.executable, "-m", "chutes", "compute", "--boards", str(boards),
               "--cache", str(cache)]
    procs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [p.communicate(timeout=600) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outputs
    assert any("waiting for another run" in err for _, err in outputs)
    assert len(_valid_cache(cache)) == 2 + 4, "two board records and their two experiment files each"
    assert _snapshot(cache) == _snapshot(reference)
