"""The compute stage's cache: hits and misses, corrupt and stale files, identical bytes, one-line errors."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import board_file

from chutes.compute.board import cost
from chutes.compute.board.file import board_from_mapping, load_board
from chutes.compute.board.problems import BoardError
from chutes.compute.numbers import fraction_from_json
from chutes.compute.record import build as assemble
from chutes.compute.record import schema
from chutes.compute.record.build import board_experiments, board_record
from chutes.compute.record.key import cache_key
from chutes.compute.record.schema import BoardRecord, ComputedRecord, Experiments, FirstPlayer, Skipped
from chutes.compute.solve import threeplayer
from chutes.compute.stage import cached_record, load_all, stored_record, update
from chutes.compute.store.files import checksum, dumps
from chutes.compute.store.results import ResultCache
from chutes.site_build.project import BUNDLED_BOARDS


@pytest.fixture
def boards_dir(tmp_path: Path) -> Path:
    """A folder with two small boards."""
    folder = tmp_path / "boards"
    folder.mkdir()
    shutil.copy(BUNDLED_BOARDS / "tiny.toml", folder / "tiny.toml")
    text = (BUNDLED_BOARDS / "tiny.toml").read_text().replace("die = 6", "die = 4")
    (folder / "tiny-d4.toml").write_text(text)
    return folder


def _run(boards: Path, cache: ResultCache, **kw) -> tuple[list, list[str]]:
    messages: list[str] = []
    outcomes = update(load_all(boards), cache, log=messages.append, progress=False, **kw)
    return outcomes, messages


def _snapshot(folder: Path) -> dict[str, bytes]:
    """Every file of the folder but the records' markers (a hit notes that a record passed its checks)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.suffix != ".verified"}


def test_miss_then_hit_gives_identical_bytes(boards_dir: Path, tmp_path: Path) -> None:
    cache = ResultCache(tmp_path / "cache")
    first, _ = _run(boards_dir, cache)
    assert [o.computed for o in first] == [True, True]
    before = _snapshot(cache.directory)
    second, messages = _run(boards_dir, cache)
    assert [o.computed for o in second] == [False, False] and messages == []
    assert _snapshot(cache.directory) == before
    forced, _ = _run(boards_dir, cache, force=True)
    assert [o.computed for o in forced] == [True, True]
    assert _snapshot(cache.directory) == before, "recomputing must give the same bytes"


def test_two_cold_runs_in_different_folders_agree(boards_dir: Path, tmp_path: Path) -> None:
    a, b = ResultCache(tmp_path / "a"), ResultCache(tmp_path / "b")
    _run(boards_dir, a)
    _run(boards_dir, b)
    assert _snapshot(a.directory) == _snapshot(b.directory)


def test_record_content(boards_dir: Path, tmp_path: Path) -> None:
    cache = ResultCache(tmp_path / "cache")
    (outcome, _), _ = _run(boards_dir, cache)
    record = json.loads(outcome.path.read_text())
    assert record["key"] == cache_key(load_board(boards_dir / "tiny-d4.toml"))
    assert outcome.path.name == f"tiny-d4-{record['key'][:16]}.json"
    p = fraction_from_json(record["results"]["first_player_wins"])
    assert 0.5 < p < 1
    checks = record["checks"]["first_player_wins"]
    assert abs(checks["float"] - float(p)) < 1e-12
    assert checks["agrees"] and checks["standard_errors_apart"] <= 4
    length = record["series"]["length"]
    assert abs(sum(length["probability"]) - length["cumulative"][-1]) < 1e-9
    assert length["cumulative"][-1] >= 1 - 1e-6
    gap = record["series"]["bounds"]["gap"]
    assert all(a >= b for a, b in zip(gap, gap[1:])), "the bounds only ever close in"


def test_a_record_is_built_through_its_model_and_stored_as_its_json(tmp_path: Path) -> None:
    """board_record returns the typed record, its parts computed (the short test board has them all); the cache
    stores the model's JSON form, which reads back to the same record and the same bytes."""
    board = load_board(board_file("short"))
    record = board_record(board, board_experiments(board, tmp_path / "experiments"))
    assert isinstance(record, ComputedRecord) and not isinstance(record, BoardRecord)
    assert isinstance(record.experiments, Experiments) and isinstance(record.players.first_of_three, FirstPlayer)
    path = ResultCache(tmp_path).store(record.json_form())
    stored = BoardRecord.model_validate_json(path.read_bytes())
    assert stored.model_dump(exclude={"checksum"}) == record.model_dump()
    assert dumps(stored.json_form()) == path.read_bytes()


