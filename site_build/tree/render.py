"""Every file of the generated docs tree from the board records: the Markdown pages and the downloads.

Pages come from the jinja2 templates, hand-written pages and assets from site_src/ (a project's own files
first, then the package's defaults: see `site_build.project`), and the values the page scripts share with
Python from `site_build.pages.constants`. Text from board files goes through `words.plain`. Nothing is written
here: `docs_tree.write_docs` puts the files on disk.
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, date, datetime
from functools import partial
from pathlib import Path, PurePosixPath
from typing import Any

from babel import localedata
from babel.dates import format_date
from jinja2 import (
    Environment,
    FileSystemBytecodeCache,
    FileSystemLoader,
    StrictUndefined,
    TemplateError,
    TemplateSyntaxError,
)

from ...compute.record.schema import BoardRecord, Skipped
from ..checks import SiteError
from ..incremental import Files, Fresh, Parts, template_sources
from ..pages import constants, figures, house_rules_page, literature_page, script_words
from ..pages.board_page import BoardPage, board_pages, chart_figures, headlines
from ..pages.design_page import design_boards, design_length_figure
from ..pages.downloads import distribution_csv, squares_csv
from ..pages.house_rules_page import heading_id, house_rule_groups
from ..pages.language import Language
from ..pages.literature_page import LITERATURE, literature_absence, literature_context
from ..pages.records import board_title, record_schema, schema_parts
from ..pages.stills import FORMS, NARROW, NARROW_MEDIA, WIDE, Stills, height_of
from ..pages.tables import board_tables, overlay_table
from ..pages.words import PageWords
from ..project import DEFAULT_SITE_SRC, DEFAULT_TEMPLATES

SKIP_SOURCES = {"boards", LITERATURE}
SHARED = ("assets/javascripts/", "assets/stylesheets/", "data/")
"""Where the files every language shares are: the page scripts and styles, and the downloads (which the default
language's build publishes once, at the site's root)."""


def shared(rel: str) -> bool:
    """Whether a file of the docs tree is one every language shares (`SHARED`), rather than a page or an image
    of a page in its language (the charts' stills, the share images: data/SLUG-share.png)."""
    return rel.startswith(SHARED) and not rel.endswith("-share.png")
"""What in a folder of hand-written sources is not copied into the docs tree: the board files and the literature."""


OCCASIONAL_PAGES = {"house-rules.md": ("House rules", house_rules_page.MADE_WHEN),
                    "literature.md": ("What others found", literature_page.MADE_WHEN)}
"""The pages a site has only when it has something for them: each one's title and when it is made, in words."""


def left_out(records: list[BoardRecord], sources: list[Path] | None = None) -> list[str]:
    """A note for each of the OCCASIONAL_PAGES this site leaves out, saying why (one line each): the build prints
    them, so that a page that is not there is never a surprise."""
    pages, listed = board_pages(records)
    notes = []
    if not house_rule_groups(listed):
        title, when = OCCASIONAL_PAGES["house-rules.md"]
        notes.append(f"no {title} page (house-rules/): it is made only when {when}")
    why = literature_absence(sources or [DEFAULT_SITE_SRC], {p.slug for p in pages})
    if why is not None:
        title, when = OCCASIONAL_PAGES["literature.md"]
        notes.append(f"no {title} page (literature/): {why}; it is made only when {when}")
    return notes


def _source_files(sources: list[Path], language: Language) -> Files:
    """The hand-written pages and assets of the docs tree in a language: each from the first folder of `sources`
    that has it (a project's before the package's), a page as its translation there (`page.fr.md` for `page.md`)
    where that folder has one; another language's translations (a page named for a language Babel knows) are
    left out."""
    found: dict[str, tuple[int, bool, Path]] = {}
    for order, folder in enumerate(sources):
        for source in sorted(folder.rglob("*")):
            rel = source.relative_to(folder)
            if not source.is_file() or rel.parts[0] in SKIP_SOURCES or rel.name.startswith("."):
                continue
            stem, _, lang = rel.stem.rpartition(".")
            translated = rel.suffix == ".md" and bool(stem) and lang.isalpha() and localedata.exists(lang)
            if translated and lang != language.code:
                continue
            target = rel.with_name(stem + ".md").as_posix() if translated else rel.as_posix()
            rank = (order, not translated, source)
            if target not in found or rank < found[target]:
                found[target] = rank
    return {target: source for target, (_, _, source) in sorted(found.items())}


def _skipped(part: object) -> bool:
    """The templates' test `part is skipped`: a part the record leaves out (`Skipped`; the filter `reason` says
    why in the page's language)."""
    return isinstance(part, Skipped)


def _environment(templates: list[Path], words: PageWords | None = None, shared_root: str = "/") -> Environment:
    """The templates' environment, in a language (`words`; default English): Jinja's i18n extension with the
    site's catalogue (`_("…")`, `{% trans %}`, named placeholders) and the filters in that language. Compiled
    templates are kept in Jinja's cache folder for this user (in the temporary folder, checked by their source:
    an edited template is compiled again), so that a build does not compile every template again (about a
    second), one set per language: Jinja's compiler works out a filter on a constant (`{{ 15000 | number }}`) once,
    in the language it compiled for."""
    words = words or PageWords()
    env = Environment(loader=FileSystemLoader(templates), undefined=StrictUndefined, autoescape=False,
                      keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True,
                      bytecode_cache=FileSystemBytecodeCache(pattern=f"__jinja2_chutes_{words.language.code}_%s.cache"),
                      extensions=["jinja2.ext.i18n"])
    env.install_gettext_translations(words.language.messages, newstyle=True)  # type: ignore[attr-defined]
    env.filters.update(words.filters())
    env.tests["skipped"] = _skipped
    env.globals["max_players"] = constants.MAX_PLAYERS  # the calculators' choice of players
    env.globals["language"] = language = words.language

    def shared(path: str, relative: str = "") -> str:
        """The address of a file every language shares (`path` from the site's root) in a page: `relative` to
        it in the default language, from the site's root (`shared_root`) in another."""
        return relative + path if language.is_default else shared_root + path

    env.globals["shared"] = shared
    return env


def _template_line(env: Environment, exc: BaseException, name: str) -> str:
    """Where in the templates a rendering error happened: 'NAME:LINE' of the innermost template frame of its
    traceback (Jinja rewrites the frames of template code to the template's file and line), else 'NAME'."""
    folders = [Path(folder) for folder in getattr(env.loader, "searchpath", [])]
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        path = Path(frame.filename)
        for folder in folders:
            if folder in path.parents and frame.lineno:
                return f"{path.relative_to(folder).as_posix()}:{frame.lineno}"
    return name


def _render(env: Environment, name: str, **context: Any) -> str:
    """One template rendered; a broken template becomes a one-line SiteError naming it and the line (of the
    template, macro or included file where it broke)."""
    try:
        return env.get_template(name).render(**context)
    except TemplateSyntaxError as exc:
        raise SiteError(f"templates/{exc.name or name}:{exc.lineno}: {exc.message}") from None
    except TemplateError as exc:
        raise SiteError(f"templates/{_template_line(env, exc, name)}: {exc.message}") from None


def _check_agreement(records: list[BoardRecord]) -> None:
    """Refuse a record whose simulation disagrees with its exact values (its own checks say so)."""
    for record in records:
        checks = record.checks
        for name, row in (("expected turns", checks.expected_turns), ("first player wins", checks.first_player_wins)):
            if not row.agrees:
                raise SiteError(f"{record.slug}: the simulated {name} is {row.standard_errors_apart} standard errors "
                                f"from the exact value (more than {checks.criterion:g}): not publishing a page that "
                                "disagrees with itself")



def _charts(figs: dict[str, figures.Figure], folder: str, files: Files, kept: Stills | None,
            from_source: bool, language: str = "en") -> tuple[dict[str, str], dict[str, dict[str, Any]]]:
    """Each figure's JSON for its page (by chart id), and, if `kept`, its stills beside the page (`folder`, the
    page's own address: the page names them chart-ID.png and chart-ID-narrow.png, from its source file's folder
    if the engine reads the page's HTML that way, `from_source`) with what the template says of them (their
    sizes in CSS pixels, the screens given the narrow one, and the start of their address); the stills' words are
    shaped and set as `language` writes them."""
    texts = {chart_id: figures.to_json(fig) for chart_id, fig in figs.items()}
    sizes: dict[str, dict[str, Any]] = {}
    if kept is None:
        return texts, sizes
    with ThreadPoolExecutor(max_workers=2) as pool:  # Pillow lets go of the GIL to encode one while another is drawn
        drawn = {(chart_id, form): pool.submit(kept.image, fig, texts[chart_id], form, language)
                 for chart_id, fig in figs.items() for form in FORMS}
        for (chart_id, form), image in drawn.items():
            files[f"{folder}/chart-{chart_id}{form.suffix}.png"] = image.result()
    prefix = f"{PurePosixPath(folder).name}/" if from_source else ""
    for chart_id, fig in figs.items():
        sizes[chart_id] = {"height": height_of(fig), "wide": WIDE.width, "narrow": NARROW.width, "media": NARROW_MEDIA,
                           "prefix": prefix}
    return texts, sizes


def render_pages(records: list[BoardRecord], templates: list[Path] | None = None,
                 sources: list[Path] | None = None, built: date | None = None,
                 stills: Stills | None = None, html_from_source: bool = False, parts: Parts | None = None,
                 language: Language | None = None, shared_root: str = "/",
                 languages: list[str] | None = None) -> Files:
    """Every file of the generated docs folder: relative path → text, bytes, or a file to copy.

    `templates` and `sources` are searched in order (a project's folder before the package's defaults).
    `built` is the build's date (default: today, UTC), which the board pages' citations give. With `stills`,
    every chart has its still image, drawn or taken from those kept (without: pages whose charts show nothing
    until drawn, for checks of the text); `html_from_source`: the engine reads the addresses in a page's HTML
    from its source file's folder (`engines.html_links_from_source`). With `parts` (a preview's), a page whose
    inputs (its templates, the records it reads, these settings) are those of the previous call is not made
    again: each page below names its inputs.

    In a `language` other than the default, the pages are that language's (a hand-written `page.fr.md` for
    `page.md`, else the default's page) and the files every language shares (the downloads, the page scripts and
    styles: `shared`) are left out: its pages reach them at the default language's address, `shared_root` (the
    site's path, "/" or "/chutes/"). The default language's tree carries the page scripts' words of each of the
    site's `languages` (their codes; default: this language only), words-LANG.js (`script_words`)."""
    language = language or Language()
    words = PageWords(language)
    env = _environment(templates or [DEFAULT_TEMPLATES], words, shared_root)
    built = built or datetime.now(UTC).date()
    _check_agreement(records)
    parts = parts or Fresh()
    parts.start()
    pages, listed = board_pages(records, words)
    settings = (built, html_from_source, stills is not None, language.code, shared_root)
    listed_keys = [p.record.key for p in listed]
    every_key = [p.record.key for p in pages]

    def uses(template: str, *more: object) -> Callable[[], list[object]]:
        return lambda: [template_sources(env, template), settings, *more]

    files: Files = {}
    titles = {p.slug: board_title(p.record, language.code) for p in pages}  # each board's, in the page's language
    common = {"boards": listed, "titles": titles}
    files.update(parts.part("index", uses("index.md.j2", listed_keys), lambda: {
        "index.md": _render(env, "index.md.j2", **common)}))

    def compare() -> Files:
        made: Files = {}
        curves = [(titles[p.slug], p.record.series.length) for p in listed]
        overlays, sizes = _charts({"compare-length": figures.overlay_figure(curves, cumulative=False, words=words),
                                   "compare-cumulative": figures.overlay_figure(curves, cumulative=True, words=words)},
                                  "compare", made, stills, html_from_source, language.code)
        made["compare.md"] = _render(env, "compare.md.j2",
            **common, overlay=overlays["compare-length"], overlay_cumulative=overlays["compare-cumulative"],
            stills=sizes,
            tables={"compare-length": overlay_table(curves, False, words._("Chance of each game length, per board"),
                                                    words),
                    "compare-cumulative": overlay_table(curves, True,
                                                        words._("Chance the game is over by each turn, per board"),
                                                        words)})
        return made

    files.update(parts.part("compare", uses("compare.md.j2", listed_keys), compare))

    def house_rules() -> Files:
        made: Files = {}
        groups = house_rule_groups(listed, words)
        if groups:
            overlays, sizes = _charts({f"house-{base.slug}": figures.overlay_figure(
                [(titles[p.slug], p.record.series.length) for p in [base] + [v for v, _ in variants]], cumulative=True,
                words=words) for base, variants in groups}, "house-rules", made, stills, html_from_source,
                language.code)
            made["house-rules.md"] = _render(env, "house-rules.md.j2", groups=groups, stills=sizes, titles=titles,
                                             anchors={base.slug: heading_id(base) for base, _ in groups},
                                             charts={base.slug: overlays[f"house-{base.slug}"] for base, _ in groups})
        return made

    files.update(parts.part("house-rules", uses("house-rules.md.j2", listed_keys), house_rules))

    def literature() -> Files:
        found = literature_context(sources or [DEFAULT_SITE_SRC], pages, words)
        return {} if found is None else {"literature.md": _render(env, "literature.md.j2", **found, titles=titles)}

    literature_files = [(folder / LITERATURE).read_bytes() if (folder / LITERATURE).is_file() else b""
                        for folder in sources or [DEFAULT_SITE_SRC]]
    files.update(parts.part("literature", uses("literature.md.j2", every_key, literature_files), literature))

    def design() -> Files:
        starts = design_boards(listed, language.code)
        return {"design.md": _render(env, "design.md.j2", boards=figures.safe_json(starts),
                                     choices=[(b["slug"], b["title"]) for b in starts],
                                     length_figure=figures.safe_json(design_length_figure(words)),
                                     within=constants.site_constants()["WITHIN"])}

    files.update(parts.part("design", uses("design.md.j2", listed_keys), design))

    def data() -> Files:
        schema = record_schema()
        return {"data.md": _render(env, "data.md.j2", boards=pages, titles=titles, schema=schema_parts(schema, words)),
                "data/schema.json": json.dumps(schema, indent=1, sort_keys=True, ensure_ascii=False) + "\n"}

    files.update(parts.part("data", uses("data.md.j2", every_key), data))

    def board(page: BoardPage) -> Files:
        made: Files = {}
        charts, sizes = _charts(chart_figures(page, words), f"boards/{page.slug}", made, stills, html_from_source,
                                language.code)
        calculator = figures.safe_json(page.record.players.calculator.model_dump(mode="json"))
        alive = figures.safe_json(figures.alive_data(page.record.series.positions))
        made[f"boards/{page.slug}.md"] = _render(env, "board.md.j2", page=page, r=page.record, charts=charts,
                                                 in_menu=page in listed, alive=alive, stills=sizes,
                                                 has_literature="literature.md" in files,
                                                 jump_colour_limit=figures.JUMP_COLOUR_LIMIT, calculator=calculator,
                                                 tables=board_tables(page.record, page.experiments, list(charts),
                                                                     words),
                                                 build_year=str(built.year),
                                                 build_date=format_date(built, "long", locale=language.code))
        made[page.json_file] = page.json_text
        made[page.fraction_file] = page.fraction_text
        if page.three_file and page.three_text:
            made[page.three_file] = page.three_text
        made[page.csv_file] = distribution_csv(page.record)
        made[page.squares_file] = squares_csv(page.record)
        made[page.share_file] = figures.share_image(page.record.results.board, headlines(page.record, words),
                                                    language=language.code, title=page.title)
        return made

    has_literature = "literature.md" in files
    for page in pages:
        files.update(parts.part(f"boards/{page.slug}", uses("board.md.j2", page.record.key, page in listed,
                                                            has_literature), partial(board, page)))
    files.update(_source_files(sources or [DEFAULT_SITE_SRC], language))
    if language.is_default:
        files[constants.SCRIPT] = constants.constants_script()
        for code in languages or [language.code]:
            files[script_words.script_path(code)] = script_words.words_script(Language(code))
        files[figures.TEMPLATE_SCRIPT] = figures.template_script()
    else:
        files = {rel: content for rel, content in files.items() if not shared(rel)}
    parts.finish()
    return files
