"""The wording's message catalogues: `words.pot`, extracted from `compute.record.words` with Babel, and one gettext
`.po` file per language beside it (`fr.po`), read directly (nothing to compile). English is the source language
and has no catalogue: its sentences are the messages themselves.

A catalogue is refused, in one line naming the file and the message, when a translation's placeholders differ
from the English message's (a number dropped, swapped or added) or when it is incomplete; `problems` lists every
such line, and `translations` checks a catalogue before it is used.
"""

from __future__ import annotations

import functools
import gettext
import io
import re
from pathlib import Path

FOLDER = Path(__file__).parent
SOURCE = "en"
"""The source language: the messages are its sentences."""
PLACEHOLDER = re.compile(r"%\((\w+)\)s|%%")
"""The only `%` forms a message may hold: named string placeholders (`%(turns)s`) and a literal `%%`."""


class LanguageError(ValueError):
    """A language without a catalogue, or a catalogue that cannot be used: one line naming the file or the
    language and what is wrong."""


def placeholders(text: str) -> list[str]:
    """A message's placeholders in order, and "?" for every `%` that is not one (it would break formatting)."""
    found = [m.group(1) for m in PLACEHOLDER.finditer(text) if m.group(1)]
    return found + ["?"] * (text.count("%") - text.count("%%") * 2 - len(found))


class Catalogues:
    """A folder of message catalogues: its template (`NAME.pot`, extracted with Babel) and one `LANG.po` per
    language beside it. The wording here is one such folder; the site's templates and page code have another
    (`site_build.pages.catalogues`), read the same way."""

    def __init__(self, folder: Path, template: str) -> None:
        self.folder = folder
        self.template = folder / template

    def languages(self) -> tuple[str, ...]:
        """English first, then every language with a catalogue here, in alphabetical order of their codes."""
        return (SOURCE, *sorted(p.stem for p in self.folder.glob("*.po")))

    def catalogue(self, lang: str) -> Path:
        """The file of a language's catalogue."""
        return self.folder / f"{lang}.po"

    def problems(self, path: Path) -> list[str]:
        """Each problem of a catalogue, a line naming the file and the message: a translation whose placeholders
        differ from the English message's (as a set: a translation may reorder them), or a `%` that is not a
        placeholder; a message left untranslated or fuzzy; a message missing from or no longer in the template."""
        from babel.messages.pofile import read_po

        def texts(value: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
            """A message's English texts or its translation's forms (one, or one per plural form)."""
            return (value,) if isinstance(value, str) else tuple(value or ())

        with path.open("rb") as f:
            translated = read_po(f)
        with self.template.open("rb") as f:
            wanted = {(m.context, texts(m.id)) for m in read_po(f) if m.id}  # a message is its context and texts
        found = []
        for message in translated:
            ids, forms = texts(message.id), texts(message.string)
            named = f"{path}: message {ids[0]!r}"  # a plural message by its singular
            if not message.id:
                continue
            if (message.context, ids) not in wanted:
                found.append(f"{named} is not in {self.template.name} (run pybabel update)")
                continue
            english = set(placeholders(ids[-1]))
            if message.fuzzy or not all(forms):
                found.append(f"{named} is {'fuzzy' if message.fuzzy else 'not translated'}")
            for form in forms:
                if form and set(placeholders(form)) != english:
                    found.append(f"{named}: the translation's placeholders {sorted(set(placeholders(form)))} "
                                 f"differ from the English {sorted(english)}")
                    break
        missing = wanted - {(m.context, texts(m.id)) for m in translated if m.id}
        found += [f"{path}: message {ids[0]!r} is missing (run pybabel update)"
                  for _, ids in sorted(missing, key=lambda m: (m[0] or "", m[1]))]
        return found

    @functools.cache  # noqa: B019 (a few module-level instances, kept for the process)
    def translations(self, lang: str) -> gettext.NullTranslations:
        """A language's translations, its catalogue read and checked (`problems`); English's are the messages."""
        if lang == SOURCE:
            return gettext.NullTranslations()
        if lang not in self.languages():
            raise LanguageError(f"no catalogue for the language {lang!r}: the languages are "
                                f"{', '.join(self.languages())}")
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        path = self.catalogue(lang)
        found = self.problems(path)
        if found:
            raise LanguageError("; ".join(found))
        with path.open("rb") as f:
            messages = read_po(f, locale=lang)
        compiled = io.BytesIO()
        write_mo(compiled, messages)
        compiled.seek(0)
        return gettext.GNUTranslations(compiled)


WORDING = Catalogues(FOLDER, "words.pot")
"""The wording's catalogues (`compute.record.words`)."""
TEMPLATE = WORDING.template
languages = WORDING.languages
catalogue = WORDING.catalogue
problems = WORDING.problems
translations = WORDING.translations
