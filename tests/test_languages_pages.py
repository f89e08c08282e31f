"""A board page in another language says nothing in English: rendered in a pseudo-language whose every message is
its English text between ⟪ and ⟫ (the site's messages, extracted from the code as scripts/catalogues.py does, and
the wording's sentences), every word a reader sees is inside ⟪…⟫, except the record's own text (a board's title
and source, the reasons and notes it stores), code, mathematics and numbers."""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from chutes.compute.record import words as wording
from chutes.compute.record.catalogues import TEMPLATE, Catalogues
from chutes.compute.record.schema import BoardRecord
from chutes.site_build.pages import language
from chutes.site_build.tree.render import render_pages

REPOSITORY = Path(__file__).resolve().parent.parent
PSEUDO = "fr"
"""The language the pseudo-catalogues stand in for (its plural rule, number formats and date)."""
BOARDS = ["classic", "classic-coin", "classic-family-coin", "classic-three-sixes", "uk", "classic-two-dice"]
"""Boards with different features: the box's rules, a coin (best play, its tables), a coin under a roll-again limit
(later rolls played otherwise), roll-again limits, snakes, two dice."""


def pseudo_catalogue(template: Path, folder: Path) -> Catalogues:
    """`folder` holding `template` and a PSEUDO.po translating each of its messages as ⟪message⟫."""
    folder.mkdir()
    (folder / template.name).write_bytes(template.read_bytes())
    with template.open("rb") as f:
        messages = read_po(f)
    catalogue = Catalog(locale=PSEUDO)
    for m in messages:
        if m.id:
            ids = (m.id,) if isinstance(m.id, str) else tuple(m.id)
            forms = [f"⟪{ids[min(i, len(ids) - 1)]}⟫" for i in range(catalogue.num_plurals if len(ids) > 1 else 1)]
            catalogue.add(m.id, forms[0] if isinstance(m.id, str) else tuple(forms), context=m.context)
    with (folder / f"{PSEUDO}.po").open("wb") as f:
        write_po(f, catalogue)
    return Catalogues(folder, template.name)


@pytest.fixture(scope="module")
def pseudo_pages(tmp_path_factory: pytest.TempPathFactory, bundled_models: list[BoardRecord]
                 ) -> dict[str, tuple[str, BoardRecord]]:
    """The board pages of BOARDS in the pseudo-language: slug → (page, record)."""
    tmp = tmp_path_factory.mktemp("pseudo")
    pot = tmp / "site.pot"
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "extract", "-F",
                    "site_build/pages/catalogues/babel.cfg", "--no-location", "-o", str(pot), "."],
                   cwd=REPOSITORY, check=True, capture_output=True)
    site = pseudo_catalogue(pot, tmp / "site")
    words = pseudo_catalogue(TEMPLATE, tmp / "words")
    records = [r for r in bundled_models if r.slug in BOARDS]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(language, "SITE", site)
        patch.setattr(language, "wording_languages", lambda: ("en", PSEUDO))
        patch.setattr(wording, "translations", words.translations)
        files = render_pages(records, language=language.Language(PSEUDO))
    return {r.slug: (str(files[f"boards/{r.slug}.md"]), r) for r in records}


def record_text(value: object) -> list[str]:
    """Every piece of text of more than one word in a record (its board's title and source, reasons, notes,
    labels): the longest first."""
    found: list[str] = []

    def walk(v: object) -> None:
        if isinstance(v, str) and re.search(r"[^\W\d_]{2}", v) and len(v.split()) > 1:  # not "chutes", a slug
            found.append(" ".join(v.split()))
        elif isinstance(v, dict):
            for item in v.values():
                walk(item)
        elif isinstance(v, list):
            for item in v:
                walk(item)

    walk(value)
    return sorted(set(found), key=len, reverse=True)


CODE = re.compile(r"^( *)```(?:text|math)\n.*?^\1```$|^ *```[\w-]*$|`[^`\n]+`", re.S | re.M)
DATA = re.compile(r'<div class="(?:chutes-figure|chutes-alive-data|chutes-calculator-data)"[^>]*>.*?</div>', re.S)
WRAPPED = re.compile(r"⟪[^⟪⟫]*⟫")
MARKUP = re.compile(r"<[^>]*>|\{[:#. ][^}\n]*\}|\]\([^)\s]*\)|^\s*(?:#+|[-*]|\?\?\? note|===)\s"
                    r"|\*\*|\||:?-{3,}:?", re.M)
NUMBER = re.compile(r"\d+(?:[.,]\d+)*(?:e[-+]?\d+)?")


def leftover_words(page: str, record: BoardRecord) -> list[str]:
    """The lines of a page that still hold a word outside ⟪…⟫ once code, data, markup, numbers and the record's
    text are taken out."""
    body = page.split("\n---\n", 1)[1]
    front = "\n".join(json.loads(line.partition(":")[2]) for line in page.split("\n---\n", 1)[0].splitlines()
                      if line.startswith(("description:", "share_alt:")))  # each a JSON string
    text = html.unescape(DATA.sub("", CODE.sub("", front + "\n" + body)))
    for own in record_text(record.model_dump(mode="json")):
        text = text.replace(own, "")
    while WRAPPED.search(text):
        text = WRAPPED.sub("", text)
    text = NUMBER.sub("", MARKUP.sub(" ", text))
    return [line.strip() for line in text.splitlines() if re.search(r"[^\W\d_]", line)]


@pytest.mark.parametrize("slug", BOARDS)
def test_a_board_page_has_no_word_outside_the_catalogues(pseudo_pages: dict[str, tuple[str, BoardRecord]],
                                                         slug: str) -> None:
    page, record = pseudo_pages[slug]
    assert "⟪" in page
    left = leftover_words(page, record)
    assert not left, "\n".join(left)


@pytest.mark.parametrize("slug", BOARDS)
def test_a_board_page_keeps_the_english_anchors(pseudo_pages: dict[str, tuple[str, BoardRecord]], slug: str) -> None:
    """Every heading of a board page has its English id, so that links and the language selector find it."""
    page, _ = pseudo_pages[slug]
    headings = [line for line in page.splitlines() if re.match(r"#{2,3} ", line)]
    assert headings
    assert all(re.search(r"\{ #[a-z0-9-]+[ }]", line) for line in headings), headings
    assert "{ #who-is-ahead-in-the-middle-of-a-game" in page and "{ #how-we-know" in page


def test_the_check_finds_english(pseudo_pages: dict[str, tuple[str, BoardRecord]]) -> None:
    """A sentence left in English on the page is found (the check above can fail)."""
    page, record = pseudo_pages["classic"]
    assert leftover_words(page.replace("## ⟪At a glance⟫", "## At a glance"), record) == ["At a glance"]
