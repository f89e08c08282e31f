"""The page scripts' words in one language: the messages the scripts in site_src/assets/javascripts say (the
calculator, the board that comes alive, the charts, the design page, the pace of a game), and the locale's number
symbols, written by the build into one small script per language the site publishes
(`assets/javascripts/words-LANG.js`, `window.ChutesWords`), among the files every language shares. loader.js loads
the one of the page's `lang` before words.js, which gives the scripts `chutesWords.say(key, values)`,
`count(key, n, values)`, `number`, `percent`: no script holds a word of English.

The messages are the site catalogue's (each a literal `_("…")` here, so that Babel extracts it), with named
placeholders (`%(square)s`) that words.js fills in; a plural message is sent as its form for each of the
language's CLDR plural categories, which the script chooses with `Intl.PluralRules` (the same CLDR rules as
Babel's).
"""

from __future__ import annotations

import json

from babel.core import Locale

from .language import Language

SCRIPT = "assets/javascripts/words-{code}.js"
"""Where each language's table goes in the docs tree (the default language's, shared by every language)."""


def script_path(code: str) -> str:
    return SCRIPT.format(code=code)


def messages(language: Language) -> dict[str, str]:
    """Every message a page script says, by its key, in `language`."""
    _, pgettext = language._, language.pgettext
    return {
        "site": _("Chutes and Ladders, exactly"),
        "list separator": pgettext("list separator", ", "),
        "semicolon": pgettext("list separator", "; "),
        "either": _("%(some)s or %(last)s"),
        "sentence": _("%(text)s."),
        "sentence separator": pgettext("sentence separator", ". "),
        "square": _("Square %(square)s"),
        "under": _("under %(percent)s"),
        "over": _("over %(percent)s"),
        # alive.js: the board that comes alive
        "alive.before": _("before the first turn"),
        "alive.over.hover": _("%(share)s of games are over %(when)s"),
        "alive.foot": _("%(square)s (no turn ends here)"),
        "alive.no roll": _("no roll yet"),
        "alive.lands": _("a roll lands here %(times)s times during turn %(turn)s, on average"),
        "alive.chance": _("%(share)s chance the token is here %(when)s"),
        "alive.title": _("%(when)s: %(share)s of games are over"),
        "alive.title.off": _("%(when)s: %(share)s of games are over, %(off)s not yet on the board (square 0)"),
        "alive.caption": _("Where the token is %(when)s (squares with a chance above zero)"),
        "alive.caption.feet": _("Where the token is %(when)s (squares with a chance above zero); on the foot of a "
                                "chute or ladder, the rolls landing there during turn %(turn)s"),
        "alive.square 0": _("0 (not yet on the board)"),
        "alive.over.cell": _("%(share)s of games over"),
        "alive.landings": _("%(times)s landings"),
        "alive.play": _("Play"),
        "alive.pause": _("Pause"),
        # calculator.js
        "calc.not a number": _("Player %(player)s's square is not a number."),
        "calc.blank": _("Player %(player)s's square is blank: enter the square the player is on."),
        "calc.not a square": _("Square %(square)s (player %(player)s) is not a square where a turn can start on "
                               "this board."),
        "calc.label": _("Player %(player)s on square"),
        # charts.js, fraction.js
        "chart.failed": _("The chart could not be drawn (%(error)s); its numbers are in the table below."),
        "chart.download": _("Download this chart as a PNG image"),
        "fraction.failed": _("The fraction could not be loaded here; the download link above has it."),
        # design-edits.js
        "edit.ladder": _("the ladder from %(start)s to %(end)s"),
        "edit.chute": _("the chute from %(start)s to %(end)s"),
        "edit.added": _("Added %(jump)s."),
        "edit.same": _("Nothing moved."),
        "edit.moved": _("Moved: %(before)s is now %(after)s."),
        "edit.removed": _("Removed %(jump)s."),
        "edit.none": _("No chute or ladder starts or ends on square %(square)s."),
        "edit.ladder foot": _("the foot of a ladder to %(end)s"),
        "edit.chute foot": _("the foot of a chute to %(end)s"),
        "edit.ladder end": _("the end of a ladder from %(start)s"),
        "edit.chute end": _("the end of a chute from %(start)s"),
        "edit.off": _("off the board"),
        "edit.finish": _("the finish"),
        # designer.js
        "design.no games": _("no games land here"),
        "design.every game": _("every game lands here"),
        "design.landing": _("%(share)s of games land here at least once"),
        "design.never": _("never"),
        "design.roll": _("a %(roll)s"),
        "design.not a rule": _("%(value)s (not a rule)"),
        "design.not allowed": _("%(value)s (not allowed)"),
        "design.board": _("The board, squares 0 to %(last)s"),
        "design.square is": _("Square %(square)s: %(what)s"),
        "design.square, is": _("Square %(square)s, %(what)s"),
        "design.turns left": _("%(turns)s turns left on average"),
        "design.doomed": _("A game may never end from here"),
        "design.no turn": _("No turn ends here"),
        "design.flip": _("Best play: flip the coin on a roll of %(rolls)s"),
        "design.legend": _("%(turns)s turns left"),
        "design.drag ladder": _("Drag to move this end of the ladder from %(start)s to %(end)s"),
        "design.drag chute": _("Drag to move this end of the chute from %(start)s to %(end)s"),
        "design.enter move": _("Press Enter to move the end of %(jump)s here"),
        "design.enter end": _("Press Enter to end the new chute or ladder from %(square)s here"),
        "design.cancelled": _("Cancelled."),
        "design.moving start key": _("Moving the start of %(jump)s: go to a square with the arrow keys and press "
                                     "Enter."),
        "design.moving end key": _("Moving the end of %(jump)s: go to a square with the arrow keys and press Enter."),
        "design.moving start click": _("Moving the start of %(jump)s: now click the square to move it to."),
        "design.moving end click": _("Moving the end of %(jump)s: now click the square to move it to."),
        "design.new key": _("A new chute or ladder starts on square %(square)s: now choose the square where it ends "
                            "and press Enter."),
        "design.new click": _("A new chute or ladder starts on square %(square)s: now choose the square where it "
                              "ends."),
        "design.ladder": _("Ladder"),
        "design.chute": _("Chute"),
        "design.from field": _("Jump %(jump)s, from square"),
        "design.to field": _("Jump %(jump)s, to square"),
        "design.from": pgettext("jump fields", " from "),
        "design.to": pgettext("jump fields", " to "),
        "design.remove": _("Remove"),
        "design.remove jump": _("Remove jump %(jump)s, %(what)s"),
        "design.more than": _("more than %(turns)s"),
        "design.ends": _("ends on this turn"),
        "design.over": _("over by this turn"),
        "design.ends hover": _("Ends on turn %(turn)s: %(share)s"),
        "design.over hover": _("Over by turn %(turn)s: %(share)s"),
        "design.never helps": _("Flipping never helps on this board: the best play never flips, %(turns)s turns on "
                                "average."),
        "design.off": _("0 (off the board)"),
        "design.example": _("(for example by rolling %(rolls)s)"),
        "design.per thousand": _("(%(count)s in %(thousand)s games)"),
        "design.announce": _("Average game %(turns)s turns; at least half are over within %(median)s turns; the "
                             "first of two players wins %(share)s."),
        "design.no limit": _("no limit"),
        "design.showing": _("Now showing %(title)s."),
        "design.cleared": _("All chutes and ladders removed."),
        "design.both": _("Give both squares of the new chute or ladder."),
    }


