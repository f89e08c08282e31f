"""What the design page starts from: the boards a reader can begin a design with, and its empty length chart, in the
page's language."""

from __future__ import annotations

from typing import Any

from . import figures
from .board_page import BoardPage
from .records import board_title
from .words import PageWords


def design_length_figure(words: PageWords) -> dict[str, Any]:
    """The design page's length chart before its board is known (designer.js gives it the data), its axes named
    in the page's language (`words`)."""
    _ = words._
    return {
        "data": [],
        "layout": {"template": {}, "height": 420, "autosize": True, "hovermode": "closest", "bargap": 0.1,
                   "margin": {"l": 70, "r": 70, "t": 30, "b": 50},
                   "legend": {"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0},
                   "xaxis": {"title": {"text": _("turns in the game")}, "rangemode": "tozero"},
                   "yaxis": {"title": {"text": _("ends on this turn")}, "tickformat": ".1%", "rangemode": "tozero"},
                   "yaxis2": {"title": {"text": _("over by this turn")}, "tickformat": ".0%", "range": [0, 1],
                              "tickmode": "linear", "tick0": 0, "dtick": 0.25,
                              "overlaying": "y", "side": "right", "showgrid": False}},
        "config": figures.CONFIG,
    }


def design_boards(pages: list[BoardPage], lang: str = "en") -> list[dict[str, Any]]:
    """The boards a reader can start a design from: each listed board's definition from its record, house rules
    included (a house rule a board does not use is null), its title in the language `lang`."""
    fields = {"slug", "title", "squares", "die", "dice", "weights", "overshoot", "enter_on", "roll_again_on",
              "roll_again_limit", "roll_again_penalty", "start", "ladders", "chutes", "choice"}
    return [{**p.record.results.board.model_dump(mode="json", include=fields), "title": board_title(p.record, lang)}
            for p in pages]
