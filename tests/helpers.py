"""What the tests share besides fixtures: the bundled boards and their chains, the command line in a process,
a new site project, and a browser page watched for errors (imported as `helpers`: tests/ is on the path)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from fractions import Fraction
from functools import cache
from http.server import SimpleHTTPRequestHandler
from pathlib import Path

import pytest
from playwright.sync_api import Page

from chutes.compute.board.file import board_files, load_board
from chutes.compute.board.model import Board
from chutes.compute.numbers import integer_from_text
from chutes.compute.solve.chain import TurnChain, turn_chain
from chutes.site_build.project import BUNDLED_BOARDS, Project

DATA = Path(__file__).parent / "data"
REPOSITORY = Path(__file__).parent.parent


def bundled_boards() -> dict[str, Path]:
    """The bundled board files by slug."""
    return board_files(BUNDLED_BOARDS)


BUNDLED = list(bundled_boards())
LONGEST = ("noordenbos", "classic-roll-again")
"""The bundled boards whose exact cross-checks against a slower method take longest (the longest games, a
dense roll-again turn): those checks run with the long checks (`-m slow`); every record is still checked
three ways when it is computed."""


def bundled_params() -> list:
    """The bundled boards' slugs as test parameters, those in LONGEST marked `slow`."""
    return [pytest.param(slug, marks=pytest.mark.slow) if slug in LONGEST else slug for slug in BUNDLED]


def board_file(slug: str) -> Path:
    """A bundled board file, or one of the tests' own (tests/data/boards: `short`, 50 squares, solved in about
    a second with every experiment, for tests that run the whole compute stage several times)."""
    return bundled_boards().get(slug) or DATA / "boards" / f"{slug}.toml"


def published_fraction() -> Fraction:
    """The classic board's first-player fraction as RobinFiveWords published it (4,453 digits over 4,453)."""
    lines = [x for x in (DATA / "classic_first_player.txt").read_text().splitlines() if not x.startswith("#")]
    return Fraction(integer_from_text(lines[0]), integer_from_text(lines[1]))
CHUTES = [sys.executable, "-m", "chutes"]


def chutes(*args: str, timeout: float = 600, **kw) -> subprocess.CompletedProcess[str]:
    """The command line in a process of its own (for exit codes, stderr and signals)."""
    return subprocess.run([*CHUTES, *args], capture_output=True, text=True, timeout=timeout, **kw)


SHARED_STILLS: list[Path] = []
"""The charts' stills this test run shares (set by conftest): named by their content, so every project's builds
can keep theirs in one folder and draw each still once per run."""


def in_languages(config: str, languages: list[str] | None) -> str:
    """The repository's mkdocs.yml publishing `languages` (None: English alone, as a site that sets none), its
    `translations` kept for those of them it publishes."""
    out: list[str] = []
    below: int | None = None  # lines indented deeper than this are part of what is left out
    in_translations = False
    for line in config.splitlines(keepends=True):
        indent, stripped = len(line) - len(line.lstrip()), line.strip()
        if below is not None and stripped and indent > below:
            continue
        below = None
        if stripped and not stripped.startswith("#") and indent <= 6:
            in_translations = False
        if stripped.startswith("languages:"):
            if languages:
                out.append(f"{line[:indent]}languages: [{', '.join(languages)}]\n")
            continue
        if stripped.startswith("translations:"):
            in_translations = bool(languages)
            if not languages:
                below = indent
                continue
        elif in_translations and stripped.endswith(":") and stripped[:-1] not in languages:
            below = indent
            continue
        out.append(line)
    return "".join(out)


def new_project(root: Path, slugs: list[str] = ("tiny",), guide: bool = False, languages: list[str] | None = None,
                **paths: Path) -> Project:
    """A site project in `root`: the repository's mkdocs.yml and copies of some bundled boards (its kept stills
    in the run's shared folder). With `guide`, the reference site's guide too (its `guide: true` setting, a link to
    the repository's guide/ and a copy of benchmarks/results.md); without, the setting is left out, as `chutes new`
    leaves it out. It publishes `languages` (default: English alone, so that a test builds one language unless it
    asks for more)."""
    (root / "site_src" / "boards").mkdir(parents=True, exist_ok=True)
    if SHARED_STILLS:
        (root / ".cache").mkdir(exist_ok=True)
        (root / ".cache" / "stills").symlink_to(SHARED_STILLS[0], target_is_directory=True)
    config = (REPOSITORY / "mkdocs.yml").read_text()
    if guide:
        (root / "guide").symlink_to(REPOSITORY / "guide", target_is_directory=True)
        (root / "benchmarks").mkdir(exist_ok=True)
        shutil.copy(REPOSITORY / "benchmarks" / "results.md", root / "benchmarks" / "results.md")
    else:
        config = "".join(line for line in config.splitlines(keepends=True) if not line.strip().startswith("guide:"))
    (root / "mkdocs.yml").write_text(in_languages(config, languages))
    for slug in slugs:
        shutil.copy(board_file(slug), root / "site_src" / "boards" / f"{slug}.toml")
    return Project.at(root, **paths)


