"""The site in every language it publishes (DESIGN.md §9), on the bundled site built in every language of the
repository's mkdocs.yml (`built_site`): every reader page under /LANG/ in its language and direction, and the
guide in English only; the selector leading to the same page; search in the language; no English left on a page
as Chromium shows it, calculator and designer included; the same numbers as the English page, each in the
locale's format; nothing serious for axe on the Arabic and Hindi pages.

What a translated page may show in English comes from the data, never from a list of sentences here: a board's
title and source where its file gives no translation (or gives the English one), the literature's authors and
cited titles (and a where or a figure's words without a translation), the site's name where mkdocs.yml gives no
translation, a catalogue message its translator left as it is ("BibTeX"), and text marked as in another language
(`lang`: the selector's "English"). Code, formulas and numbers are not words."""

from __future__ import annotations

import functools
import json
import re
from collections import Counter
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from babel.messages.pofile import read_po
from babel.numbers import NumberFormatError, get_decimal_symbol, get_group_symbol, parse_decimal
from helpers import LANGUAGES_SITE_GROUP, REPOSITORY, Watched
from playwright.sync_api import Page
from test_browser import ALL_RENDERED

from chutes.compute.record.catalogues import WORDING
from chutes.compute.record.literature import load_literature
from chutes.compute.record.schema import BoardRecord
from chutes.site_build.engine.engine_config import SEARCH_LANGUAGES, languages_setting, read_config, site_words
from chutes.site_build.pages.language import SITE

CONFIG = read_config(REPOSITORY / "mkdocs.yml")
LANGUAGES = languages_setting(CONFIG, REPOSITORY / "mkdocs.yml")
"""The languages of the reference site, its first at the root."""
OTHERS = LANGUAGES[1:]
ISSUE = ["en", "es", "fr", "de", "hi", "ar"]
"""The languages the site is to be published in: English, Spanish, French, German, Hindi and Arabic."""
READER_PAGES = ["", "boards/classic/", "boards/classic-coin/", "boards/classic-family-coin/", "boards/uk/",
                "compare/", "house-rules/", "design/", "literature/", "method/", "data/"]
"""The pages read in Chromium in every language: one of each kind, and the boards with a coin, a family rule
and snakes."""

pytestmark = pytest.mark.xdist_group(LANGUAGES_SITE_GROUP)  # on one worker, the other's built-site tests on the other


def test_the_reference_site_is_published_in_the_six_languages() -> None:
    assert LANGUAGES == ISSUE, "plugins → chutes → languages in mkdocs.yml"


# --- the pages as built ------------------------------------------------------------------------------------------

class Document(HTMLParser):
    """What a built page says about its language: <html lang>, <body dir>, the <link rel=alternate hreflang>
    and the language selector's links (hreflang, href)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.lang = self.html_dir = self.body_dir = None
        self.alternates: list[tuple[str, str]] = []
        self.selector: list[tuple[str, str]] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "html":
            self.lang, self.html_dir = a.get("lang"), a.get("dir")
        elif tag == "body":
            self.body_dir = a.get("dir")
        elif tag == "link" and a.get("rel") == "alternate" and a.get("hreflang"):
            self.alternates.append((a["hreflang"] or "", a.get("href") or ""))
        elif tag == "a" and "md-select__link" in (a.get("class") or "").split():
            self.selector.append((a.get("hreflang") or "", a.get("href") or ""))


def _folder(lang: str) -> str:
    return "" if lang == LANGUAGES[0] else f"{lang}/"


def _pages(site: Path, lang: str) -> set[str]:
    """The pages of one language's site, by their address below its folder ("", "boards/classic/")."""
    root = site / _folder(lang)
    found = set()
    for path in root.rglob("index.html"):
        rel = path.parent.relative_to(root).as_posix()
        if lang == LANGUAGES[0] and rel.split("/")[0] in OTHERS:
            continue  # another language's
        found.add("" if rel == "." else rel + "/")
    return found


