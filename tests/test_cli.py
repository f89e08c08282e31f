"""The `chutes` command: JSON output, plain words, and one-line errors with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from helpers import published_fraction

from chutes.compute.numbers import fraction_from_json


def chutes(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "chutes", *args],
                          capture_output=True, text=True, timeout=300)


def test_solve_json_classic():
    out = chutes("solve", "classic", "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    p = result["first_player_wins"]
    assert fraction_from_json(p) == published_fraction()
    assert p["decimal"].startswith("0.5078027734609139778739238784")
    assert len(p["decimal"].lstrip("0.")) >= 30
    t = result["expected_turns"]
    assert t["decimal"].startswith("39.59")
    assert result["game_length"]["shortest"]["turns"] == 7
    shortest = result["game_length"]["shortest"]["probability"]
    assert (shortest["numerator"], shortest["denominator"]) == ("73", "46656")


def test_solve_json_imports_only_what_it_needs():
    """The quick command's start-up (benchmarks/startup.py): no numpy (slower to import than the exact solve runs),
    no simulation, no web stack, no worker processes, no cluster."""
    out = subprocess.run([sys.executable, "-X", "importtime", "-m", "chutes", "solve", "classic", "--json"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    loaded = {line.rsplit("|", 1)[1].strip() for line in out.stderr.splitlines() if line.startswith("import time:")}
    assert "chutes.compute.solve.twoplayer" in loaded
    heavy = {"numpy", "scipy", "numba", "jinja2", "plotly", "mkdocs", "yaml", "tqdm", "threadpoolctl", "dask",
             "multiprocessing",
             "chutes.site_build.tree.render", "chutes.site_build.pages.board_page", "chutes.site_build.pages.records",
             "chutes.compute.record.schema", "chutes.compute.solve.simulate"}
    assert loaded & heavy == set()


def test_solve_words_from_a_file(tmp_path):
    out = chutes("solve", "site_src/boards/tiny.toml")
    assert out.returncode == 0, out.stderr
    assert "First of two players wins" in out.stdout and "Average game" in out.stdout


def test_solve_in_a_language_prints_the_pages_sentences():
    """`--lang fr`: the sentences of compute.record.words in French (the pages' own), the numbers in the French
    format; an unknown language is refused naming the ones there are."""
    from helpers import chain

    from chutes.compute.record.results import solve
    from chutes.compute.record.words import words

    out = chutes("solve", "tiny", "--lang", "fr")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[:-1] == words("fr").summary(solve(chain("tiny"))).splitlines()
    assert "Durée moyenne d'une partie\u00a0: 8,8333 tours pour un joueur seul" in out.stdout
    assert lines[-1].startswith("  (résolu en ") and lines[-1].endswith(" s)")
    race = chutes("solve", "tiny", "--players", "3", "--lang", "de")
    assert "Spieler 1 (auf Feld 0) gewinnt mit der Wahrscheinlichkeit 0,3776" in race.stdout
    bad = chutes("solve", "tiny", "--lang", "it")
    assert bad.stderr.strip() == ("chutes: error: Invalid value for '--lang': no catalogue for 'it': the languages "
                                  "are en, ar, de, es, fr, hi (see 'chutes solve --help')")


def test_solve_positions():
    out = chutes("solve", "classic", "--positions", "99,99", "--json")
    assert out.returncode == 0, out.stderr
    mover = json.loads(out.stdout)["win_probabilities"][0]
    assert (mover["numerator"], mover["denominator"]) == ("6", "11")


def test_simulate_json():
    out = chutes("simulate", "tiny", "--games", "200000", "--seed", "3", "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["games"] == 200000 and result["seed"] == 3
    assert result["mean_turns"]["ci95"][0] < result["mean_turns"]["estimate"] < result["mean_turns"]["ci95"][1]
    again = json.loads(chutes("simulate", "tiny", "--games", "200000", "--seed", "3", "--json").stdout)
    assert again == result


@pytest.mark.parametrize("args", [
    ("solve", "no-such-board"),
    ("solve", "missing.toml"),
    ("solve", "classic", "--positions", "1,2"),
    ("solve", "classic", "--positions", "a,b"),
    ("simulate", "classic", "--games", "0"),
    ("simulate", "classic", "--seed", "-4"),
    ("frobnicate",),
    ("solve",),
    ("solve", "tiny", "--lang", "xx"),
])
def test_bad_input_one_line_exit_2(args):
    out = chutes(*args)
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("chutes: error: ")
    assert "Traceback" not in out.stderr


def test_bad_board_file_names_file_and_key(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('title = "x"\nsquares = 10\ndie = 6\nladders = [[4, 2]]\nsource = "s"\n')
    out = chutes("solve", str(bad))
    assert out.returncode == 2
    assert out.stderr.strip() == (f"chutes: error: {bad}: ladders[0] = [4, 2]: a ladder goes up; this one goes "
                                  "down (list it under chutes)")


def test_strategy_under_a_roll_again_limit_names_the_later_rolls_played_otherwise():
    """`chutes strategy` on the family rules with the coin: the later rolls of a turn played otherwise, in words
    and in the JSON (`later`), and the two-player games by the other's square, certified."""
    out = chutes("strategy", "classic-family-coin")
    assert out.returncode == 0, out.stderr
    assert "Later in a turn it plays otherwise: a 6 on square " in out.stdout
    assert "every square, number of rolls so far in the turn and roll" in out.stdout
    found = json.loads(chutes("strategy", "classic-family-coin", "--json").stdout)["strategy"]
    assert found["later"] and {c["rolls_so_far"] for c in found["later"]} == {1}
    assert found["against_box"]["first"].startswith("0.8277") and found["both_maximise"]["first"].startswith("0.5200")
    assert "duels_not_computed" not in found