@cache
def random_coin_board(squares: int, jumps: int, seed: int) -> Board:
    """A random board of `squares` squares with the coin, `jumps` ladders and `jumps` chutes (every end apart)."""
    import random

    from chutes.compute.board.file import board_from_mapping

    rng = random.Random(seed)
    ends = iter(rng.sample(range(2, squares - 1), 4 * jumps))
    pairs = [sorted((next(ends), next(ends))) for _ in range(2 * jumps)]
    return board_from_mapping({"squares": squares, "die": 6, "choice": "coin", "ladders": pairs[:jumps],
                               "chutes": [[high, low] for low, high in pairs[jumps:]]}, "random", "random")


def board(slug: str) -> Board:
    """A bundled board by slug."""
    return load_board(bundled_boards()[slug])


@cache
def chain(slug: str) -> TurnChain:
    """The turn chain of a bundled board."""
    return turn_chain(board(slug))


class QuietHandler(SimpleHTTPRequestHandler):
    """Serves a folder without a log line per request."""

    def log_message(self, format: str, *args: object) -> None:
        pass


class SiteHandler(QuietHandler):
    """Serves a site built for another address (`built_for`, another worker's server) as if built for this one:
    each language's sitemap.xml names this server's pages (Material's instant navigation takes over only the links
    of the sitemap under the page's own host and port), and so do the pages (a language's alternates, whose
    sitemaps Material's selector reads, are absolute addresses); every other file as it is."""

    built_for = ""

    def do_GET(self) -> None:
        path = Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split("?")[0].endswith("/"):
            path = path / "index.html"
        if not self.built_for or path.suffix not in (".xml", ".html") or not path.is_file():
            return super().do_GET()  # a folder's address without its / is redirected
        here = f"http://127.0.0.1:{self.server.server_address[1]}/"
        body = path.read_text().replace(self.built_for, here).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/xml" if path.suffix == ".xml" else "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def browser_group(module: str) -> str:
    """The pytest-xdist group of a module's browser tests: a module's run on one worker, so that the modules
    share the cores (a worker starts Chromium once, for all its modules)."""
    return f"browser-{module}"


SITE_GROUP = "browser-built-site"
"""The pytest-xdist group of the browser tests of the bundled site (`built_site`), whatever their module, but for
the languages' (`LANGUAGES_SITE_GROUP`): the worker that runs them builds the site, while the other runs tests
that need no site."""
LANGUAGES_SITE_GROUP = "browser-built-site-languages"
"""The languages' browser tests of the bundled site (tests/test_languages.py), a group of their own: about as long
as the others' together, they run on the other worker, which waits for the site's build if it comes to them
first."""


REFERENCE_LANGUAGES = [line.split("[", 1)[1].split("]", 1)[0].replace(" ", "").split(",")
                       for line in (REPOSITORY / "mkdocs.yml").read_text().splitlines()
                       if line.strip().startswith("languages:")][0]
"""The languages the reference site publishes (its mkdocs.yml), which the whole bundled site is built in."""
ENGINE_LANGUAGES = ["en", "ar"]
"""The languages of the sites built with each engine (`engine_sites`): the first at the root and one written right
to left in its folder, so that both engines are seen publishing another language."""
ENGINE_BOARDS = ["classic", "classic-six-to-enter", "tiny"]
"""The boards of the sites built with each engine (`engine_sites`): a board of each kind of page (plain rules,
house rules, kept out of the menus), so every template and page of the site, built twice in seconds rather than
the whole bundled site twice."""
ENGINE_SITES_GROUP = "engine-sites"
"""The pytest-xdist group of the tests of the sites built with each engine (`engine_sites`, built once per
worker), whatever their module."""


CHROMIUM = os.environ.get("CHUTES_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


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