def _file(site: Path, address: str) -> Path:
    """The file an address of the site serves (its path only: the site may be served elsewhere)."""
    path = urlsplit(address).path.lstrip("/")
    return site / path / "index.html" if path == "" or path.endswith("/") else site / path


def _english_reader_pages(site: Path) -> set[str]:
    return {rel for rel in _pages(site, LANGUAGES[0]) if not rel.startswith("guide/")}


@pytest.mark.parametrize("lang", OTHERS)
def test_every_reader_page_is_in_every_language_and_the_guide_in_english_only(built_site: Path, lang: str) -> None:
    english = _pages(built_site, LANGUAGES[0])
    reader = _english_reader_pages(built_site)
    assert set(READER_PAGES) <= reader and {rel for rel in english if rel.startswith("guide/")}, "the English site"
    assert _pages(built_site, lang) == reader, "every reader page, and no guide"
    assert (built_site / lang / "404.html").is_file()
    direction = "rtl" if lang == "ar" else "ltr"
    for rel in sorted(reader):
        page = Document((built_site / lang / rel / "index.html").read_text())
        # Material writes the language on <html> and the direction (its language's, theme.language) on <body>
        assert (page.lang, page.body_dir, page.html_dir) == (lang, direction, None), rel


def test_the_english_pages_say_they_are_english(built_site: Path) -> None:
    for rel in sorted(_pages(built_site, "en")):
        page = Document((built_site / rel / "index.html").read_text())
        assert (page.lang, page.body_dir) == ("en", "ltr"), rel


@pytest.mark.parametrize("lang", LANGUAGES if OTHERS else [])  # a site in one language has no selector
def test_the_selector_leads_to_the_same_page_in_every_language(built_site: Path, lang: str) -> None:
    """Each entry of the selector on every page leads to the same page in its language (the guide, in English
    only, to the language's home page), and the page names every language in a <link rel=alternate hreflang>
    to that language's site."""
    reader = _english_reader_pages(built_site)
    for rel in sorted(_pages(built_site, lang)):
        address = "/" + _folder(lang) + rel
        page = Document((built_site / _folder(lang) / rel / "index.html").read_text())
        assert sorted(code for code, _ in page.selector) == sorted(LANGUAGES), rel
        for other, href in page.selector:
            target = urlsplit(urljoin(address, href)).path
            same = rel in reader or other == lang
            assert target == "/" + _folder(other) + (rel if same else ""), (rel, other, href)
            assert _file(built_site, target).is_file(), target
        assert sorted(code for code, _ in page.alternates) == sorted(LANGUAGES), rel
        for other, href in page.alternates:
            target = urlsplit(urljoin(address, href)).path
            assert target.startswith("/" + _folder(other)) and _file(built_site, target).is_file(), (rel, href)


@pytest.mark.parametrize("lang", OTHERS)
def test_the_search_index_is_in_the_language(built_site: Path, lang: str) -> None:
    """Each language's search index is its own pages' and is built with lunr's pipeline for the language
    wherever lunr has one (Material ships lunr.LANG.min.js), but where the site chooses otherwise (`SEARCH_LANGUAGES`:
    Hindi's words are split at spaces, which needs none of the segmenter lunr's Hindi pipeline loads)."""
    index = _search_index(built_site, lang)
    lunr = {p.name.split(".")[1] for p in (built_site / lang / "assets" / "javascripts" / "lunr" / "min").glob("*")}
    assert lang in lunr, "lunr has a pipeline for every language of the site"
    searched = SEARCH_LANGUAGES.get(lang, lang)  # Hindi: split at spaces, without lunr's 0.68 MB segmenter
    assert searched in index["config"]["lang"], index["config"]
    english = {page for page in _indexed(_search_index(built_site, "en")) if not page.startswith("guide/")}
    assert english and _indexed(index) == english, "the pages the English index has, the guide aside"


