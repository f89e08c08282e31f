"""Hochman's experiments: die size, starting square, one more chute or ladder; parallel, Dask, resume."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from fractions import Fraction

import pytest
from helpers import board, chain
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import boards

from chutes.compute.board.model import BoardError
from chutes.compute.experiments import sweeps as whatif
from chutes.compute.experiments import variants as experiments
from chutes.compute.numbers import fraction_from_json
from chutes.compute.solve.chain import turn_chain
from chutes.compute.solve.exact import expected_turns
from chutes.compute.store.sweep import PartStore, run_pieces

# Hochman's table: faces → expected rolls on the 47→26 board (7 decimals as printed; 10 to 15 have 6).
HOCHMAN_DICE = {2: "60.7625788", 3: "65.9007753", 4: "54.4937116", 5: "45.5619456", 6: "39.2251223",
                7: "34.6965984", 8: "31.8532909", 9: "30.2952849", 10: "28.768692", 11: "27.427206",
                12: "27.017742", 13: "26.221553", 14: "25.980534", 15: "25.805895"}
HOCHMAN_WORSE = [2, 5, 10, 23, 24, 25, 26, 27, 29, 41, 43, 52, 57, 66, 67, 72, 73, 75, 76, 77, 78, 79, 81, 89, 92]


def _direct_delta(b, source: int, target: int) -> Fraction:
    """Expected turns with the jump added minus without, each by its own exact solve."""
    base = turn_chain(b)
    new = turn_chain(experiments.with_jump(b, source, target))
    return expected_turns(new)[new.start] - expected_turns(base)[base.start]


def test_die_table_of_seed_003() -> None:
    rows = {r["faces"]: r for r in experiments.die_sweep(board("classic-47"), 15)}
    for faces, printed in HOCHMAN_DICE.items():
        places = len(printed.split(".")[1])
        assert round(float(rows[faces]["expected_turns"]["decimal"]), places) == float(printed), faces
        assert rows[faces]["first_player_wins"]["exact"] is True
    assert rows[1]["expected_turns"] is None and "never be reached" in rows[1]["note"]
    assert experiments.longer_with_bigger_die(list(rows.values()))[0] == 2, "the 2- versus 3-sided surprise"
    six = fraction_from_json(rows[6]["first_player_wins"])
    assert 0.5079 < six < 0.508


def test_where_a_die_can_leave_the_game_unending_is_data_that_any_language_says() -> None:
    """A row without an average names the squares where the game can be stuck (`unending`), which the board's check
    names in its note: Words says the note's English from them, and its translation with the same squares."""
    from chutes.compute.record.words import Words

    b = board("classic-47")
    one, two = experiments.die_sweep(b, 2)
    assert two["unending"] is None and one["expected_turns"] is None
    assert one["unending"] and all(0 <= s < b.squares for s in one["unending"])
    assert one["note"] == "the game can fail to end: " + Words().unending(one["unending"], b.squares)
    assert Words().unending([3], 10) == "from the start a player can reach square 3, from which square 10 can never " \
                                        "be reached"
    assert Words().unending([0, 1, 2, 7], 10).startswith("from the start a player can reach squares 0-2, 7,")
    bounce = experiments.die_sweep(board("tiny").variant(overshoot="bounce"), b.squares // 10 + 10)
    refused = [row for row in bounce if row["expected_turns"] is None and "at most" in row["note"]]
    assert refused and all(row["unending"] is None for row in refused), "another rule broken: no squares to name"
    french = Words("fr").unending(one["unending"], b.squares)
    assert french != Words().unending(one["unending"], b.squares)
    assert re.findall(r"\d+", french) == re.findall(r"\d+", Words().unending(one["unending"], b.squares))


def test_die_sweep_on_a_roll_again_board_drops_the_rule_when_the_die_lacks_the_face() -> None:
    rows = experiments.die_sweep(board("noordenbos"), 7)
    assert "no roll-again" in rows[4]["note"] and rows[4]["first_player_wins"]["exact"] is True
    assert rows[5]["note"] is None and rows[5]["first_player_wins"]["exact"] is False
    shown = rows[5]["first_player_wins"]["decimal"]  # the digits its rounding bound certifies: within one unit
    last = Fraction(1, 10 ** len(shown.split(".")[1]))
    assert abs(Fraction(shown) - chain("noordenbos").first_player_wins) <= last


def test_starting_squares_of_seed_003() -> None:
    result = experiments.start_sweep(chain("classic-47"))
    assert result["worse_than_previous"] == HOCHMAN_WORSE
    for square, printed in ((2, 39.6964061), (5, 39.2950265), (29, 36.8911770)):
        assert round(float(result["expected_turns_from"][str(square)]["decimal"]), 7) == printed


def test_candidate_count_of_seed_003() -> None:
    pairs = experiments.candidates(board("classic-47"))
    assert len(pairs) == 5496
    assert all(abs(i - k) >= 10 for i, k in pairs)
    assert len(experiments.candidates(board("classic-47"), min_length=20)) < 5496


@pytest.mark.parametrize("slug", ["classic-47", "noordenbos", "classic-pass"])
def test_rank_one_update_equals_a_fresh_exact_solve(slug: str) -> None:
    b = board(slug)
    pairs = experiments.candidates(b)
    effects = {(e.source, e.target): e for e in experiments.scan_exact(b, pairs)}
    tops = set(b.jumps.values())
    rng = random.Random(3)
    changed = [p for p, e in effects.items() if e.status == "changed"]
    sample = rng.sample(changed, 6) + rng.sample([p for p in changed if p[0] in tops], 2)
    sample += [p for p in ((40, 0), (90, 100)) if p in effects]
    for source, target in sample:
        assert effects[(source, target)].delta == _direct_delta(b, source, target), (source, target)
    assert all(e.status == "no effect" for (i, _), e in effects.items() if i == b.squares)


def test_seed_003_short_jumps() -> None:
    b = board("classic-47")
    roll_chain = experiments.RollChain(chain("classic-47"), [27, 29])
    base = expected_turns(chain("classic-47"))[0]
    assert round(float(base + roll_chain.effect(27, 29).delta), 2) == 40.20
    assert round(float(base + roll_chain.effect(29, 27).delta), 2) == 38.05
    assert roll_chain.effect(27, 29).counterintuitive and roll_chain.effect(29, 27).counterintuitive
    exact = experiments.exact_candidate(b, 27, 29)
    assert fraction_from_json(exact["expected_turns"]) == base + roll_chain.effect(27, 29).delta


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards(), st.randoms(use_true_random=False))
def test_rank_one_update_on_random_boards(b, rng) -> None:
    pairs = experiments.candidates(b, min_length=1)
    sample = rng.sample(pairs, min(4, len(pairs)))
    for effect in experiments.scan_exact(b, sample):
        try:
            direct = _direct_delta(b, effect.source, effect.target)
        except (BoardError, KeyError, ValueError):
            direct = None
        if effect.status == "changed":
            assert effect.delta == direct
        elif effect.status == "no effect":
            assert direct in (None, 0) or effect.source == b.squares
        else:
            new = experiments.with_jump(b, effect.source, effect.target)
            assert direct is None or b.start not in turn_chain(new).index


