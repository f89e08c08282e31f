"""The build in order: the records → the docs tree, theme and engine configuration → the engine → checks → publish.

The build stage writes everything the engine reads before it runs (`stage`): the Markdown pages and
downloads, the theme overrides merged into one folder, and a complete configuration file. The engine
(MkDocs or Zensical, `site_build.engine.engines`) then builds from those files alone; `chutes serve` writes the
same files into a folder of its own and lets the engine's live reload pick up every change.

One build at a time per project (a lock in its `.cache/`). The new site is built beside the old one and
swapped in only after it passed its checks, so a failed build leaves the previous site as it was. Only a
folder that `chutes` made (it holds the marker file) is ever replaced; published files are readable by
everyone (0644, folders 0755), as a web server running as another user needs.
"""

from __future__ import annotations

import glob
import hashlib
import json
import multiprocessing
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from functools import partial
from importlib.resources import files as package_files
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from filelock import FileLock

from ..compute.record.schema import BoardRecord
from .checks import OUTSIDE_MARK, SiteError, site_problems
from .engine import engines
from .engine.engine_config import (
    Alternate,
    EngineInputs,
    custom_theme_dir,
    engine_config,
    engine_setting,
    guide_setting,
    languages_setting,
    read_config,
    site_words,
    write_config,
)
from .incremental import Files, Fresh, Parts, digest, stats
from .pages.language import Language
from .pages.stills import Stills
from .pages.theme_words import palette_words, permalink_title, theme_words
from .project import BUNDLED_BOARDS, SITE_MARKER, Area, Project, ProjectError
from .scaffold import SCAFFOLD
from .tree.docs_tree import write_docs
from .tree.nav import all_titled, own_nav, site_nav
from .tree.render import left_out, render_pages

LOCAL_PREVIEW = "http://127.0.0.1:8000/"
MARKER_TEXT = "This folder was made by `chutes build`, which replaces its whole content on every build.\n"

Records = Callable[[Project], list[BoardRecord]]
"""Brings the results cache up to date for a project and returns its records (the compute stage)."""
RecordKeys = Callable[[Project], list[tuple[str, str]]]
"""Brings it up to date too, and returns each board's slug and cache key, reading no record it need not read."""
Phase = Callable[[str], AbstractContextManager[object]]
"""Wraps each step of a build ("writing the pages", ...) so that a caller can show what is going on."""


def no_phase(name: str) -> AbstractContextManager[object]:
    """The default Phase: says nothing."""
    return nullcontext()


def build_date(root: Path) -> date:
    """The build's date: SOURCE_DATE_EPOCH, else the project's last commit (set as SOURCE_DATE_EPOCH, which
    the engine's sitemap uses too, so identical inputs give identical files), else today (UTC)."""
    if "SOURCE_DATE_EPOCH" not in os.environ:
        try:
            stamp = subprocess.run(["git", "log", "-1", "--format=%ct"], cwd=root, capture_output=True, text=True,
                                   check=True, timeout=10).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            stamp = ""
        if stamp.isdigit():
            os.environ["SOURCE_DATE_EPOCH"] = stamp
    stamp = os.environ.get("SOURCE_DATE_EPOCH", "")
    return datetime.fromtimestamp(int(stamp), UTC).date() if stamp.isdigit() else datetime.now(UTC).date()


def theme_files(project: Project, config: dict[str, object]) -> dict[str, Path]:
    """The theme overrides, merged: the package's, then the project's `templates/theme/`, then a `custom_dir`
    its mkdocs.yml names (a later file of the same name wins). The engine gets them as one `custom_dir`."""
    folders = [d / "theme" for d in reversed(project.templates_dirs)]
    own = custom_theme_dir(config, project.root)
    if own is not None:
        folders.append(own)
    files: dict[str, Path] = {}
    for folder in folders:
        if folder.is_dir():
            files.update({p.relative_to(folder).as_posix(): p for p in sorted(folder.rglob("*")) if p.is_file()})
    return files


def chosen_engine(project: Project, engine: str | None = None) -> str:
    """The engine to run (`engine`, else the project's setting, else MkDocs), checked before any work: its
    setting is valid and it is installed."""
    chosen = engine or engine_setting(read_config(project.config_file), project.config_file)
    engines.require(chosen)
    return chosen