def _search_index(site: Path, lang: str) -> dict:
    return json.loads((site / _folder(lang) / "search" / "search_index.json").read_text())


def _indexed(index: dict) -> set[str]:
    """The pages a search index holds."""
    return {doc["location"].partition("#")[0] for doc in index["docs"]}


# --- in Chromium ----------------------------------------------------------------------------------------------

SEARCHED = {"en": "ladder", "es": "escalera", "fr": "échelle", "de": "Leiter", "hi": "सीढ़ी", "ar": "المزلقة"}
"""A word of each language as its method page writes it: "ladder", and in Arabic "the chute" (the page writes
ladders only with a conjunction before them, والسلالم, which lunr's Arabic stemmer keeps)."""


def _clean(watched: Watched) -> None:
    assert (watched.errors, watched.outside) == ([], [])


def _open(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_load_state("networkidle")


@pytest.mark.browser
@pytest.mark.parametrize("lang", OTHERS)
def test_the_selector_takes_a_reader_to_the_same_board_in_the_language(server: str, watched: Watched,
                                                                       lang: str) -> None:
    page = watched.page
    _open(page, server + "/boards/classic/")
    page.locator(".md-header .md-select").hover()
    page.locator(f".md-select__link[hreflang='{lang}']").click()
    page.wait_for_url(f"{server}/{lang}/boards/classic/")
    page.wait_for_load_state("networkidle")
    assert page.evaluate("document.documentElement.lang") == lang
    direction = page.evaluate("getComputedStyle(document.querySelector('.md-content')).direction")
    assert direction == ("rtl" if lang == "ar" else "ltr")
    page.locator(".md-header .md-select").hover()
    page.locator(".md-select__link[hreflang='en']").click()
    page.wait_for_url(f"{server}/boards/classic/")
    _clean(watched)


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGUAGES)
def test_search_finds_a_word_of_the_language_on_its_own_pages(server: str, built_site: Path, watched: Watched,
                                                              lang: str) -> None:
    word = SEARCHED[lang]
    method = (built_site / _folder(lang) / "method" / "index.html").read_text()
    assert word in method, f"the method page in {lang} says {word!r}"
    page = watched.page
    _open(page, f"{server}/{_folder(lang)}")
    search = page.locator("input.md-search__input")
    search.fill(word)
    search.press("End")  # Material searches as keys come up
    results = page.locator(".md-search-result__item")
    results.first.wait_for(timeout=20_000)
    links = page.eval_on_selector_all(".md-search-result__link", "els => els.map(e => e.href)")
    paths = [urlsplit(link).path for link in links]
    assert paths and all(path.startswith("/" + _folder(lang)) for path in paths), paths
    assert not [path for path in paths for other in OTHERS if other != lang and path.startswith(f"/{other}/")]
    if lang != LANGUAGES[0]:
        assert not [path for path in paths if "/guide/" in path]
    _clean(watched)


READY = """() => {
  const calc = document.querySelector('#calculator .calc-count');  // not a heading of that name
  const design = document.querySelector('#designer .design-settings');
  return Boolean((!calc || document.querySelector('#calculator .calc-chance')) &&
                 (!design || (document.querySelector('.design-announce')?.textContent || '').trim() !== ''));
}"""
"""The page scripts have set up what they show: the calculator's chances and the designer's results."""