def test_first_player_floats_match_the_stein_equation() -> None:
    for slug in ("classic-47", "noordenbos"):
        b = board(slug)
        rng = random.Random(5)
        effects = experiments.scan_exact(b, experiments.candidates(b))
        pairs = rng.sample([(e.source, e.target) for e in effects if e.status == "changed"], 12)
        for (i, k), value in zip(pairs, experiments.first_player_floats(b, pairs)):
            assert abs(value - turn_chain(experiments.with_jump(b, i, k)).first_player_float) < 1e-11, (slug, i, k)


def test_the_float_scan_leaves_out_at_most_half_the_alive_mass_squared(monkeypatch) -> None:
    """Stopped at a mass A of unfinished games, ½·Σ P(T = k)² lacks at most ½·A² (later terms are at most A
    and add up to A): iterating much further adds no more than that."""
    b = board("noordenbos")
    effects = experiments.scan_exact(b, experiments.candidates(b))
    pairs = random.Random(7).sample([(e.source, e.target) for e in effects if e.status == "changed"], 20)
    stopped = experiments.first_player_floats(b, pairs)
    monkeypatch.setattr(experiments, "ALIVE_TOLERANCE", 1e-13)
    further = experiments.first_player_floats(b, pairs)
    for a, z in zip(stopped, further):
        assert 0 <= z - a <= 0.5 * 1e-7**2 + 1e-16