@dataclass(frozen=True)
class Staged:
    """What `stage` wrote: the engine to run, its configuration file, and where the engine will write the site;
    the files of the docs tree it wrote or removed (`changed`), and whether every page must be built again
    (`whole`: the navigation, the theme or any other setting changed, which every page shows)."""

    engine: str
    config_file: Path
    site_dir: Path
    changed: tuple[str, ...] = ()
    whole: bool = True
    sources: tuple[tuple[str, str], ...] = ()
    """Each file of the docs tree and the author's file it comes from, as a reader names it (`_source_names`)."""
    language: str = "en"


def stage(project: Project, records: list[BoardRecord], area: Area, site_dir: Path, site_url: str,
          engine: str | None = None, parts: dict[str, Parts] | None = None) -> list[Staged]:
    """Write everything the engine reads into `area`, for each language of the site (`languages_setting`): the
    pages (with the generator's guide, in the first language only, where the project's mkdocs.yml asks for it,
    `site_build.guide`), the theme overrides and the configuration (touching only files whose content changed,
    so a live preview reloads once per edit). The first language's site goes to `site_dir` and each other's to
    its area's own `site/` (each language but the first has its area in `area`'s `languages/` folder), to be
    moved into its folder of the first's (`site_dir/fr`) once built: the engines of the languages can then run at
    once. With `parts` (a preview's, kept between calls: one per language), only the pages whose inputs changed
    are made again, in this process; without, the languages' pages are made side by side (`in_parallel`). One
    `Staged` per language, the first language's first."""
    config = read_config(project.config_file)
    chosen = engine or engine_setting(config, project.config_file)
    codes = languages_setting(config, project.config_file)
    kept = Stills(project.work_dir / "stills")  # the charts' still images, kept between builds
    theme_changed = write_docs(dict(theme_files(project, config)), area.theme_dir)
    root_path = urlsplit(site_url).path or "/"
    named = {code: Language(code).name for code in codes}
    owns = {code: area if code == codes[0] else Area(area.root / "languages" / code) for code in codes}

    def tree(code: str) -> _Tree:
        """One language's docs tree, written: its navigation, pages, changed files and sources."""
        first = code == codes[0]
        part = None if parts is None else parts.setdefault(code, Parts())
        files = render_pages(records, project.templates_dirs, project.site_src_dirs, build_date(project.root), kept,
                             engines.html_links_from_source(chosen), part, Language(code), shared_root=root_path,
                             languages=codes)
        guide = None
        if first and guide_setting(config, project.config_file):  # the reference site: the generator's guide
            from .guide import TAB, guide_nav, guide_pages

            files.update((part or Fresh()).part("guide", lambda: [guide_inputs(project)],
                                                lambda: {**guide_pages(project)}))
            guide = (TAB, guide_nav())
        changed = write_docs(files, owns[code].docs_dir)
        nav = site_nav(records, files, guide, own_nav(config.get("nav"), files, str(project.config_file)),
                       Language(code))
        return _Tree(nav, guide is not None, frozenset(page_url(rel, bool(config.get("use_directory_urls", True)))
                                                       for rel in files if rel.endswith(".md")),
                     tuple(changed), _source_names(project, files), frozenset(kept.used))

    trees = dict(zip(codes, [tree(code) for code in codes] if parts is not None else in_parallel(tree, codes)))
    staged = []
    folders = {other: "" if other == codes[0] else f"{other}/" for other in codes}
    for code, made in trees.items():
        first, language = code == codes[0], Language(code)
        own = owns[code]
        out = site_dir if first and engines.writes_anywhere(chosen) else own.site_dir
        up = "" if first else "../"
        alternates = tuple(Alternate(other, named[other], root_path + folders[other], up + folders[other],
                                     tuple(sorted(made.pages - trees[other].pages))) for other in codes) \
            if len(codes) > 1 else ()
        inputs = EngineInputs(docs_dir=own.docs_dir, theme_dir=area.theme_dir, site_dir=out,
                              site_url=site_url if first else f"{site_url}{code}/", nav=made.nav, tabs=made.tabs,
                              language=code, alternates=alternates, shared_root=None if first else root_path,
                              words=tuple(site_words(config, project.config_file, code).items()),
                              theme_words=tuple(theme_words(language).items()),
                              palette_words=tuple(palette_words(language).items()),
                              permalink_title=permalink_title(language))
        config_changed = write_config(engine_config(config, inputs, own.root), own.config_file)
        staged.append(Staged(chosen, own.config_file, out, made.changed,
                             bool(theme_changed) or config_changed or not all_titled(made.nav), made.sources, code))
        kept.used |= made.stills
    kept.sweep()  # after every language: none sweeps the stills another just used
    _remove_other_languages(area, codes[1:])
    return staged


