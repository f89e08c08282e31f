"""The engines that turn a finished docs tree and its configuration file into HTML: MkDocs (with Material) or Zensical.

Each gets only a configuration file that `site_build.engine.engine_config` wrote whole, so they build the same
pages from the same inputs. Problems become one SiteError line naming the engine. `chutes serve` with MkDocs
builds only the pages an edit changed (`MkDocsPreview`); Zensical's own server does the same by itself.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from ..checks import SiteError

LABELS = {"mkdocs": "MkDocs", "zensical": "Zensical"}
SEARCH_INDEX = "search/search_index.json"
QUIET_SECONDS = 0.3
"""How long the sources must stay unchanged before the preview is built again (an editor saves in steps)."""


class _Warnings(logging.Handler):
    """MkDocs' warnings during a build: under strict, the first one is the reason it stopped."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(" ".join(record.getMessage().split()))


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "no message"


def writes_anywhere(engine: str) -> bool:
    """Whether the engine can write the site to any folder (MkDocs); Zensical writes only inside the folder
    of its configuration file (and takes docs_dir only as a path relative to it)."""
    return engine == "mkdocs"


def html_links_from_source(engine: str) -> bool:
    """Whether the engine reads a relative address in a page's own HTML from the page's source file, as it does a
    Markdown link (Zensical), rather than from the page's address, leaving the HTML as written (MkDocs)."""
    return engine == "zensical"


def require(engine: str) -> None:
    """Stop with one line when the engine is not installed (Zensical is an extra)."""
    if engine == "zensical" and find_spec("zensical") is None:
        raise SiteError("the zensical engine is not installed: pip install 'chutes-exact[zensical]' "
                        "(or build with --engine mkdocs)")


def build(engine: str, config_file: Path) -> list[Path]:
    """Build the site the configuration describes into its site_dir, its search index in compact UTF-8
    (`compact_search_index`); the theme's template folders (for the checks)."""
    from .engine_config import read_config

    require(engine)
    theme_dirs = _mkdocs_build(config_file) if engine == "mkdocs" else _zensical_build(config_file)
    compact_search_index(config_file.parent / read_config(config_file)["site_dir"])
    return theme_dirs


def compact_search_index(site_dir: Path) -> None:
    """The site's search index rewritten as compact UTF-8 JSON, the same data: MkDocs' search plugin writes every
    letter outside ASCII as an escape (\\u0939, six bytes for a Devanagari or Arabic letter, three in UTF-8), and
    every page of the site loads the index."""
    path = site_dir / SEARCH_INDEX
    if path.is_file():
        path.write_text(_compact(json.loads(path.read_text(encoding="utf-8"))), encoding="utf-8")


def _compact(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)


def _mkdocs_build(config_file: Path) -> list[Path]:
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    log = logging.getLogger("mkdocs")
    log.setLevel(logging.WARNING)
    warnings = _Warnings()
    log.addHandler(warnings)
    try:
        config = load_config(config_file=str(config_file))
        mkdocs_build(config)
        return [Path(d) for d in config.theme.dirs]
    except MkDocsException as exc:
        reason = warnings.messages[0] if warnings.messages else _last_line(str(exc))
        raise SiteError(f"MkDocs stopped: {reason}") from None
    except (OSError, ValueError) as exc:
        raise SiteError(f"MkDocs stopped: {exc}") from None
    finally:
        log.removeHandler(warnings)


def _zensical_command() -> list[str]:
    found = shutil.which("zensical", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "zensical"]


def zensical_theme_dirs() -> list[Path]:
    """Zensical's own theme templates (whose inline scripts the site checks allow)."""
    spec = find_spec("zensical")
    root = Path(spec.origin).parent if spec and spec.origin else None
    return [p for p in (root / "templates",) if p.is_dir()] if root else []


def _zensical_build(config_file: Path) -> list[Path]:
    from .engine_config import read_config

    done = subprocess.run([*_zensical_command(), "build", "--config-file", str(config_file)],
                          capture_output=True, text=True, cwd=config_file.parent)
    if done.returncode != 0:
        raise SiteError(f"Zensical stopped: {_zensical_problem(done.stderr + done.stdout)}")
    custom = read_config(config_file)["theme"]["custom_dir"]
    return [config_file.parent / custom, *zensical_theme_dirs()]


ANSI = re.compile(r"\x1b\[[0-9;]*m")
LOCATION = re.compile(r"\[ ([^\]]+?) \]")


