"""The engines that turn a finished docs tree and its configuration file into HTML: MkDocs (with Material) or Zensical.

Each gets only a configuration file that `site_build.engine_config` wrote whole, so they build the same
pages from the same inputs. Problems become one SiteError line naming the engine.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

from .checks import SiteError

LABELS = {"mkdocs": "MkDocs", "zensical": "Zensical"}


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
    """Build the site the configuration describes into its site_dir; the theme's template folders (for the checks)."""
    require(engine)
    return _mkdocs_build(config_file) if engine == "mkdocs" else _zensical_build(config_file)


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


def _mkdocs_serve(config_file: Path, dev_addr: str, watch: list[Path]) -> None:
    from mkdocs.commands.serve import serve as mkdocs_serve
    from mkdocs.exceptions import MkDocsException

    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
    log = logging.getLogger("mkdocs")
    log.addHandler(handler)
    log.setLevel(logging.INFO)
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
