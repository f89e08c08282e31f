"""The charts, their stills and the page scripts in another language: every word of a figure from the site's
catalogue and its numbers in the locale's signs (site_build/pages/figures.py), the page scripts' words table
(site_build/pages/script_words.py, words.js) holding every message the scripts say and writing numbers as Babel
does, and stills drawn in Hindi and Arabic. Before the site's catalogues are translated, each test makes a
throwaway one (a pseudo-language, "⟪" + message + "⟫") for the
messages of these modules, and points the site's catalogues at it."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import write_po
from playwright.sync_api import Browser

from chutes.compute.record.catalogues import Catalogues
from chutes.compute.record.schema import BoardRecord
from chutes.site_build.pages import board_page, figures, language, script_words, stills
from chutes.site_build.pages.language import Language
from chutes.site_build.pages.words import PageWords

REPOSITORY = Path(__file__).resolve().parent.parent
SOURCES = [REPOSITORY / "site_build" / "pages" / name for name in ("figures.py", "script_words.py", "board_page.py",
                                                                      "words.py")]
KEYWORDS = {"_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
SCRIPTS = REPOSITORY / "site_src" / "assets" / "javascripts"
OTHERS = ("es", "fr", "de", "hi", "ar")


def _messages() -> dict[tuple[str | None, str], str | tuple[str, str]]:
    """The messages of these modules, as Babel extracts them: (context, singular) → the message (its two forms
    for a plural one)."""
    found: dict[tuple[str | None, str], str | tuple[str, str]] = {}
    for source in SOURCES:
        for _, message, _, context in extract_from_file("python", source, KEYWORDS):
            found[context, message if isinstance(message, str) else message[0]] = message
    return found


def _catalogues(folder: Path, translate: Any) -> Catalogues:
    """A throwaway folder of site catalogues for the messages of these modules in every language: each message
    as `translate(lang, message, context)` gives it (a list of forms for a plural message)."""
    messages = _messages()
    template = Catalog(project="test")
    for (context, _), message in messages.items():
        template.add(message, context=context)
    with (folder / "site.pot").open("wb") as f:
        write_po(f, template)
    for lang in OTHERS:
        catalog = Catalog(locale=lang, project="test")
        for (context, _), message in messages.items():
            catalog.add(message, translate(lang, message, context, catalog.num_plurals), context=context)
        with (folder / f"{lang}.po").open("wb") as f:
            write_po(f, catalog)
    return Catalogues(folder, "site.pot")


def _pseudo(lang: str, message: str | tuple[str, str], context: str | None, forms: int) -> str | list[str]:
    if isinstance(message, str):
        return f"⟪{message}⟫"
    return [f"⟪{message[0]}⟫"] + [f"⟪{message[1]}⟫"] * (forms - 1)


@pytest.fixture
def pseudo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(language, "SITE", _catalogues(tmp_path, _pseudo))


def _texts(fig: figures.Figure) -> list[str]:
    """Every text of a figure a reader sees: its title, axis and colour-bar titles, annotations, trace names and
    hover templates (a template that only shows a trace's own texts stands for those texts)."""
    layout, out = fig["layout"], []
    for key, value in layout.items():
        if key.startswith(("xaxis", "yaxis")) and value.get("title"):
            out.append(value["title"]["text"])
    if layout.get("title"):
        out.append(layout["title"]["text"])
    out += [note["text"] for note in layout.get("annotations", [])]
    for trace in fig["data"]:
        out += [trace["name"]] if "name" in trace else []
        if trace.get("colorbar", {}).get("title"):
            out.append(trace["colorbar"]["title"]["text"])
        template = trace.get("hovertemplate", "").removesuffix("<extra></extra>")
        if template in ("%{customdata}", "%{text}"):
            values = trace["customdata" if template == "%{customdata}" else "text"]
            out += [v for v in (sum(values, []) if values and isinstance(values[0], list) else values) if v]
        elif template:
            out.append(template)
        elif trace.get("hoverinfo") == "text":
            out += [t for t in trace["text"] if t]
    return out


def _pages(models: list[BoardRecord]) -> list[board_page.BoardPage]:
    pages, _ = board_page.board_pages(models)
    wanted = {"classic", "classic-coin"}  # every chart of a board page, the best play's board with the coin
    return [p for p in pages if p.slug in wanted]


@pytest.mark.parametrize("lang", ["fr", "ar"])
def test_every_word_of_a_chart_comes_from_the_catalogue_and_its_numbers_in_the_locales_signs(
        pseudo: None, bundled_models: list[BoardRecord], lang: str) -> None:
    words = PageWords(Language(lang))
    pages = _pages(bundled_models)
    charts = {f"{p.slug}/{name}": fig for p in pages for name, fig in board_page.chart_figures(p, words).items()}
    charts["overlay"] = figures.overlay_figure([(p.title, p.record.series.length) for p in pages], True, words)
    assert "classic-coin/play" in charts and "classic/add-jump" in charts
    for name, fig in charts.items():
        texts = _texts(fig)
        if name == "overlay":  # its trace names are the boards' titles, not the catalogue's
            texts = [t for t in texts if t not in {p.title for p in pages}]
        assert texts, name
        outside = [t for t in texts if not (t.startswith("⟪") and t.endswith("⟫"))]
        assert not outside, f"{name}: words not from the catalogue: {outside[:3]}"
        assert fig["layout"]["separators"] == words.language.separators, name
    assert Language("fr").separators == ",\u202f"
    diagonal = next(t for t in _texts(charts["classic/diagonal"]) if "P(T" in t)
    assert re.search(r"= 0,\d{5}", diagonal) if lang == "fr" else re.search(r"= 0\.\d{5}", diagonal), diagonal


def test_a_still_follows_the_separators_of_its_figure() -> None:
    assert stills._in_locale("12.5%", ",\u202f") == "12,5%"
    assert stills._in_locale("0.25", ".,") == "0.25"


def _keys_the_scripts_read() -> set[str]:
    """Every message key the page scripts name: the first argument of `say` and `count`, and any literal among
    the keys' prefixes (a key chosen by a condition)."""
    keys: set[str] = set()
    for path in SCRIPTS.glob("*.js"):
        if path.name == "plotly.min.js":
            continue
        text = path.read_text()
        keys |= set(re.findall(r"\b(?:say|count)\(\s*\"([^\"]+)\"", text))
        keys |= {key for key in re.findall(r"\"((?:alive|calc|chart|fraction|edit|design|pace)\.[^\"]+)\"", text)
                 if not key.endswith(".js")}  # loader.js names the scripts
        keys |= set(re.findall(r"T\.messages\[\"([^\"]+)\"\]", text))
    return keys


def test_the_words_table_holds_every_message_the_scripts_say_and_no_other() -> None:
    english = Language()
    table = set(script_words.messages(english)) | set(script_words.plurals(english))
    read = _keys_the_scripts_read()
    assert read - table == set(), "a script reads a message the table lacks"
    assert table - read == set(), "the table holds a message no script reads"
    assert set(script_words.messages(english)).isdisjoint(script_words.plurals(english))


@pytest.mark.parametrize("lang", OTHERS)
def test_the_words_table_of_a_language_is_its_catalogues(pseudo: None, lang: str) -> None:
    text = script_words.words_script(Language(lang))
    data = json.loads(re.fullmatch(r"/\*.*\*/\nwindow\.ChutesWords = (\{.*\});\n", text, re.S).group(1))
    assert data["lang"] == lang and data["number"] == Language(lang).number_format()
    assert all(m.startswith("⟪") and m.endswith("⟫") for m in data["messages"].values())
    categories = {"ar": {"zero", "one", "two", "few", "many", "other"}}.get(lang, {"one", "other"})
    assert all(set(forms) == categories for forms in data["plurals"].values())


CASES = [1234567.891, 0.5, 1000, 12, 100000]


def test_the_scripts_write_numbers_and_plurals_as_babel_does(pseudo: None, browser: Browser) -> None:
    """words.js with each language's table, in a browser, against Babel's formats and plural forms."""
    for lang in ("en", *OTHERS):
        page = browser.new_context().new_page()
        page.set_content(f'<html lang="{lang}"><body></body></html>')
        page.add_script_tag(content=script_words.words_script(Language(lang)))
        page.add_script_tag(path=SCRIPTS / "words.js")
        got = page.evaluate("""cases => ({
            numbers: cases.map(x => chutesWords.number(x, 2)),
            integers: cases.map(x => chutesWords.number(Math.floor(x), 0)),
            percents: cases.map(x => chutesWords.percent(x / 1e6, 1)),
            turns: [1, 2, 3, 11, 100, 101].map(n => chutesWords.count("alive.after", n)),
            say: chutesWords.say("calc.label", {player: 3})})""", CASES)
        page.context.close()
        w = Language(lang)
        two = [w.words.decimal(Decimal(str(x)).quantize(Decimal("0.01"))) for x in CASES]
        assert got["numbers"] == two, lang
        assert got["integers"] == [w.words.count(int(x)) for x in CASES], lang
        assert got["percents"] == [w.words.percentage((Decimal(str(x)) / 10000).quantize(Decimal("0.1")))
                                   for x in CASES], lang
        # (not 0: Babel's gettext rule for Hindi gives it the plural, CLDR's, which Intl follows, the singular)
        assert got["turns"] == [w.ngettext("after %(n)s turn", "after %(n)s turns", n) for n in
                                (1, 2, 3, 11, 100, 101)], lang
        assert got["say"] == w._("Player %(player)s on square", player=3), lang


@pytest.mark.parametrize("name", ["length", "state-map", "alive"])
def test_a_still_drawn_in_hindi_and_arabic_differs_from_the_english_one(
        bundled_models: list[BoardRecord], name: str) -> None:
    page = next(p for p in _pages(bundled_models) if p.slug == "classic")
    english = stills.still(board_page.chart_figures(page)[name])
    for lang, letters in (("hi", range(0x900, 0x980)), ("ar", range(0x600, 0x700))):  # Devanagari, Arabic
        fig = board_page.chart_figures(page, PageWords(Language(lang)))[name]
        assert any(ord(c) in letters for t in _texts(fig) for c in t), f"{lang}: the figure holds no {lang} letter"
        drawn = stills.still(fig, language=lang)
        assert drawn.startswith(b"\x89PNG") and drawn != english, lang


def test_the_default_languages_tree_carries_every_languages_words_and_no_other_tree_does(
        pseudo: None, bundled_models: list[BoardRecord]) -> None:
    from chutes.site_build.tree import render

    two = [m for m in bundled_models if m.slug in ("classic", "classic-coin")]
    default = render.render_pages(two, languages=["en", "fr", "ar"])
    words = sorted(rel for rel in default if rel.startswith("assets/javascripts/words-"))
    assert words == ["assets/javascripts/words-ar.js", "assets/javascripts/words-en.js",
                     "assets/javascripts/words-fr.js"]
    assert default["assets/javascripts/words-fr.js"] == script_words.words_script(Language("fr"))
    french = render.render_pages(two, language=Language("fr"), languages=["en", "fr", "ar"])
    assert not [rel for rel in french if rel.startswith("assets/javascripts/words")]  # words.js too: shared