TEXTS = """(withAttributes) => {
  const skip = 'script, style, template, noscript, code, pre, math, .md-search-result, [hidden][data-search-exclude]';
  const page = document.documentElement.lang;
  const own = el => !el.closest(skip) && (el.closest('[lang]')?.getAttribute('lang') || page) === page;
  const out = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node; (node = walker.nextNode());) {
    // ASCII white space only: a script's \\s is also the no-break spaces that group a number's digits
    const text = node.textContent.replace(/[ \\t\\n\\r\\f]+/g, ' ').trim();
    if (text && node.parentElement && own(node.parentElement)) out.push(text);
  }
  if (withAttributes) {
    const names = ['aria-label', 'title', 'alt', 'placeholder', 'data-title'];
    for (const el of document.body.querySelectorAll(names.map(n => `[${n}]`).join(', '))) {
      if (!own(el)) continue;
      for (const name of names) {
        const text = (el.getAttribute(name) || '').replace(/[ \\t\\n\\r\\f]+/g, ' ').trim();
        if (text) out.push(text);
      }
    }
  }
  return out;
}"""
"""Every piece of text a reader of the page meets, in the page's language: each text node of the body (hidden tabs
and closed boxes too), the title, and the words of tooltips and labels (with `withAttributes`), but not code,
formulas, search results, the data a page's scripts read (a chart's figure, the chances the board's squares
show: what is drawn from them is read), or what is marked as in another language."""


TICKS = """() => [...document.querySelectorAll('.xtick > text, .ytick > text')]
  .map(el => el.textContent.replace(/[ \\t\\n\\r\\f]+/g, ' ').trim()).filter(Boolean)"""
"""The charts' tick labels: which ticks an axis shows depends on its length, and so on the words around it."""

_READ: dict[str, tuple[list[str], list[str], list[str]]] = {}
"""Each page's text as `_shown` read it, with the attributes' words and without, and its charts' ticks, by
address: the pages are the same for every test of the module (the words' and the numbers' tests read the same)."""


def _shown(page: Page, url: str, with_attributes: bool = True) -> list[str]:
    """The page's text as a reader meets it, its charts drawn and its scripts set up (the calculator asked for the
    chances of two players), read the first time a test asks for it."""
    if url not in _READ:
        page.goto(url)
        page.wait_for_function(ALL_RENDERED, timeout=30_000)
        calculator = page.locator("#calculator .calc-count")
        if calculator.count():
            calculator.select_option("2")
            page.locator("#calculator input.calc-square").last.fill("0")
        page.wait_for_function(READY, timeout=30_000)
        _READ[url] = (page.evaluate(TEXTS, True), page.evaluate(TEXTS, False), page.evaluate(TICKS))
    return _READ[url][0 if with_attributes else 1]


def _text_and_ticks(page: Page, url: str) -> tuple[list[str], list[str]]:
    """The page's text without its attributes' words or its charts' tick labels, and those labels."""
    text = _shown(page, url, with_attributes=False)
    ticks = _READ[url][2]
    return list((Counter(text) - Counter(ticks)).elements()), ticks


WORD = re.compile(r"[^\W\d_]{2,}")
NOT_WORDS = re.compile(r"https?://\S+|\b[\w.-]+\.(?:json|csv|txt|png|svg|toml|md|html|bib|zip)\b|\b[A-Z]{2,}\b")
"""What a piece of text may hold that is not in a language: addresses, file names, acronyms (CSV, JSON)."""


def _worded(text: str) -> bool:
    """Whether a piece of text has words in it (not only numbers, symbols, formulas, addresses or file names)."""
    return bool(WORD.search(NOT_WORDS.sub(" ", text)))


EMPHASIS = re.compile(r"\*\*(.+?)\*\*")
"""A message's words in bold, which a page shows as a piece of text of their own ("**no**", "**Text.** The ...")."""


def _left_as_they_are(lang: str) -> set[str]:
    """The messages of the site's and the wording's catalogues that this language's translator left as they are,
    and the words in bold that a translation keeps as the English has them (German "**Text.**")."""
    same: set[str] = set()
    for folder in (SITE, WORDING):
        path = folder.catalogue(lang)
        if not path.is_file():
            continue
        with path.open("rb") as f:
            for message in read_po(f):
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                forms = message.string if isinstance(message.string, tuple) else (message.string,)
                same |= {form.strip() for form in forms if form and form in ids}
                bold = {piece for text in ids for piece in EMPHASIS.findall(text)}
                same |= {piece for form in forms if form for piece in EMPHASIS.findall(form) if piece in bold}
    return same


