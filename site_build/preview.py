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
from .engine.engine_config import languages_setting, read_config
from .engine.engines import QUIET_SECONDS
from .incremental import Parts
from .pages.language import Language
from .pipeline import Phase, Records, Staged, chosen_engine, no_phase, stage
from .project import Area, Project
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
    pages whose inputs it changed, and MkDocs builds only those (`engines.MkDocsPreview`), in every language of
    the site (each other language's site in its folder of the first's, /fr/, as `chutes build` publishes it);
    Zensical's own server builds what changed in the docs tree, of the first language only (it says so)."""
    area = project.preview_area
    url = f"http://{dev_addr}/"
    engine = chosen_engine(project, engine)
    codes = languages_setting(read_config(project.config_file), project.config_file)
    parts: dict[str, Parts] = {}  # each language's pages, kept between edits
    # each language's site: the first in the preview's site folder, each other in its folder there (/fr/)
    sites = [engines.MkDocsPreview(area.config_file if n == 0 else Area(area.root / "languages" / code).config_file,
                                   area.site_dir if n == 0 else area.site_dir / code,
                                   url if n == 0 else f"{url}{code}/")
             for n, code in enumerate(codes)] if engine == "mkdocs" else []
    if not sites and len(codes) > 1:
        log(f"note: the Zensical preview shows the first language only ({Language(codes[0]).name}); "
            "chutes build publishes every language, or preview them all with --engine mkdocs")
    said: list[str] = []

    def notes(current: list[BoardRecord]) -> None:
        """The pages the site leaves out, and why: said once, and again only when they change."""
        now = left_out(current, project.site_src_dirs)
        if now != said:
            for note in now:
                log(f"note: {note}")
            said[:] = now

    def build(every: list[Staged]) -> list[str]:
        """Each language's MkDocs site brought up to date, the first language's first (its first build empties
        the site folder, the others' with it); the files built."""
        built = []
        for n, (site, staged) in enumerate(zip(sites, every)):
            emptied = not site.built_once and not site.kept
            built += site.build(staged.changed, staged.whole)
            if n == 0 and emptied:
                for other in sites[1:]:
                    other.kept = False
        return built

    with phase("writing the pages"):
        current = records(project)
        notes(current)
        staged = stage(project, current, area, area.site_dir, url, engine, parts)
    if sites:
        with phase("building the pages with MkDocs"):
            build(staged)
    refreshing = threading.Lock()

    def refresh() -> None:
        with refreshing:
            try:
                current = records(project)
                notes(current)
                again = stage(project, current, area, area.site_dir, url, engine, parts)
                made = list(dict.fromkeys(name for s in again for name in parts[s.language].made))
                built = build(again) if sites else list(again[0].changed)
                log(f"preview updated: pages made again: {', '.join(made) or 'none'}; "
                    f"files built again: {len(built)}")
            except ValueError as exc:  # BoardError, SiteError, ProjectError: a line each; the last good pages stay
                for line in str(exc).splitlines():
                    log(f"error: {line}")
            except OSError as exc:
                log(f"error: {exc.filename or ''}: {exc.strerror or exc}")

    observer = Observer()
    watched = sources(project)
    handler = (_Debounced(sites[0].changed, watched, 0.0) if sites
               else _Debounced(refresh, watched, QUIET_SECONDS))
    for folder in _watch_roots(project, watched):
        observer.schedule(handler, str(folder), recursive=True)
    observer.daemon = True
    observer.start()
    try:
        if sites:
            sites[0].serve(dev_addr, refresh)
        else:
            engines.serve(staged[0].engine, staged[0].config_file, dev_addr, [area.theme_dir])
    finally:
        observer.stop()
