"""What the theme's own template (templates/theme/main.html) says, in a page's language: the engine renders it, so
its words reach it through the configuration (`extra.chutes.words`), written for each language's build."""

from __future__ import annotations

from .language import Language


def palette_words(language: Language) -> dict[str, str]:
    """The names of Material's light and dark palette toggles (mkdocs.yml's `theme.palette[].toggle.name`, which
    `theme.language` leaves as written) in `language`, by their English name."""
    _ = language._
    return {"Switch to dark mode": _("Switch to dark mode"), "Switch to light mode": _("Switch to light mode"),
            "Switch to system preference": _("Switch to system preference")}


def permalink_title(language: Language) -> str:
    """The title of a heading's permanent link (the `toc` extension's `permalink_title`) in `language`."""
    return language._("Permanent link")


def theme_words(language: Language) -> dict[str, str]:
    """The theme's words in `language`: a board page's citation block (`citation` has {title}, {site}, {version}
    and {date}, which the theme fills in, the site's name as a cited work; `note` is its BibTeX entry's note, with
    {site}, {version} and {date}) and the site's share image's description (`share_alt`, with {site})."""
    _ = language._
    return {"cite": _("Cite this page"),
            "citation": _("“%(title)s”, in %(site)s, version %(version)s, %(date)s.",
                          title="{title}", site="{site}", version="{version}", date="{date}"),
            "bibtex": _("As a BibTeX entry"),
            "note": _("%(site)s, version %(version)s, built %(date)s", site="{site}", version="{version}",
                      date="{date}"),
            "share_alt": _("%(site)s: a board with its ladders and chutes, and the classic board's average game and "
                           "first player's chance", site="{site}")}
