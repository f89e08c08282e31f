"""The reader pages other than the board pages (home, compare, house rules, design, what others found, data) take
every word from the site's catalogue: rendered in a pseudo-language whose every message is "⟪English⟫", no English
reaches them outside ⟪…⟫ but what is meant to stay as it is (code, numbers, board data, cited works, the record's
field descriptions), and their headings keep their English ids."""

from __future__ import annotations

import html
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po
from helpers import REPOSITORY

from chutes.compute.record import literature
from chutes.compute.record.catalogues import Catalogues
from chutes.compute.record.schema import BoardRecord
from chutes.site_build.pages import language as language_module
from chutes.site_build.pages.language import Language
from chutes.site_build.pages.literature_page import LITERATURE
from chutes.site_build.pages.records import record_schema, schema_parts
from chutes.site_build.pages.words import plain
from chutes.site_build.project import DEFAULT_SITE_SRC
from chutes.site_build.tree import render

PAGES = ("index.md", "compare.md", "house-rules.md", "design.md", "literature.md", "data.md")
PSEUDO = "fr"
"""The pseudo-language's code: a language with a wording catalogue (its sentences, in French, are the wording's)
and the French number formats."""
ENGLISH = re.compile(r"\b(the|of|and|to|in|is|are|for|with|by|at|from|this|that|its|each|every|turns?|games?|"
                     r"boards?|players?|chance|squares?|within|over|most|least|one|two)\b", re.IGNORECASE)
"""Common English words (none of them a French word): a line holding one outside ⟪…⟫ is English text."""
HEADING_IDS = {"index.md": ["chutes-and-ladders-exactly", "every-board-at-a-glance", "where-to-go-next"],
               "compare.md": ["compare-boards", "game-length-overlaid"],
               "house-rules.md": ["house-rules", "chutes-and-ladders-milton-bradley-1943"],
               "design.md": ["design-a-board", "how-it-works"],
               "literature.md": ["what-others-found", "source-by-source", "why-the-numbers-differ", "references"],
               "data.md": ["data", "what-is-in-each-file"]}


def pseudo_language(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Language:
    """The site's catalogue extracted afresh into `folder` with a pseudo-translation of every message ("⟪msgid⟫",
    each plural form its English form), the site's catalogues pointed at it; the literature's words in a language
    as the English (Figure.words, Source.where_in) where the record's module does not give them yet."""
    pybabel = [sys.executable, "-m", "babel.messages.frontend"]
    subprocess.run([*pybabel, "extract", "-F", "site_build/pages/catalogues/babel.cfg", "--no-location",
                    "-o", str(folder / "site.pot"), "."], cwd=REPOSITORY, check=True, capture_output=True)
    with (folder / "site.pot").open("rb") as f:
        template = read_po(f)
    catalogue = Catalog(locale=PSEUDO)
    forms = get_plural(PSEUDO).num_plurals
    for m in template:
        if m.id:
            string = (tuple(f"⟪{m.id[min(i, 1)]}⟫" for i in range(forms)) if isinstance(m.id, tuple)
                      else f"⟪{m.id}⟫")
            catalogue.add(m.id, string, context=m.context)
    with (folder / f"{PSEUDO}.po").open("wb") as f:
        write_po(f, catalogue)
    monkeypatch.setattr(language_module, "SITE", Catalogues(folder, "site.pot"))
    return Language(PSEUDO)


@pytest.fixture(scope="module")
def pseudo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Language]:
    with pytest.MonkeyPatch.context() as monkeypatch:
        yield pseudo_language(tmp_path_factory.mktemp("pseudo"), monkeypatch)


@pytest.fixture(scope="module")
def pseudo_pages(pseudo: Language, bundled_models: list[BoardRecord]) -> dict[str, str]:
    """The pages of the bundled boards in the pseudo-language, rendered once for this module's tests."""
    files = render.render_pages(bundled_models, language=pseudo, shared_root="/chutes/")
    return {name: files[name] for name in PAGES}


