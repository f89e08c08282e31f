"""Plotly figures built from a board's cached results: the board itself, distributions, heatmaps, bounds.

Figures carry no colours for the page background or text: the page script sets those from the reader's
light or dark palette. Data colours are the Okabe–Ito palette and the cividis scale, both safe for
colour-blind readers.
"""

from __future__ import annotations

import functools
import io
import json
import re
from html import escape
from importlib.resources import files
from math import hypot, isqrt
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageDraw
from plotly.colors import diverging, sequential

from .language import Language
from .lettering import draw_text, length, right_to_left
from .words import MARKDOWN_SPECIALS, PageWords

if TYPE_CHECKING:
    from ...compute.record.schema import (
        AddJumpScan,
        BoardDefinition,
        BoundSeries,
        DiagonalSeries,
        DieRow,
        LaterChoice,
        LengthSeries,
        PositionSeries,
        StartSweep,
        StateMap,
    )

OKABE_ITO = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000")
EXACT, SIMULATED, LADDER, CHUTE = OKABE_ITO[0], OKABE_ITO[1], OKABE_ITO[2], OKABE_ITO[3]
PLAIN = ("#dbe9f4", "#f4ead6")
"""The squares of a board drawn without values, alternating like a printed board's."""
CIVIDIS = [[i / (len(sequential.Cividis) - 1), colour] for i, colour in enumerate(sequential.Cividis)]
"""The cividis scale as Plotly has it ("Cividis"): the board pages' heat maps and the design page's squares."""
PUOR = [[i / (len(diverging.PuOr) - 1), colour] for i, colour in enumerate(diverging.PuOr)]
"""Plotly's purple–orange diverging scale ("PuOr"): the added-jump map, where the sign of a change matters."""
CONFIG = {"responsive": True, "displaylogo": False, "modeBarButtonsToRemove": ["select2d", "lasso2d"],
          # nothing leaves the site: no "share" (cloud) button, and no Chart Studio link (a plotly.js 2.x name,
          # ignored by 3.x and later); plotlyServerURL stays unset
          "showSendToCloud": False, "showEditInChartStudio": False,
          # the page script swaps the camera button for one that draws the chart on white, titled and credited
          "toImageButtonOptions": {"format": "png", "scale": 2}}


Trace = dict[str, Any]
Figure = dict[str, Any]
"""A figure as plotly.js reads it: {"data": [trace, ...], "layout": {...}}. Built as plain data (the build
writes hundreds of them; tests/test_site.py checks that plotly's own figure objects accept each one
unchanged)."""


def _trace(kind: str, **properties: Any) -> Trace:
    return {"type": kind, **properties}


def _figure(traces: list[Trace], layout: dict[str, Any]) -> Figure:
    return {"data": traces, "layout": layout}


def to_json(fig: Figure) -> str:
    """Compact JSON of a figure with the charts' configuration, safe to place as text inside an HTML element."""
    return safe_json({**fig, "config": CONFIG})


JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
INERT = {ord(c): f"\\u{ord(c):04x}" for c in "<>&" + MARKDOWN_SPECIALS if c != "\\"}


def safe_json(obj: Any) -> str:
    """Compact JSON that HTML and Markdown both leave alone, so that it can sit as text inside an element,
    even one that Markdown processes (in a content tab): inside strings, <, >, & and Markdown's punctuation
    are \\u escapes, and so is a backslash itself (Markdown would turn \\\\ into \\)."""
    text = json.dumps(obj, separators=(",", ":"), sort_keys=True, allow_nan=False)
    return JSON_STRING.sub(lambda m: m.group(0).replace("\\\\", "\\u005c").translate(INERT), text)


PLOTLY_TEMPLATE = json.loads((files("plotly") / "package_data" / "templates" / "plotly.json").read_text())
"""Plotly's default look (its "plotly" template) for every chart of the board, comparison and house-rules pages; the
page script then sets the colours of the background, text and grid from the reader's palette."""
TEMPLATE_SCRIPT = "assets/javascripts/plotly-template.js"
"""Where the template goes in the docs tree, once for the whole site: the page script gives it to every figure that
names no template of its own, so that a page does not carry 7 KB of it per chart."""


def template_script() -> str:
    """The script setting `window.chutesPlotlyTemplate` (loaded with plotly.js, only by a page drawing a chart)."""
    return f"window.chutesPlotlyTemplate = {json.dumps(PLOTLY_TEMPLATE, separators=(',', ':'), sort_keys=True)};\n"


@functools.cache
def _english() -> PageWords:
    return PageWords()


def page_words(words: PageWords | Language | None) -> PageWords:
    """The words of a figure: its page's (`PageWords`, or a `Language`), English by default."""
    if words is None:
        return _english()
    return words if isinstance(words, PageWords) else PageWords(words)


