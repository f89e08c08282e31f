"""The text of a board's download files (its record as JSON, its exact chances, its CSV tables) and their sizes.

Each is made from the record alone, so the same record gives the same bytes.
"""

from __future__ import annotations

import csv
import io
import json

from ...compute.record.schema import BoardRecord, Exact
from .words import PageWords

DOWNLOADS = {
    "json": ("data/{slug}.json", "The board's whole record, as below (compact JSON)."),
    "fraction": ("data/{slug}-first-player.txt", "The first of two players' exact chance, `numerator/denominator` on "
                 "one line."),
    "three": ("data/{slug}-first-of-three.txt", "The first of three players' exact chance, the same way, where the "
              "record has it (where it does not, `players.first_of_three` says why)."),
    "csv": ("data/{slug}-distribution.csv", "One row per game length: the exact chance that a one-player game ends "
            "on that turn and that it is over by then (as floats), and the shares seen in the simulation."),
    "squares": ("data/{slug}-squares.csv", "One row per square: the expected turns left from it, the turns begun "
                "there, the landings on a jump's foot and the chance of landing there at least once."),
    "share": ("data/{slug}-share.png", "The image a link to the board's page shows when it is shared: its title "
              "and headline numbers."),
}
"""Each board's download files (named by `BoardPage`): where the site publishes them and what they hold."""


def record_json(record: BoardRecord) -> str:
    """The record as published (data/<slug>.json): its JSON form, as stored (compact: the standard library
    writes indented JSON in pure Python, about a second per bundled record)."""
    data = record.json_form()
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"


def fraction_text(p: Exact) -> str:
    """numerator/denominator of an exact chance (the first of two or of three players)."""
    return f"{p.numerator}/{p.denominator}\n"


def distribution_csv(record: BoardRecord) -> str:
    """The game-length distribution (data/<slug>-distribution.csv): one row per turn, exact and simulated."""
    s = record.series.length
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["turns", "probability", "cumulative", "simulated_share", "simulated_cumulative"])
    for row in zip(s.turns, s.probability, s.cumulative, s.simulated, s.simulated_cumulative):
        writer.writerow(row)
    return out.getvalue()


def squares_csv(record: BoardRecord) -> str:
    """One row per square: expected turns left from it and turns begun there per game (blank where no turn
    starts), and for a jump's foot the expected rolls landing there per game (results.jump_usage; the record
    holds no landings for the other squares, so theirs is blank), and the chance of landing there at least once
    (results.landing_chance; blank on square 0, or everywhere on a board too large for it)."""
    s = record.series.squares
    landings = {j.from_: j.per_game.decimal for j in record.results.jump_usage}
    landed = {int(q): x.decimal for q, x in (record.results.landing_chance or {}).items()}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["square", "turns_left", "visits", "landings", "landing_chance"])
    for square, left, visits in zip(s.square, s.turns_left, s.visits):
        writer.writerow([square, "" if left is None else left, "" if visits is None else visits,
                         landings.get(square, ""), landed.get(square, "")])
    return out.getvalue()


def size_text(n: int, words: PageWords | None = None) -> str:
    """A download's size for people, in SI units and the page's language (default English): 980 bytes, 12 kB,
    1.2 MB ('1,2 Mo' in French)."""
    w = words or PageWords()
    if n < 1000:
        return w.ngettext("%(n)s byte", "%(n)s bytes", n)
    if n < 1_000_000:
        return w._("%(size)s kB", size=w.rounded(n / 1000, 0 if n >= 10_000 else 1))
    return w._("%(size)s MB", size=w.rounded(n / 1_000_000, 1))