@pytest.mark.parametrize(("slug", "count"), [("classic-47", 8), ("noordenbos", 3)])
def test_the_stored_change_of_the_first_player_s_chance_is_within_one_unit_of_its_last_decimal(
        slug: str, count: int) -> None:
    """The record's `delta_first_player` (to DELTA_DECIMALS decimals, from the float scan and the board's exact
    chance) against the exact chances of the board with the jump and without."""
    b = board(slug)
    base = turn_chain(b).first_player_wins
    effects = experiments.scan_exact(b, experiments.candidates(b))
    changed = [e for e in effects if e.status == "changed"]
    sample = random.Random(3).sample(changed, count)
    scan = experiments.scan_json(sample, experiments.first_player_floats(b, [(e.source, e.target) for e in sample]),
                                 base, experiments.MIN_JUMP_LENGTH)
    for row in scan["jumps"]:
        exact = turn_chain(experiments.with_jump(b, row["from"], row["to"])).first_player_wins - base
        assert abs(Fraction(row["delta_first_player"]) - exact) <= Fraction(1, 10**experiments.DELTA_DECIMALS)


def _forty_squares():
    """A small board whose add-jump sweep has two pieces (744 changed candidates), more with smaller pieces."""
    from chutes.compute.board.file import board_from_mapping

    return board_from_mapping({"title": "forty", "squares": 40, "die": 6, "ladders": [[3, 15], [12, 30]],
                               "chutes": [[25, 5], [38, 20]], "source": "test"}, "forty", slug="forty")


def test_parallel_and_serial_scans_are_identical(tmp_path) -> None:
    b = _forty_squares()
    serial = whatif.add_jump(b, jobs=1, folder=None)
    parallel = whatif.add_jump(b, jobs=2, folder=tmp_path)
    assert json.dumps(serial, sort_keys=True) == json.dumps(parallel, sort_keys=True)
    assert whatif.dice(b, 8, jobs=1, folder=None) == whatif.dice(b, 8, jobs=2, folder=None)
    assert not list(tmp_path.glob("*.parts")), "the pieces are removed once the sweep is stored"
    again = whatif.add_jump(b, jobs=2, folder=tmp_path)
    assert again == parallel


def test_a_dask_cluster_gives_the_local_result() -> None:
    LocalCluster = pytest.importorskip("dask.distributed", reason="Dask is an optional extra").LocalCluster

    b = _forty_squares()
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        remote = whatif.add_jump(b, jobs=1, scheduler=cluster.scheduler_address, folder=None)
        dice = whatif.dice(b, 6, scheduler=cluster.scheduler_address, folder=None)
    assert remote == whatif.add_jump(b, jobs=1, folder=None)
    assert dice == whatif.dice(b, 6, folder=None)


def _square(x: int) -> int:
    return x * x


class _StopError(Exception):
    pass


def test_an_interrupted_sweep_resumes_without_redoing_work(tmp_path) -> None:
    parts = PartStore(tmp_path / "parts")
    calls: list[int] = []

    def flaky(x: int) -> int:
        if x == 3 and not calls.count(-1):
            calls.append(-1)
            raise _StopError
        calls.append(x)
        return x * x

    with pytest.raises(_StopError):
        run_pieces(flaky, [(x,) for x in range(6)], parts=parts, progress=False)
    assert calls == [0, 1, 2, -1]
    assert run_pieces(flaky, [(x,) for x in range(6)], parts=parts, progress=False) == [x * x for x in range(6)]
    assert calls == [0, 1, 2, -1, 3, 4, 5], "pieces 0-2 were not computed again"
    (tmp_path / "parts" / "00004.json").write_text("{broken")
    assert run_pieces(_square, [(x,) for x in range(6)], parts=parts, jobs=2, progress=False)[4] == 16