@dataclass(frozen=True)
class _Tree:
    """What writing one language's docs tree gives the rest of `stage` (small: it may come from another process)."""

    nav: list[Any]
    tabs: bool
    pages: frozenset[str]
    """Its pages' addresses (`page_url`)."""
    changed: tuple[str, ...]
    sources: tuple[tuple[str, str], ...]
    stills: frozenset[str]
    """The kept stills its pages used (`Stills.used`), so that the sweep keeps them."""


_JOB: list[Any] = []
"""The work `in_parallel` shares with the processes it forks (inherited, never pickled: the records are large)."""


def _run_job(index: int) -> Any:
    work, items = _JOB
    return work(items[index])


def workers(count: int) -> int:
    """How many processes to run `count` independent jobs on: one per core this process may use, at most `count`."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(cores, count))


def in_parallel(work: Callable[[Any], Any], items: list[Any]) -> list[Any]:
    """`work` on each item, in processes forked from this one (which already holds what they read: the records),
    one per core (`workers`); the results in the order of `items`. The first item (in that order) whose work
    raised raises its exception here, as it would have serially (a SiteError, ProjectError or BoardError keeps its
    one-line message). With one core, one item, or no `fork` on this system: here, one after the other."""
    if workers(len(items)) == 1 or "fork" not in multiprocessing.get_all_start_methods():
        return [work(item) for item in items]
    _JOB[:] = [work, items]
    try:
        with ProcessPoolExecutor(workers(len(items)), mp_context=multiprocessing.get_context("fork")) as pool:
            futures = [pool.submit(_run_job, n) for n in range(len(items))]
            return [future.result() for future in futures]
    except BrokenProcessPool:
        raise SiteError("site not published: a build process stopped unexpectedly (out of memory?)") from None
    finally:
        _JOB.clear()


def page_url(rel: str, directory_urls: bool = True) -> str:
    """A page's address from the site's root as the engine gives it: boards/classic.md → boards/classic/
    (index.md → ""), or boards/classic.html without directory addresses."""
    stem = rel.removesuffix(".md")
    if not directory_urls:
        return stem + ".html"
    stem = stem.removesuffix("index").removesuffix("/") if stem == "index" or stem.endswith("/index") else stem
    return f"{stem}/" if stem else ""


def _remove_other_languages(area: Area, codes: list[str]) -> None:
    """The areas of languages the site no longer publishes, removed (they would be built into the site)."""
    folder = area.root / "languages"
    for old in sorted(folder.iterdir()) if folder.is_dir() else []:
        if old.name not in codes and old.is_dir():
            shutil.rmtree(old, ignore_errors=True)


def _source_names(project: Project, files: Files) -> tuple[tuple[str, str], ...]:
    """Where each file of the docs tree comes from, as its author knows it: a hand-written page or asset by its
    path in the project (site_src/house.md), or the package's; a generated page by its template."""
    names = []
    for rel, content in files.items():
        if isinstance(content, Path):
            path = content.resolve()
            root = project.root.resolve()
            names.append((rel, path.relative_to(root).as_posix() if root in path.parents else f"the package's {rel}"))
        elif rel.startswith("guide/") and (project.guide_dir / f"{rel.removeprefix('guide/')}.j2").is_file():
            names.append((rel, f"guide/{rel.removeprefix('guide/')}.j2"))
        elif rel.endswith(".md"):
            template = "board.md.j2" if rel.startswith("boards/") else f"{rel}.j2"
            if any((folder / template).is_file() for folder in project.templates_dirs):
                names.append((rel, f"templates/{template}"))
    return tuple(names)


OUTSIDE_FIX = ("put each file a page shows in site_src/assets/ and refer to it there (assets/NAME from site_src/"
               "house.md, ../assets/NAME from a page in a folder of site_src/): a page may link to another site "
               "(<a href>), but everything it shows or loads must be in the site")
"""The fix for a page that loads something from another site, said once after the problems."""
PROBLEM = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+): (?P<what>.*)$")
ADDRESS = re.compile(r"^<[\w:-]+> (?:refers to )?(\S+?):? ")
"""The address a problem is about (`checks`: '<img> refers to URL: ...', '<a> URL: no such file')."""