def _theme_words(lang: str) -> dict[str, str]:
    """Material's own words in a language (its partials/languages/LANG.html): the skip link, "Navigation"..."""
    import material

    text = (Path(material.__file__).parent / "templates" / "partials" / "languages" / f"{lang}.html").read_text()
    return dict(re.findall(r'^\s*"([\w.]+)": "(.*)",?$', text, re.M))


def _theme_words_as_in_english(lang: str) -> set[str]:
    """Material's words that are the same in the language as in English (French "Navigation")."""
    english = _theme_words("en")
    return {word for key, word in _theme_words(lang).items() if english.get(key) == word}


def _board_keywords() -> set[str]:
    """The words of the board format a page may quote as a board file writes them (overshoot = "bounce")."""
    from typing import Literal, get_args, get_origin

    from chutes.compute.record.schema import BoardDefinition

    found: set[str] = set()
    for field in BoardDefinition.model_fields.values():
        for kind in (field.annotation, *get_args(field.annotation)):
            if get_origin(kind) is Literal:
                found |= {value for value in get_args(kind) if isinstance(value, str)}
    return found


def allowed_in_english(lang: str, records: list[BoardRecord]) -> set[str]:
    """What a page in `lang` may show as the English page shows it (the module's docstring): from the board records,
    the literature file, mkdocs.yml and the catalogues."""
    allowed = _left_as_they_are(lang)
    for record in records:
        board = record.results.board
        words = (board.translations or {}).get(lang)
        allowed |= {board.title} if words is None or words.title in (None, board.title) else set()
        allowed |= {board.source} if words is None or words.source in (None, board.source) else set()
    literature = load_literature(REPOSITORY / "site_src" / "literature.toml")
    for source in literature.sources.values():
        allowed |= {source.author, source.title}
        allowed.add(source.where_in(lang) or "")  # its translator's word may be the English one ("blog" in French)
    for figure in literature.figures:
        allowed.add(figure.published)
        if lang not in figure.translations:
            allowed |= {figure.rule, figure.quantity, figure.why}
    allowed |= _theme_words_as_in_english(lang) | _board_keywords()
    own = site_words(CONFIG, REPOSITORY / "mkdocs.yml", lang)
    allowed |= {CONFIG[key] for key in ("site_name", "site_description") if key not in own}
    return {text.strip() for text in allowed if text}


def english_left(translated: list[str], english: list[str], allowed: set[str]) -> list[str]:
    """The pieces of a translated page that are the English page's own and still have words in them once every
    allowed text they hold is taken out ("Althoen, King and Schilling (1993)" has none left)."""
    theirs = set(english)
    longest = sorted((a for a in allowed if "%(" not in a), key=len, reverse=True)
    patterns = [re.compile(".+".join(map(re.escape, re.split(r"%\(\w+\)s", a.replace("%%", "%")))))
                for a in allowed if "%(" in a]  # a message with its placeholders filled in, the whole piece

    def left(text: str) -> str:
        for known in longest:
            text = text.replace(known, " ")
        return "" if any(pattern.fullmatch(text.strip()) for pattern in patterns) else text

    return sorted({text for text in translated if text in theirs and _worded(left(text))})


