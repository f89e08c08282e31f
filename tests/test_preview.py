"""`chutes serve` shows every edit: boards changed, added and deleted, a page, a template, the settings; a broken
board prints its one-line error and the last good pages stay. Only the boards that changed are recomputed."""

from __future__ import annotations

import json
import os
import re
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

    def __init__(self, root: Path, *options: str, port: int | None = None) -> None:
        self.root = root
        self.port = port or _free_port()
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


def _built(root: Path, text: str = "") -> dict[str, int]:
    """The preview's built pages (those holding `text`) and their modification times (ns), by address."""
    site = root / ".cache" / "preview" / "site"
    return {p.parent.relative_to(site).as_posix(): p.stat().st_mtime_ns for p in site.rglob("index.html")
            if text in p.read_text()}


def _rebuilt(before: dict[str, int], after: dict[str, int]) -> set[str]:
    return {page for page, stamp in after.items() if before.get(page) != stamp}


def _settled(preview: Preview, updates: int) -> str:
    """Wait for the preview's `updates`-th "preview updated" line; that line."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        lines = [line for line in preview.errors().splitlines() if "preview updated" in line]
        if len(lines) >= updates:
            return lines[updates - 1]
        time.sleep(0.2)
    pytest.fail(f"no update {updates}:\n{preview.errors()}")


def test_an_edit_rebuilds_exactly_the_pages_that_show_it(tmp_path: Path) -> None:
    """A template two pages import, a board's title and a hand-written page, edited in a running preview: every
    page that shows them is updated (the title: its page, the home table, the comparison, the data page and every
    page's menu), and no other page is built again (the HTML files' times)."""
    project = new_project(tmp_path / "p", ["tiny", "short"])
    served = Preview(project.root)
    try:
        served.until("boards/short/", lambda s, t: s == 200, "the first build")
        (project.root / "templates").mkdir()
        card = (Path(__file__).parent.parent / "templates" / "_card.j2").read_text()
        marker = "How long will our game take?"
        showing = _built(project.root, marker)
        assert {"boards/tiny", "boards/short"} <= set(showing), showing
        before = _built(project.root)
        (project.root / "templates" / "_card.j2").write_text(card.replace(marker, "How long is a kitchen game?"))
        update = _settled(served, 1)
        for page in showing:
            served.until(f"{page}/", lambda s, t: "How long is a kitchen game?" in t, f"the edited card on /{page}/")
        assert _rebuilt(before, _built(project.root)) == set(showing), update
        assert "pages made again: index, boards/short, boards/tiny;" in update, update

        before = _built(project.root)
        title = "A short test board (50 squares)"
        _edit(project.boards_dir / "short.toml", f'title = "{title}"', 'title = "Our kitchen board"')
        update = _settled(served, 2)
        for page in ("boards/short/", "", "compare/", "data/", "method/", "boards/tiny/"):
            served.until(page, lambda s, t: "Our kitchen board" in t and title not in t, f"the new title on /{page}")
        assert _rebuilt(before, _built(project.root)) == set(before), "a new title is in every page's menu"
        assert "boards/tiny" not in update.split("files built")[0], update
        assert "house-rules" not in update, "a page the site leaves out is never reported as made"
        assert served.errors().count("note: no House rules page (house-rules/): it is made only when") == 1, \
            "said once, at the start, and not again while it holds"

        before = _built(project.root)
        (project.root / "site_src" / "method.md").write_text("# Method\n\nOur own method page.\n")
        update = _settled(served, 3)
        served.until("method/", lambda s, t: "Our own method page." in t, "a hand-written page")
        assert _rebuilt(before, _built(project.root)) == {"method"}, update
        assert "pages made again: none;" in update, update
        assert _site(project.root / ".cache" / "preview" / "site") == _site(_whole_build(project.root, served.port)), \
            "the pages built one by one are those a whole build writes"
    finally:
        served.stop()


def _whole_build(root: Path, port: int) -> Path:
    """The preview's inputs built whole by MkDocs, into a folder of their own."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    url = f"http://127.0.0.1:{port}/"
    config = load_config(config_file=str(root / ".cache" / "preview" / "mkdocs.yml"), site_dir=str(root / "whole"))
    config.site_url = url
    build(config, serve_url=url)
    return root / "whole"