def _zensical_problem(output: str) -> str:
    """Zensical's reason in one line: under strict, its first warning and where (`[ page.md:6:17 ]`), else the
    last line it printed (colours removed: it writes them even when not on a terminal)."""
    lines = [line.strip() for line in ANSI.sub("", output).splitlines() if line.strip()]
    for n, line in enumerate(lines):
        if line.startswith("Warning:"):
            where = LOCATION.search(lines[n + 1]) if n + 1 < len(lines) else None
            what = line.removeprefix("Warning:").strip()
            return f"{where.group(1)}: {what}" if where else what
    return lines[-1] if lines else "no message"


def serve(engine: str, config_file: Path, dev_addr: str, watch: list[Path]) -> None:
    """Serve the site with live reload until interrupted; the engine rebuilds when the docs tree,
    the theme folder or the configuration file changes."""
    require(engine)
    if engine == "mkdocs":
        _mkdocs_serve(config_file, dev_addr, watch)
    else:
        _zensical_serve(config_file, dev_addr)


def _show_mkdocs_log() -> tuple[logging.Logger, logging.Handler]:
    """MkDocs' messages on standard error, as `mkdocs serve` prints them (level, then the message): its logger and
    the handler added, to remove when the preview stops."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
    log = logging.getLogger("mkdocs")
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    return log, handler


def _mkdocs_serve(config_file: Path, dev_addr: str, watch: list[Path]) -> None:
    from mkdocs.commands.serve import serve as mkdocs_serve
    from mkdocs.exceptions import MkDocsException

    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    log, handler = _show_mkdocs_log()
    try:
        mkdocs_serve(config_file=str(config_file), livereload=True, watch=[str(p) for p in watch],
                     dev_addr=dev_addr)
    except OSError as exc:
        raise SiteError(f"cannot serve on {dev_addr}: {exc.strerror or exc}") from None
    except MkDocsException as exc:
        raise SiteError(f"MkDocs stopped: {_last_line(str(exc))}") from None
    finally:
        log.removeHandler(handler)


def _zensical_serve(config_file: Path, dev_addr: str) -> None:
    done = subprocess.run([*_zensical_command(), "serve", "--config-file", str(config_file), "--dev-addr",
                           dev_addr], cwd=config_file.parent)
    if done.returncode not in (0, -2, 130):
        raise SiteError(f"Zensical stopped (exit status {done.returncode})")


class _NotDirty(logging.Filter):
    """Drops MkDocs' warning that a build is "dirty": the preview builds only the pages that changed on purpose,
    names every page's title in the navigation so that their menus stay right, and builds every page when the
    navigation, theme or settings change; under `strict` that warning would count as a failure."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "'dirty' build" not in record.getMessage()


