"""The wording's message catalogues (compute/record/catalogues): complete, up to date with the source, every
translation's placeholders the English message's, plural forms by each language's rule; a bad catalogue is
refused in one line naming the file and the message."""

from __future__ import annotations

import gettext
import shutil

import pytest
from babel import Locale
from babel.messages.extract import extract_from_file
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po

from chutes.compute.record import catalogues
from chutes.compute.record.catalogues import (
    TEMPLATE,
    LanguageError,
    catalogue,
    languages,
    placeholders,
    problems,
    translations,
)
from chutes.site_build.pages.language import SITE

TRANSLATED = languages()[1:]
SITE_TRANSLATED = SITE.languages()[1:]
KEYWORDS = {"_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}


def _read(path):
    with path.open("rb") as f:
        return read_po(f)


def test_the_languages_are_english_and_five_catalogues() -> None:
    assert languages() == ("en", "ar", "de", "es", "fr", "hi")


def test_the_template_holds_every_message_of_the_source() -> None:
    """words.pot is what `pybabel extract` finds in compute/record/words.py now: no message missing or stale."""
    source = catalogues.FOLDER.parent / "words.py"
    found = {(context, message) for _, message, _, context in extract_from_file("python", source, KEYWORDS)}
    template = {(m.context, m.id) for m in _read(TEMPLATE) if m.id}
    assert found == template, "run the extract command of the guide's Languages section"


EVERY = [pytest.param(catalogues.WORDING, lang, id=f"words-{lang}") for lang in TRANSLATED] + \
        [pytest.param(SITE, lang, id=f"site-{lang}") for lang in SITE_TRANSLATED]
"""Each catalogue of both folders: the wording's and the site's."""


@pytest.mark.parametrize(("folder", "lang"), EVERY)
def test_every_catalogue_is_complete_with_the_english_placeholders(folder: catalogues.Catalogues, lang: str) -> None:
    assert folder.problems(folder.catalogue(lang)) == []
    messages = _read(folder.catalogue(lang))
    assert not messages.fuzzy and all(not m.fuzzy for m in messages)
    template = {(m.context, m.id) for m in _read(folder.template) if m.id}
    assert {(m.context, m.id) for m in messages if m.id} == template


@pytest.mark.parametrize(("folder", "lang"), EVERY)
def test_plural_forms_follow_the_language_rule(folder: catalogues.Catalogues, lang: str) -> None:
    """The Plural-Forms header is Babel's for the language, and each of its forms is one CLDR plural category for
    every count from 1 (gettext's Hindi rule, Babel's, counts 0 as plural where CLDR says singular)."""
    messages = _read(folder.catalogue(lang))
    assert messages.plural_forms == get_plural(lang).plural_forms
    rule, cldr = gettext.c2py(messages.plural_expr), Locale.parse(lang).plural_form
    categories: dict[int, set[str]] = {}
    for n in range(1, 10_000):
        categories.setdefault(rule(n), set()).add(cldr(n))
    assert all(len(c) == 1 for c in categories.values()), categories
    if lang == "ar":  # six forms: "zero" is the count 0 alone
        assert (rule(0), cldr(0), len(categories)) == (0, "zero", 5)
    else:
        assert len(categories) == messages.num_plurals
    plural = [m for m in messages if isinstance(m.id, tuple)]
    assert all(len(m.string) == messages.num_plurals for m in plural), "every plural message has every form"


def test_the_site_is_translated_into_every_language_of_the_wording() -> None:
    """The site's catalogues are the wording's languages': a page in a language says its sentences in it too."""
    assert SITE.languages() == languages()


def test_the_site_template_holds_every_message_of_the_templates_and_the_page_code() -> None:
    """site.pot is what Babel's extraction (the site's babel.cfg, as scripts/catalogues.py runs it) finds in the
    templates and the page code now: no message missing or stale."""
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    with (SITE.folder / "babel.cfg").open() as f:
        methods, options = parse_mapping_cfg(f)
    root = SITE.folder.resolve().parents[2]  # the repository (the package links its folders)
    found = {(context, message) for _, _, message, _, context in extract_from_dir(root, methods, options)}
    template = {(m.context, m.id) for m in _read(SITE.template) if m.id}
    assert found == template, "run python scripts/catalogues.py"


def _broken(tmp_path, lang: str, change) -> object:
    """A copy of a language's catalogue with one message changed by `change(message)`."""
    path = tmp_path / f"{lang}.po"
    shutil.copy(catalogue(lang), path)
    messages = _read(path)
    for message in messages:
        if message.id and change(message):
            break
    with path.open("wb") as f:
        write_po(f, messages)
    return path


def test_a_translation_that_drops_a_number_is_refused_naming_file_and_message(tmp_path) -> None:
    def drop(message) -> bool:
        if message.id == "Players start on square %(start)s.":
            message.string = "Les joueurs partent de la case départ."
            return True
        return False

    path = _broken(tmp_path, "fr", drop)
    assert problems(path) == [f"{path}: message 'Players start on square %(start)s.': the translation's "
                              "placeholders [] differ from the English ['start']"]


def test_a_swapped_placeholder_and_a_stray_percent_are_refused(tmp_path) -> None:
    def swap(message) -> bool:
        if message.id == "A roll that would go past square %(last)s bounces back from it.":
            message.string = "Un lancer au-delà de la case %(start)s rebondit à 100 %."
            return True
        return False

    path = _broken(tmp_path, "fr", swap)
    [line] = problems(path)
    assert line.startswith(f"{path}: message 'A roll that would go past square %(last)s bounces back from it.'")
    assert line.endswith("placeholders ['?', 'start'] differ from the English ['last']")


def test_a_plural_form_is_checked_too(tmp_path) -> None:
    def one_form(message) -> bool:
        if isinstance(message.id, tuple) and message.id[0] == "%(count)s turn":
            message.string = (*message.string[:3], "أدوار", *message.string[4:])
            return True
        return False

    path = _broken(tmp_path, "ar", one_form)
    assert problems(path) == [f"{path}: message '%(count)s turn': the translation's placeholders [] differ from "
                              "the English ['count']"]


def test_a_fuzzy_or_missing_message_is_refused(tmp_path) -> None:
    def fuzzy(message) -> bool:
        if message.id == "exact":
            message.flags.add("fuzzy")
            return True
        return False

    path = _broken(tmp_path, "de", fuzzy)
    assert problems(path) == [f"{path}: message 'exact' is fuzzy"]
    messages = _read(path)
    messages.delete("exact")
    with path.open("wb") as f:
        write_po(f, messages)
    assert problems(path) == [f"{path}: message 'exact' is missing (run pybabel update)"]


def test_a_bad_catalogue_is_refused_before_use(tmp_path) -> None:
    def drop(message) -> bool:
        if message.id == "under %(percent)s":
            message.string = "moins de 1 %%"
            return True
        return False

    path = _broken(tmp_path, "fr", drop)
    shutil.copy(TEMPLATE, tmp_path / TEMPLATE.name)
    folder = catalogues.Catalogues(tmp_path, TEMPLATE.name)
    with pytest.raises(LanguageError) as error:
        folder.translations("fr")
    assert str(error.value) == (f"{path}: message 'under %(percent)s': the translation's placeholders [] "
                                "differ from the English ['percent']")
    with pytest.raises(LanguageError, match=r"^no catalogue for the language 'hi': the languages are en, fr$"):
        folder.translations("hi")


def test_english_reads_no_catalogue() -> None:
    assert type(translations("en")) is gettext.NullTranslations


def test_placeholders_are_named_strings() -> None:
    assert placeholders("%(a)s and %(b)s, 100%%") == ["a", "b"]
    assert placeholders("%(a)d or %s") == ["?", "?"]


def test_the_guide_commands_update_the_catalogues_without_losing_a_translation(tmp_path) -> None:
    """The extract and update commands of the guide's "The sentences in other languages", run on a copy of the
    catalogues: the template keeps its messages and every catalogue stays complete, with the same translations."""
    import re
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).parent.parent
    page = (root / "guide" / "customising.md.j2").read_text()
    [commands] = re.findall(r"^```sh\n(.*?)^```", page.split("## The sentences in other languages")[1], re.M | re.S)
    shutil.copy(root / "babel.cfg", tmp_path)
    shutil.copytree(root / "compute" / "record" / "catalogues", tmp_path / "compute" / "record" / "catalogues")
    shutil.copy(root / "compute" / "record" / "words.py", tmp_path / "compute" / "record")
    bin_path = str(Path(sys.executable).parent)
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", commands], cwd=tmp_path, capture_output=True, text=True,
                          env={"PATH": bin_path + ":/usr/bin:/bin"}, timeout=300)
    assert done.returncode == 0, done.stderr
    copied = tmp_path / "compute" / "record" / "catalogues"
    assert {(m.context, m.id) for m in _read(copied / "words.pot")} == {(m.context, m.id) for m in _read(TEMPLATE)}
    for lang in TRANSLATED:
        after, before = _read(copied / f"{lang}.po"), _read(catalogue(lang))
        assert {(m.context, m.id, m.string, m.fuzzy) for m in after} == \
            {(m.context, m.id, m.string, m.fuzzy) for m in before}, lang
