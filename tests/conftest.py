"""The tests' fixtures: bundled chains, a folder of boards, the bundled boards' records, the built site and a
browser (helpers they share with the tests live in `helpers`).

The property tests draw the same random boards on every run (Hypothesis' `derandomize`), so that a run fails
because of the code, never because of the draw; `pytest --hypothesis-profile=explore` draws new ones."""

from __future__ import annotations

import functools
import json
import os
import shutil
import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path

import helpers
import pytest
from filelock import FileLock
from helpers import (
    BUNDLED,
    CHROMIUM,
    CHROMIUM_FLAGS,
    ENGINE_BOARDS,
    ENGINE_LANGUAGES,
    ENGINE_SITES_GROUP,
    REFERENCE_LANGUAGES,
    REPOSITORY,
    SITE_GROUP,
    QuietHandler,
    SiteHandler,
    Watched,
    browser_group,
    bundled_boards,
    chain,
    new_project,
)
from hypothesis import settings
from playwright.sync_api import Browser, sync_playwright

from chutes.compute.record.schema import BoardRecord
from chutes.compute.solve.chain import TurnChain
from chutes.compute.store.results import ResultCache
from chutes.site_build.project import Project

settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)


def pytest_configure(config: pytest.Config) -> None:
    """The repeatable draws unless a profile is named on the command line (`--hypothesis-profile`)."""
    if not config.getoption("hypothesis_profile", None):
        settings.load_profile("repeatable")


def _work_files() -> dict[str, int]:
    """Every file in the repository's own build area (.cache), with its modification time."""
    folder = REPOSITORY / ".cache"
    return {p.relative_to(folder).as_posix(): p.stat().st_mtime_ns for p in folder.rglob("*") if p.is_file()}


@pytest.fixture(scope="session", autouse=True)
def repository_untouched() -> Iterator[None]:
    """No test writes to the repository's build area: every build runs in a project of its own."""
    before = _work_files()
    yield
    changed = {name for name, when in _work_files().items() if before.get(name) != when}
    assert not changed, (f"the repository's .cache changed during the run (a test wrote to it, unless a build ran "
                         f"there meanwhile): {sorted(changed)[:5]}")


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
def shared_tmp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder every pytest-xdist worker of this run shares (the run's own temporary folder without them)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session", autouse=True)
def shared_stills(shared_tmp: Path) -> Path:
    """The charts' stills every project of this run keeps (`helpers.new_project` links them), seeded once with
    those the repository's own build drew (its figures are the bundled boards', which most tests build)."""
    folder = shared_tmp / "stills"
    with FileLock(shared_tmp / "stills.lock"):
        if not folder.exists():
            ours = REPOSITORY / ".cache" / "stills"
            if ours.is_dir():
                shutil.copytree(ours, folder)
            folder.mkdir(exist_ok=True)
    helpers.SHARED_STILLS[:] = [folder]
    return folder


@pytest.fixture(scope="session")
def bundled_project(shared_tmp: Path):
    """A project of the bundled boards with every record computed (no site built), once per run: the first
    worker to need it computes it, the others wait for it and then read it (none of them writes to it). With the
    reference site's guide, as this repository's own site has it (its pages weigh in the search index every page
    loads).

    Records the repository's own cache already holds (after `bash scripts/build`) are copied in, never
    written back, with the marks of the arithmetic checks they passed there: the cache checks each one as usual
    (its structure, and its arithmetic unless its checksum is marked) and recomputes what is missing, stale or
    altered."""
    from chutes.cli.site import compute_stage

    root = shared_tmp / "built"
    with FileLock(shared_tmp / "built.lock"):
        done = shared_tmp / "built-records.json"
        project = Project.at(root) if done.exists() else new_project(root, BUNDLED, guide=True,
                                                                     languages=REFERENCE_LANGUAGES)
        if not done.exists():
            ours = REPOSITORY / ".cache" / "results"
            if ours.is_dir():
                project.cache_dir.mkdir(parents=True, exist_ok=True)
                for record in [*ours.glob("*.json"), *ours.glob(".*.json.verified")]:  # and the checks' marks
                    shutil.copy(record, project.cache_dir / record.name)
            cache = ResultCache(project.cache_dir)
            done.write_text(json.dumps([str(cache.path(r.slug, r.key)) for r in compute_stage(quiet=True)(project)]))
    return project, [Path(path) for path in json.loads(done.read_text())]


@pytest.fixture(scope="session")
def built_site(bundled_project, shared_tmp: Path, site_http: ThreadingHTTPServer) -> Path:
    """The whole site built from the bundled boards' project, once per run (the first worker to need it builds
    it for the address of its own server), served by this worker's server (`site_http`, which rewrites the
    sitemap's address: Material's instant navigation only takes over links listed in sitemap.xml under the
    page's own host and port)."""
    from chutes.site_build.pages.records import load_record
    from chutes.site_build.pipeline import build_site

    project, record_files = bundled_project
    with FileLock(shared_tmp / "site.lock"):
        address = shared_tmp / "site-address.txt"
        if not address.exists():
            url = f"http://127.0.0.1:{site_http.server_address[1]}/"
            build_site(project, lambda _: [load_record(path) for path in record_files], url)
            address.write_text(url)
    site = project.site_dir
    site_http.RequestHandlerClass = functools.partial(type("Site", (SiteHandler,), {"built_for": address.read_text()}),
                                                      directory=str(site))
    return site


@pytest.fixture(scope="session")
def server(built_site: Path, site_http: ThreadingHTTPServer) -> Iterator[str]:
    """The built site over HTTP on 127.0.0.1 (its sitemap naming this address: `helpers.SiteHandler`), for the
    browser tests of every module."""
    thread = threading.Thread(target=site_http.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{site_http.server_address[1]}"
    site_http.shutdown()


@pytest.fixture(scope="session")
def engine_sites(bundled_project, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, tuple[Path, str]]]:
    """The reference site (ENGINE_BOARDS, with the guide, as this repository's own site has it) built with each
    engine from the same records (a warm cache: only the build stage and the engine run), once per worker, each
    served over HTTP at the address it was built for: {engine: (site folder, address without its last /)}."""
    from chutes.cli.site import compute_stage
    from chutes.site_build.pipeline import build_site

    computed, _ = bundled_project
    built, servers = {}, []
    for engine in ("mkdocs", "zensical"):
        project = new_project(tmp_path_factory.mktemp(engine) / "p", ENGINE_BOARDS, guide=True,
                              languages=ENGINE_LANGUAGES)
        shutil.copytree(computed.cache_dir, project.cache_dir)
        httpd = ThreadingHTTPServer(("127.0.0.1", 0), QuietHandler)
        url = f"http://127.0.0.1:{httpd.server_address[1]}/"
        site = build_site(project, compute_stage(quiet=True), url, engine=engine)
        httpd.RequestHandlerClass = functools.partial(QuietHandler, directory=str(site))
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        servers.append(httpd)
        built[engine] = site, url.rstrip("/")
    yield built
    for httpd in servers:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="session")
