"""The site project's commands: `new`, `compute`, `build`, `serve` and `cache-key`, and the compute stage they run."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .group import PLAIN_DIGITS, CommandFunction, main, open_project, project_option, say, scheduler_option

if TYPE_CHECKING:
    from chutes.compute.record.schema import BoardRecord
    from chutes.compute.stage import Known, Outcome
    from chutes.site_build.project import Project


def _paths(fn: CommandFunction) -> CommandFunction:
    fn = click.option("--boards", "boards_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
                      help="Folder of board files [default: the project's site_src/boards].")(fn)
    fn = click.option("--cache", "cache_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
                      help="Cache folder [default: the project's .cache/results].")(fn)
    return project_option(fn)


def _fewer_records_than_boards(project: Project) -> bool:
    """A quick look before the heavy imports: is some board surely not cached yet?"""
    def count(folder: Path, pattern: str) -> int:
        return sum(1 for _ in folder.glob(pattern)) if folder.is_dir() else 0

    return count(project.cache_dir, "*.json") < count(project.boards_dir, "*.toml")


class ComputeStage:
    """The compute stage as the build stage calls it: `stage(project)` brings the cache up to date and returns the
    records (as the cache's check read them; a record computed in this run is read from its file); `stage.keys(
    project)` brings it up to date too but returns only each board's (slug, cache key), reading no record that is
    unchanged since its last full check: all a build needs to see that nothing changed (`build_site`'s `keys`).

    Each board's progress is shown unless `quiet` (once: not again by the call that follows `keys`): its estimate
    when it starts, its time when it is done. With a Dask `scheduler`, each board due is computed on a worker of
    that cluster (and stored here). The records read are kept for the next call (`chutes serve` calls it after
    every edit): a file unchanged is not read again."""

    def __init__(self, only: tuple[str, ...] = (), force: bool = False, quiet: bool = False,
                 scheduler: str | None = None) -> None:
        self.only, self.force, self.quiet, self.scheduler = only, force, quiet, scheduler
        self.known: Known = {}

    def __call__(self, project: Project) -> list[BoardRecord]:
        from chutes.site_build.pages.records import load_record

        outcomes = _up_to_date(project, self.only, self.force, self.quiet, self.scheduler, self.known)
        return [o.record or load_record(o.path) for o in outcomes]

    def keys(self, project: Project) -> list[tuple[str, str]]:
        outcomes = _up_to_date(project, self.only, self.force, self.quiet, self.scheduler, None, read=False)
        self.force, self.quiet = False, True  # brought up to date and shown: the records' call only reads them
        return [(o.slug, o.key) for o in outcomes]


def compute_stage(only: tuple[str, ...] = (), force: bool = False, quiet: bool = False,
                  scheduler: str | None = None) -> ComputeStage:
    """The compute stage (`ComputeStage`) for these boards (`only`: all), recomputed (`force`) or not."""
    return ComputeStage(only, force, quiet, scheduler)


def _up_to_date(project: Project, only: tuple[str, ...], force: bool, quiet: bool, scheduler: str | None,
                known: Known | None, read: bool = True) -> list[Outcome]:
    """Every board of the project (or `only`) brought up to date in its cache (`compute.stage.update`). A board whose
    record is unchanged since its last full check is not costed again (it was within the budget when the same code
    computed it); with `read` false, it is not read either (`chutes compute`)."""
    if (os.cpu_count() or 1) > 1 and (force or _fewer_records_than_boards(project)):
        from chutes.compute.store.sweep import start_workers_early

        start_workers_early("chutes.compute.stage")  # the workers' imports overlap this process's own
    from chutes.compute.record.key import cache_key
    from chutes.compute.stage import load_all, update
    from chutes.compute.store.results import ResultCache
    from chutes.progress import BoardProgress

    cache = ResultCache(project.cache_dir)
    computed = None if force else lambda board: cache.unchanged(board.slug, cache_key(board))
    boards = load_all(project.boards_dir, only, computed)
    for board in boards if not quiet else ():
        if not board.source:
            say(f"note: {board.slug} has no source: its page will not say where the board comes from")
    shown = BoardProgress()
    try:
        return update(boards, cache, force=force, log=say, jobs=os.cpu_count() or 1, prune=not only,
                      progress=False, scheduler=scheduler, known=known, read=read,
                      on_start=None if quiet else lambda b, s: shown.start(b.slug, s),
                      on_done=None if quiet else lambda o: shown.done(o.slug, o.computed, o.seconds, o.estimate,
                                                                      o.path.name))
    finally:
        shown.close()


@main.command(name="compute", help="Solve every board of the project's site_src/boards/ exactly and cache the "
                                    "results as JSON (unchanged boards are not recomputed).")
@click.option("--only", multiple=True, metavar="SLUG", help="Only this board (repeatable).")
@click.option("--force", is_flag=True, help="Recompute even when the cache is up to date.")
@scheduler_option("Compute the boards on this Dask cluster's workers, longest first (e.g. tcp://10.0.0.5:8786); "
                  "their records are checked and stored here.")
@_paths
def compute_command(only: tuple[str, ...], force: bool, scheduler: str | None, boards_dir: Path | None,
                    cache_dir: Path | None, project: Path | None) -> None:
    """Update the results cache."""
    _up_to_date(open_project(project, boards_dir=boards_dir, cache_dir=cache_dir), only, force, False, scheduler,
                None, read=False)


def _engine_option(fn: CommandFunction) -> CommandFunction:
    return click.option("--engine", type=click.Choice(["mkdocs", "zensical"]), default=None,
                        help="What turns the pages into HTML [default: the project's mkdocs.yml "
                             "(plugins: chutes: engine), else mkdocs].")(fn)


@main.command(help="Build the website into the project's site/: compute (cached), write the pages, run the engine "
                   "(MkDocs or Zensical), check the result, publish it.")
@click.option("--force", is_flag=True, help="Recompute every board even when the cache is up to date.")
@click.option("--site-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where to put the site [default: the project's site/]; only a folder made by chutes is replaced.")
@click.option("--site-url", metavar="URL", default=None,
              help="The address the site will be published at [default: $CHUTES_SITE_URL, else the local preview].")
@_engine_option
@_paths
def build(force: bool, site_dir: Path | None, site_url: str | None, engine: str | None, boards_dir: Path | None,
          cache_dir: Path | None, project: Path | None) -> None:
    """Build and check the site."""
    from chutes.progress import step
    from chutes.site_build.pipeline import build_site, site_url_for

    here = open_project(project, site_dir=site_dir, boards_dir=boards_dir, cache_dir=cache_dir)
    url, local = site_url_for(site_url)
    started = time.perf_counter()
    stage = compute_stage(force=force)
    out = build_site(here, stage, url, engine=engine, phase=step, log=say, keys=stage.keys)
    pages = len(list(out.rglob("*.html")))
    say(f"site built in {time.perf_counter() - started:.1f} s: {pages} pages in {out}/ (preview it with "
        f"'chutes serve')")
    if local:
        say(f"note: its links point at the local preview {url}; to publish, build with --site-url URL "
            f"(or set CHUTES_SITE_URL)")


@main.command(help="Preview the site with live reload: an edited board, template, page or setting is shown at once.")
@click.option("--dev-addr", default="127.0.0.1:8000", show_default=True, metavar="IP:PORT",
              help="Address to serve on.")
@_engine_option
@project_option
def serve(dev_addr: str, engine: str | None, project: Path | None) -> None:
    """Serve the site for preview."""
    from chutes.progress import step
    from chutes.site_build.preview import serve as serve_site

    host, _, port = dev_addr.rpartition(":")
    if not host or not (set(port) <= PLAIN_DIGITS and port and 1 <= int(port) <= 65535):
        raise click.BadParameter(f"expected IP:PORT with a port from 1 to 65535, got {dev_addr!r}",
                                 param_hint="--dev-addr")
    serve_site(open_project(project), compute_stage(), dev_addr, engine=engine, log=say, phase=step)


@main.command(name="cache-key", help="Print the key of the compute stage's code and version: records made by other "
                                      "code are never reused (CI keys its results cache on it).")
def cache_key() -> None:
    """The compute stage's code hash."""
    from chutes.compute import code_hash

    click.echo(code_hash()[:16])


@main.command(name="new", help="Start a new site project in DIR: mkdocs.yml, an example board, a README and a "
                                "CI workflow that publishes it, installing this chutes (its wheel in wheels/ "
                                "unless it came from a package index).")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
def new(directory: Path) -> None:
    """Write a ready site project."""
    from chutes.compute import package_version
    from chutes.progress import step
    from chutes.site_build.project import absolute
    from chutes.site_build.scaffold import provide_generator, write_project

    version = package_version()
    written = write_project(directory, version)
    with step("making sure its CI installs this chutes"):
        done = provide_generator(absolute(directory), version)
    say(f"note: {done}")
    say(f"new site project in {directory}/ ({len(written)} files); next: cd {directory} && chutes build")
