"""The whole pipeline in order: compute (cached) → write the pages → MkDocs → check → publish into site/.

The new site is built beside the old one and swapped in only after it passed its checks, so a failed
build leaves the previous site as it was.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

from filelock import FileLock

from site_build.checks import SiteError, broken_links, outside_references
from site_build.pages import DOCS_DIR, ROOT, render

CONFIG_FILE = ROOT / "mkdocs.yml"
SITE_DIR = ROOT / "site"


def prepare(boards_dir: Path | None = None, cache_dir: Path | None = None, docs_dir: Path = DOCS_DIR,
            force: bool = False, quiet: bool = False) -> list[Path]:
    """Bring the results cache up to date and write the Markdown pages; the cache files used."""
    from compute.cli import update_cache

    paths = update_cache(boards_dir, cache_dir, force=force, quiet=quiet)
    render(paths, docs_dir)
    return paths


def _reproducible_date() -> None:
    """Pin the build date (sitemap, archives) to the last commit, so identical inputs give identical files."""
    if "SOURCE_DATE_EPOCH" in os.environ:
        return
    try:
        stamp = subprocess.run(["git", "log", "-1", "--format=%ct"], cwd=ROOT, capture_output=True, text=True,
                               check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return
    if stamp.isdigit():
        os.environ["SOURCE_DATE_EPOCH"] = stamp


def mkdocs_build(docs_dir: Path, site_dir: Path) -> None:
    """Run MkDocs (strict) on the generated pages; problems become one SiteError."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    _reproducible_date()
    logging.getLogger("mkdocs").setLevel(logging.WARNING)
    try:
        config = load_config(config_file=str(CONFIG_FILE), docs_dir=str(docs_dir), site_dir=str(site_dir))
        build(config)
    except MkDocsException as exc:
        raise SiteError(f"{CONFIG_FILE.name}: MkDocs stopped: {str(exc).strip().splitlines()[-1]}") from None


def build_site(boards_dir: Path | None = None, cache_dir: Path | None = None, site_dir: Path = SITE_DIR,
               docs_dir: Path = DOCS_DIR, force: bool = False) -> Path:
    """Compute, render, build, check, and only then replace `site_dir` (one build at a time per site)."""
    site_dir = Path(site_dir)
    site_dir.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(site_dir.with_name(f".{site_dir.name}.lock")):
        for stale in site_dir.parent.glob(f".{site_dir.name}-*"):
            shutil.rmtree(stale, ignore_errors=True)
        _build_site(boards_dir, cache_dir, site_dir, docs_dir, force)
    return site_dir


def _build_site(boards_dir: Path | None, cache_dir: Path | None, site_dir: Path, docs_dir: Path,
                force: bool) -> None:
    prepare(boards_dir, cache_dir, docs_dir, force)
    staging = Path(tempfile.mkdtemp(prefix=f".{site_dir.name}-", dir=site_dir.parent))
    try:
        mkdocs_build(docs_dir, staging)
        site_url = os.environ.get("CHUTES_SITE_URL", "")
        problems = outside_references(staging, {urlsplit(site_url).hostname} if site_url else set())
        problems += broken_links(staging)
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise SiteError(f"site not published: {problems[0]}{more}")
        old = site_dir.with_name(f".{site_dir.name}-old")
        shutil.rmtree(old, ignore_errors=True)
        if site_dir.exists():
            site_dir.rename(old)
        staging.rename(site_dir)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def serve(dev_addr: str = "127.0.0.1:8000") -> None:
    """Preview the site with live reload: edits to boards, templates or pages rebuild it."""
    from mkdocs.commands.serve import serve as mkdocs_serve

    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
    mkdocs_log = logging.getLogger("mkdocs")
    mkdocs_log.addHandler(handler)
    mkdocs_log.setLevel(logging.INFO)
    prepare()
    os.environ["CHUTES_SERVE"] = "1"
    try:
        mkdocs_serve(config_file=str(CONFIG_FILE), livereload=True,
                     watch=[str(ROOT / "templates"), str(ROOT / "site_src")], dev_addr=dev_addr)
    except OSError as exc:
        raise SiteError(f"cannot serve on {dev_addr}: {exc.strerror or exc}") from None