def test_a_board_whose_games_all_end_alike_gets_a_record() -> None:
    """A one-sided die, a start past square 0 and a roll-again limit whose penalty would send the token to square
    0: every game is one turn and the first player always wins. The simulation has nothing to scatter, so it
    must give those values exactly (a standard error of 0); square 0, doomed, is no state of the chain."""
    spec = {"title": "t", "squares": 4, "die": 1, "roll_again_on": 1, "roll_again_limit": 2,
            "roll_again_penalty": "start", "start": 2}
    record = board_record(board_from_mapping(spec, "t.toml"), Skipped(skipped="left out by this test"))
    for row, value in ((record.checks.expected_turns, 1), (record.checks.first_player_wins, 1)):
        assert (row.simulated, row.standard_error, row.standard_errors_apart, row.agrees) == (value, 0, 0, True)
    BoardRecord.model_validate({**record.json_form(), "checksum": ""})


def test_a_part_left_out_is_skipped_in_the_model_and_in_the_json(monkeypatch) -> None:
    """The experiments and the first of three players' chance, left out, are `Skipped` parts with the reason;
    in JSON each is {"skipped": reason, "why": kind, ...}, read back as the same part."""
    monkeypatch.setattr(threeplayer, "THREE_PLAYER_BUDGET", -1.0)
    record = board_record(load_board(board_file("short")), Skipped(skipped="left out by this test"))
    three, experiments = record.players.first_of_three, record.experiments
    assert isinstance(three, Skipped) and three.reason.startswith("left out: it would take about")
    assert isinstance(experiments, Skipped) and experiments.reason == "left out by this test"
    data = record.json_form()
    assert data["experiments"]["skipped"] == experiments.reason
    assert data["players"]["first_of_three"] == {"skipped": three.reason, "why": "seconds", "limit": -1,
                                                 "seconds": three.seconds}, "the reason's kind and numbers too"
    again = BoardRecord.model_validate({**data, "checksum": ""})
    assert (again.players.first_of_three, again.experiments) == (three, experiments)


def test_a_renamed_field_is_refused_when_the_record_is_computed(tmp_path: Path, monkeypatch) -> None:
    """A part computed with a field its model does not have (here a renamed one) stops the board before
    anything is stored, naming the field."""
    solve = assemble.solve

    def renamed(chain):
        results = solve(chain)
        results["states"] = results.pop("turn_states")
        return results

    monkeypatch.setattr(assemble, "solve", renamed)
    with pytest.raises(ArithmeticError, match=r"^tiny: the computed record is not plausible: implausible record: "
                                              r"results\.turn_states: Field required \(and 1 more\)$"):
        stored_record(load_board(BUNDLED_BOARDS / "tiny.toml"), tmp_path, force=False, jobs=1, progress=False)
    assert list(tmp_path.glob("*.json")) == []