def _kept(records: list[BoardRecord]) -> list[str]:
    """What the pages show as it is in every language: the boards' titles (a bundled board without a translation
    of its title), the cited works and the literature's figures (their own translations are the literature file's),
    the record's part names and field descriptions (English documentation of a data format)."""
    found = literature.load_literature(DEFAULT_SITE_SRC / LITERATURE)
    kept = [r.results.board.title for r in records]
    kept += [text for s in found.sources.values() for text in (s.author, s.title, s.where, s.where_in(PSEUDO))]
    kept += [text for f in found.figures for text in (f.rule, f.quantity, f.why, *f.words(PSEUDO))]
    for part in schema_parts(record_schema()):
        kept += [part["name"], part["description"], *(description for _, _, description in part["fields"])]
    return sorted({html.unescape(" ".join(t.split())) for t in kept if t}, key=len, reverse=True)


def _english_lines(page: str, kept: list[str]) -> list[str]:
    """The lines of a page that hold English outside ⟪…⟫, once what is not words is taken out: its front matter's
    keys, code, links' and images' addresses, HTML tags, the charts' and the designer's data, the home page's card
    and the comparison's tables of a chart's numbers (the board page's parts: `tables.overlay_table`), and what
    stays as it is (`kept`)."""
    text = re.sub(r"\\u([0-9a-f]{4})", lambda m: chr(int(m[1], 16)), html.unescape(page))  # JSON in front matter
    text = re.sub(r'<div class="(chutes-figure|chutes-designer-data|answer-card)".*?</div>', " ", text, flags=re.S)
    text = re.sub(r"<table class=\"chart-table\" tabindex=\"0\"><caption>.*?</table>", " ", text, flags=re.S)
    while re.search(r"⟪[^⟪⟫]*⟫", text):
        text = re.sub(r"⟪[^⟪⟫]*⟫", " ", text)
    text = re.sub(r"https?://[^\s<\"]+", " ", text)
    for words in kept:
        text = text.replace(words, " ")
    text = re.sub(r"`[^`]*`|\]\([^)]*\)|<[^>]*>|\{[^{}]*\}|\S+\.(md|json|txt|csv)\b", " ", text)
    text = re.sub(r"^(title|description|hide|designer):|^\s*- toc$", " ", text, flags=re.M)
    return [line.strip() for line in text.splitlines() if ENGLISH.search(line)]


def test_the_reader_pages_take_every_word_from_the_catalogue(pseudo_pages: dict[str, str],
                                                            bundled_models: list[BoardRecord]) -> None:
    files = pseudo_pages
    kept = _kept(bundled_models)
    for name in PAGES:
        page = files[name]
        assert page.count("⟪") > 5, name
        assert not _english_lines(page, kept), (name, _english_lines(page, kept)[:5])
        ids = re.findall(r"^#+ .*\{ #([\w-]+) \}$", page, flags=re.M)
        assert all(i in ids for i in HEADING_IDS[name]), (name, ids)
    assert "⟪The field descriptions are in English.⟫" in files["data.md"]
    assert "(/chutes/data/schema.json)" in files["data.md"]  # the downloads every language shares


def test_english_lines_are_found(pseudo: Language, bundled_models: list[BoardRecord]) -> None:
    """The check above finds an English sentence a template writes without a message."""
    page = render.render_pages(bundled_models[:2], language=pseudo)["index.md"]
    assert not _english_lines(page, _kept(bundled_models))
    assert _english_lines(page + "\nThe boards side by side.\n", _kept(bundled_models)) == [
        "The boards side by side."]


def test_a_board_title_is_in_the_page_s_language(pseudo: Language, bundled_models: list[BoardRecord]) -> None:
    """A board file's `[translations.LANG]` title is the board's title on these pages (and in the design page's
    choices), its own title where it has none."""
    data = bundled_models[0].model_dump(mode="json", by_alias=True)
    data["results"]["board"]["translations"] = {PSEUDO: {"title": "Le jeu classique"}}
    record = BoardRecord.model_validate(data)
    files = render.render_pages([record, *bundled_models[1:3]], language=pseudo)
    for name in ("index.md", "compare.md", "data.md", "design.md"):
        assert "Le jeu classique" in files[name], name
    english = render.render_pages([record, *bundled_models[1:3]])
    assert "Le jeu classique" not in english["index.md"]
    assert plain(record.results.board.title) in english["index.md"]
