"""A site project: the folder that holds `mkdocs.yml`, and every path a run reads or writes, resolved once.

Like MkDocs, `chutes` works in the folder it is run in (or the one given with `--project`). Boards come
from the project's `site_src/boards/`, results are cached in its `.cache/`, the site goes to its `site/`.
The package's own templates, theme overrides, assets, method page and bundled boards are the defaults;
a project's `templates/` and `site_src/` files override them file by file. Nothing is ever written
inside the installed package.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

CONFIG_NAME = "mkdocs.yml"
SITE_MARKER = ".chutes-site"
"""A file in every folder `chutes build` publishes: only a folder holding it is ever replaced."""

PACKAGE_DATA = Path(str(files("chutes")))
DEFAULT_TEMPLATES = PACKAGE_DATA / "templates"
DEFAULT_SITE_SRC = PACKAGE_DATA / "site_src"
BUNDLED_BOARDS = DEFAULT_SITE_SRC / "boards"


class ProjectError(ValueError):
    """A project or output folder that cannot be used; the message is one line meant for people."""


@dataclass(frozen=True)
class Area:
    """What the build stage writes for the engine, in one folder: the pages, the theme overrides merged into
    one folder, and the engine's configuration (everything the engine reads)."""

    root: Path

    @property
    def docs_dir(self) -> Path:
        return self.root / "docs"

    @property
    def theme_dir(self) -> Path:
        return self.root / "theme"

    @property
    def config_file(self) -> Path:
        return self.root / CONFIG_NAME

    @property
    def site_dir(self) -> Path:
        """Where an engine that writes only inside its configuration's folder (Zensical) puts the site."""
        return self.root / "site"


def absolute(path: str | os.PathLike[str], base: Path | None = None) -> Path:
    """`path` made absolute against `base` (default: the working directory), with `..` resolved."""
    p = Path(path).expanduser()
    return Path(os.path.abspath(p if p.is_absolute() else (base or Path.cwd()) / p))


@dataclass(frozen=True)
class Project:
    """A site project's folders, all absolute. `site_dir`, `boards_dir` and `cache_dir` may be overridden."""

    root: Path
    site_dir: Path
    boards_dir: Path
    cache_dir: Path

    @classmethod
    def at(cls, root: str | os.PathLike[str] | None = None, *, site_dir: str | os.PathLike[str] | None = None,
           boards_dir: str | os.PathLike[str] | None = None, cache_dir: str | os.PathLike[str] | None = None,
           need_config: bool = True) -> Project:
        """The project in `root` (default: the working directory); other paths are taken against the working
        directory, as a user typed them. Raises ProjectError when `root` holds no mkdocs.yml (and one is needed)."""
        folder = absolute(root) if root is not None else absolute(".")
        if need_config and not (folder / CONFIG_NAME).is_file():
            raise ProjectError(f"{folder}: no {CONFIG_NAME} here, so this is not a site project "
                               f"(run chutes in one, give --project DIR, or start one with 'chutes new DIR')")
        return cls(root=folder,
                   site_dir=absolute(site_dir) if site_dir is not None else folder / "site",
                   boards_dir=absolute(boards_dir) if boards_dir is not None else folder / "site_src" / "boards",
                   cache_dir=absolute(cache_dir) if cache_dir is not None else folder / ".cache" / "results")

    @property
    def config_file(self) -> Path:
        return self.root / CONFIG_NAME

    @property
    def work_dir(self) -> Path:
        """Where the build stage keeps its generated pages and its lock (inside the project)."""
        return self.root / ".cache"

    @property
    def build_area(self) -> Area:
        """What `chutes build` gives the engine: `.cache/docs`, `.cache/theme`, `.cache/mkdocs.yml`."""
        return Area(self.work_dir)

    @property
    def preview_area(self) -> Area:
        """The same for `chutes serve`, apart, so that a build beside a preview never races it."""
        return Area(self.work_dir / "preview")

    @property
    def docs_dir(self) -> Path:
        return self.build_area.docs_dir

    @property
    def guide_dir(self) -> Path:
        """The generator's guide: its hand-written pages and page templates (read only when the project's
        mkdocs.yml says `guide: true`, as this repository's does; a `chutes new` project has none)."""
        return self.root / "guide"

    @property
    def benchmarks_file(self) -> Path:
        """The measurements the guide's Performance page gives (this repository's benchmarks/results.md)."""
        return self.root / "benchmarks" / "results.md"

    @property
    def experiments_dir(self) -> Path:
        return self.cache_dir / "experiments"

    @property
    def templates_dirs(self) -> list[Path]:
        """Template folders, the project's first: its files override the package's of the same name."""
        own = self.root / "templates"
        return [own, DEFAULT_TEMPLATES] if own.is_dir() and own.resolve() != DEFAULT_TEMPLATES.resolve() \
            else [DEFAULT_TEMPLATES]

    @property
    def site_src_dirs(self) -> list[Path]:
        """Hand-written pages and assets, the project's first (same rule as the templates)."""
        own = self.root / "site_src"
        return [own, DEFAULT_SITE_SRC] if own.is_dir() and own.resolve() != DEFAULT_SITE_SRC.resolve() \
            else [DEFAULT_SITE_SRC]

    def check_site_dir(self) -> None:
        """Refuse an output folder that `chutes` must not replace: it would delete what is in it."""
        site, root = self.site_dir.resolve(), self.root.resolve()
        if site == Path(site.anchor) or site in root.parents or site == root:
            raise ProjectError(f"--site-dir {site}: refusing to publish over a folder that contains the project")
        for inside in (self.root / "site_src", self.root / "templates", self.work_dir, self.boards_dir,
                       self.cache_dir, DEFAULT_SITE_SRC, DEFAULT_TEMPLATES):
            inside = inside.resolve()
            if site == inside or inside in site.parents or site in inside.parents:
                raise ProjectError(f"--site-dir {site}: refusing to publish into or over the project's "
                                   f"sources or cache ({inside})")
        if self.site_dir.is_symlink() or (site.exists() and not site.is_dir()):
            raise ProjectError(f"--site-dir {site}: exists and is not a folder")
        if site.is_dir() and any(site.iterdir()) and not (site / SITE_MARKER).is_file():
            raise ProjectError(f"--site-dir {site}: the folder exists and was not made by chutes "
                               f"(it has no {SITE_MARKER} file); give a new or empty folder")
