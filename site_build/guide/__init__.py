"""The generator's guide, "Make your own": the reference site's tab for people who make a site of their own or
compute with the library. Only a project whose mkdocs.yml says so (`plugins: - chutes: {guide: true}`, this
repository's) has it; a `chutes new` project leaves the setting out.

Its sources are the project's `guide/` folder, outside the package: Markdown pages copied as they are, and page
templates (`*.md.j2`) filled with what a module here reads from the code the page describes, each module with one
job: the board file's keys (`boards`), the command line (`commands`), the templates' inputs, filters and default
files (`templates`), the Python API from its docstrings (`api`, with griffe), the measurements (`performance`), and
what of each written page the search index holds (`searched`); the Data page reuses the Data page's record schema
(`site_build.pages.records`). The tutorial is a notebook (`guide/tutorial.ipynb`), written as a page with its stored
outputs (`notebook`) and published beside it. They are rendered here to Markdown in the docs tree before the engine
runs, so that MkDocs and Zensical publish the same pages.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, TemplateError, TemplateSyntaxError

from ..checks import SiteError, what_is_checked
from ..engine.engine_config import ENGINES, SETTINGS
from ..engine.guard import MESSAGE as GUARD_MESSAGE
from ..pages.downloads import DOWNLOADS
from ..pages.records import record_schema, schema_parts
from ..pages.words import english_filters, markdown_text
from ..project import BUNDLED_BOARDS, Project
from ..scaffold import SCAFFOLD
from ..tree.nav import GENERATED
from ..tree.render import OCCASIONAL_PAGES
from . import api, boards, commands, notebook, performance, templates
from .searched import searched_by_their_leads

FOLDER = "guide"
"""Where the guide's pages go in the site (guide/, guide/boards/, ...)."""
PAGES = ("index.md", "boards.md", "cli.md", "customising.md", "publishing.md", "scaling.md", "data.md", "api.md",
         "tutorial.md", "performance.md")
"""The guide's pages in the order of its navigation, each from guide/NAME, the template guide/NAME.j2, or the
notebook of the same stem (guide/tutorial.ipynb)."""
TAB = "Make your own"
"""The guide's tab in the navigation."""


def _context(project: Project) -> dict[str, Any]:
    """Every value the guide's templates read, from the code each page describes."""
    package_doc, entries = api.api_entries()
    return {
        "board_keys": boards.board_keys(),
        "commands": commands.commands(),
        "template_inputs": templates.template_inputs(),
        "page_attributes": templates.page_attributes(),
        "filters": templates.filters(),
        "theme_files": templates.theme_files(),
        "source_files": templates.source_files(),
        "skipped_sources": templates.skipped_sources(),
        "bundled_boards": sorted(p.stem for p in BUNDLED_BOARDS.glob("*.toml")),
        "settings": SETTINGS,
        "engines": ENGINES,
        "schema": schema_parts(record_schema()),
        "downloads": list(DOWNLOADS.values()),
        "occasional_pages": OCCASIONAL_PAGES,
        "site_checks": what_is_checked(),
        "guard_message": GUARD_MESSAGE,
        "generated_nav": GENERATED,
        "api_doc": package_doc,
        "api": entries,
        "performance": performance.results_tables(project.benchmarks_file),
        "cluster": performance.benchmark_tables(project.benchmarks_file, "cluster.py"),
        "workflow": (SCAFFOLD / "workflow.yml").read_text(encoding="utf-8").rstrip("\n"),
    }


def guide_pages(project: Project) -> dict[str, str]:
    """The guide's pages, by their path in the docs tree (guide/index.md, ...). A page or template missing from the
    project's guide/ folder, or one that does not render, is a SiteError."""
    env = Environment(loader=FileSystemLoader(project.guide_dir), undefined=StrictUndefined, autoescape=False,
                      keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)
    env.filters.update(english_filters())
    env.filters["doc"] = markdown_text  # text from the code (docstrings, help, descriptions): its HTML shown as text
    context: dict[str, Any] | None = None
    pages = {}
    for name in PAGES:
        plain, template = project.guide_dir / name, project.guide_dir / f"{name}.j2"
        book = (project.guide_dir / name).with_suffix(".ipynb")
        if plain.is_file():
            pages[f"{FOLDER}/{name}"] = searched_by_their_leads(plain.read_text(encoding="utf-8"))
            continue
        if book.is_file():
            pages[f"{FOLDER}/{name}"] = notebook.notebook_markdown(book, chart_prefix=book.stem)
            pages[f"{FOLDER}/{book.name}"] = book.read_text(encoding="utf-8")  # to download and run
            continue
        if not template.is_file():
            raise SiteError(f"{project.guide_dir}: the guide needs {name}, {name}.j2 or {book.name} (guide: true in "
                            "mkdocs.yml)")
        context = context if context is not None else _context(project)
        try:
            pages[f"{FOLDER}/{name}"] = searched_by_their_leads(env.get_template(f"{name}.j2").render(**context))
        except TemplateSyntaxError as exc:
            raise SiteError(f"guide/{exc.name or name}:{exc.lineno}: {exc.message}") from None
        except TemplateError as exc:
            raise SiteError(f"guide/{name}.j2: {exc.message}") from None
    return pages


def guide_nav() -> list[str]:
    """The guide's pages in its tab's order."""
    return [f"{FOLDER}/{name}" for name in PAGES]


def page_address(name: str) -> Path:
    """A guide page's address in the built site, relative to its root (guide/boards.md → guide/boards/)."""
    stem = name.removesuffix(".md")
    return Path(FOLDER) if stem == "index" else Path(FOLDER) / stem