def test_an_interrupted_scan_resumes_from_its_pieces_whatever_the_jobs(tmp_path, monkeypatch) -> None:
    b = _forty_squares()
    monkeypatch.setattr(whatif, "JUMPS_PER_PIECE", 100)  # its 744 changed candidates in 8 pieces
    real = whatif.jump_piece
    done: list[int] = []

    def stop_after_two(fields, pairs):
        if len(done) == 2:
            raise KeyboardInterrupt
        done.append(len(pairs))
        return real(fields, pairs)

    monkeypatch.setattr(whatif, "jump_piece", stop_after_two)
    with pytest.raises(KeyboardInterrupt):
        whatif.add_jump(b, jobs=1, folder=tmp_path)
    assert len(list(tmp_path.glob("*.parts/*.json"))) == 2
    counted: list[int] = []

    def count(fields, pairs):
        counted.append(len(pairs))
        return real(fields, pairs)

    monkeypatch.setattr(whatif, "jump_piece", count)
    resumed = whatif.add_jump(b, jobs=1, folder=tmp_path)
    assert sum(counted) + sum(done) == resumed["counts"]["changed"] and len(counted) >= 2
    clean = whatif.add_jump(b, jobs=1, folder=None)
    assert resumed == clean
    # Interrupted again, then resumed by two workers: the pieces do not depend on the number of jobs.
    monkeypatch.setattr(whatif, "jump_piece", stop_after_two)
    done.clear()
    with pytest.raises(KeyboardInterrupt):
        whatif.add_jump(b, jobs=1, folder=tmp_path, force=True)
    monkeypatch.setattr(whatif, "jump_piece", real)
    assert whatif.add_jump(b, jobs=2, folder=tmp_path) == clean


def test_a_stored_piece_made_from_other_input_is_not_used(tmp_path) -> None:
    parts = PartStore(tmp_path / "parts")
    parts.save(0, 999, ("other input",))
    assert parts.load(0, ("this input",)) is None
    assert run_pieces(_square, [(3,)], parts=parts, progress=False) == [9]


def _chutes(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "chutes", *args],
                          capture_output=True, text=True, timeout=300)


def test_experiment_commands(tmp_path) -> None:
    cache = ["--cache", str(tmp_path)]
    dice = _chutes("experiment", "dice", "classic-47", "--max-faces", "4", "--json", *cache)
    assert dice.returncode == 0, dice.stderr
    rows = json.loads(dice.stdout)["dice"]
    assert [r["faces"] for r in rows] == [1, 2, 3, 4] and rows[0]["expected_turns"] is None
    start = json.loads(_chutes("experiment", "start", "classic-47", "--json").stdout)
    assert start["worse_than_previous"] == HOCHMAN_WORSE
    scan = _chutes("experiment", "add-jump", "tiny", "--min-length", "3", "--json", *cache)
    assert scan.returncode == 0, scan.stderr
    data = json.loads(scan.stdout)
    assert data["candidates"] == len(data["jumps"]) > 0 and "counterintuitive" in data
    told = _chutes("experiment", "add-jump", "tiny", "--min-length", "3", *cache).stdout.splitlines()
    assert "  No added ladder lengthens the game." in told and "  No added chute shortens the game." in told
    for line, following in zip(told, [*told[1:], ""]):  # a heading has something under it
        if line.endswith(":"):
            assert len(following) - len(following.lstrip()) > len(line) - len(line.lstrip()), told
    nothing = _chutes("experiment", "add-jump", "tiny", "--min-length", "11", *cache)
    assert nothing.returncode == 0 and nothing.stdout.strip().endswith("(squares 0 to 10, without the feet of its "
                                                                       "own jumps)"), nothing.stdout
    assert "no single chute or ladder of length 11 or more fits on this board" in nothing.stdout
    one = _chutes("experiment", "add-jump", "classic-47", "--exact", "27,29", "--json")
    assert round(float(json.loads(one.stdout)["expected_turns"]["decimal"]), 2) == 40.20
    words = _chutes("experiment", "add-jump", "classic-47", *cache)
    assert "5,496 possible single jumps" in words.stdout and "250" in words.stdout
    for bad in (["add-jump", "classic-47", "--exact", "1,50"], ["add-jump", "classic-47", "--scheduler",
                                                                 "tcp://127.0.0.1:9", *cache, "--min-length", "40"]):
        failed = _chutes("experiment", *bad)
        assert failed.returncode == 2 and len(failed.stderr.strip().splitlines()) == 1, failed.stderr
        assert "Traceback" not in failed.stderr