@pytest.mark.parametrize("damage", ["truncate", "edit", "garbage", "empty"])
def test_corrupt_file_is_detected_and_recomputed(boards_dir: Path, tmp_path: Path, damage: str) -> None:
    cache = ResultCache(tmp_path / "cache")
    outcomes, _ = _run(boards_dir, cache)
    path = outcomes[0].path
    good = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(good[: len(good) // 2])
    elif damage == "edit":
        edited = good.replace(b'"expected_turns":{', b'"expected_turns":{"x":1,', 1)
        assert edited != good
        path.write_bytes(edited)
    elif damage == "garbage":
        path.write_bytes(b"\x00\xff" * 100)
    else:
        path.write_bytes(b"")
    again, messages = _run(boards_dir, cache)
    assert again[0].computed and not again[1].computed
    assert len(messages) == 1 and path.name in messages[0] and "recomputing" in messages[0]
    assert path.read_bytes() == good


def test_a_record_s_arithmetic_is_checked_once_for_each_checksum(boards_dir: Path, tmp_path: Path,
                                                                 monkeypatch) -> None:
    """The first read of a record checks all of it and notes its checksum; a later read of the same bytes checks
    its structure only; a record changed under a valid checksum of its own is checked in full again (and
    refused); pruning a board removes its note too."""
    cache = ResultCache(tmp_path / "cache")
    outcomes, _ = _run(boards_dir, cache)
    [tiny] = [o for o in outcomes if o.slug == "tiny"]
    board = load_board(boards_dir / "tiny.toml")
    seen: list[bool] = []
    real = schema.checked_record
    monkeypatch.setattr(schema, "checked_record", lambda r, checked_before: seen.append(checked_before) or
                        real(r, checked_before=checked_before))
    first, problem = cached_record(cache, board)
    assert problem is None and cache.verified(tiny.path) == json.loads(tiny.path.read_bytes())["checksum"]
    again, problem = cached_record(cache, board)
    assert problem is None and again == first and seen == [False, True]
    record = json.loads(tiny.path.read_bytes())
    record["results"]["expected_turns"]["numerator"] += "0"  # ten times the value: the fraction is no longer reduced
    record["checksum"] = checksum(record)
    tiny.path.write_bytes(dumps(record))
    refused, problem = cached_record(cache, board)
    assert refused is None and "not a reduced fraction" in problem and seen == [False, True, False]
    (boards_dir / "tiny.toml").unlink()
    _run(boards_dir, cache, prune=True)
    assert sorted(p.name for p in cache.directory.glob(".*.verified")) == \
        [f".{p.name}.verified" for p in cache.records()] and not tiny.path.exists()


def test_a_run_that_only_updates_reads_no_record_unchanged_since_its_check(boards_dir: Path, tmp_path: Path,
                                                                          monkeypatch) -> None:
    """`update(read=False)` (`chutes compute`) finds a record up to date from its bytes and its marker alone,
    neither parsing nor costing it again; a record changed under a valid checksum of its own, or never checked, is
    read and checked in full (and the changed one refused and recomputed)."""
    cache = ResultCache(tmp_path / "cache")
    _run(boards_dir, cache)
    seen: list[bool] = []
    real = schema.checked_record
    monkeypatch.setattr(schema, "checked_record", lambda r, checked_before: seen.append(checked_before) or
                        real(r, checked_before=checked_before))
    _run(boards_dir, cache)  # the records' first read: each is checked in full and marked
    assert seen == [False, False]
    costed: list[str] = []
    real_cost = cost.check_cost
    monkeypatch.setattr(cost, "check_cost", lambda board, name: costed.append(name) or real_cost(board, name))
    fresh = ResultCache(cache.directory)
    outcomes = update(load_all(boards_dir, computed=lambda b: fresh.unchanged(b.slug, cache_key(b))), fresh,
                      progress=False, read=False)
    assert [(o.computed, o.record) for o in outcomes] == [(False, None), (False, None)]
    assert seen == [False, False] and costed == []
    [tiny] = [o for o in outcomes if o.slug == "tiny"]
    record = json.loads(tiny.path.read_bytes())
    record["results"]["expected_turns"]["numerator"] += "0"
    record["checksum"] = checksum(record)
    tiny.path.write_bytes(dumps(record))
    messages: list[str] = []
    again = update(load_all(boards_dir, computed=lambda b: fresh.unchanged(b.slug, cache_key(b))), fresh,
                   log=messages.append, progress=False, read=False)
    assert len(costed) == 1 and "tiny.toml" in costed[0] and seen == [False, False, False]
    assert [o.computed for o in again] == [False, True] and "not a reduced fraction" in messages[0]


def test_changed_board_is_a_miss_and_replaces_the_old_file(boards_dir: Path, tmp_path: Path) -> None:
    cache = ResultCache(tmp_path / "cache")
    first, _ = _run(boards_dir, cache)
    board_file = boards_dir / "tiny.toml"
    board_file.write_text(board_file.read_text().replace("[4, 7]", "[3, 7]"))
    second, _ = _run(boards_dir, cache)
    assert not second[0].computed and second[1].computed
    assert second[1].path != first[1].path and not first[1].path.exists()
    assert sorted(p.name for p in cache.directory.glob("*.json")) == sorted(o.path.name for o in second)


def test_no_temporary_files_are_left(boards_dir: Path, tmp_path: Path) -> None:
    cache = ResultCache(tmp_path / "cache")
    _run(boards_dir, cache)
    assert [p.name for p in cache.directory.rglob("*") if p.is_file() and not p.name.endswith((".json", ".lock"))] == []
    assert not list(cache.directory.rglob("*.parts")), "finished sweeps leave no pieces behind"


def _chutes(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "chutes", *args],
                          capture_output=True, text=True, timeout=300)


def test_cli_compute_only_and_bad_board(boards_dir: Path, tmp_path: Path) -> None:
    cache_dir = tmp_path / "cache"
    done = _chutes("compute", "--boards", str(boards_dir), "--cache", str(cache_dir), "--only", "tiny")
    assert done.returncode == 0, done.stderr
    assert [p.name.split("-")[0] for p in cache_dir.glob("*.json")] == ["tiny"]
    assert "tiny: computed" in done.stderr
    before = _snapshot(cache_dir)
    (boards_dir / "broken.toml").write_text('title = "x"\nsquares = 10\ndie = 6\nsource = "y"\nladders = [[3, 2]]\n')
    bad = _chutes("compute", "--boards", str(boards_dir), "--cache", str(cache_dir))
    assert bad.returncode == 2
    lines = bad.stderr.strip().splitlines()
    assert len(lines) == 1 and "broken.toml" in lines[0] and "Traceback" not in bad.stderr
    assert _snapshot(cache_dir) == before, "a bad board must stop the run before anything changes"
    unknown = _chutes("compute", "--boards", str(boards_dir), "--cache", str(cache_dir), "--only", "nope")
    assert unknown.returncode == 2 and "nope" in unknown.stderr and len(unknown.stderr.strip().splitlines()) == 1


COSTLY = 'squares = 600\ndie = 20\novershoot = "bounce"\nroll_again_on = 20\n'  # hours of work, refused at once


def test_every_bad_board_is_reported_at_once_before_any_work(tmp_path: Path) -> None:
    boards = tmp_path / "boards"
    boards.mkdir()
    shutil.copy(BUNDLED_BOARDS / "tiny.toml", boards / "tiny.toml")
    cache = ResultCache(tmp_path / "cache")
    [good] = update(load_all(boards), cache, log=lambda _: None, progress=False)
    before = _snapshot(cache.directory)
    bad = {"b?.toml": "the file name must be letters", "broken.toml": "a ladder goes up",
           "costly.toml": "would take about"}
    (boards / "b?.toml").write_bytes((boards / "tiny.toml").read_bytes())
    (boards / "broken.toml").write_text((boards / "tiny.toml").read_text().replace("[4, 7]", "[7, 4]"))
    (boards / "costly.toml").write_text(COSTLY)
    with pytest.raises(BoardError) as info:
        _run(boards, cache)
    error = info.value
    assert isinstance(error, ValueError) and error.problems == str(error).splitlines()
    assert len(error.problems) == 3, str(error)
    for line, (name, phrase) in zip(error.problems, sorted(bad.items())):
        assert line.startswith(str(boards / name)) and phrase in line, line
    assert _snapshot(cache.directory) == before, "nothing computed, nothing removed"
    record, problem = cached_record(cache, load_board(boards / "tiny.toml"))
    assert record is not None and problem is None and good.path.is_file()


def test_only_checks_the_boards_named_and_reports_unknown_names_with_bad_file_names(tmp_path: Path) -> None:
    boards = tmp_path / "boards"
    boards.mkdir()
    shutil.copy(BUNDLED_BOARDS / "tiny.toml", boards / "tiny.toml")
    (boards / "costly.toml").write_text(COSTLY)
    assert [b.slug for b in load_all(boards, ["tiny", "tiny"])] == ["tiny"], "another board's problems wait"
    (boards / "a b.toml").write_text(COSTLY)
    with pytest.raises(BoardError) as info:
        load_all(boards, ["tiny", "nope"])
    lines = info.value.problems
    assert len(lines) == 2 and "a b.toml" in lines[0] and lines[1].startswith("nope: no board of that name")