def chart_toolbar(language: Language) -> dict[str, str]:
    """plotly.js's own words on a chart (its toolbar's button titles, its note after a zoom), by plotly's English
    key, in `language`: charts.js gives them to plotly as the page's locale (plotly's `locales` setting)."""
    pgettext = language.pgettext
    return {
        "Zoom": pgettext("chart toolbar", "Zoom"),
        "Pan": pgettext("chart toolbar", "Pan"),
        "Zoom in": pgettext("chart toolbar", "Zoom in"),
        "Zoom out": pgettext("chart toolbar", "Zoom out"),
        "Autoscale": pgettext("chart toolbar", "Autoscale"),
        "Reset axes": pgettext("chart toolbar", "Reset axes"),
        "Double-click to zoom back out": pgettext("chart toolbar", "Double-click to zoom back out"),
    }


def plurals(language: Language) -> dict[str, dict[str, str]]:
    """Every plural message a page script says, by its key: its form for each CLDR plural category of the language
    (`one`, `other`; Arabic's `zero` to `other`), `%(n)s` and its other placeholders left for the script."""
    ngettext = language.messages.ngettext
    forms = {
        "alive.after": lambda n: ngettext("after %(n)s turn", "after %(n)s turns", n),
        "calc.chances": lambda n: ngettext("Chances for %(n)s player, the first listed moving next.",
                                     "Chances for %(n)s players, the first listed moving next.", n),
        "pace.minutes": lambda n: ngettext("about %(n)s minute", "about %(n)s minutes", n),
        "pace.seconds": lambda n: ngettext("%(n)s second a turn", "%(n)s seconds a turn", n),
        "design.shortest": lambda n: ngettext("turn", "turns", n),
        "design.best play": lambda n: ngettext(
            "Playing best, a game takes %(turns)s turns on average, against %(never)s never flipping. The best play "
            "flips on %(n)s square for some rolls (outlined in orange on the board; each square's title names its "
            "rolls).",
            "Playing best, a game takes %(turns)s turns on average, against %(never)s never flipping. The best play "
            "flips on %(n)s squares for some rolls (outlined in orange on the board; each square's title names its "
            "rolls).", n),
    }
    return {key: {category: form(n) for category, n in _examples(language.locale).items()}
            for key, form in forms.items()}


def _examples(locale: Locale) -> dict[str, int]:
    """A count of each plural category of the locale (its CLDR rule, as Babel has it), the smallest from 1 up
    (0 last: Babel's gettext rule for Hindi puts 0 with the plural, CLDR with "one"): {"one": 1, "other": 2}."""
    out: dict[str, int] = {}
    for n in [*range(1, 1001), 0]:
        out.setdefault(locale.plural_form(n), n)
    return out


def words_script(language: Language) -> str:
    """The generated script for one language: its messages, plural forms and number symbols as one global."""
    data = {"lang": language.code, "messages": messages(language), "plurals": plurals(language),
            "toolbar": chart_toolbar(language),
            "number": language.number_format()}
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return ("/* Written by `chutes build` from the Python side (site_build/pages/script_words.py): do not edit. */\n"
            f"window.ChutesWords = {text};\n")
