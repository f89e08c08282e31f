"""The build in order: the cached records → the Markdown pages → MkDocs → checks → publish into the site folder.

One build at a time per project (a lock in its `.cache/`). The new site is built beside the old one and
swapped in only after it passed its checks, so a failed build leaves the previous site as it was. Only a
folder that `chutes` made (it holds the marker file) is ever replaced; published files are readable by
everyone (0644, folders 0755), as a web server running as another user needs.
"""

from __future__ import annotations

import glob
import logging
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from filelock import FileLock

from site_build.checks import SiteError, site_problems
from site_build.pages import render
from site_build.project import SITE_MARKER, Project, ProjectError

HOOKS_FILE = Path(__file__).with_name("hooks.py")
LOCAL_PREVIEW = "http://127.0.0.1:8000/"
MARKER_TEXT = "This folder was made by `chutes build`, which replaces its whole content on every build.\n"

Records = Callable[[Project], list[Path]]
"""Brings the results cache up to date for a project and returns its record files (the compute stage)."""


def _reproducible_date(root: Path) -> None:
    """Pin the build date (sitemap) to the project's last commit, so identical inputs give identical files."""
    if "SOURCE_DATE_EPOCH" in os.environ:
        return
    try:
        stamp = subprocess.run(["git", "log", "-1", "--format=%ct"], cwd=root, capture_output=True, text=True,
                               check=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return
    if stamp.isdigit():
        os.environ["SOURCE_DATE_EPOCH"] = stamp


def config_overrides(project: Project, docs_dir: Path, site_url: str | None) -> dict[str, object]:
    """What `chutes` sets in the project's MkDocs configuration: its folders, its hooks, and the site's address."""
    overrides: dict[str, object] = {"docs_dir": str(docs_dir), "hooks": [str(HOOKS_FILE)]}
    if site_url:
        overrides["site_url"] = site_url
    return overrides


def mkdocs_build(project: Project, docs_dir: Path, site_dir: Path, site_url: str | None) -> list[Path]:
    """Run MkDocs (strict) on the generated pages; the theme's template folders. Problems become one SiteError."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    _reproducible_date(project.root)
    logging.getLogger("mkdocs").setLevel(logging.WARNING)
    try:
        config = load_config(config_file=str(project.config_file), site_dir=str(site_dir),
                             **config_overrides(project, docs_dir, site_url))
        build(config)
        return [Path(d) for d in config.theme.dirs]
    except MkDocsException as exc:
        raise SiteError(f"{project.config_file}: MkDocs stopped: {str(exc).strip().splitlines()[-1]}") from None
    except (OSError, ValueError) as exc:
        raise SiteError(f"{project.config_file}: MkDocs stopped: {exc}") from None


def publishable(folder: Path) -> None:
    """Make every file readable by everyone and every folder listable (0644 / 0755), whatever the umask."""
    os.chmod(folder, 0o755)
    for path in folder.rglob("*"):
        if not path.is_symlink():
            os.chmod(path, 0o755 if path.is_dir() else 0o644)


def site_url_for(site_url: str | None) -> tuple[str, bool]:
    """The address the site is built for (`--site-url`, else CHUTES_SITE_URL), and whether it is the local default."""
    url = site_url or os.environ.get("CHUTES_SITE_URL") or ""
    if not url:
        return LOCAL_PREVIEW, True
    split = urlsplit(url)
    if split.scheme not in ("http", "https") or not split.netloc:
        raise ProjectError(f"--site-url {url!r}: expected an address such as https://example.org/chutes/")
    return url if url.endswith("/") else url + "/", False


def build_site(project: Project, records: Records, site_url: str | None = None) -> Path:
    """Compute (cached), render, build, check, and only then replace the project's site folder."""
    project.check_site_dir()
    url, _ = site_url_for(site_url)
    site_dir = project.site_dir
    try:
        project.work_dir.mkdir(parents=True, exist_ok=True)
        site_dir.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ProjectError(f"{exc.filename}: cannot create the folder ({exc.strerror})") from None
    with FileLock(project.work_dir / "build.lock"):
        _remove_leftovers(site_dir)
        render(records(project), project.docs_dir, project.templates_dirs, project.site_src_dirs)
        _publish(project, url)
    return site_dir


def _leftover_name(site_dir: Path, what: str) -> str:
    return f".{site_dir.name}.chutes-{what}"


def _remove_leftovers(site_dir: Path) -> None:
    """Staging folders of a build that was killed: only ours (they hold the marker file) are removed."""
    for stale in site_dir.parent.glob(glob.escape(_leftover_name(site_dir, "")) + "*"):
        if stale.is_dir() and not stale.is_symlink() and (stale / SITE_MARKER).is_file():
            shutil.rmtree(stale, ignore_errors=True)


def _publish(project: Project, url: str) -> None:
    site_dir = project.site_dir
    try:
        staging = Path(tempfile.mkdtemp(prefix=_leftover_name(site_dir, "new-"), dir=site_dir.parent))
    except OSError as exc:
        raise ProjectError(f"--site-dir {site_dir}: cannot write beside it ({exc.strerror})") from None
    try:
        (staging / SITE_MARKER).write_text(MARKER_TEXT)
        theme_dirs = mkdocs_build(project, project.docs_dir, staging, url)
        problems = site_problems(staging, theme_dirs, url)
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise SiteError(f"site not published: {problems[0]}{more}")
        publishable(staging)
        old = site_dir.parent / _leftover_name(site_dir, "old")
        if old.exists():
            shutil.rmtree(old)
        if site_dir.exists():
            site_dir.rename(old)
        staging.rename(site_dir)
        shutil.rmtree(old, ignore_errors=True)
    except OSError as exc:
        raise SiteError(f"site not published: {exc.filename or site_dir}: {exc.strerror or exc}") from None
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)


def serve(project: Project, records: Records, dev_addr: str = "127.0.0.1:8000") -> None:
    """Preview the site with live reload: edits to boards, templates or pages rebuild it.

    The preview writes its pages into a folder of its own, so a `chutes build` beside it never races it.
    """
    from mkdocs.commands.serve import serve as mkdocs_serve
    from mkdocs.exceptions import MkDocsException

    from site_build import hooks

    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
    mkdocs_log = logging.getLogger("mkdocs")
    mkdocs_log.addHandler(handler)
    mkdocs_log.setLevel(logging.INFO)
    project.work_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="serve-docs-", dir=project.work_dir) as docs:
        docs_dir = Path(docs)
        render(records(project), docs_dir, project.templates_dirs, project.site_src_dirs)
        hooks.PREVIEW.update(project=project, records=records)
        watch = [str(p) for p in (*project.templates_dirs, *project.site_src_dirs, project.boards_dir) if p.is_dir()]
        try:
            mkdocs_serve(config_file=str(project.config_file), livereload=True, watch=watch, dev_addr=dev_addr,
                         **config_overrides(project, docs_dir, f"http://{dev_addr}/"))
        except OSError as exc:
            raise SiteError(f"cannot serve on {dev_addr}: {exc.strerror or exc}") from None
        except MkDocsException as exc:
            raise SiteError(f"{project.config_file}: MkDocs stopped: {str(exc).strip().splitlines()[-1]}") from None
        finally:
            hooks.PREVIEW.clear()