@pytest.fixture(scope="module")
def english_texts(server: str, browser) -> Iterator[dict[str, list[str]]]:
    """The English pages' text, read once for every language."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    yield {rel: _shown(page, f"{server}/{rel}") for rel in READER_PAGES}
    context.close()


@pytest.mark.browser
@pytest.mark.parametrize("lang", OTHERS)
def test_no_english_is_left_on_a_page_as_chromium_shows_it(server: str, watched: Watched, lang: str,
                                                          english_texts: dict[str, list[str]],
                                                          bundled_models: list[BoardRecord]) -> None:
    allowed = allowed_in_english(lang, bundled_models)
    left = {}
    for rel in READER_PAGES:
        found = english_left(_shown(watched.page, f"{server}/{lang}/{rel}"), english_texts[rel], allowed)
        if found:
            left[f"/{lang}/{rel}"] = found
    assert left == {}, "English left on the pages:\n" + "\n".join(
        f"{url}: {len(found)}: " + " | ".join(found) for url, found in left.items())
    _clean(watched)


def test_english_left_is_found_whole_and_what_is_allowed_is_not() -> None:
    english = ["Average game", "39.6 turns", "Chutes and Ladders (Milton Bradley, 1943)", "p = 1/2", "CSV",
               "classic.json", "English"]
    translated = ["Partie moyenne", "39,6 tours", "Chutes and Ladders (Milton Bradley, 1943)", "p = 1/2", "CSV",
                  "classic.json", "Average game", "turns"]
    assert english_left(translated, english, {"Chutes and Ladders (Milton Bradley, 1943)"}) == ["Average game"]
    assert english_left(translated, [*english, "turns"], set()) == \
        ["Average game", "Chutes and Ladders (Milton Bradley, 1943)", "turns"]
    assert english_left(["Median: 33 turns", "Median"], ["Median: 33 turns", "Median"], {"Median: %(turns)s"}) == \
        ["Median"], "a message its translator left as it is, filled in"


# --- the numbers ----------------------------------------------------------------------------------------------

VERSION = re.compile(r"\b(?!\d{1,3}(?:\.\d{3})+(?![\d.]))\d+\.\d+\.\d+\S*")
"""A version (0.9.1): three numbers, not one; but not a number grouped by dots (German 2.000.000)."""
MARKS = re.compile("[\u200e\u200f\u061c\u2066-\u2069]")
"""Direction marks and isolates (Babel's Arabic percent is ‎50.8‎%‎)."""


def numbers(pieces: list[str], lang: str) -> Counter[str]:
    """Every number in the pieces of text, read as the locale writes numbers (its decimal sign and grouping, with
    Babel), each as its digits (1.50 is not 1.5): percent signs and signs aside, a version as its three numbers."""
    point, group = get_decimal_symbol(lang), get_group_symbol(lang)
    groups = {group, "\u00a0", "\u202f"} if group in ("\u00a0", "\u202f") else {group}
    token = re.compile(rf"\d(?:[\d{''.join(map(re.escape, groups))}]*\d)?(?:{re.escape(point)}\d+)?")
    found: Counter[str] = Counter()
    for piece in pieces:
        text = MARKS.sub("", piece)
        text = VERSION.sub(lambda m: " ".join(re.findall(r"\d+", m.group())), text)
        for number in token.findall(text):
            found[_read(number, lang)] += 1
    return found


@functools.cache
def _read(number: str, lang: str) -> str:
    """A number the locale's way (a page repeats many: each read once), its grouping spaces as the locale's own."""
    return str(parse_decimal(_own_spaces(number, lang), locale=lang))


def _own_spaces(text: str, lang: str) -> str:
    """The text with either no-break space as the locale's grouping space, where it groups with one (French)."""
    group = get_group_symbol(lang)
    return text.replace("\u00a0", group).replace("\u202f", group) if group in ("\u00a0", "\u202f") else text


def is_number(text: str, lang: str) -> bool:
    """Whether a text (a chart's tick) is one number as the locale writes it, with a sign or a percent sign (the
    locale's or the chart's own): only its digits, decimal sign and group sign, grouped as Babel reads it."""
    if re.fullmatch("10\u200b\u2212?\\d+\u200b", text):  # a log axis's power of ten, its exponent raised
        return True
    point, group = get_decimal_symbol(lang), get_group_symbol(lang)
    bare = _own_spaces(re.sub(r"^[-\u2212+]|\s?%$", "", MARKS.sub("", text).strip()), lang)
    if not bare or set(bare) - set("0123456789" + point + group):
        return False
    try:
        parse_decimal(bare, locale=lang, strict=True)
    except NumberFormatError:
        return False
    return True


def test_numbers_are_read_as_the_locale_writes_them() -> None:
    assert numbers(["1,234.50 and 50.8% of 4,453 (version 0.9.1)"], "en") == \
        Counter({"1234.50": 1, "50.8": 1, "4453": 1, "0": 1, "9": 1, "1": 1})
    assert numbers(["1\u202f234,50 et 50,8\u00a0% de 4\u202f453 (version 0.9.1)"], "fr") == \
        numbers(["1,234.50 and 50.8% of 4,453 (version 0.9.1)"], "en")
    assert numbers(["10,00,000 और 0.5"], "hi") == Counter({"1000000": 1, "0.5": 1})
    assert numbers(["\u200e50.8\u200e%\u200e"], "ar") == Counter({"50.8": 1})
    assert numbers(["1.234,5"], "de") == Counter({"1234.5": 1}) != numbers(["1,234.5"], "de")
    assert numbers(["2.000.000 partidas, versión 0.9.1"], "es") == Counter({"2000000": 1, "0": 1, "9": 1, "1": 1})


def test_a_tick_is_a_number_as_the_locale_writes_it() -> None:
    assert [tick for tick in ["0,85", "1\u202f000", "20\u00a0%", "\u221240", "0.85"] if not is_number(tick, "fr")] == \
        ["0.85"]
    assert not is_number("0.85", "de") and is_number("1.000", "de") and is_number("\u200e50\u200e%\u200e", "ar")
    assert not is_number("1,5", "en") and not is_number("0,85 turns", "fr")
    assert is_number("10\u200b\u221221\u200b", "de") and not is_number("10\u200b\u22122,1\u200b", "de")


@pytest.mark.browser
@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("rel", ["", "boards/classic/", "boards/classic-coin/", "compare/"])
def test_the_numbers_of_a_page_are_the_english_pages_in_the_locales_format(server: str, watched: Watched,
                                                                          lang: str, rel: str) -> None:
    """The multiset of numbers a reader sees (the calculator's chances included) is the English page's, each
    written as the locale writes it: read with Babel for the locale, they are the same digits. (The pages write
    no number in words that another language writes in digits: "twice", "two dice" are words in every
    language.) The charts' ticks are apart: which ones an axis shows depends on its length, so each is only
    checked to be a number as the locale writes it."""
    page = watched.page
    english_pieces, english_ticks = _text_and_ticks(page, f"{server}/{rel}")
    pieces, ticks = _text_and_ticks(page, f"{server}/{lang}/{rel}")
    english, translated = numbers(english_pieces, "en"), numbers(pieces, lang)
    assert len(english) > 20
    assert bool(english_ticks) == bool(ticks)
    assert [tick for tick in english_ticks if not is_number(tick, "en")] == []
    assert [tick for tick in ticks if not is_number(tick, lang)] == []
    missing, extra = english - translated, translated - english
    where = sorted({piece for piece in pieces if set(numbers([piece], lang)) & set(extra)})
    assert (dict(missing), dict(extra)) == ({}, {}), \
        "numbers the translated page lacks, and has more, in:\n" + "\n".join(where[:40])
    _clean(watched)


# --- accessibility ----------------------------------------------------------------------------------------------

@pytest.mark.browser
@pytest.mark.parametrize("lang", [lang for lang in ("ar", "hi") if lang in OTHERS])
@pytest.mark.parametrize("rel", ["", "boards/classic/", "design/"])
def test_no_serious_accessibility_violations_right_to_left_and_in_devanagari(server: str, watched: Watched,
                                                                            lang: str, rel: str) -> None:
    from axe_playwright_python.sync_playwright import Axe

    page = watched.page
    page.goto(f"{server}/{lang}/{rel}")
    page.wait_for_function(ALL_RENDERED, timeout=30_000)
    page.wait_for_function(READY, timeout=30_000)
    results = Axe().run(page)
    serious = [f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
               for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    assert serious == []
    _clean(watched)
