"""A page's language: the site's messages (its catalogues, for the templates, the page code and the page scripts),
the wording's sentences (`compute.record.words`, the same as `chutes solve --lang` prints), and the locale's
number symbols for the charts and the scripts. English is the source: its messages are the text itself.

The site's catalogues are `catalogues/site.pot`, extracted with Babel from the templates and this package
(babel.cfg), and one `LANG.po` per language beside it, read and checked as the wording's are: a translation whose
placeholders differ from the English message's is refused in one line.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from babel.core import Locale
from babel.numbers import get_decimal_symbol, get_group_symbol, get_minus_sign_symbol, get_plus_sign_symbol

from ...compute.record.catalogues import SOURCE, Catalogues, LanguageError
from ...compute.record.catalogues import languages as wording_languages
from ...compute.record.words import Words

SITE = Catalogues(Path(__file__).parent / "catalogues", "site.pot")
"""The site's message catalogues: the templates', the page code's and the page scripts' messages."""
DEFAULT = SOURCE


def languages() -> tuple[str, ...]:
    """The languages a site can be published in: English, then each with both a site and a wording catalogue."""
    return tuple(code for code in SITE.languages() if code in wording_languages())


class Language:
    """One language of the site: `_`, `ngettext` and `pgettext` for its messages (named placeholders,
    `%(turns)s`), `words` for the sentences and numbers, and what the page needs to say which it is."""

    def __init__(self, code: str = DEFAULT) -> None:
        if code not in languages():
            raise LanguageError(f"no catalogue for the language {code!r}: the languages are {', '.join(languages())}")
        self.code = code
        self.words = Words(code)
        self.messages = SITE.translations(code)

    def __repr__(self) -> str:
        return f"Language({self.code!r})"

    def _(self, message: str, /, **values: object) -> str:
        """A message in this language, its named placeholders filled in."""
        text = self.messages.gettext(message)
        return text % values if values else text

    def ngettext(self, singular: str, plural: str, n: int, /, **values: object) -> str:
        """The form of a message for the count `n`, by the language's plural rule (`n` is also `%(n)s`, in the
        locale's digits)."""
        return self.messages.ngettext(singular, plural, n) % {"n": self.words.count(n), **values}

    def pgettext(self, context: str, message: str, /, **values: object) -> str:
        """A short message whose sense its context gives."""
        text = self.messages.pgettext(context, message)
        return text % values if values else text

    @functools.cached_property
    def locale(self) -> Locale:
        return Locale.parse(self.code)

    @property
    def is_default(self) -> bool:
        return self.code == DEFAULT

    @property
    def direction(self) -> str:
        """"rtl" for a language written right to left (Arabic), else "ltr"."""
        return "rtl" if self.locale.character_order == "right-to-left" else "ltr"

    @property
    def name(self) -> str:
        """The language's name in itself, as its selector shows it: "Français", "हिन्दी"."""
        name = self.locale.get_display_name(self.code) or self.code
        return name[:1].upper() + name[1:]

    @property
    def separators(self) -> str:
        """plotly's `separators`: the locale's decimal sign, then its group sign."""
        return get_decimal_symbol(self.code) + get_group_symbol(self.code)

    def number_format(self) -> dict[str, object]:
        """The locale's number symbols and grouping for the page scripts (site_src/assets/javascripts): `percent`
        is the percent pattern with {} for the number ("{} %" in French)."""
        pattern = self.locale.decimal_formats[None]
        percent = self.locale.percent_formats[None].pattern
        return {"decimal": get_decimal_symbol(self.code), "group": get_group_symbol(self.code),
                "grouping": list(pattern.grouping), "plus": get_plus_sign_symbol(self.code),
                "minus": get_minus_sign_symbol(self.code).replace("-", "\u2212"),
                "percent": re.sub(r"[#,0.]+", "{}", percent, count=1)}