def _site(folder: Path) -> dict[str, object]:
    """A built site's files, the search index's entries as a set (their order is the engine's)."""
    files: dict[str, object] = {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*")
                                if p.is_file()}
    index = json.loads(files.pop("search/search_index.json"))
    files["search"] = (index["config"], sorted(json.dumps(entry, sort_keys=True) for entry in index["docs"]))
    return files


def test_a_preview_started_again_builds_only_what_changed_meanwhile(tmp_path: Path) -> None:
    """The preview keeps its site: started again after a page was edited (and a board removed), it builds only
    that page (and removes the board's), and its site is what a whole build writes."""
    project = new_project(tmp_path / "p", ["tiny", "short"])
    served = Preview(project.root)
    served.until("boards/short/", lambda s, t: s == 200, "the first build")
    served.stop()
    before = _built(project.root)
    (project.root / "site_src" / "method.md").write_text("# Method\n\nWritten while the preview was off.\n")
    (project.boards_dir / "tiny.toml").unlink()
    again = Preview(project.root, port=served.port)
    try:
        again.until("method/", lambda s, t: "Written while the preview was off." in t, "the page edited meanwhile")
        assert again.fetch("boards/tiny/")[0] == 404
        after = _built(project.root)
        assert _rebuilt(before, after) == {"method", "data"}, "only the edited page and the list of every board"
        assert "boards/tiny" not in after
        assert _site(project.root / ".cache" / "preview" / "site") == _site(_whole_build(project.root, again.port))
    finally:
        again.stop()


def _in_languages(project_root: Path, codes: str) -> None:
    """The project's mkdocs.yml publishing `codes` (`[en, fr]`)."""
    config = project_root / "mkdocs.yml"
    text = re.sub(r"^ +languages:.*\n", "", config.read_text(), flags=re.M)
    config.write_text(text.replace("  - chutes:\n", f"  - chutes:\n      languages: {codes}\n", 1))


def test_every_language_is_previewed_in_its_folder_and_follows_an_edit(tmp_path: Path) -> None:
    """A site in English and French: the preview serves the French pages under /fr/ (in French, with the
    selector leading back), and a board's new titles reach both languages' pages."""
    project = new_project(tmp_path / "p", ["tiny"])
    _in_languages(project.root, "[en, fr]")
    served = Preview(project.root)
    try:
        french = served.until("fr/boards/tiny/", lambda s, t: s == 200, "the French board page")
        assert '<html lang="fr"' in french and "Un plateau d&#39;essai de 10 cases" in french.replace("&#x27;", "&#39;")
        assert '<html lang="en"' in served.until("boards/tiny/", lambda s, t: s == 200, "the English page")
        assert served.fetch("fr/search/search_index.json")[0] == 200
        board = project.boards_dir / "tiny.toml"  # its French title is its file's [translations.fr] title
        _edit(board, 'title = "A 10-square test board"', 'title = "Our kitchen board"')
        _edit(board, 'title = "Un plateau d\'essai de 10 cases"', 'title = "Notre plateau de cuisine"')
        for page, title in (("fr/boards/tiny/", "Notre plateau de cuisine"), ("boards/tiny/", "Our kitchen board"),
                            ("fr/", "Notre plateau de cuisine")):
            served.until(page, lambda s, t, title=title: title in t, f"/{page}")
        assert served.fetch("fr/boards/tiny/")[0] == 200 and served.fetch("boards/tiny/")[0] == 200
    finally:
        served.stop()


def test_the_zensical_preview_says_it_shows_the_first_language_only(tmp_path: Path) -> None:
    project = new_project(tmp_path / "p", ["tiny"])
    _in_languages(project.root, "[en, fr]")
    served = Preview(project.root, "--engine", "zensical")
    try:
        served.until("boards/tiny/", lambda s, t: s == 200, "the first build")
        notes = [line for line in served.errors().splitlines() if "first language only" in line]
        assert notes == ["chutes: note: the Zensical preview shows the first language only (English); chutes build "
                         "publishes every language, or preview them all with --engine mkdocs"], served.errors()
    finally:
        served.stop()