def built_site_address(built_site: Path, shared_tmp: Path) -> str:
    """The address the built site was built for (its citations and sitemap name it)."""
    return (shared_tmp / "site-address.txt").read_text()


@pytest.fixture(scope="session")
def bundled_records(bundled_project) -> list[dict]:
    """The cached result records of the bundled boards, in the order of BUNDLED, as JSON (the compute stage that
    made or found them checked each one: `bundled_project`)."""
    _, record_files = bundled_project
    records = {r["slug"]: r for r in (json.loads(path.read_bytes()) for path in record_files)}
    return [records[slug] for slug in BUNDLED]


@pytest.fixture(scope="session")
def bundled_models(bundled_records: list[dict]) -> list[BoardRecord]:
    """The same records as the build stage reads them: their typed models."""
    return [BoardRecord.model_validate(r) for r in bundled_records]


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own, which reads the groups into the tests' ids
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist (`--dist loadgroup`, as scripts/test runs it) the browser tests of the bundled site go
    to one worker (`SITE_GROUP`), the tests of the sites built with each engine to one (`ENGINE_SITES_GROUP`),
    each other module's browser tests to one worker (`browser_group`). The `slow`
    tests (the long checks: a property on many more random boards than the normal run's sample, the exact
    cross-checks of the bundled boards that take longest, the walk over the board pages the normal run leaves
    out) run only when `-m` names them: `pytest -m slow`."""
    for item in items:
        if item.get_closest_marker("xdist_group"):
            continue
        if "engine_sites" in item.fixturenames:
            item.add_marker(pytest.mark.xdist_group(ENGINE_SITES_GROUP))
        elif item.get_closest_marker("browser"):
            group = SITE_GROUP if "built_site" in item.fixturenames else browser_group(item.module.__name__)
            item.add_marker(pytest.mark.xdist_group(group))
    if "slow" not in (config.option.markexpr or ""):
        slow = [item for item in items if item.get_closest_marker("slow")]
        if slow:
            config.hook.pytest_deselected(items=slow)
            items[:] = [item for item in items if not item.get_closest_marker("slow")]


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
