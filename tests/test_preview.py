"""`chutes serve` shows every edit: boards changed, added and deleted, a page, a template, the settings; a broken
board prints its one-line error and the last good pages stay. Only the boards that changed are recomputed."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from helpers import new_project

WAIT_SECONDS = 120


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Preview:
    """A `chutes serve` process on a free port, its standard error collected in a file."""

    def __init__(self, root: Path, *options: str) -> None:
        self.root = root
        self.port = _free_port()
        self.log = root.parent / "serve.log"
        env = {k: v for k, v in os.environ.items() if k != "CHUTES_SITE_URL"}
        self.process = subprocess.Popen([sys.executable, "-m", "chutes", "serve", "--dev-addr",
                                         f"127.0.0.1:{self.port}", *options], cwd=root, env=env,
                                        stdout=subprocess.DEVNULL, stderr=self.log.open("w"))

    def fetch(self, path: str) -> tuple[int, str]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/{path}", timeout=10) as reply:
                return reply.status, reply.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, ""
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return 0, ""

    def until(self, path: str, ok: Callable[[int, str], bool], what: str) -> str:
        """Fetch `path` until `ok(status, text)` holds (at most WAIT_SECONDS); the page's text."""
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"chutes serve ended: {self.errors()}"
            status, text = self.fetch(path)
            if ok(status, text):
                return text
            time.sleep(0.3)
        pytest.fail(f"{what}: not shown at /{path} after {WAIT_SECONDS} s\n{self.errors()}")

    def errors(self) -> str:
        return self.log.read_text()

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture
def preview(tmp_path: Path) -> Iterator[Preview]:
    project = new_project(tmp_path / "p", ["tiny"])
    served = Preview(project.root)
    yield served
    served.stop()


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{path.name}: {old!r} not found"
    path.write_text(text.replace(old, new))


def test_every_edit_appears_on_the_served_page(preview: Preview) -> None:
    boards = preview.root / "site_src" / "boards"
    tiny = boards / "tiny.toml"
    first = preview.until("boards/tiny/", lambda s, t: s == 200, "the first build")
    assert "A 10-square test board" in first

    _edit(tiny, 'title = "A 10-square test board"', 'title = "Our kitchen board"')
    preview.until("boards/tiny/", lambda s, t: "Our kitchen board" in t, "a new title")

    ladders = first.count("ladder")
    _edit(tiny, "ladders = [[4, 7]]", "ladders = [[4, 7], [3, 8]]")
    preview.until("boards/tiny/", lambda s, t: "2 ladders and" in t and t.count("ladder") != ladders, "a new ladder")

    _edit(tiny, 'overshoot = "stay"', 'overshoot = "bounce"')
    preview.until("boards/tiny/", lambda s, t: "bounce" in t.lower(), "a new rule")

    (boards / "second.toml").write_text(tiny.read_text().replace("Our kitchen board", "A second board"))
    preview.until("boards/second/", lambda s, t: s == 200 and "A second board" in t, "an added board")
    preview.until("", lambda s, t: "A second board" in t, "the added board on the home page")
    (boards / "second.toml").unlink()
    preview.until("boards/second/", lambda s, t: s == 404, "a deleted board")

    computed = preview.errors().count("computed in")
    (preview.root / "site_src" / "method.md").write_text("# How we did it\n\nOur own method page.\n")
    preview.until("method/", lambda s, t: "Our own method page." in t, "a page override")
    (preview.root / "templates").mkdir()
    (preview.root / "templates" / "data.md.j2").write_text("# Our data\n\nAsk us for the files.\n")
    preview.until("data/", lambda s, t: "Ask us for the files." in t, "a template override")
    assert preview.errors().count("computed in") == computed, "a page or template edit recomputed a board"

    _edit(preview.root / "mkdocs.yml", "site_name: Chutes and Ladders, exactly", "site_name: The kitchen table")
    preview.until("boards/tiny/", lambda s, t: "The kitchen table" in t, "a new site name")

    tiny.write_text('squares = 10\ndie = 6\nladders = [[2, 60]]\n')
    deadline = time.monotonic() + WAIT_SECONDS
    while "error:" not in preview.errors() and time.monotonic() < deadline:
        time.sleep(0.3)
    error = next(line for line in preview.errors().splitlines() if "error:" in line)
    assert "tiny.toml" in error and "60" in error, error
    status, text = preview.fetch("boards/tiny/")
    assert status == 200 and "Our kitchen board" in text, "the last good page stays"


def test_the_zensical_preview_shows_an_edited_board_too(tmp_path: Path) -> None:
    project = new_project(tmp_path / "p", ["tiny"])
    served = Preview(project.root, "--engine", "zensical")
    try:
        assert "A 10-square test board" in served.until("boards/tiny/", lambda s, t: s == 200, "the first build")
        _edit(project.boards_dir / "tiny.toml", 'title = "A 10-square test board"', 'title = "Our kitchen board"')
        served.until("boards/tiny/", lambda s, t: "Our kitchen board" in t, "a new title")
        assert not project.site_dir.exists(), "the preview never writes the project's site"
    finally:
        served.stop()
