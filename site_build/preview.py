"""`chutes serve`: the site previewed with live reload, every edit of a board, page, template or setting shown.

The preview writes the engine's inputs into a folder of its own (`Project.preview_area`) by the same
`pipeline.stage` as a build, then runs the engine's server on them. A watcher on the project's sources
stages again after each edit (the compute stage recomputes only the boards that changed); the engine sees
the rewritten pages and reloads the browser. A broken board or template prints its one-line error and
the last good pages stay.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from ..compute.record.schema import BoardRecord
from .engine import engines
from .engine.engines import QUIET_SECONDS
from .incremental import Parts
from .pipeline import Phase, Records, chosen_engine, no_phase, stage
from .project import Project
from .tree.render import left_out


def sources(project: Project) -> list[Path]:
    """The folders and files whose edits change the site: boards, templates, pages and assets (the project's,
    even before it has them, and the package's defaults), the guide's pages and measurements, and mkdocs.yml."""
    folders = [project.boards_dir, project.root / "templates", project.root / "site_src",
               *project.templates_dirs, *project.site_src_dirs, project.guide_dir]
    return sorted({p.resolve() for p in folders}) + [project.config_file.resolve(), project.benchmarks_file.resolve()]


def _watch_roots(project: Project, watched: list[Path]) -> list[Path]:
    """Where to watch, recursively: the project's folder (new folders in it too) and any source outside it."""
    root = project.root.resolve()
    outside = [p for p in watched if p.is_dir() and root not in p.parents and p != root]
    return [root] + sorted({p for p in outside if not any(o in p.parents for o in outside)})


class _Debounced(FileSystemEventHandler):
    """Calls `action` once the watched sources have been quiet for `quiet` seconds after a change to one of them
    (at once with 0: the action waits for quiet itself)."""

    def __init__(self, action: Callable[[], None], watched: Iterable[Path], quiet: float) -> None:
        self.action = action
        self.watched = list(watched)
        self.quiet = quiet
        self.timer: threading.Timer | None = None
        self.lock = threading.Lock()

    def _concerns(self, path: str) -> bool:
        p = Path(path)
        return any(p == w or w in p.parents for w in self.watched)

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in ("opened", "closed_no_write"):
            return
        paths = [event.src_path, getattr(event, "dest_path", "")]
        if not any(self._concerns(str(p)) for p in paths if p):
            return
        if not self.quiet:
            self.action()
            return
        with self.lock:
            if self.timer is not None:
                self.timer.cancel()
            self.timer = threading.Timer(self.quiet, self.action)
            self.timer.daemon = True
            self.timer.start()


def serve(project: Project, records: Records, dev_addr: str = "127.0.0.1:8000", engine: str | None = None,
          log: Callable[[str], None] = print, phase: Phase = no_phase) -> None:
    """Preview the project at `dev_addr` until interrupted, staging again after every edit of its sources.

    The records and the pages stay in memory between edits (`incremental.Parts`): an edit makes again only the
    pages whose inputs it changed, and MkDocs builds only those (`engines.MkDocsPreview`); Zensical's own server
    builds what changed in the docs tree."""
    area = project.preview_area
    url = f"http://{dev_addr}/"
    engine = chosen_engine(project, engine)
    parts: dict[str, Parts] = {}  # each language's pages, kept between edits
    site = engines.MkDocsPreview(area.config_file, area.site_dir, url) if engine == "mkdocs" else None
    said: list[str] = []

    def notes(current: list[BoardRecord]) -> None:
        """The pages the site leaves out, and why: said once, and again only when they change."""
        now = left_out(current, project.site_src_dirs)
        if now != said:
            for note in now:
                log(f"note: {note}")
            said[:] = now

    with phase("writing the pages"):
        current = records(project)
        notes(current)
        staged = stage(project, current, area, area.site_dir, url, engine, parts)[0]
    if site is not None:
        with phase("building the pages with MkDocs"):
            site.build(staged.changed, staged.whole)
    refreshing = threading.Lock()

    def refresh() -> None:
        with refreshing:
            try:
                current = records(project)
                notes(current)
                again = stage(project, current, area, area.site_dir, url, engine, parts)[0]
                made = ", ".join(parts[again.language].made) or "none"
                built = site.build(again.changed, again.whole) if site is not None else list(again.changed)
                log(f"preview updated: pages made again: {made}; files built again: {len(built)}")
            except ValueError as exc:  # BoardError, SiteError, ProjectError: a line each; the last good pages stay
                for line in str(exc).splitlines():
                    log(f"error: {line}")
            except OSError as exc:
                log(f"error: {exc.filename or ''}: {exc.strerror or exc}")

    observer = Observer()
    watched = sources(project)
    handler = (_Debounced(site.changed, watched, 0.0) if site is not None
               else _Debounced(refresh, watched, QUIET_SECONDS))
    for folder in _watch_roots(project, watched):
        observer.schedule(handler, str(folder), recursive=True)
    observer.daemon = True
    observer.start()
    try:
        if site is not None:
            site.serve(dev_addr, refresh)
        else:
            engines.serve(staged.engine, staged.config_file, dev_addr, [area.theme_dir])
    finally:
        observer.stop()
