"""Shared fixtures: bundled boards and their chains, built once per test session."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from fractions import Fraction
from functools import cache
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from compute.boards import Board, board_files, load_board
from compute.chain import TurnChain, turn_chain
from site_build.project import BUNDLED_BOARDS, Project

DATA = Path(__file__).parent / "data"
REPOSITORY = Path(__file__).parent.parent


def bundled_boards() -> dict[str, Path]:
    """The bundled board files by slug."""
    return board_files(BUNDLED_BOARDS)


BUNDLED = list(bundled_boards())


def board_file(slug: str) -> Path:
    """A bundled board file, or one of the tests' own (tests/data/boards: `short`, 50 squares, solved in about
    a second with every experiment, for tests that run the whole compute stage several times)."""
    return bundled_boards().get(slug) or DATA / "boards" / f"{slug}.toml"


def published_fraction() -> Fraction:
    """The classic board's first-player fraction as RobinFiveWords published it (4,453 digits over 4,453)."""
    lines = [x for x in (DATA / "classic_first_player.txt").read_text().splitlines() if not x.startswith("#")]
    return Fraction(int(lines[0]), int(lines[1]))
CHUTES = [sys.executable, "-m", "chutes"]


def chutes(*args: str, timeout: float = 600, **kw) -> subprocess.CompletedProcess[str]:
    """The command line in a process of its own (for exit codes, stderr and signals)."""
    return subprocess.run([*CHUTES, *args], capture_output=True, text=True, timeout=timeout, **kw)


def new_project(root: Path, slugs: list[str] = ("tiny",), **paths: Path) -> Project:
    """A site project in `root`: the repository's mkdocs.yml and copies of some bundled boards."""
    (root / "site_src" / "boards").mkdir(parents=True, exist_ok=True)
    shutil.copy(REPOSITORY / "mkdocs.yml", root / "mkdocs.yml")
    for slug in slugs:
        shutil.copy(board_file(slug), root / "site_src" / "boards" / f"{slug}.toml")
    return Project.at(root, **paths)


@cache
def board(slug: str) -> Board:
    """A bundled board by slug."""
    return load_board(bundled_boards()[slug])


@cache
def chain(slug: str) -> TurnChain:
    """The turn chain of a bundled board."""
    return turn_chain(board(slug))


@pytest.fixture
def classic() -> TurnChain:
    return chain("classic")


@pytest.fixture
def classic47() -> TurnChain:
    return chain("classic-47")


@pytest.fixture
def small_boards(tmp_path: Path) -> Path:
    """A folder holding only the 10-square test board."""
    folder = tmp_path / "boards"
    folder.mkdir()
    (folder / "tiny.toml").write_bytes(bundled_boards()["tiny"].read_bytes())
    return folder


@pytest.fixture(scope="session")
def site_http() -> Iterator[ThreadingHTTPServer]:
    """An HTTP server bound to a free port of 127.0.0.1 (it starts serving in the browser tests)."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _QuietHandler)
    yield httpd
    httpd.server_close()


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory, site_http: ThreadingHTTPServer) -> Path:
    """The whole site built from the bundled boards in a project of its own, once per session.

    Records the repository's own cache already holds (after `bash scripts/build`) are copied in, never
    written back: the cache checks each one as usual and recomputes what is missing, stale or altered.
    Its site_url is the test server's address: Material's instant navigation only takes over links
    listed in sitemap.xml under the same host and port.
    """
    from chutes.cli import compute_stage
    from site_build.pipeline import build_site

    project = new_project(tmp_path_factory.mktemp("built"), BUNDLED)
    ours = REPOSITORY / ".cache" / "results"
    if ours.is_dir():
        project.cache_dir.mkdir(parents=True)
        for record in ours.glob("*.json"):
            shutil.copy(record, project.cache_dir / record.name)
    url = f"http://127.0.0.1:{site_http.server_address[1]}/"
    site = build_site(project, compute_stage(quiet=True), url)
    site_http.RequestHandlerClass = functools.partial(_QuietHandler, directory=str(site))
    return site


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="session")
def bundled_records(built_site: Path) -> list[dict]:
    """The cached result records of the bundled boards, as the site was built from them."""
    from compute.cache import ResultCache

    cache = ResultCache(built_site.parent / ".cache" / "results")
    records = []
    for slug in BUNDLED:
        record, problem = cache.load(board(slug))
        assert record is not None, problem
        records.append(record)
    return records


def browser_group(module: str) -> str:
    """The pytest-xdist group of a module's browser tests: a module's run on one worker, so that the modules
    share the cores (a worker builds the served site once and starts Chromium once, for all its modules)."""
    return f"browser-{module}"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under pytest-xdist (`--dist loadgroup`, as scripts/test runs it) each module's browser tests go to one
    worker (`browser_group`)."""
    for item in items:
        if item.get_closest_marker("browser") and not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group(browser_group(item.module.__name__)))


# --- the browser, for every browser test (one per worker: Playwright's sync API runs once per process) -----

CHROMIUM = os.environ.get("CHUTES_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium; the test fails (it is not skipped) if it is missing: scripts/test installs it."""
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} not found: install Debian's chromium (scripts/test does)"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield b
        b.close()


class Watched:
    """A page with everything that went wrong on it recorded: console errors, page errors, outside requests."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.errors: list[str] = []
        self.outside: list[str] = []
        page.on("console", lambda m: self.errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        page.route("**/*", self._route)

    def _route(self, route) -> None:
        url = route.request.url
        if url.startswith(("http://127.0.0.1:", "data:", "blob:")):
            route.continue_()
        else:
            self.outside.append(url)
            route.abort()

    def assert_clean(self) -> None:
        assert self.errors == [] and self.outside == []


@pytest.fixture
def watched(browser: Browser) -> Iterator[Watched]:
    """A desktop-sized page of its own (clipboard allowed), watched for errors and outside requests."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    yield Watched(context.new_page())
    context.close()
