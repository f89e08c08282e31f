"""The engines that turn a finished docs tree and its configuration file into HTML: MkDocs (with Material) or Zensical.

Each gets only a configuration file that `site_build.engine_config` wrote whole, so they build the same
pages from the same inputs. Problems become one SiteError line naming the engine.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

from site_build.checks import SiteError

LABELS = {"mkdocs": "MkDocs", "zensical": "Zensical"}


def _quiet_mkdocs() -> None:
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    logging.getLogger("mkdocs").setLevel(logging.WARNING)


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "no message"


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

    _quiet_mkdocs()
    try:
        config = load_config(config_file=str(config_file))
        mkdocs_build(config)
        return [Path(d) for d in config.theme.dirs]
    except MkDocsException as exc:
        raise SiteError(f"MkDocs stopped: {_last_line(str(exc))}") from None
    except (OSError, ValueError) as exc:
        raise SiteError(f"MkDocs stopped: {exc}") from None


def _zensical_command() -> list[str]:
    found = shutil.which("zensical", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "zensical"]


def _zensical_theme_dirs() -> list[Path]:
    spec = find_spec("zensical")
    root = Path(spec.origin).parent if spec and spec.origin else None
    return [p for p in (root / "templates",) if p.is_dir()] if root else []


def _zensical_build(config_file: Path) -> list[Path]:
    from site_build.engine_config import read_config

    done = subprocess.run([*_zensical_command(), "build", "--clean", "--config-file", str(config_file)],
                          capture_output=True, text=True, cwd=config_file.parent)
    if done.returncode != 0:
        raise SiteError(f"Zensical stopped: {_last_line(done.stderr or done.stdout)}")
    custom = read_config(config_file)["theme"]["custom_dir"]
    return [Path(custom), *_zensical_theme_dirs()]


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
    done = subprocess.run([*_zensical_command(), "serve", "--config-file", str(config_file), "--dev-addr", dev_addr],
                          cwd=config_file.parent)
    if done.returncode not in (0, -2, 130):
        raise SiteError(f"Zensical stopped (exit status {done.returncode})")
