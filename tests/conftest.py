"""The tests' fixtures: bundled chains, a folder of boards, the bundled boards' records, the built site and a
browser (helpers they share with the tests live in `helpers`)."""

from __future__ import annotations

import functools
import shutil
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest
from helpers import (
    BUNDLED,
    CHROMIUM,
    CHROMIUM_FLAGS,
    REPOSITORY,
    QuietHandler,
    Watched,
    board,
    browser_group,
    bundled_boards,
    chain,
    new_project,
)
from playwright.sync_api import Browser, sync_playwright

from chutes.compute.record.schema import BoardRecord
from chutes.compute.solve.chain import TurnChain


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
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), QuietHandler)
    yield httpd
    httpd.server_close()


@pytest.fixture(scope="session")
def bundled_project(tmp_path_factory: pytest.TempPathFactory):
    """A project of the bundled boards with every record computed (no site built), once per session.

    Records the repository's own cache already holds (after `bash scripts/build`) are copied in, never
    written back: the cache checks each one as usual and recomputes what is missing, stale or altered."""
    from chutes.cli import compute_stage

    project = new_project(tmp_path_factory.mktemp("built"), BUNDLED)
    ours = REPOSITORY / ".cache" / "results"
    if ours.is_dir():
        project.cache_dir.mkdir(parents=True)
        for record in ours.glob("*.json"):
            shutil.copy(record, project.cache_dir / record.name)
    return project, compute_stage(quiet=True)(project)


@pytest.fixture(scope="session")
def built_site(bundled_project, site_http: ThreadingHTTPServer) -> Path:
    """The whole site built from the bundled boards' project, once per session.

    Its site_url is the test server's address: Material's instant navigation only takes over links
    listed in sitemap.xml under the same host and port.
    """
    from chutes.site_build.pipeline import build_site

    project, record_files = bundled_project
    url = f"http://127.0.0.1:{site_http.server_address[1]}/"
    site = build_site(project, lambda _: record_files, url)
    site_http.RequestHandlerClass = functools.partial(QuietHandler, directory=str(site))
    return site


@pytest.fixture(scope="session")
def bundled_records(bundled_project) -> list[dict]:
    """The cached result records of the bundled boards (computed, or checked in the cache, once)."""
    from chutes.compute.stage import cached_record
    from chutes.compute.store.results import ResultCache

    project, _ = bundled_project
    cache = ResultCache(project.cache_dir)
    records = []
    for slug in BUNDLED:
        record, problem = cached_record(cache, board(slug))
        assert record is not None, problem
        records.append(record)
    return records


@pytest.fixture(scope="session")
def bundled_models(bundled_records: list[dict]) -> list[BoardRecord]:
    """The same records as the build stage reads them: their typed models."""
    return [BoardRecord.model_validate(r) for r in bundled_records]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under pytest-xdist (`--dist loadgroup`, as scripts/test runs it) each module's browser tests go to one
    worker (`browser_group`)."""
    for item in items:
        if item.get_closest_marker("browser") and not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group(browser_group(item.module.__name__)))


# --- the browser, for every browser test (one per worker: Playwright's sync API runs once per process) -----

@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium; the test fails (it is not skipped) if it is missing: scripts/test installs it."""
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} not found: install Debian's chromium (scripts/test does)"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield b
        b.close()


@pytest.fixture
def watched(browser: Browser) -> Iterator[Watched]:
    """A desktop-sized page of its own (clipboard allowed), watched for errors and outside requests."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    yield Watched(context.new_page())
    context.close()
