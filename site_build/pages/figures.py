"""Plotly figures built from a board's cached results: the board itself, distributions, heatmaps, bounds.

Figures carry no colours for the page background or text: the page script sets those from the reader's
light or dark palette. Data colours are the Okabe–Ito palette and the cividis scale, both safe for
colour-blind readers.
"""

from __future__ import annotations

import io
import json
import re
from html import escape
from importlib.resources import files
from math import hypot, isqrt
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageDraw
from plotly.colors import diverging, sequential

from .lettering import draw_text, length, right_to_left
from .words import MARKDOWN_SPECIALS

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


def _layout(**extra: Any) -> dict[str, Any]:
    base = {"margin": {"l": 60, "r": 20, "t": 30, "b": 50}, "hovermode": "closest",
            "legend": {"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0}, "autosize": True}
    base.update(extra)
    return base


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


def _jump_lines(board: BoardDefinition, width: int, opacity: float = 1.0) -> list[Trace]:
    traces = []
    chutes = f"{board.chute_noun.capitalize()} (down)"
    for pairs, colour, name in ((board.ladders, LADDER, "Ladder (up)"), (board.chutes, CHUTE, chutes)):
        xs: list[float | None] = []
        ys: list[float | None] = []
        texts: list[str | None] = []
        for a, b in pairs:
            (x0, y0), (x1, y1) = cell(a, width), cell(b, width)
            xs += [x0, x1, None]
            ys += [y0, y1, None]
            label = f"{name.split()[0]} from {a} to {b}"
            texts += [label, label, None]
        traces.append(_trace("scatter", x=xs, y=ys, mode="lines+markers", name=name, text=texts, hoverinfo="text",
                             line={"color": colour, "width": 4}, opacity=opacity,
                             marker={"symbol": "arrow", "angleref": "previous", "size": 14, "color": colour}))
    return traces


def _board_axes(width: int, rows: int) -> dict[str, Any]:
    hidden = {"showgrid": False, "zeroline": False, "showticklabels": False, "ticks": "", "showline": False}
    return {"xaxis": {**hidden, "range": [-0.5, width - 0.5], "constrain": "domain"},
            "yaxis": {**hidden, "range": [-0.5, rows - 0.5], "scaleanchor": "x", "constrain": "domain"}}


def _square_grid(board: BoardDefinition, values: list[float | None], labels: list[str]) -> tuple[list, list, list]:
    """z, square numbers and hover texts as rows × columns for a heatmap on the board."""
    width = grid_columns(board.squares)
    rows = -(-board.squares // width)
    z: list[list[float | None]] = [[None] * width for _ in range(rows)]
    numbers: list[list[str]] = [[""] * width for _ in range(rows)]
    hover: list[list[str]] = [[""] * width for _ in range(rows)]
    for square in range(1, board.squares + 1):
        col, row = cell(square, width)
        z[row][col] = values[square]
        numbers[row][col] = str(square)
        hover[row][col] = labels[square]
    return z, numbers, hover


def square_names(board: BoardDefinition) -> list[str]:
    """What each square is, in words (index = square)."""
    names = [f"Square {q}" for q in range(board.squares + 1)]
    for a, b in board.ladders:
        names[a] = f"Square {a}: ladder up to {b}"
    for a, b in board.chutes:
        names[a] = f"Square {a}: {board.chute_noun} down to {b}"
    names[board.squares] = f"Square {board.squares}: the finish"
    return names


def board_figure(board: BoardDefinition) -> Figure:
    """The board drawn from its definition: numbered zig-zag squares, ladders and chutes as arrows."""
    width = grid_columns(board.squares)
    rows = -(-board.squares // width)
    names = square_names(board)
    pattern = [None] + [((cell(q, width)[0] + cell(q, width)[1]) % 2) * 1.0 for q in range(1, board.squares + 1)]
    z, numbers, hover = _square_grid(board, pattern, names)
    cells = _trace("heatmap", z=z, customdata=hover, hovertemplate="%{customdata}<extra></extra>", showscale=False,
                   xgap=2, ygap=2, name="squares", colorscale=[[0, PLAIN[0]], [1, PLAIN[1]]], zmin=0, zmax=1)
    return _figure([cells, *_jump_lines(board, width), square_numbers(board, width)],
                   _layout(**_board_axes(width, rows), height=560, margin={"l": 10, "r": 10, "t": 40, "b": 10}))


FLIP = ("#e9edf1", "#f5e17a")
"""The best play's board: a square where it never flips (light grey) and one where it flips for some roll (a light
Okabe–Ito yellow, under dark digits; neither is the ladders' green nor the chutes' red-orange)."""


def flip_rolls(flips: list[tuple[int, int]]) -> dict[int, list[int]]:
    """The best play's flips by square: square → the rolls to flip for, in increasing order."""
    out: dict[int, list[int]] = {}
    for square, roll in sorted(flips):
        out.setdefault(square, []).append(roll)
    return out


def later_words(later: list[LaterChoice]) -> dict[int, str]:
    """Under a roll-again limit, where a later roll of a turn is played otherwise than its first: square → words
    ("a 6 as roll 2 of a turn begun on 17 or 18: move")."""
    grouped: dict[tuple[int, int, int, bool], list[int]] = {}
    for c in later:
        grouped.setdefault((c.square, c.roll, c.rolls_so_far, c.flip), []).append(c.began)
    out: dict[int, list[str]] = {}
    for (q, roll, k, flip), began in sorted(grouped.items()):
        out.setdefault(q, []).append(f"a {roll} as roll {k + 1} of a turn begun on {either(sorted(began))}: "
                                     f"{'flip' if flip else 'move'}")
    return {q: "; ".join(words) for q, words in out.items()}


def play_figure(board: BoardDefinition, flips: list[tuple[int, int]], later: list[LaterChoice] | None = None
                ) -> Figure:
    """The best play of a board with a choice drawn on the board: each square where it flips for some roll
    coloured, the rolls to flip for written small under its number, the jumps drawn faintly; under a roll-again
    limit, a square where a later roll of a turn is played otherwise marked with a small ring at its corner, the
    hover saying which roll of which turns and how. Square 0 (off the board) is not drawn; the page says its rolls
    in words."""
    width = grid_columns(board.squares)
    rows = -(-board.squares // width)
    by_square = flip_rolls(flips)
    names = square_names(board)
    otherwise = later_words(later or [])
    hover = [f"{name}: flip on a roll of {either(by_square[q])}" if q in by_square else f"{name}: never flip"
             for q, name in enumerate(names)]
    hover = [h + (f"; later in a turn, {otherwise[q]}" if q in otherwise else "") for q, h in enumerate(hover)]
    hover[board.squares] = names[board.squares]
    values: list[float | None] = [None] + [1.0 if q in by_square else 0.0 for q in range(1, board.squares + 1)]
    z, _, text = _square_grid(board, values, hover)
    cells = _trace("heatmap", z=z, customdata=text, hovertemplate="%{customdata}<extra></extra>", showscale=False,
                   xgap=2, ygap=2, name="squares where the best play flips", colorscale=[[0, FLIP[0]], [1, FLIP[1]]],
                   zmin=0, zmax=1)
    flipped = [q for q in by_square if 1 <= q < board.squares]
    places = [cell(q, width) for q in flipped]
    rolls = _trace("scatter", x=[c for c, _ in places], y=[r - 0.28 for _, r in places],
                   text=["".join(map(str, by_square[q])) if max(by_square[q]) < 10 else ",".join(map(str, by_square[q]))
                         for q in flipped],
                   mode="text", textfont={"color": "#5a2d00", "size": 9}, hoverinfo="skip", showlegend=False,
                   name="rolls to flip for")
    numbers = square_numbers(board, width)
    numbers["y"] = [y + (0.12 if q in by_square else 0) for q, y in zip(range(1, board.squares + 1), numbers["y"])]
    marked = [cell(q, width) for q in otherwise if 1 <= q < board.squares]
    rings = _trace("scatter", x=[c + 0.32 for c, _ in marked], y=[r + 0.3 for _, r in marked], mode="markers",
                   marker={"symbol": "circle-open", "size": 7, "color": "#5a2d00"}, hoverinfo="skip",
                   showlegend=False, name="squares where a later roll of a turn is played otherwise")
    return _figure([cells, *_jump_lines(board, width, opacity=0.45), rolls, numbers, *([rings] if marked else [])],
                   _layout(**_board_axes(width, rows), height=560, margin={"l": 10, "r": 10, "t": 40, "b": 10}))


def either(rolls: list[int]) -> str:
    """Rolls in words: '3', '2 or 5', '1, 3 or 6'."""
    words = [str(r) for r in rolls]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def square_numbers(board: BoardDefinition, width: int) -> Trace:
    """The square numbers as a text layer drawn last, so that no ladder or chute arrow hides them."""
    squares = range(1, board.squares + 1)
    places = [cell(q, width) for q in squares]
    return _trace("scatter", x=[c for c, _ in places], y=[r for _, r in places], text=[str(q) for q in squares],
                  mode="text", textfont={"color": "#222", "size": 12}, hoverinfo="skip", showlegend=False,
                  name="square numbers")


def board_heatmap(board: BoardDefinition, values: list[float | None], what: str, unit: str,
                  colorbar: str) -> Figure:
    """A value per square shown on the board (blank where no turn starts), jumps drawn faintly on top.

    The hover text is the square's name and its value, with the unit written once in the template rather
    than in every cell (a 1,000-square board has 1,000 cells); a blank square has no hover text."""
    width = grid_columns(board.squares)
    rows = -(-board.squares // width)
    z, numbers, hover = _square_grid(board, values, square_names(board))
    heat = _trace("heatmap", z=z, text=numbers, customdata=hover, texttemplate="%{text}", hoverongaps=False,
                  hovertemplate=f"%{{customdata}}: %{{z:.2f}} {unit}<extra></extra>", colorscale=CIVIDIS,
                  xgap=2, ygap=2, colorbar={"title": {"text": colorbar, "side": "right"}}, name=what)
    return _figure([heat, *_jump_lines(board, width, opacity=0.45)],
                   _layout(**_board_axes(width, rows), height=560, margin={"l": 10, "r": 10, "t": 40, "b": 10}))


ALIVE_FEET = [[0, "#fbeef5"], [1, OKABE_ITO[4]]]


def alive_figure(board: BoardDefinition, positions: PositionSeries) -> Figure:
    """Where the token is after n turns, drawn as before turn 1 (alive.js shows the turn chosen with its slider):
    the board as a heat map of the chance of being on each square (blank where it is nil), the feet of chutes
    and ladders in a colour scale of their own for the rolls landing there during the turn, the share of games
    over written on the last square, and the jumps drawn faintly. A square's number is written by the heat map
    that colours it (in a colour that contrasts with it), or on a blank square in the page's text colour.
    Hover texts name each square (alive.js adds the turn's numbers)."""
    width = grid_columns(board.squares)
    rows = -(-board.squares // width)
    last = board.squares
    feet = positions.feet
    first = positions.on_square[0]
    values = [None if q in feet or q == last or not first[q] else first[q] for q in range(last + 1)]
    z, numbers, hover = _square_grid(board, values, square_names(board))
    text = [[label if value is not None else "" for label, value in zip(*line)] for line in zip(numbers, z)]
    bar = {"thickness": 18, "x": 1.02, "xanchor": "left", "yanchor": "top", "tickformat": ".2~%"}
    heat = _trace("heatmap", z=z, text=text, customdata=hover, texttemplate="%{text}", uid="squares",
                  hovertemplate="%{customdata}<extra></extra>", colorscale=CIVIDIS, xgap=2, ygap=2,
                  zmin=0, zmax=1, name="chance the token is here", textfont={"size": 12},
                  colorbar={**bar, "y": 1, "len": 0.55 if feet else 1,
                            "title": {"text": "chance the token is here", "side": "right"}})
    traces: list[Any] = [heat]
    if feet:
        landed = [(first[q] or None) if q in feet else None for q in range(last + 1)]
        under, _, _ = _square_grid(board, landed, [""] * (last + 1))
        traces.insert(0, _trace("heatmap", z=under, text=[[""] * width for _ in range(rows)], texttemplate="%{text}",
                                uid="feet", name="rolls landing on a jump's foot", hoverinfo="skip",
                                colorscale=ALIVE_FEET, xgap=2, ygap=2, zmin=0, zmax=1, textfont={"size": 12},
                                colorbar={**bar, "y": 0.4, "len": 0.4, "tickformat": ".3~f",
                                          "title": {"text": "landings on a foot", "side": "right"}}))
    at = [cell(q, width) for q in range(1, last + 1)]
    blank = [str(q) if values[q] is None else "" for q in range(1, last + 1)]
    traces.append(_trace("scatter", x=[c for c, _ in at], y=[r for _, r in at], customdata=list(range(1, last + 1)),
                         text=blank, mode="text", uid="labels", textfont={"size": 12}, hoverinfo="skip",
                         showlegend=False, name="squares"))
    return _figure([*traces, *_jump_lines(board, width, opacity=0.45)],
                   _layout(**_board_axes(width, rows), height=600, margin={"l": 10, "r": 10, "t": 70, "b": 10},
                           title={"text": "Before the first turn", "x": 0.01, "xanchor": "left", "y": 0.995,
                                  "yanchor": "top", "font": {"size": 15}},
                           legend={"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0}))


def alive_data(positions: PositionSeries) -> dict[str, Any]:
    """The record's positions after each turn for alive.js, compact: each value in millionths (the record
    keeps six significant digits, and nothing below 5e-7), so a chance reads to 0.0001% and a number of
    landings to six decimals, as the page shows them."""
    return {"feet": positions.feet, "turns": positions.turns[-1],
            "millionths": [[round(v * 1_000_000) for v in row] for row in positions.on_square]}


# --- game length ----------------------------------------------------------------------------------------


def length_figure(series: LengthSeries, cumulative: bool) -> Figure:
    """Exact chance that a one-player game lasts k turns (or at most k), with the simulated shares on top."""
    exact = series.cumulative if cumulative else series.probability
    simulated = series.simulated_cumulative if cumulative else series.simulated
    what = "Game over within %{x} turns" if cumulative else "Game over on turn %{x}"
    games = f"{series.simulated_games:,}"
    traces = [
        _trace("scatter", x=series.turns, y=simulated, mode="markers", name=f"Simulated ({games} games)",
               marker={"color": SIMULATED, "size": 5, "symbol": "circle-open"}, hoverinfo="skip"),
        _trace("scatter", x=series.turns, y=exact, mode="lines", name="Exact", line={"color": EXACT, "width": 3},
               customdata=simulated,
               hovertemplate=what + ": %{y:.4%} exactly<br>simulated: %{customdata:.4%}<extra></extra>"),
    ]
    return _figure(traces, _layout(height=420, xaxis={"title": {"text": "turns in the game"},
                                                      "range": [0, _shown_turns(series)]},
                                   yaxis={"title": {"text": "share of games"}, "tickformat": ".1%" if cumulative
                                          else ".2%", "rangemode": "tozero"}))


def _shown_turns(series: LengthSeries, share: float = 0.999) -> int:
    """Initial zoom of a length chart: up to the turn by which `share` of games are over (pan for more)."""
    return next((k for k, c in zip(series.turns, series.cumulative) if c >= share), series.turns[-1])


def overlay_figure(entries: list[tuple[str, LengthSeries]], cumulative: bool) -> Figure:
    """Several boards' exact game-length curves on one chart."""
    traces = [_trace("scatter", x=s.turns, y=s.cumulative if cumulative else s.probability, mode="lines",
                     name=escape(" ".join(title.split())),
                     line={"color": OKABE_ITO[i % len(OKABE_ITO)], "width": 2.5,
                           "dash": ("solid", "dash", "dot", "dashdot")[i % 4]},
                     hovertemplate="%{fullData.name}<br>turn %{x}: %{y:.3%}<extra></extra>")
              for i, (title, s) in enumerate(entries)]
    longest = max(_shown_turns(s) for _, s in entries)
    return _figure(traces,
                   _layout(height=560, xaxis={"title": {"text": "turns in the game"}, "range": [0, longest]},
                           yaxis={"title": {"text": "share of games"}, "tickformat": ".1%" if cumulative
                                  else ".2%", "rangemode": "tozero"},
                           legend={"orientation": "h", "y": -0.18, "yanchor": "top", "x": 0}))


# --- two players ----------------------------------------------------------------------------------------


def bounds_figure(series: BoundSeries, exact_value: float) -> Figure:
    """The gap between the lower and upper bounds after n turns, on a log scale."""
    gap = _trace("scatter", x=series.turns, y=series.gap, mode="lines", name="upper − lower",
                 line={"color": EXACT, "width": 3}, customdata=list(zip(series.lower, series.upper)),
                 hovertemplate="after %{x} turns: between %{customdata[0]:.12f} and %{customdata[1]:.12f}"
                               "<br>gap %{y:.2e}<extra></extra>")
    return _figure([gap],
                   _layout(height=420, showlegend=False,
                           xaxis={"title": {"text": "turns counted (n)"}},
                           yaxis={"title": {"text": "upper bound − lower bound"}, "type": "log",
                                  "exponentformat": "power"},
                           meta={"exact": exact_value}))


def diagonal_figure(series: DiagonalSeries) -> Figure:
    """RobinFiveWords' picture: one square per game length along the diagonal, of side P(T = k)."""
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
        texts.append(f"Both players need {k} turns: a square of side P(T = {k}) = {side:.5f}")
    centres = _trace("scatter", x=xs, y=ys, mode="markers", marker={"size": 6, "color": CHUTE, "opacity": 0.0},
                     text=texts, hovertemplate="%{text}<extra></extra>", name="diagonal squares",
                     showlegend=False)
    axis = {"range": [0, 1], "showgrid": False, "zeroline": False, "tickformat": ".0%"}
    return _figure([centres],
                   _layout(height=520, shapes=shapes,
                           xaxis={**axis, "title": {"text": "player one's games, shortest first"},
                                  "constrain": "domain"},
                           yaxis={**axis, "title": {"text": "player two's games, shortest first"},
                                  "autorange": "reversed", "scaleanchor": "x", "constrain": "domain"}))


# --- experiments ----------------------------------------------------------------------------------------


def dice_figure(rows: list[DieRow], turns: bool) -> Figure:
    """Expected turns (`turns`) or the first player's chance against the number of faces (where there is one)."""
    shown = [(r.faces, r.expected_turns if turns else r.first_player_wins) for r in rows]
    faces = [n for n, value in shown if value is not None]
    values = [float(value.decimal) for _, value in shown if value is not None]
    line = _trace("scatter", x=faces, y=values, mode="lines+markers", name="exact", line={"color": EXACT, "width": 3},
                  marker={"size": 8},
                  hovertemplate=("%{x}-sided die: %{y:.4f} turns on average" if turns
                                 else "%{x}-sided die: first player wins %{y:.4%}") + "<extra></extra>")
    return _figure([line],
                   _layout(height=400, showlegend=False,
                           xaxis={"title": {"text": "faces on the die"}, "dtick": 1},
                           yaxis={"title": {"text": "average game (turns)" if turns
                                            else "first of two players wins"},
                                  **({} if turns else {"tickformat": ".2%"})}))


def start_figure(board: BoardDefinition, start: StartSweep) -> Figure:
    """Expected game length from each starting square, on the board; squares worse than the previous one ringed."""
    values: list[float | None] = [None] * (board.squares + 1)
    for square, value in start.expected_turns_from.items():
        values[int(square)] = float(value.decimal)
    fig = board_heatmap(board, values, "turns from here", "turns on average if the game started here",
                        "turns (start here)")
    width = grid_columns(board.squares)
    worse = [q for q in start.worse_than_previous if q >= 1]
    cells = [cell(q, width) for q in worse]
    fig["data"].append(_trace("scatter", x=[c for c, _ in cells], y=[r for _, r in cells], mode="markers",
                              name="worse than the square before",
                              marker={"symbol": "square-open", "size": 34, "color": SIMULATED, "line": {"width": 3}},
                              text=[f"Square {q}: a worse start than the square before it" for q in worse],
                              hovertemplate="%{text}<extra></extra>"))
    return fig


JUMP_COLOUR_LIMIT = 10.0


def jump_heatmap(board: BoardDefinition, scan: AddJumpScan) -> Figure:
    """Change in the average game for each added jump: rows = where it starts, columns = where it ends."""
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
            odd_text.append(f"A {row.kind} from {row.from_} to {row.to}: {value:+.3f} turns "
                            f"({'longer' if value > 0 else 'shorter'}, against intuition)")
    heat = _trace("heatmap", z=z, x=list(range(n)), y=list(range(n)), colorscale=PUOR, reversescale=True, zmid=0,
                  zmin=-JUMP_COLOUR_LIMIT, zmax=JUMP_COLOUR_LIMIT, name="change",
                  colorbar={"title": {"text": "change in turns", "side": "right"}},
                  hovertemplate="jump from %{y} to %{x}: %{z:+.3f} turns<extra></extra>")
    marks = _trace("scatter", x=odd_x, y=odd_y, mode="markers", name="against intuition", text=odd_text,
                   marker={"symbol": "x-thin-open", "size": 5, "color": "#000000", "line": {"width": 1.5}},
                   hovertemplate="%{text}<extra></extra>")
    unchanged = not any(row.status == "changed" for row in scan.jumps)
    note = {"text": f"No added jump of length {scan.min_length} or more changes this board's game",
            "x": 0.5, "y": 0.5, "xref": "paper", "yref": "paper", "showarrow": False}
    return _figure([heat, marks],
                   _layout(height=640, xaxis={"title": {"text": "jump ends on square"}, "constrain": "domain",
                                              "range": [-0.5, n - 0.5]},
                           yaxis={"title": {"text": "jump starts on square"}, "scaleanchor": "x",
                                  "constrain": "domain", "range": [-0.5, n - 0.5]},
                           **({"annotations": [note]} if unchanged else {})))


# --- several players -----------------------------------------------------------------------------------


def seats_figure(relative: dict[str, list[float]]) -> Figure:
    """Each seat's chance to win as a multiple of the fair share 1/n, against the number of players n (colour
    and marker repeat every eight seats, the line's dash tells those eight apart)."""
    counts = sorted(int(n) for n in relative)
    traces = [_trace("scatter", x=counts, y=[1.0] * len(counts), mode="lines", name="fair share",
                     line={"color": "#888888", "dash": "dash"}, hoverinfo="skip")]
    for seat in range(1, max(counts) + 1):
        xs = [n for n in counts if n >= seat]
        ys = [relative[str(n)][seat - 1] for n in xs]
        traces.append(_trace("scatter", x=xs, y=ys, mode="lines+markers", name=f"seat {seat}",
                             line={"color": OKABE_ITO[(seat - 1) % len(OKABE_ITO)], "width": 2,
                                   "dash": ("solid", "dash", "dot")[(seat - 1) // 8 % 3]},
                             marker={"size": 8, "symbol": ("circle", "square", "diamond", "triangle-up",
                                                           "cross", "x", "star", "hexagon")[(seat - 1) % 8]},
                             hovertemplate=f"seat {seat} of %{{x}}: %{{y:.4f}} × the fair share<extra></extra>"))
    return _figure(traces,
                   _layout(height=460, xaxis={"title": {"text": "players"}, "dtick": 1},
                           yaxis={"title": {"text": "chance to win ÷ fair share (1/n)"}}))


def state_map_figure(state_map: StateMap) -> Figure:
    """P(the player about to move wins) for every pair of squares, two players."""
    squares = state_map.squares
    heat = _trace("heatmap", z=state_map.mover_wins, x=squares, y=squares, colorscale=CIVIDIS, zmin=0, zmax=1,
                  colorbar={"title": {"text": "mover wins", "side": "right"}, "tickformat": ".0%"},
                  hovertemplate="player to move on %{y}, other on %{x}: the mover wins %{z:.2%}<extra></extra>")
    return _figure([heat],
                   _layout(height=620, xaxis={"title": {"text": "the other player's square"},
                                              "constrain": "domain"},
                           yaxis={"title": {"text": "square of the player about to move"}, "scaleanchor": "x",
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
                title: str | None = None, name: str = "Chutes and Ladders, exactly") -> bytes:
    """A board's 1200 × 630 PNG for link previews: its `title` (by default the board's), a few headline numbers
    (each a big value and the words under it), the site's `name`, and the board drawn on the right; the words in
    `language`, set from the column's right edge if it is written right to left (the board is not mirrored).
    The same inputs give the same bytes."""
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