def _layout(w: PageWords, **extra: Any) -> dict[str, Any]:
    """A figure's layout, with the page's language's decimal and group signs for its ticks and hovers."""
    base = {"margin": {"l": 60, "r": 20, "t": 30, "b": 50}, "hovermode": "closest",
            "legend": {"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0}, "autosize": True,
            "separators": w.language.separators}
    base.update(extra)
    return base


def _hover(text: str) -> str:
    """A hover template without plotly's box naming the trace."""
    return text + "<extra></extra>"


# --- the board ----------------------------------------------------------------------------------------


def grid_columns(squares: int) -> int:
    """Squares per row, the one rule for every drawing of a board (the board pages' figures and share image,
    and the design page, which gets this rule's output as data): ten, as on the printed board (fewer on a
    board of fewer than ten squares); past 100 squares ⌈√squares⌉, so that a large board stays about square
    instead of becoming a tall strip of rows."""
    return min(squares, max(10, isqrt(squares - 1) + 1))


def cell(square: int, width: int) -> tuple[int, int]:
    """Column and row of a square on the zig-zag board: row 0 at the bottom, running left to right."""
    row, col = divmod(square - 1, width)
    return (width - 1 - col if row % 2 else col), row


def _jump_lines(board: BoardDefinition, width: int, w: PageWords, opacity: float = 1.0) -> list[Trace]:
    traces = []
    snakes, _, label = board.chute_noun == "snake", w._, w.words.label
    chutes = _("Snake (down)") if snakes else _("Chute (down)")
    for pairs, colour, name, up in ((board.ladders, LADDER, _("Ladder (up)"), True), (board.chutes, CHUTE, chutes,
                                                                                    False)):
        xs: list[float | None] = []
        ys: list[float | None] = []
        texts: list[str | None] = []
        for a, b in pairs:
            (x0, y0), (x1, y1) = cell(a, width), cell(b, width)
            xs += [x0, x1, None]
            ys += [y0, y1, None]
            ends = {"start": label(a), "end": label(b)}
            text = (_("Ladder from %(start)s to %(end)s", **ends) if up else
                    _("Snake from %(start)s to %(end)s", **ends) if snakes else
                    _("Chute from %(start)s to %(end)s", **ends))
            texts += [text, text, None]
        traces.append(_trace("scatter", x=xs, y=ys, mode="lines+markers", name=name, text=texts, hoverinfo="text",
                             line={"color": colour, "width": 4}, opacity=opacity,
                             marker={"symbol": "arrow", "angleref": "previous", "size": 14, "color": colour}))
    return traces


def _board_axes(width: int, rows: int) -> dict[str, Any]:
    hidden = {"showgrid": False, "zeroline": False, "showticklabels": False, "ticks": "", "showline": False}
    return {"xaxis": {**hidden, "range": [-0.5, width - 0.5], "constrain": "domain"},
            "yaxis": {**hidden, "range": [-0.5, rows - 0.5], "scaleanchor": "x", "constrain": "domain"}}


def _square_grid(board: BoardDefinition, values: list[float | None], labels: list[str],
                 w: PageWords | None = None) -> tuple[list, list, list]:
    """z, square numbers and hover texts as rows × columns for a heatmap on the board."""
    width = grid_columns(board.squares)
    rows = -(-board.squares // width)
    z: list[list[float | None]] = [[None] * width for _ in range(rows)]
    numbers: list[list[str]] = [[""] * width for _ in range(rows)]
    hover: list[list[str]] = [[""] * width for _ in range(rows)]
    for square in range(1, board.squares + 1):
        col, row = cell(square, width)
        z[row][col] = values[square]
        numbers[row][col] = page_words(w).words.label(square)
        hover[row][col] = labels[square]
    return z, numbers, hover


def square_names(board: BoardDefinition, words: PageWords | Language | None = None) -> list[str]:
    """What each square is, in words (index = square)."""
    w = page_words(words)
    _, label = w._, w.words.label
    names = [_("Square %(square)s", square=label(q)) for q in range(board.squares + 1)]
    for a, b in board.ladders:
        names[a] = _("Square %(square)s: ladder up to %(end)s", square=label(a), end=label(b))
    for a, b in board.chutes:
        names[a] = (_("Square %(square)s: snake down to %(end)s", square=label(a), end=label(b))
                    if board.chute_noun == "snake" else
                    _("Square %(square)s: chute down to %(end)s", square=label(a), end=label(b)))
    names[board.squares] = _("Square %(square)s: the finish", square=label(board.squares))
    return names


def board_figure(board: BoardDefinition, words: PageWords | Language | None = None) -> Figure:
    """The board drawn from its definition: numbered zig-zag squares, ladders and chutes as arrows."""
    w = page_words(words)
    width = grid_columns(board.squares)
    rows = -(-board.squares // width)
    names = square_names(board, w)
    pattern = [None] + [((cell(q, width)[0] + cell(q, width)[1]) % 2) * 1.0 for q in range(1, board.squares + 1)]
    z, numbers, hover = _square_grid(board, pattern, names, w)
    cells = _trace("heatmap", z=z, customdata=hover, hovertemplate=_hover("%{customdata}"), showscale=False,
                   xgap=2, ygap=2, name=w._("squares"), colorscale=[[0, PLAIN[0]], [1, PLAIN[1]]], zmin=0, zmax=1)
    return _figure([cells, *_jump_lines(board, width, w), square_numbers(board, width, w)],
                   _layout(w, **_board_axes(width, rows), height=560, margin={"l": 10, "r": 10, "t": 40, "b": 10}))


FLIP = ("#e9edf1", "#f5e17a")
"""The best play's board: a square where it never flips (light grey) and one where it flips for some roll (a light
Okabe–Ito yellow, under dark digits; neither is the ladders' green nor the chutes' red-orange)."""


def flip_rolls(flips: list[tuple[int, int]]) -> dict[int, list[int]]:
    """The best play's flips by square: square → the rolls to flip for, in increasing order."""
    out: dict[int, list[int]] = {}
    for square, roll in sorted(flips):
        out.setdefault(square, []).append(roll)
    return out


def later_words(later: list[LaterChoice], words: PageWords | Language | None = None) -> dict[int, str]:
    """Under a roll-again limit, where a later roll of a turn is played otherwise than its first: square → words
    ("a 6 as roll 2 of a turn begun on 17 or 18: move")."""
    w = page_words(words)
    grouped: dict[tuple[int, int, int, bool], list[int]] = {}
    for c in later:
        grouped.setdefault((c.square, c.roll, c.rolls_so_far, c.flip), []).append(c.began)
    out: dict[int, list[str]] = {}
    for (q, roll, k, flip), began in sorted(grouped.items()):
        values = {"roll": w.words.label(roll), "nth": w.words.label(k + 1), "squares": either(sorted(began), w)}
        out.setdefault(q, []).append(
            w._("a %(roll)s as roll %(nth)s of a turn begun on %(squares)s: flip", **values) if flip else
            w._("a %(roll)s as roll %(nth)s of a turn begun on %(squares)s: move", **values))
    return {q: w.pgettext("list separator", "; ").join(words) for q, words in out.items()}


def play_figure(board: BoardDefinition, flips: list[tuple[int, int]], later: list[LaterChoice] | None = None,
                words: PageWords | Language | None = None) -> Figure:
    """The best play of a board with a choice drawn on the board: each square where it flips for some roll
    coloured, the rolls to flip for written small under its number, the jumps drawn faintly; under a roll-again
    limit, a square where a later roll of a turn is played otherwise marked with a small ring at its corner, the
    hover saying which roll of which turns and how. Square 0 (off the board) is not drawn; the page says its rolls
    in words."""
    w = page_words(words)
    _ = w._
    width = grid_columns(board.squares)
    rows = -(-board.squares // width)
    by_square = flip_rolls(flips)
    names = square_names(board, w)
    otherwise = later_words(later or [], w)
    hover = [_("%(square)s: flip on a roll of %(rolls)s", square=name, rolls=either(by_square[q], w))
             if q in by_square else _("%(square)s: never flip", square=name) for q, name in enumerate(names)]
    hover = [_("%(square)s; later in a turn, %(later)s", square=h, later=otherwise[q]) if q in otherwise else h
             for q, h in enumerate(hover)]
    hover[board.squares] = names[board.squares]
    values: list[float | None] = [None] + [1.0 if q in by_square else 0.0 for q in range(1, board.squares + 1)]
    z, _numbers, text = _square_grid(board, values, hover, w)
    cells = _trace("heatmap", z=z, customdata=text, hovertemplate=_hover("%{customdata}"), showscale=False,
                   xgap=2, ygap=2, name=_("squares where the best play flips"),
                   colorscale=[[0, FLIP[0]], [1, FLIP[1]]], zmin=0, zmax=1)
    flipped = [q for q in by_square if 1 <= q < board.squares]
    places = [cell(q, width) for q in flipped]
    rolls = _trace("scatter", x=[c for c, _ in places], y=[r - 0.28 for _, r in places],
                   text=["".join(map(w.words.label, by_square[q])) if max(by_square[q]) < 10
                         else ",".join(map(w.words.label, by_square[q])) for q in flipped],
                   mode="text", textfont={"color": "#5a2d00", "size": 9}, hoverinfo="skip", showlegend=False,
                   name=_("rolls to flip for"))
    numbers = square_numbers(board, width, w)
    numbers["y"] = [y + (0.12 if q in by_square else 0) for q, y in zip(range(1, board.squares + 1), numbers["y"])]
    marked = [cell(q, width) for q in otherwise if 1 <= q < board.squares]
    rings = _trace("scatter", x=[c + 0.32 for c, _ in marked], y=[r + 0.3 for _, r in marked], mode="markers",
                   marker={"symbol": "circle-open", "size": 7, "color": "#5a2d00"}, hoverinfo="skip",
                   showlegend=False, name=_("squares where a later roll of a turn is played otherwise"))
    return _figure([cells, *_jump_lines(board, width, w, opacity=0.45), rolls, numbers, *([rings] if marked else [])],
                   _layout(w, **_board_axes(width, rows), height=560, margin={"l": 10, "r": 10, "t": 40, "b": 10}))


def either(rolls: list[int], words: PageWords | Language | None = None) -> str:
    """Rolls in words: '3', '2 or 5', '1, 3 or 6'."""
    w = page_words(words)
    shown = [w.words.label(r) for r in rolls]
    return shown[0] if len(shown) == 1 else w._("%(some)s or %(last)s", some=w.pgettext("list separator", ", ").join(
        shown[:-1]), last=shown[-1])


def square_numbers(board: BoardDefinition, width: int, words: PageWords | Language | None = None) -> Trace:
    """The square numbers as a text layer drawn last, so that no ladder or chute arrow hides them."""
    w = page_words(words)
    squares = range(1, board.squares + 1)
    places = [cell(q, width) for q in squares]
    return _trace("scatter", x=[c for c, _ in places], y=[r for _, r in places],
                  text=[w.words.label(q) for q in squares], mode="text", textfont={"color": "#222", "size": 12},
                  hoverinfo="skip", showlegend=False, name=w._("square numbers"))


def board_heatmap(board: BoardDefinition, values: list[float | None], what: str, unit: str,
                  colorbar: str, words: PageWords | Language | None = None) -> Figure:
    """A value per square shown on the board (blank where no turn starts), jumps drawn faintly on top.

    The hover text is the square's name and its value, with the unit written once in the template rather
    than in every cell (a 1,000-square board has 1,000 cells); a blank square has no hover text. `what`, `unit`
    and `colorbar` are in the page's language (`words`); the unit follows the value."""
    w = page_words(words)
    width = grid_columns(board.squares)
    rows = -(-board.squares // width)
    z, numbers, hover = _square_grid(board, values, square_names(board, w), w)
    heat = _trace("heatmap", z=z, text=numbers, customdata=hover, texttemplate="%{text}", hoverongaps=False,
                  hovertemplate=_hover(w._("%(square)s: %(value)s %(unit)s", square="%{customdata}",
                                           value="%{z:.2f}", unit=unit)),
                  colorscale=CIVIDIS, xgap=2, ygap=2, colorbar={"title": {"text": colorbar, "side": "right"}},
                  name=what)
    return _figure([heat, *_jump_lines(board, width, w, opacity=0.45)],
                   _layout(w, **_board_axes(width, rows), height=560, margin={"l": 10, "r": 10, "t": 40, "b": 10}))


ALIVE_FEET = [[0, "#fbeef5"], [1, OKABE_ITO[4]]]


def alive_figure(board: BoardDefinition, positions: PositionSeries, words: PageWords | Language | None = None
                 ) -> Figure:
    """Where the token is after n turns, drawn as before turn 1 (alive.js shows the turn chosen with its slider):
    the board as a heat map of the chance of being on each square (blank where it is nil), the feet of chutes
    and ladders in a colour scale of their own for the rolls landing there during the turn, the share of games
    over written on the last square, and the jumps drawn faintly. A square's number is written by the heat map
    that colours it (in a colour that contrasts with it), or on a blank square in the page's text colour.
    Hover texts name each square (alive.js adds the turn's numbers)."""
    w = page_words(words)
    _ = w._
    width = grid_columns(board.squares)
    rows = -(-board.squares // width)
    last = board.squares
    feet = positions.feet
    first = positions.on_square[0]
    values = [None if q in feet or q == last or not first[q] else first[q] for q in range(last + 1)]
    z, numbers, hover = _square_grid(board, values, square_names(board, w), w)
    text = [[label if value is not None else "" for label, value in zip(*line)] for line in zip(numbers, z)]
    bar = {"thickness": 18, "x": 1.02, "xanchor": "left", "yanchor": "top", "tickformat": ".2~%"}
    heat = _trace("heatmap", z=z, text=text, customdata=hover, texttemplate="%{text}", uid="squares",
                  hovertemplate=_hover("%{customdata}"), colorscale=CIVIDIS, xgap=2, ygap=2,
                  zmin=0, zmax=1, name=_("chance the token is here"), textfont={"size": 12},
                  colorbar={**bar, "y": 1, "len": 0.55 if feet else 1,
                            "title": {"text": _("chance the token is here"), "side": "right"}})
    traces: list[Any] = [heat]
    if feet:
        landed = [(first[q] or None) if q in feet else None for q in range(last + 1)]
        under, _numbers, _hovers = _square_grid(board, landed, [""] * (last + 1), w)
        traces.insert(0, _trace("heatmap", z=under, text=[[""] * width for _ in range(rows)], texttemplate="%{text}",
                                uid="feet", name=_("rolls landing on a jump's foot"), hoverinfo="skip",
                                colorscale=ALIVE_FEET, xgap=2, ygap=2, zmin=0, zmax=1, textfont={"size": 12},
                                colorbar={**bar, "y": 0.4, "len": 0.4, "tickformat": ".3~f",
                                          "title": {"text": _("landings on a foot"), "side": "right"}}))
    at = [cell(q, width) for q in range(1, last + 1)]
    blank = [w.words.label(q) if values[q] is None else "" for q in range(1, last + 1)]
    traces.append(_trace("scatter", x=[c for c, _ in at], y=[r for _, r in at], customdata=list(range(1, last + 1)),
                         text=blank, mode="text", uid="labels", textfont={"size": 12}, hoverinfo="skip",
                         showlegend=False, name=_("squares")))
    return _figure([*traces, *_jump_lines(board, width, w, opacity=0.45)],
                   _layout(w, **_board_axes(width, rows), height=600, margin={"l": 10, "r": 10, "t": 70, "b": 10},
                           title={"text": _("Before the first turn"), "y": 0.995, "yanchor": "top",
                                  "font": {"size": 15},
                                  # from the side a reader of the page's language starts a line on
                                  **({"x": 0.99, "xanchor": "right"} if w.language.direction == "rtl"
                                     else {"x": 0.01, "xanchor": "left"})},
                           legend={"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0}))


def alive_data(positions: PositionSeries) -> dict[str, Any]:
    """The record's positions after each turn for alive.js, compact: each value in millionths (the record
    keeps six significant digits, and nothing below 5e-7), so a chance reads to 0.0001% and a number of
    landings to six decimals, as the page shows them."""
    return {"feet": positions.feet, "turns": positions.turns[-1],
            "millionths": [[round(v * 1_000_000) for v in row] for row in positions.on_square]}


# --- game length ----------------------------------------------------------------------------------------


def length_figure(series: LengthSeries, cumulative: bool, words: PageWords | Language | None = None) -> Figure:
    """Exact chance that a one-player game lasts k turns (or at most k), with the simulated shares on top."""
    w = page_words(words)
    _ = w._
    exact = series.cumulative if cumulative else series.probability
    simulated = series.simulated_cumulative if cumulative else series.simulated
    values = {"turn": "%{x}", "exact": "%{y:.4%}", "simulated": "%{customdata:.4%}"}
    hover = (_("Game over within %(turn)s turns: %(exact)s exactly<br>simulated: %(simulated)s", **values)
             if cumulative else _("Game over on turn %(turn)s: %(exact)s exactly<br>simulated: %(simulated)s",
                                  **values))
    traces = [
        _trace("scatter", x=series.turns, y=simulated, mode="markers",
               name=w.ngettext("Simulated (%(n)s game)", "Simulated (%(n)s games)", series.simulated_games),
               marker={"color": SIMULATED, "size": 5, "symbol": "circle-open"}, hoverinfo="skip"),
        _trace("scatter", x=series.turns, y=exact, mode="lines", name=_("Exact"), line={"color": EXACT, "width": 3},
               customdata=simulated, hovertemplate=_hover(hover)),
    ]
    return _figure(traces, _layout(w, height=420, xaxis={"title": {"text": _("turns in the game")},
                                                         "range": [0, _shown_turns(series)]},
                                   yaxis={"title": {"text": _("share of games")}, "tickformat": ".1%" if cumulative
                                          else ".2%", "rangemode": "tozero"}))


def _shown_turns(series: LengthSeries, share: float = 0.999) -> int:
    """Initial zoom of a length chart: up to the turn by which `share` of games are over (pan for more)."""
    return next((k for k, c in zip(series.turns, series.cumulative) if c >= share), series.turns[-1])


def overlay_figure(entries: list[tuple[str, LengthSeries]], cumulative: bool,
                   words: PageWords | Language | None = None) -> Figure:
    """Several boards' exact game-length curves on one chart (the boards' titles in the page's language)."""
    w = page_words(words)
    hover = _hover(w._("%(board)s<br>turn %(turn)s: %(share)s", board="%{fullData.name}", turn="%{x}",
                       share="%{y:.3%}"))
    traces = [_trace("scatter", x=s.turns, y=s.cumulative if cumulative else s.probability, mode="lines",
                     name=escape(" ".join(title.split())),
                     line={"color": OKABE_ITO[i % len(OKABE_ITO)], "width": 2.5,
                           "dash": ("solid", "dash", "dot", "dashdot")[i % 4]},
                     hovertemplate=hover)
              for i, (title, s) in enumerate(entries)]
    longest = max(_shown_turns(s) for _, s in entries)
    return _figure(traces,
                   _layout(w, height=560, xaxis={"title": {"text": w._("turns in the game")}, "range": [0, longest]},
                           yaxis={"title": {"text": w._("share of games")}, "tickformat": ".1%" if cumulative
                                  else ".2%", "rangemode": "tozero"},
                           legend={"orientation": "h", "y": -0.18, "yanchor": "top", "x": 0}))


# --- two players ----------------------------------------------------------------------------------------


def bounds_figure(series: BoundSeries, exact_value: float, words: PageWords | Language | None = None) -> Figure:
    """The gap between the lower and upper bounds after n turns, on a log scale."""
    w = page_words(words)
    _ = w._
    hover = _("turns counted: %(turns)s; between %(lower)s and %(upper)s<br>gap %(gap)s", turns="%{x}",
              lower="%{customdata[0]:.12f}", upper="%{customdata[1]:.12f}", gap="%{y:.2e}")
    gap = _trace("scatter", x=series.turns, y=series.gap, mode="lines", name=_("upper − lower"),
                 line={"color": EXACT, "width": 3}, customdata=list(zip(series.lower, series.upper)),
                 hovertemplate=_hover(hover))
    return _figure([gap],
                   _layout(w, height=420, showlegend=False,
                           xaxis={"title": {"text": _("turns counted (n)")}},
                           yaxis={"title": {"text": _("upper bound − lower bound")}, "type": "log",
                                  "exponentformat": "power"},
                           meta={"exact": exact_value}))


def diagonal_figure(series: DiagonalSeries, words: PageWords | Language | None = None) -> Figure:
    """RobinFiveWords' picture: one square per game length along the diagonal, of side P(T = k)."""
    w = page_words(words)
    _ = w._
    shapes: list[dict[str, Any]] = [
        {"type": "path", "path": "M 0 0 L 0 1 L 1 1 Z", "fillcolor": EXACT, "opacity": 0.18, "line": {"width": 0},
         "layer": "below"},
        {"type": "rect", "x0": 0, "y0": 0, "x1": 1, "y1": 1, "line": {"color": "#888", "width": 1}},
        {"type": "line", "x0": 0, "y0": 0, "x1": 1, "y1": 1, "line": {"color": "#888", "width": 1, "dash": "dash"}},
    ]
    xs, ys, texts = [], [], []
    for k, corner, side in zip(series.turns, series.corner, series.side):
        shapes.append({"type": "rect", "x0": corner, "y0": corner, "x1": corner + side, "y1": corner + side,
                       "fillcolor": SIMULATED, "opacity": 0.75, "line": {"color": CHUTE, "width": 1}})
        xs.append(corner + side / 2)
        ys.append(corner + side / 2)
        texts.append(w.ngettext("Both players need %(n)s turn: a square of side P(T = %(k)s) = %(side)s",
                                "Both players need %(n)s turns: a square of side P(T = %(k)s) = %(side)s", k,
                                k=w.words.label(k), side=w.rounded(side, 5)))
    centres = _trace("scatter", x=xs, y=ys, mode="markers", marker={"size": 6, "color": CHUTE, "opacity": 0.0},
                     text=texts, hovertemplate=_hover("%{text}"), name=_("diagonal squares"), showlegend=False)
    axis = {"range": [0, 1], "showgrid": False, "zeroline": False, "tickformat": ".0%"}
    return _figure([centres],
                   _layout(w, height=520, shapes=shapes,
                           xaxis={**axis, "title": {"text": _("player one's games, shortest first")},
                                  "constrain": "domain"},
                           yaxis={**axis, "title": {"text": _("player two's games, shortest first")},
                                  "autorange": "reversed", "scaleanchor": "x", "constrain": "domain"}))


# --- experiments ----------------------------------------------------------------------------------------


def dice_figure(rows: list[DieRow], turns: bool, words: PageWords | Language | None = None) -> Figure:
    """Expected turns (`turns`) or the first player's chance against the number of faces (where there is one)."""
    w = page_words(words)
    _ = w._
    shown = [(r.faces, r.expected_turns if turns else r.first_player_wins) for r in rows]
    faces = [n for n, value in shown if value is not None]
    values = [float(value.decimal) for _, value in shown if value is not None]
    hover = (_("die of %(faces)s faces: %(turns)s turns on average", faces="%{x}", turns="%{y:.4f}") if turns
             else _("die of %(faces)s faces: first player wins %(share)s", faces="%{x}", share="%{y:.4%}"))
    line = _trace("scatter", x=faces, y=values, mode="lines+markers", name=_("exact"),
                  line={"color": EXACT, "width": 3}, marker={"size": 8}, hovertemplate=_hover(hover))
    return _figure([line],
                   _layout(w, height=400, showlegend=False,
                           xaxis={"title": {"text": _("faces on the die")}, "dtick": 1},
                           yaxis={"title": {"text": _("average game (turns)") if turns
                                            else _("first of two players wins")},
                                  **({} if turns else {"tickformat": ".2%"})}))


def start_figure(board: BoardDefinition, start: StartSweep, words: PageWords | Language | None = None) -> Figure:
    """Expected game length from each starting square, on the board; squares worse than the previous one ringed."""
    w = page_words(words)
    _ = w._
    values: list[float | None] = [None] * (board.squares + 1)
    for square, value in start.expected_turns_from.items():
        values[int(square)] = float(value.decimal)
    fig = board_heatmap(board, values, _("turns from here"), _("turns on average if the game started here"),
                        _("turns (start here)"), w)
    width = grid_columns(board.squares)
    worse = [q for q in start.worse_than_previous if q >= 1]
    cells = [cell(q, width) for q in worse]
    fig["data"].append(_trace("scatter", x=[c for c, _ in cells], y=[r for _, r in cells], mode="markers",
                              name=_("worse than the square before"),
                              marker={"symbol": "square-open", "size": 34, "color": SIMULATED, "line": {"width": 3}},
                              text=[_("Square %(square)s: a worse start than the square before it",
                                      square=w.words.label(q)) for q in worse],
                              hovertemplate=_hover("%{text}")))
    return fig


JUMP_COLOUR_LIMIT = 10.0


def _odd_jump(w: PageWords, ladder: bool, longer: bool, ends: dict[str, str]) -> str:
    """An added jump that changes the game against intuition, in words."""
    _ = w._
    if ladder:
        return (_("A ladder from %(start)s to %(end)s: %(change)s turns (longer, against intuition)", **ends)
                if longer else
                _("A ladder from %(start)s to %(end)s: %(change)s turns (shorter, against intuition)", **ends))
    return (_("A chute from %(start)s to %(end)s: %(change)s turns (longer, against intuition)", **ends)
            if longer else
            _("A chute from %(start)s to %(end)s: %(change)s turns (shorter, against intuition)", **ends))


def jump_heatmap(board: BoardDefinition, scan: AddJumpScan, words: PageWords | Language | None = None) -> Figure:
    """Change in the average game for each added jump: rows = where it starts, columns = where it ends."""
    w = page_words(words)
    _ = w._
    n = board.squares + 1
    z: list[list[float | None]] = [[None] * n for _ in range(n)]
    odd_x, odd_y, odd_text = [], [], []
    for row in scan.jumps:
        if row.delta_turns is None:
            continue
        value = float(row.delta_turns.decimal)
        z[row.from_][row.to] = round(value, 3)  # as the hover writes it: a third of the page's bytes otherwise
        if row.counterintuitive:
            odd_x.append(row.to)
            odd_y.append(row.from_)
            ends = {"start": w.words.label(row.from_), "end": w.words.label(row.to), "change": w.signed(value, 3)}
            odd_text.append(_odd_jump(w, row.kind == "ladder", value > 0, ends))
    heat = _trace("heatmap", z=z, x=list(range(n)), y=list(range(n)), colorscale=PUOR, reversescale=True, zmid=0,
                  zmin=-JUMP_COLOUR_LIMIT, zmax=JUMP_COLOUR_LIMIT, name=_("change"),
                  colorbar={"title": {"text": _("change in turns"), "side": "right"}},
                  hovertemplate=_hover(_("jump from %(start)s to %(end)s: %(change)s turns", start="%{y}",
                                         end="%{x}", change="%{z:+.3f}")))
    marks = _trace("scatter", x=odd_x, y=odd_y, mode="markers", name=_("against intuition"), text=odd_text,
                   marker={"symbol": "x-thin-open", "size": 5, "color": "#000000", "line": {"width": 1.5}},
                   hovertemplate=_hover("%{text}"))
    unchanged = not any(row.status == "changed" for row in scan.jumps)
    note = {"text": _("No added jump of length %(length)s or more changes this board's game",
                      length=w.words.label(scan.min_length)),
            "x": 0.5, "y": 0.5, "xref": "paper", "yref": "paper", "showarrow": False}
    return _figure([heat, marks],
                   _layout(w, height=640, xaxis={"title": {"text": _("jump ends on square")}, "constrain": "domain",
                                                 "range": [-0.5, n - 0.5]},
                           yaxis={"title": {"text": _("jump starts on square")}, "scaleanchor": "x",
                                  "constrain": "domain", "range": [-0.5, n - 0.5]},
                           **({"annotations": [note]} if unchanged else {})))


# --- several players -----------------------------------------------------------------------------------


def seats_figure(relative: dict[str, list[float]], words: PageWords | Language | None = None) -> Figure:
    """Each seat's chance to win as a multiple of the fair share 1/n, against the number of players n (colour
    and marker repeat every eight seats, the line's dash tells those eight apart)."""
    w = page_words(words)
    _ = w._
    counts = sorted(int(n) for n in relative)
    traces = [_trace("scatter", x=counts, y=[1.0] * len(counts), mode="lines", name=_("fair share"),
                     line={"color": "#888888", "dash": "dash"}, hoverinfo="skip")]
    for seat in range(1, max(counts) + 1):
        xs = [n for n in counts if n >= seat]
        ys = [relative[str(n)][seat - 1] for n in xs]
        seat_name = _("seat %(seat)s", seat=w.words.label(seat))
        traces.append(_trace("scatter", x=xs, y=ys, mode="lines+markers", name=seat_name,
                             line={"color": OKABE_ITO[(seat - 1) % len(OKABE_ITO)], "width": 2,
                                   "dash": ("solid", "dash", "dot")[(seat - 1) // 8 % 3]},
                             marker={"size": 8, "symbol": ("circle", "square", "diamond", "triangle-up",
                                                           "cross", "x", "star", "hexagon")[(seat - 1) % 8]},
                             hovertemplate=_hover(_("seat %(seat)s of %(players)s: %(ratio)s × the fair share",
                                                    seat=w.words.label(seat), players="%{x}", ratio="%{y:.4f}"))))
    return _figure(traces,
                   _layout(w, height=460, xaxis={"title": {"text": _("players")}, "dtick": 1},
                           yaxis={"title": {"text": _("chance to win ÷ fair share (1/n)")}}))


def state_map_figure(state_map: StateMap, words: PageWords | Language | None = None) -> Figure:
    """P(the player about to move wins) for every pair of squares, two players."""
    w = page_words(words)
    _ = w._
    squares = state_map.squares
    hover = _("player to move on %(mover)s, other on %(other)s: the mover wins %(share)s", mover="%{y}",
              other="%{x}", share="%{z:.2%}")
    heat = _trace("heatmap", z=state_map.mover_wins, x=squares, y=squares, colorscale=CIVIDIS, zmin=0, zmax=1,
                  colorbar={"title": {"text": _("mover wins"), "side": "right"}, "tickformat": ".0%"},
                  hovertemplate=_hover(hover))
    return _figure([heat],
                   _layout(w, height=620, xaxis={"title": {"text": _("the other player's square")},
                                                 "constrain": "domain"},
                           yaxis={"title": {"text": _("square of the player about to move")}, "scaleanchor": "x",
                                  "constrain": "domain"}))


# --- the share image -----------------------------------------------------------------------------------

SHARE_SIZE = (1200, 630)
SHARE_TEAL, SHARE_INK, SHARE_GREY = "#00695c", "#1f2328", "#4a4f55"


def _wrapped(text: str, size: int, width: int, language: str) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and length(f"{lines[-1]} {word}", size, language) <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines


def _arrow(draw: ImageDraw.ImageDraw, start: tuple[float, float], end: tuple[float, float], colour: str) -> None:
    (x0, y0), (x1, y1) = start, end
    length = hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    head, half = 22.0, 11.0
    bx, by = x1 - ux * head, y1 - uy * head
    draw.line([(x0, y0), (bx, by)], fill=colour, width=8)
    draw.polygon([(x1, y1), (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half)], fill=colour)


def _share_board(draw: ImageDraw.ImageDraw, board: BoardDefinition, box: tuple[int, int, int, int]) -> None:
    """The board in `box` (left, top, right, bottom): its squares in their zig-zag, ladders and chutes as arrows."""
    width = grid_columns(board.squares)
    rows = -(-board.squares // width)
    left, top, right, bottom = box
    side = min((right - left) // width, (bottom - top) // rows)
    top += ((bottom - top) - side * rows) // 2
    left = right - side * width
    numbers = max(10, side // 4)

    def centre(square: int) -> tuple[float, float]:
        col, row = cell(square, width)
        return left + col * side + side / 2, top + (rows - 1 - row) * side + side / 2

    for square in range(1, board.squares + 1):
        col, row = cell(square, width)
        x, y = left + col * side, top + (rows - 1 - row) * side
        draw.rounded_rectangle([x + 2, y + 2, x + side - 2, y + side - 2], radius=3,
                               fill=PLAIN[(col + row) % 2])
        draw_text(draw, (x + 5, y + 3), str(square), numbers, "#8a8f95")
    for pairs, colour in ((board.ladders, LADDER), (board.chutes, CHUTE)):
        for a, b in pairs:
            if a >= 1 and b >= 1:
                _arrow(draw, centre(a), centre(b), colour)


def share_image(board: BoardDefinition, headlines: list[tuple[str, str]], language: str = "en",
                title: str | None = None, name: str | None = None) -> bytes:
    """A board's 1200 × 630 PNG for link previews: its `title` (by default the board's), a few headline numbers
    (each a big value and the words under it, already in `language`), the site's `name` (by default the site's
    catalogue's), and the board drawn on the right; the words in `language`, set from the column's right edge if
    it is written right to left (the board is not mirrored). The same inputs give the same bytes."""
    if name is None:
        name = page_words(Language(language)).language._("Chutes and Ladders, exactly")
    image = Image.new("RGB", SHARE_SIZE, "#ffffff")
    draw = ImageDraw.Draw(image)
    draw.rectangle([0, 0, 21, SHARE_SIZE[1]], fill=SHARE_TEAL)
    x, column = 76, 560
    x, anchor = (x + column, "ra") if right_to_left(language) else (x, "la")

    def write(at: float, text: str, size: int, colour: str, stroke: int = 0) -> None:
        draw_text(draw, (x, at), text, size, colour, anchor=anchor, language=language, stroke=stroke)

    words = " ".join((board.title if title is None else title).split())
    for size in (54, 48, 42, 36, 32, 28):
        lines = _wrapped(words, size, column, language)
        if len(lines) <= 3:
            break
    y = 56
    for line in lines[:3]:
        write(y, line, size, SHARE_TEAL, stroke=1)
        y += round(size * 1.18)
    y += 22
    for value, under in headlines:
        write(y, value, 44, SHARE_INK, stroke=1)
        y += 52
        for line in _wrapped(under, 24, column, language):
            write(y, line, 24, SHARE_GREY)
            y += 30
        y += 16
    write(SHARE_SIZE[1] - 52, name, 22, SHARE_GREY)
    _share_board(draw, board, (690, 60, 1150, 570))
    out = io.BytesIO()
    image.save(out, format="PNG")  # zlib's default level: optimize=True saves 4% of the bytes at four times the time
    return out.getvalue()