def explained(problems: list[str], staged: Staged, docs_dir: Path) -> list[str]:
    """The checks' problems (`site_problems`: 'house/index.html:575: ...') said of the author's files: the page's
    source and its line where the address is found there (site_src/house.md:3: ..., built as house/index.html:575),
    then the fix for what comes from another site (OUTSIDE_FIX)."""
    sources = dict(staged.sources)
    out = []
    for problem in problems:
        match = PROBLEM.match(problem)
        if match is None:
            out.append(problem)
            continue
        built, what = match["file"], match["what"]
        page = built.removesuffix("index.html").rstrip("/")
        rel = next((r for r in (f"{page or 'index'}.md", f"{page}/index.md".lstrip("/"), built) if r in sources), None)
        if rel is None:
            out.append(problem)
            continue
        found = ADDRESS.match(what)
        address = found[1] if found and any(c in found[1] for c in "/.#") else None
        line = next((n for n, text in enumerate(_text(docs_dir / rel), start=1) if address and address in text), None)
        out.append(f"{sources[rel]}{f':{line}' if line else ''}: {what} (built as {built}:{match['line']})")
    if any(OUTSIDE_MARK in p for p in problems):
        out.append(f"to fix it: {OUTSIDE_FIX}")
    return out


def _text(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []


def guide_inputs(project: Project) -> list[tuple[str, int, int]]:
    """What the guide's pages are made from: its own folder, the measurements, and the code and templates they
    describe (the package's modules and data)."""
    code = {Path(m.__file__) for name, m in list(sys.modules.items()) if name.startswith("chutes.") and m.__file__}
    return stats([project.guide_dir, project.benchmarks_file, *project.templates_dirs, BUNDLED_BOARDS,
                  Path(str(SCAFFOLD)), *sorted(code)])


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


def build_site(project: Project, records: Records, site_url: str | None = None, engine: str | None = None,
               phase: Phase = no_phase, log: Callable[[str], None] = lambda note: None,
               keys: RecordKeys | None = None) -> Path:
    """Compute (cached), write the engine's inputs, build, check, and only then replace the project's site folder.
    Each page the site leaves out is a note to `log`, saying why (`render.left_out`). With `keys` (the compute
    stage's), a build with nothing changed reads no record: the records' keys name their content."""
    project.check_site_dir()
    url, _ = site_url_for(site_url)
    site_dir = project.site_dir
    try:
        project.work_dir.mkdir(parents=True, exist_ok=True)
        site_dir.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ProjectError(f"{exc.filename}: cannot create the folder ({exc.strerror})") from None
    chosen = chosen_engine(project, engine)
    with FileLock(project.work_dir / "build.lock"):
        _remove_leftovers(site_dir)
        if keys is not None:  # the records are read only if something changed
            current, named = None, keys(project)
        else:
            current = records(project)
            named = [(r.slug, r.key) for r in current]
        with phase("comparing the inputs with the last build's"):
            inputs = build_inputs(project, named, url, chosen)
            unchanged = _published(project) == {"inputs": inputs, "site_dir": str(site_dir),
                                                "site": _site_state(site_dir)}
        if unchanged:
            with phase("nothing changed since the last build: the published site stays"):
                return site_dir
        current = records(project) if current is None else current
        for note in left_out(current, project.site_src_dirs):
            log(f"note: {note}")
        _stamp(project, None)
        _publish(project, current, url, chosen, phase)
        _stamp(project, {"inputs": inputs, "site_dir": str(site_dir), "site": _site_state(site_dir)})
    return site_dir


def build_inputs(project: Project, records: list[tuple[str, str]], url: str, engine: str) -> str:
    """A digest of everything a build reads: the records (each board's slug and cache key, which names its record's
    content), the templates, hand-written pages and assets, theme overrides, the guide and its measurements, the
    settings, the site's address, the engine, the build's date, the generator's own code, and every installed
    package's version (the engine, its theme, Markdown's extensions: `_installed`). Files are read whole, so a file
    touched but not changed counts as unchanged."""
    config = read_config(project.config_file)
    code = [Path(str(package_files(package))) for package in ("chutes", "chutes.compute", "chutes.site_build")]
    folders = [*project.templates_dirs, *project.site_src_dirs, project.guide_dir, project.benchmarks_file,
               project.config_file, *code]
    own = custom_theme_dir(config, project.root)
    contents = []
    for path in sorted({p.resolve() for p in folders + ([own] if own else [])}):
        for file in sorted(path.rglob("*")) if path.is_dir() else [path]:
            if file.is_file() and "__pycache__" not in file.parts:
                contents.append((str(file), hashlib.sha256(file.read_bytes()).hexdigest()))
    return digest(sorted(records), contents, url, engine, build_date(project.root), _installed(), sys.version)


def _installed() -> list[str]:
    """Every package installed where pip installs (this environment's site-packages), by its metadata folder's name,
    which names its version (`mkdocs_material-9.8.1.dist-info`): read from the folders' listings, without parsing
    each package's metadata file (a tenth of a second or more for a hundred packages), and the same from any
    working folder (`python -m chutes` puts it on `sys.path`, with a source checkout's `*.egg-info`)."""
    found: set[str] = set()
    for folder in {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}:
        try:
            found.update(p.name for p in Path(folder).iterdir() if p.suffix in (".dist-info", ".egg-info"))
        except OSError:  # not there
            continue
    return sorted(found)


def _site_state(site_dir: Path) -> str:
    """A digest of the published folder as it is: each file's path, size and modification time (a file changed,
    added or removed there since, and the next build builds it again)."""
    return digest(stats([site_dir]) if site_dir.is_dir() else None)


def _stamp_file(project: Project) -> Path:
    return project.work_dir / "published.json"


def _published(project: Project) -> dict[str, str] | None:
    """What the last build published (`_stamp`), or None."""
    try:
        stamp = json.loads(_stamp_file(project).read_text())
    except (OSError, ValueError):
        return None
    return stamp if isinstance(stamp, dict) else None


def _stamp(project: Project, published: dict[str, str] | None) -> None:
    """Note what was published: the digest of its inputs, where, and the folder as written (None: forget it,
    before a build that may fail half-way)."""
    if published is None:
        _stamp_file(project).unlink(missing_ok=True)
    else:
        _stamp_file(project).write_text(json.dumps(published, indent=1) + "\n")


def _leftover_name(site_dir: Path, what: str) -> str:
    return f".{site_dir.name}.chutes-{what}"


def _remove_leftovers(site_dir: Path) -> None:
    """Staging folders of a build that was killed: only ours (they hold the marker file) are removed."""
    for stale in site_dir.parent.glob(glob.escape(_leftover_name(site_dir, "")) + "*"):
        if stale.is_dir() and not stale.is_symlink() and (stale / SITE_MARKER).is_file():
            shutil.rmtree(stale, ignore_errors=True)


def _publish(project: Project, records: list[BoardRecord], url: str, engine: str, phase: Phase) -> None:
    site_dir = project.site_dir
    try:
        staging = Path(tempfile.mkdtemp(prefix=_leftover_name(site_dir, "new-"), dir=site_dir.parent))
    except OSError as exc:
        raise ProjectError(f"--site-dir {site_dir}: cannot write beside it ({exc.strerror})") from None
    languages = languages_setting(read_config(project.config_file), project.config_file)
    try:
        (staging / SITE_MARKER).write_text(MARKER_TEXT)
        with phase("writing the pages" if len(languages) == 1 else f"writing the pages in {len(languages)} languages"):
            every = stage(project, records, project.build_area, staging, url, engine)
        problems: list[str] = []
        names = "" if len(every) == 1 else f" ({', '.join(Language(s.language).name for s in every)})"
        with phase(f"building the site with {engines.LABELS[every[0].engine]}{names}"):
            # each language into a folder of its own, side by side; then the others moved into the first's
            theme_dirs = in_parallel(partial(engines.build, every[0].engine), [s.config_file for s in every])[0]
        for staged in every:
            target = staging if staged is every[0] else staging / staged.language
            if staged.site_dir != target:  # the engine wrote inside the cache folder: the same files, moved
                shutil.rmtree(target, ignore_errors=True)
                shutil.move(staged.site_dir, target)
        (staging / SITE_MARKER).write_text(MARKER_TEXT)
        with phase("checking the site"):
            problems = site_problems(staging, theme_dirs, url)
        if problems:
            sources = {name for staged in every for name in staged.sources}
            staged = replace(every[0], sources=tuple(sorted(sources)))
            raise SiteError("\n".join(f"site not published: {p}"
                                      for p in explained(problems, staged, project.build_area.docs_dir)))
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