class MkDocsPreview:
    """A preview's site, built by MkDocs into a folder of its own (`site_dir`, kept between previews) and served
    with live reload. Each build builds only the pages whose source the build stage rewrote (MkDocs' dirty build: a
    page whose source is newer than its HTML), every page when `whole`, and removes the pages of removed sources;
    the first builds every page, unless the folder is as the last preview left it (`stamp`: the docs tree, theme
    and configuration are those it was built from), when it too builds only what the build stage rewrote since.
    The search index is kept whole here, page by page (`search`): a dirty build writes the entries of the pages it
    built only. The pages are those a whole build would write (`tests/test_preview.py` compares them).

    Made before the build stage first writes the preview's inputs, to see whether they are still those of the
    site it kept."""

    def __init__(self, config_file: Path, site_dir: Path, url: str) -> None:
        self.config_file = config_file
        self.site_dir = site_dir
        self.url = url
        self.stamp = site_dir.with_name(site_dir.name + ".json")
        self.kept = self.stamp.is_file() and self.stamp.read_text() == self._inputs()
        self.built_once = False
        self.failed = False
        self.search: dict[str, list[Any]] = {}
        self.server: Any = None

    def _inputs(self) -> str:
        """What the site folder is built from: the configuration, the docs tree and the theme as they are now."""
        from importlib.metadata import version

        from ..incremental import digest, stats

        area = self.config_file.parent
        return digest(stats([self.config_file, area / "docs", area / "theme", self.site_dir / SEARCH_INDEX]),
                      version("mkdocs"), version("mkdocs-material"), self.url)

    def _merge_search(self, built: list[str] | None, urls: dict[str, str]) -> None:
        """The search index with the entries of the pages just `built` (None: all of them) put in, and those of
        pages no longer in the site left out."""
        path = self.site_dir / SEARCH_INDEX
        if not path.is_file():
            return
        index = json.loads(path.read_text(encoding="utf-8"))
        fresh: dict[str, list[Any]] = {}
        for entry in index["docs"]:
            fresh.setdefault(entry["location"].split("#")[0], []).append(entry)
        if built is None:
            self.search = fresh
        else:
            for rel in built:
                self.search[urls[rel]] = fresh.get(urls[rel], [])
            self.search = {url: entries for url, entries in self.search.items() if url in urls.values()}
            index["docs"] = [entry for url in sorted(self.search) for entry in self.search[url]]
        path.write_text(_compact(index), encoding="utf-8")

    def build(self, changed: tuple[str, ...], whole: bool) -> list[str]:
        """Bring the site folder up to date after the build stage wrote (or removed) `changed`; the pages built."""
        from mkdocs.commands.build import build as mkdocs_build
        from mkdocs.config import load_config
        from mkdocs.exceptions import MkDocsException
        from mkdocs.structure.files import File

        os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
        config = load_config(config_file=str(self.config_file), site_dir=str(self.site_dir))
        config.site_url = self.url
        docs = Path(config.docs_dir)
        urls = {p.relative_to(docs).as_posix(): "" for p in docs.rglob("*.md")}
        urls = {rel: File(rel, str(docs), str(self.site_dir), config.use_directory_urls).url.removeprefix("./")
                for rel in sorted(urls)}
        if not self.built_once and self.kept:
            self._merge_search(None, urls)  # the kept site's index is whole
        first = not self.built_once and not self.kept
        self.built_once = True
        whole = whole or self.failed
        self.failed = False
        self.stamp.unlink(missing_ok=True)
        if not first:
            for rel in changed:
                if not (docs / rel).exists():
                    gone = Path(File(rel, str(docs), str(self.site_dir), config.use_directory_urls).abs_dest_path)
                    gone.unlink(missing_ok=True)
            if not whole and not changed:
                self.stamp.write_text(self._inputs())
                return []
            if whole:  # every page shows the navigation, theme and settings: every page is built again
                for rel in urls:
                    os.utime(docs / rel)
        built = list(urls) if first or whole else [rel for rel in changed if rel in urls]
        log = logging.getLogger("mkdocs.commands.build")
        quiet = _NotDirty()
        log.addFilter(quiet)
        warnings = _Warnings()
        logging.getLogger("mkdocs").addHandler(warnings)
        try:
            config.plugins.on_startup(command="build", dirty=False)  # the search index: merged here, not there
            mkdocs_build(config, serve_url=self.url, dirty=not first)
        except MkDocsException as exc:  # the pages it wrote stay; the next build builds every page
            self.failed = True
            reason = warnings.messages[0] if warnings.messages else _last_line(str(exc))
            raise SiteError(f"MkDocs stopped: {reason}") from None
        finally:
            log.removeFilter(quiet)
            logging.getLogger("mkdocs").removeHandler(warnings)
        self._merge_search(None if first or whole else built, urls)
        self.stamp.write_text(self._inputs())
        return built

    def serve(self, dev_addr: str, refresh: Callable[[], None]) -> None:
        """Serve the site folder at `dev_addr` until interrupted; `refresh` (which calls `build`) runs after each
        `changed()`, once they stop coming for a moment, while requests wait, then the browsers reload."""
        from mkdocs.livereload import LiveReloadServer

        host, _, port = dev_addr.rpartition(":")
        self.server = LiveReloadServer(builder=refresh, host=host, port=int(port), root=str(self.site_dir))
        self.server.build_delay = QUIET_SECONDS
        self.server.error_handler = self._error_page
        log, handler = _show_mkdocs_log()
        try:
            self.server.serve()
        except OSError as exc:
            raise SiteError(f"cannot serve on {dev_addr}: {exc.strerror or exc}") from None
        except KeyboardInterrupt:
            pass
        finally:
            self.server.shutdown()
            log.removeHandler(handler)

    def _error_page(self, code: int) -> bytes | None:
        """The site's own page for a missing address (as `mkdocs serve` shows it)."""
        page = self.site_dir / f"{code}.html"
        return page.read_bytes() if code in (404, 500) and page.is_file() else None

    def changed(self) -> None:
        """A source changed: rebuild once they stop changing (what MkDocs' own watcher does on a change, which its
        server has no public call for)."""
        server = self.server
        if server is not None:
            with server._rebuild_cond:
                server._want_rebuild = True
                server._rebuild_cond.notify_all()
