"""Still images of the charts, drawn at build time from the very figures plotly.js draws in the page.

A chart's still stands in its place, at the chart's final height, until plotly.js draws it (when it comes near
the screen), so a reader sees every chart at once and nothing moves when it is drawn; a printed page shows the
stills of the charts not drawn.
The still draws what plotly.js would from the figure as the site builds it (`figures`): heat maps, lines,
markers and text, shapes, axes with their ticks and titles, colour bars and the legend, on a transparent
ground with grey ink that reads on the light and the dark palette alike. It is a likeness, not plotly.js: no
hover, and the layout only close to plotly's (which measures its text in the browser). Its words, already in the
page's language, are drawn in the shipped font, shaped (`lettering`).
"""

from __future__ import annotations

import functools
import hashlib
import io
import math
import os
import re
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from html import unescape
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from . import lettering
from .figures import PLOTLY_TEMPLATE, Figure


@dataclass(frozen=True)
class Form:
    """One size of still: `width` CSS pixels wide, `scale` image pixels to each; `narrow`: laid out as the page
    script lays a chart out on a narrow screen (the legend at its foot). `suffix` ends its file's name."""

    width: int
    scale: int
    narrow: bool
    suffix: str


WIDE = Form(720, 1, False, "")
"""About the text column of a wide screen (688 px at 1280, 757 at 1600), one image pixel each: a board page's
stills come to about 160 KB."""
NARROW = Form(360, 2, True, "-narrow")
"""A phone's (358 px at 390): two image pixels each, for its sharper screen."""
FORMS = (WIDE, NARROW)
NARROW_MEDIA = "(max-width: 599px)"
"""The screens given the narrow still (the page script's narrow layout is for charts under 600 px)."""
COLOURS = 128
INK = (128, 128, 128, 255)
"""Text and axis lines: mid grey, readable on the white page and on the dark one."""
GRID = (128, 128, 128, 60)
LEGEND_ROW = 19
TICK_FONT, TITLE_FONT = 12, 14
COLORBAR = 100
"""Room on the right for a colour bar (plotly's: a 30-pixel bar, its tick labels and its title)."""
DEFAULT_MARGIN = {"l": 80, "r": 80, "t": 100, "b": 80}
COLORWAY = PLOTLY_TEMPLATE["layout"]["colorway"]
DASHES = {"dash": (9, 6), "dot": (3, 4), "dashdot": (9, 4, 3, 4), "longdash": (15, 6)}


def height_of(fig: Figure) -> int:
    """The chart's height in CSS pixels (plotly's default where the layout names none)."""
    return int(fig["layout"].get("height", 450))


def still(fig: Figure, form: Form = WIDE, language: str = "en") -> bytes:
    """The figure drawn in one form as a PNG in COLOURS colours (a chart has few: the palette keeps it small), its
    words (already in `language`, a code Babel knows) shaped and set in that language's direction."""
    image = Image.new("RGBA", (form.width * form.scale, height_of(fig) * form.scale), (0, 0, 0, 0))
    _Still(fig, image, form.scale, form.narrow, language).draw()
    out = io.BytesIO()
    # zlib's default level: its best (or PNG's optimize) saves an eighth of the bytes at five times the time
    image.quantize(COLOURS, method=Image.Quantize.FASTOCTREE).save(out, format="PNG")
    return out.getvalue()


DRAWING = hashlib.sha256(Path(__file__).read_bytes() + lettering.FINGERPRINT.encode()).hexdigest()[:16]
"""This module's own fingerprint and its letters': a cached still drawn by other code or letters is drawn again."""


KEEP_SECONDS = 7 * 24 * 3600
"""A kept still no build has used for this long is swept (a week: a board changed back finds its stills)."""


class Stills:
    """Still images by figure, drawn once and kept in `folder` under a hash of the figure's JSON and of this
    module, so that a build whose figures did not change draws none (`sweep` removes those long unused). Named by
    their content, they can be shared by builds of several projects, and by several builds at once."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.used: set[str] = set()

    def image(self, fig: Figure, text: str, form: Form = WIDE, language: str = "en") -> bytes:
        """The PNG of a figure whose JSON is `text`, in one form, in `language`."""
        if self.folder is None:
            return still(fig, form, language)
        name = hashlib.sha256(f"{DRAWING}\n{form}\n{language}\n{text}".encode()).hexdigest()[:32] + ".png"
        self.used.add(name)
        path = self.folder / name
        if path.is_file():
            os.utime(path)  # used now: not swept for another KEEP_SECONDS
            return path.read_bytes()
        data = still(fig, form, language)
        self.folder.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.part")
        partial.write_bytes(data)
        os.replace(partial, path)  # whole or absent, whatever else reads the folder
        return data

    def sweep(self, keep_seconds: float = KEEP_SECONDS) -> None:
        """Remove the kept stills this build did not use and none has used for `keep_seconds`."""
        if self.folder is None or not self.folder.is_dir():
            return
        now = time.time()
        for path in self.folder.iterdir():
            if path.suffix != ".png" or path.name in self.used:
                continue
            try:
                if now - path.stat().st_mtime > keep_seconds:
                    path.unlink()
            except FileNotFoundError:  # swept by another build meanwhile
                continue


@functools.cache
def _rgba(colour: str | None, opacity: float = 1.0) -> tuple[int, int, int, int]:
    """A plotly colour ("#rgb", "#rrggbb", "rgb(…)", "rgba(…)") as RGBA, its alpha times `opacity`."""
    if not colour:
        return INK
    if colour.startswith("#"):
        digits = colour[1:]
        if len(digits) == 3:
            digits = "".join(c * 2 for c in digits)
        r, g, b = (int(digits[i:i + 2], 16) for i in (0, 2, 4))
        return r, g, b, round(255 * opacity)
    parts = [float(p) for p in re.findall(r"[\d.]+", colour)]
    alpha = parts[3] if len(parts) > 3 else 1.0
    return round(parts[0]), round(parts[1]), round(parts[2]), round(255 * alpha * opacity)


def _scale_colour(scale: list[list[Any]], t: float) -> tuple[int, int, int, int]:
    """The colour at t in [0, 1] of a plotly colour scale ([[stop, colour], …]), interpolated in RGB."""
    t = min(1.0, max(0.0, t))
    for (s0, c0), (s1, c1) in zip(scale, scale[1:]):
        if t <= s1:
            a, b = _rgba(c0), _rgba(c1)
            f = 0.0 if s1 == s0 else (t - s0) / (s1 - s0)
            return tuple(round(x + (y - x) * f) for x, y in zip(a, b))  # type: ignore[return-value]
    return _rgba(scale[-1][1])


def _nice_step(span: float, pixels: float, per_tick: float) -> float:
    """The tick step plotly chooses: about one tick per `per_tick` pixels (3 to 10 ticks), the rough step
    rounded up to 2, 5 or 10 times its power of ten."""
    raw = span / max(3.0, min(10.0, pixels / per_tick))
    power = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1.0
    return next((m * power for m in (2, 5, 10) if m * power >= raw * 0.999), 10 * power)


def _tick_text(value: float, step: float, tickformat: str | None) -> str:
    """A tick's label as plotly writes it: by the axis's d3 format if it has one ("%" and "f" kinds), else with
    as many decimals as the step needs."""
    if tickformat:
        match = re.fullmatch(r"\.(\d+)(~?)([%f])", tickformat)
        if match:
            digits, trim, kind = int(match[1]), match[2], match[3]
            text = f"{value * 100 if kind == '%' else value:.{digits}f}"
            if trim and "." in text:
                text = text.rstrip("0").rstrip(".")
            return text + ("%" if kind == "%" else "")
    decimals = max(0, -math.floor(math.log10(step) + 1e-9)) if step < 1 else 0
    if decimals and round(step * 10 ** decimals) % 10 and step * 10 ** decimals % 1:
        decimals += 1
    text = f"{value:.{decimals}f}"
    return "0" if text.strip("-0.") == "" else text


def _in_locale(text: str, separators: str) -> str:
    """A tick label written with the figure's decimal sign (plotly's `separators`: the decimal sign, then the group
    sign; the labels drawn here are never grouped)."""
    return text.replace(".", separators[:1] or ".")


@dataclass
class _Axis:
    """One axis: the data range shown, mapped onto pixels from `start` to `end` (y runs upwards: start > end)."""

    low: float
    high: float
    start: float
    end: float
    log: bool = False

    def value(self, v: float) -> float:
        return math.log10(v) if self.log else v

    def px(self, v: float) -> float:
        """The pixel of a value (on a log axis the range is in powers of ten, as plotly's is)."""
        return self.start + (self.value(v) - self.low) / ((self.high - self.low) or 1.0) * (self.end - self.start)

    def ticks(self, dtick: float | None) -> Iterator[tuple[float, float]]:
        """(value, step) of each tick within the range; on a log axis a tick per power of ten."""
        per_tick = 40 if self.start > self.end else 80  # y axes (drawn upwards) take ticks twice as dense
        if self.log:  # every power of ten, or every second, third, fifth, … when there are many
            decades = abs(self.high - self.low) / max(3.0, min(10.0, abs(self.end - self.start) / per_tick))
            every = next(m for m in (1, 2, 3, 5, 10, 20, 50, 100) if m >= decades * 0.999)
            for k in range(math.ceil(min(self.low, self.high)), math.floor(max(self.low, self.high)) + 1):
                if k % every == 0:
                    yield 10.0 ** k, float(every)
            return
        low, high = min(self.low, self.high), max(self.low, self.high)
        step = dtick or _nice_step(high - low, abs(self.end - self.start), per_tick)
        k = math.ceil(low / step - 1e-9)
        while k * step <= high + 1e-9 * step:
            yield k * step, step
            k += 1


class _Still:
    """The drawing of one figure (`still`): geometry first, then each layer in plotly's order."""

    def __init__(self, fig: Figure, image: Image.Image, scale: int, narrow: bool = False,
                 language: str = "en") -> None:
        self.image, self.s, self.language = image, scale, language
        self.layout = fig["layout"]
        self.traces = fig["data"]
        self.draw_ = ImageDraw.Draw(image)
        legend = self.layout.get("legend")
        # on a narrow screen the page script puts a legend from above the plot at the foot of the chart
        self.at_foot = bool(narrow and legend and self.layout.get("showlegend") is not False
                            and not legend.get("y", 1.02) < 0)
        if self.at_foot:
            self.layout = {**self.layout, "margin": {**self.layout.get("margin", {}), "t": 40}}

    # --- geometry ------------------------------------------------------------------------------------------

    def _legend_entries(self) -> list[tuple[str, dict[str, Any]]]:
        """The traces the legend names, as plotly shows them: named lines and markers, when more than one."""
        if self.layout.get("showlegend") is False:
            return []
        shown = [(unescape(t["name"]), t) for t in self.traces
                 if t.get("name") and t["type"] == "scatter" and t.get("showlegend", True) and t.get("mode") != "text"]
        return shown if len(shown) > 1 or any(t.get("showlegend") for _, t in shown) else []

    def _legend_rows(self, width: float) -> list[list[tuple[str, dict[str, Any], float]]]:
        """The legend's entries in rows no wider than `width`, each with its own width."""
        rows: list[list[tuple[str, dict[str, Any], float]]] = [[]]
        used = 0.0
        for name, trace in self._legend_entries():
            w = 40 + self._length(name, TICK_FONT) + 12
            if rows[-1] and used + w > width:
                rows.append([])
                used = 0.0
            rows[-1].append((name, trace, w))
            used += w
        return rows if rows[0] else []

    def _data_range(self, axis: str) -> tuple[float, float]:
        """The extent of the data on one axis (a heat map's cells to their edges) and of the shapes."""
        values: list[float] = []
        for t in self.traces:
            if t["type"] == "heatmap":
                coords = t.get(axis) or list(range(len(t["z"][0]) if axis == "x" else len(t["z"])))
                values += [coords[0] - 0.5, coords[-1] + 0.5]
            else:
                values += [v for v in t.get(axis, []) if v is not None]
        for shape in self.layout.get("shapes", []):
            values += [shape.get(axis + "0", 0), shape.get(axis + "1", 1)]
        return (min(values), max(values)) if values else (0.0, 1.0)

    def _range(self, name: str) -> tuple[float, float, bool]:
        """An axis's range as plotly would show it (its own, else the data's, padded for markers) and whether
        it is logarithmic (its range then in powers of ten)."""
        spec = self.layout.get(name, {})
        log = spec.get("type") == "log"
        if "range" in spec:
            low, high = spec["range"]
        else:
            low, high = self._data_range(name[0])
            if log:
                positive = [v for t in self.traces for v in t.get(name[0], []) if v is not None and v > 0]
                low, high = math.log10(min(positive)), math.log10(max(positive))
                return low, high, True
            if spec.get("rangemode") == "tozero":
                low, high = min(low, 0.0), max(high, 0.0)
            pad = (high - low) * 0.05 if any("markers" in t.get("mode", "") for t in self.traces) else 0.0
            if spec.get("rangemode") == "tozero" and low == 0:
                low, high = low, high + pad
            else:
                low, high = low - pad, high + pad
        if spec.get("autorange") == "reversed":
            low, high = high, low
        return low, high, log

    def _layout_axes(self) -> None:
        """The plot's box: the margins, less room for the legend, a colour bar and the tick labels, kept square
        where the y axis is anchored to the x axis; and the two axes over it."""
        s = self.s
        width, height = self.image.size[0] / s, self.image.size[1] / s
        margin = {**DEFAULT_MARGIN, **self.layout.get("margin", {})}
        left, right = margin["l"], width - margin["r"]
        top, bottom = margin["t"], height - margin["b"]
        if any(t["type"] == "heatmap" and t.get("showscale", True) for t in self.traces):
            right -= COLORBAR
        legend = self.layout.get("legend", {})
        self.legend = self._legend_rows(right - left)
        self.legend_below = legend.get("y", 1.02) < 0
        foot = LEGEND_ROW * len(self.legend) + 4 if self.at_foot else 0
        if self.at_foot:
            bottom -= foot
        elif self.legend and not self.legend_below:
            top += LEGEND_ROW * len(self.legend) - 6
        elif self.legend:
            bottom -= LEGEND_ROW * len(self.legend) + 10
        x_low, x_high, x_log = self._range("xaxis")
        y_low, y_high, y_log = self._range("yaxis")
        xspec, yspec = self.layout.get("xaxis", {}), self.layout.get("yaxis", {})
        if yspec.get("showticklabels", True):
            probe = _Axis(y_low, y_high, bottom, top, y_log)
            labels = [self._label(v, step, yspec, y_log) for v, step in probe.ticks(yspec.get("dtick"))]
            needed = max((self._length(t, TICK_FONT) for t in labels), default=0) + 10
            needed += 24 if yspec.get("title") else 0
            left = max(left, needed)
        if xspec.get("showticklabels", True):
            bottom = min(bottom, height - foot - (20 + (26 if xspec.get("title") else 0)))
        if yspec.get("scaleanchor") == "x":
            unit = min((right - left) / abs(x_high - x_low), (bottom - top) / abs(y_high - y_low))
            w, h = unit * abs(x_high - x_low), unit * abs(y_high - y_low)
            left, right = left + (right - left - w) / 2, left + (right - left + w) / 2
            top, bottom = top + (bottom - top - h) / 2, top + (bottom - top + h) / 2
        self.box = (left, top, right, bottom)
        self.x = _Axis(x_low, x_high, left, right, x_log)
        self.y = _Axis(y_low, y_high, bottom, top, y_log)

    # --- drawing helpers --------------------------------------------------------------------------------

    def _p(self, x: float, y: float) -> tuple[float, float]:
        return self.x.px(x) * self.s, self.y.px(y) * self.s

    def _layer(self, opacity: float = 1.0) -> tuple[Image.Image, ImageDraw.ImageDraw]:
        """Where to draw something of this opacity: the image itself if opaque, else a layer for `_merge`."""
        if opacity >= 1:
            return self.image, self.draw_
        layer = Image.new("RGBA", self.image.size, (0, 0, 0, 0))
        return layer, ImageDraw.Draw(layer)

    def _merge(self, layer: Image.Image, opacity: float) -> None:
        """A translucent layer laid on the image (nothing to do for the image itself)."""
        if layer is self.image:
            return
        layer.putalpha(layer.getchannel("A").point(lambda a: round(a * opacity)))
        self.image.alpha_composite(layer)

    def _text(self, draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
              fill: tuple[int, int, int, int] = INK, anchor: str = "mm") -> None:
        lettering.draw_text(draw, xy, text, size * self.s, fill, anchor=anchor, language=self.language)

    def _length(self, text: str, size: int) -> float:
        """The width of `text` at `size` in CSS pixels."""
        return lettering.length(text, size, self.language)

    def _vertical_text(self, text: str, centre: tuple[float, float], size: int) -> None:
        w = round(lettering.length(text, size * self.s, self.language)) + 4
        h = round(size * self.s * 1.4)
        label = Image.new("RGBA", (w, h), (0, 0, 0, 0))
        lettering.draw_text(ImageDraw.Draw(label), (w / 2, h / 2), text, size * self.s, INK, anchor="mm",
                            language=self.language)
        label = label.rotate(90, expand=True)
        self.image.alpha_composite(label, (round(centre[0] - label.width / 2), round(centre[1] - label.height / 2)))

    def _polyline(self, draw: ImageDraw.ImageDraw, points: Sequence[tuple[float, float]],
                  colour: tuple[int, int, int, int], width: float, dash: str | None) -> None:
        pixels = max(1, round(width * self.s))
        if not dash or dash == "solid":
            draw.line(points, fill=colour, width=pixels, joint="curve")
            return
        pattern = [d * self.s * max(1.0, width / 2) for d in DASHES.get(dash, (9, 6))]
        k, left, on = 0, pattern[0], True
        for (x0, y0), (x1, y1) in zip(points, points[1:]):
            length = math.hypot(x1 - x0, y1 - y0)
            done = 0.0
            while done < length:
                step = min(left, length - done)
                if on:
                    a, b = done / length, (done + step) / length
                    draw.line([(x0 + (x1 - x0) * a, y0 + (y1 - y0) * a), (x0 + (x1 - x0) * b, y0 + (y1 - y0) * b)],
                              fill=colour, width=pixels)
                done += step
                left -= step
                if left <= 1e-9:
                    k = (k + 1) % len(pattern)
                    left, on = pattern[k], not on

    def _marker(self, draw: ImageDraw.ImageDraw, at: tuple[float, float], symbol: str, size: float,
                colour: tuple[int, int, int, int], line: float, towards: tuple[float, float] | None) -> None:
        x, y = at
        r = size * self.s / 2
        width = max(1, round(line * self.s))
        if symbol == "arrow" and towards is not None:
            angle = math.atan2(y - towards[1], x - towards[0])
            tip = (x + math.cos(angle) * r, y + math.sin(angle) * r)
            back = [(x + math.cos(angle + a) * r, y + math.sin(angle + a) * r) for a in (2.5, -2.5)]
            draw.polygon([tip, *back], fill=colour)
        elif symbol.startswith("square"):
            box = [x - r, y - r, x + r, y + r]
            draw.rectangle(box, outline=colour, width=width) if symbol.endswith("open") else draw.rectangle(
                box, fill=colour)
        elif symbol.startswith("x") or symbol == "cross":
            for dx, dy in (((1, 1), (-1, 1)) if symbol.startswith("x") else ((1, 0), (0, 1))):
                draw.line([(x - dx * r, y - dy * r), (x + dx * r, y + dy * r)], fill=colour, width=width)
        elif symbol.startswith("diamond"):
            draw.polygon([(x, y - r), (x + r, y), (x, y + r), (x - r, y)], fill=colour)
        elif symbol.startswith("triangle"):
            draw.polygon([(x, y - r), (x + r, y + r * 0.8), (x - r, y + r * 0.8)], fill=colour)
        elif symbol.endswith("open"):
            draw.ellipse([x - r, y - r, x + r, y + r], outline=colour, width=width)
        else:
            draw.ellipse([x - r, y - r, x + r, y + r], fill=colour)

    # --- layers ---------------------------------------------------------------------------------------------

    def draw(self) -> None:
        """Every layer, bottom first: shapes below the data, grid, heat maps, shapes above, traces, axes, colour
        bars, legend and notes."""
        self._layout_axes()
        self._shapes(below=True)
        self._grid()
        for trace in self.traces:
            if trace["type"] == "heatmap":
                self._heatmap(trace)
        self._shapes(below=False)
        for i, trace in enumerate(self.traces):
            if trace["type"] == "scatter":
                self._scatter(trace, COLORWAY[i % len(COLORWAY)])
        self._axes()
        self._colour_bars()
        self._legend()
        self._notes()

    def _grid(self) -> None:
        """The grid lines at the ticks of each axis that shows them."""
        draw = self.draw_
        left, top, right, bottom = (v * self.s for v in self.box)
        for name, axis in (("xaxis", self.x), ("yaxis", self.y)):
            spec = self.layout.get(name, {})
            if spec.get("showgrid", True) is False:
                continue
            for value, _ in axis.ticks(spec.get("dtick")):
                p = axis.px(value) * self.s
                line = [(p, top), (p, bottom)] if name == "xaxis" else [(left, p), (right, p)]
                draw.line(line, fill=GRID, width=self.s)

    def _axes(self) -> None:
        """Tick labels, axis titles and the chart's title."""
        draw = self.draw_
        left, top, right, bottom = self.box
        s = self.s
        xspec, yspec = self.layout.get("xaxis", {}), self.layout.get("yaxis", {})
        if xspec.get("showticklabels", True):
            for value, step in self.x.ticks(xspec.get("dtick")):
                label = self._label(value, step, xspec, self.x.log)
                self._text(draw, (self.x.px(value) * s, (bottom + 6) * s), label, TICK_FONT, anchor="mt")
        if yspec.get("showticklabels", True):
            for value, step in self.y.ticks(yspec.get("dtick")):
                at = ((left - 6) * s, self.y.px(value) * s)
                if self.y.log:
                    self._power(draw, at, round(math.log10(value)))
                else:
                    self._text(draw, at, self._label(value, step, yspec, False), TICK_FONT, anchor="rm")
        if xspec.get("title"):
            self._text(draw, ((left + right) / 2 * s, (bottom + 30) * s), xspec["title"]["text"], TITLE_FONT,
                       anchor="mt")
        if yspec.get("title"):
            width = max((self._length(self._label(v, st, yspec, self.y.log), TICK_FONT)
                         for v, st in self.y.ticks(yspec.get("dtick"))), default=0)
            self._vertical_text(yspec["title"]["text"], ((left - width - 20) * s, (top + bottom) / 2 * s),
                                TITLE_FONT)
        if self.layout.get("title"):
            title = self.layout["title"]
            width, height = self.image.size[0] / s, self.image.size[1] / s
            right = title.get("xanchor") == "right"  # a title set from the right (a right-to-left page's)
            self._text(draw, (title.get("x", 0.5) * width * s + (-4 if right else 4) * s,
                              (1 - title.get("y", 0.98)) * height * s + 4 * s),
                       unescape(title["text"]), title.get("font", {}).get("size", 17), anchor="ra" if right else "la")

    def _label(self, value: float, step: float, spec: dict[str, Any], log: bool) -> str:
        """A tick's label (on a log axis, as wide as its power of ten drawn by `_power`)."""
        if log:
            return f"10{round(math.log10(value))}"
        return _in_locale(_tick_text(value, step, spec.get("tickformat")), self.layout.get("separators", ".,"))

    def _power(self, draw: ImageDraw.ImageDraw, right_middle: tuple[float, float], exponent: int) -> None:
        """10 raised to `exponent`, ending at `right_middle`: the exponent smaller and raised, as plotly writes it."""
        small = round(TICK_FONT * 0.75)
        power = str(exponent)
        x, y = right_middle
        self._text(draw, (x, y - 4 * self.s), power, small, anchor="rm")
        self._text(draw, (x - self._length(power, small) * self.s, y), "10", TICK_FONT, anchor="rm")

    def _heatmap(self, trace: dict[str, Any]) -> None:
        """A heat map: each cell in its colour of the scale (with its gap and its text), or a plain grid at once."""
        z = trace["z"]
        xs = trace.get("x") or list(range(len(z[0])))
        ys = trace.get("y") or list(range(len(z)))
        span = _z_range(trace)
        if span is None:
            return
        low, high = span
        scale = _colour_scale(trace)
        reverse = trace.get("reversescale", False)
        gap_x, gap_y = trace.get("xgap", 0) * self.s / 2, trace.get("ygap", 0) * self.s / 2
        text = trace.get("text") if trace.get("texttemplate") else None
        size = trace.get("textfont", {}).get("size", 12)
        layer, draw = self._layer(trace.get("opacity", 1.0))
        edges_x, edges_y = _edges(xs), _edges(ys)
        if not (text or gap_x or gap_y):  # a plain grid: one pixel per cell, stretched over the plot at once
            cells = _grid_image(z, low, high, scale, reverse)
            (x0, y0), (x1, y1) = self._p(edges_x[0], edges_y[-1]), self._p(edges_x[-1], edges_y[0])
            box = (round(min(x0, x1)), round(min(y0, y1)), round(max(x0, x1)), round(max(y0, y1)))
            stretched = cells.resize((max(1, box[2] - box[0]), max(1, box[3] - box[1])), Image.Resampling.NEAREST)
            layer.alpha_composite(stretched, (box[0], box[1]))
            self._merge(layer, trace.get("opacity", 1.0))
            return
        steps = _steps(scale, reverse)
        for r, row in enumerate(z):
            for c, v in enumerate(row):
                if v is None:  # a gap: no colour, its text (if any) in the ink of the page
                    if text and text[r][c]:
                        (x0, y0), (x1, y1) = self._p(edges_x[c], edges_y[r]), self._p(edges_x[c + 1], edges_y[r + 1])
                        self._text(draw, ((x0 + x1) / 2, (y0 + y1) / 2), text[r][c], size)
                    continue
                colour = steps[min(255, max(0, int((v - low) / ((high - low) or 1.0) * 255)))]
                (x0, y0), (x1, y1) = self._p(edges_x[c], edges_y[r]), self._p(edges_x[c + 1], edges_y[r + 1])
                # whole pixels, each cell ending where the next begins: no hairline between touching cells
                left, top = round(min(x0, x1) + gap_x), round(min(y0, y1) + gap_y)
                draw.rectangle([left, top, max(left, round(max(x0, x1) - gap_x) - 1),
                                max(top, round(max(y0, y1) - gap_y) - 1)], fill=colour)
                if text and text[r][c]:
                    dark = 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2] < 140
                    self._text(draw, ((x0 + x1) / 2, (y0 + y1) / 2), text[r][c], size,
                               fill=(255, 255, 255, 255) if dark else (34, 34, 34, 255))
        self._merge(layer, trace.get("opacity", 1.0))

    def _scatter(self, trace: dict[str, Any], default: str) -> None:
        """A scatter trace: its lines (broken at gaps), markers and text."""
        mode = trace.get("mode", "lines+markers")
        line = trace.get("line", {})
        marker = trace.get("marker", {})
        colour = line.get("color") or marker.get("color") or default
        points = [None if x is None or y is None or (self.x.log and x <= 0) or (self.y.log and y <= 0)
                  else self._p(x, y) for x, y in zip(trace["x"], trace["y"])]  # a log axis skips what is not > 0
        layer, draw = self._layer(trace.get("opacity", 1.0))
        if "lines" in mode:
            run: list[tuple[float, float]] = []
            for p in [*points, None]:
                if p is None:
                    if len(run) > 1:
                        self._polyline(draw, run, _rgba(colour), line.get("width", 2), line.get("dash"))
                    run = []
                else:
                    run.append(p)
        if "markers" in mode:
            fill = _rgba(marker.get("color") or colour, marker.get("opacity", 1.0))
            symbol = marker.get("symbol", "circle")
            for k, p in enumerate(points):
                if p is not None:
                    before = points[k - 1] if k else None
                    if symbol == "arrow" and before is None:
                        continue
                    self._marker(draw, p, symbol, marker.get("size", 6), fill,
                                 marker.get("line", {}).get("width", 1.5), before)
        if "text" in mode:
            style = trace.get("textfont", {})
            ink = _rgba(style["color"]) if "color" in style else INK
            for p, label in zip(points, trace.get("text", [])):
                if p is not None and label:
                    self._text(draw, p, label, style.get("size", 12), fill=ink)
        self._merge(layer, trace.get("opacity", 1.0))

    def _shapes(self, below: bool) -> None:
        """The layout's shapes in its layer below the data or above it, those of one opacity on one layer."""
        shapes = [shape for shape in self.layout.get("shapes", []) if (shape.get("layer") == "below") == below]
        for opacity in sorted({shape.get("opacity", 1.0) for shape in shapes}):
            layer, draw = self._layer(opacity)
            for shape in shapes:
                if shape.get("opacity", 1.0) == opacity:
                    self._shape(draw, shape)
            self._merge(layer, opacity)

    def _shape(self, draw: ImageDraw.ImageDraw, shape: dict[str, Any]) -> None:
        """One shape: a filled path, a rectangle with its outline, or a line (its dash drawn)."""
        fill = _rgba(shape["fillcolor"]) if shape.get("fillcolor") else None
        line = shape.get("line", {})
        outline = _rgba(line.get("color", "#444")) if line.get("width", 2) else None
        width = line.get("width", 2)
        if shape["type"] == "path":
            numbers = [float(v) for v in re.findall(r"-?[\d.]+", shape["path"])]
            polygon = [self._p(x, y) for x, y in zip(numbers[0::2], numbers[1::2])]
            draw.polygon(polygon, fill=fill)
        elif shape["type"] == "rect":
            (x0, y0), (x1, y1) = self._p(shape["x0"], shape["y0"]), self._p(shape["x1"], shape["y1"])
            box = [min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)]
            draw.rectangle(box, fill=fill, outline=outline, width=max(1, round(width * self.s)))
        elif shape["type"] == "line" and outline:
            ends = [self._p(shape["x0"], shape["y0"]), self._p(shape["x1"], shape["y1"])]
            self._polyline(draw, ends, outline, width, line.get("dash"))

    def _colour_bars(self) -> None:
        """Each heat map's colour bar right of the plot, with its ticks and title."""
        bars = [t for t in self.traces if t["type"] == "heatmap" and t.get("showscale", True)]
        left, top, right, bottom = self.box
        s = self.s
        for trace in bars:
            bar = trace.get("colorbar", {})
            z_span = _z_range(trace)
            if z_span is None:
                continue
            low, high = z_span
            span = bottom - top
            length = bar.get("len", 1.0) * span
            y_top = top + (1 - bar.get("y", 0.5 if "len" not in bar else 1.0)) * span
            if bar.get("yanchor", "middle") == "middle":
                y_top -= length / 2
            x0 = right + 20
            axis = _Axis(low, high, y_top + length, y_top)
            scale = _colour_scale(trace)
            steps = max(2, round(length))
            for k in range(steps):
                t = k / (steps - 1)
                colour = _scale_colour(scale, 1 - t if trace.get("reversescale") else t)
                y = y_top + length - t * length
                self.draw_.rectangle([x0 * s, (y - 1) * s, (x0 + bar.get("thickness", 30)) * s, (y + 1) * s],
                                     fill=colour)
            for value, step in axis.ticks(None):
                self._text(self.draw_, ((x0 + bar.get("thickness", 30) + 4) * s, axis.px(value) * s),
                           _in_locale(_tick_text(value, step, bar.get("tickformat")),
                                      self.layout.get("separators", ".,")), TICK_FONT, anchor="lm")
            title = bar.get("title", {}).get("text")
            if title:
                self._vertical_text(title, ((x0 + bar.get("thickness", 30) + 58) * s, (y_top + length / 2) * s),
                                    TICK_FONT + 1)

    def _legend(self) -> None:
        """The legend's rows above the plot, under it, or at the chart's foot on a narrow screen."""
        if not self.legend:
            return
        left, top, right, bottom = self.box
        s = self.s
        height = self.image.size[1] / s
        if self.at_foot:
            y = height - LEGEND_ROW * len(self.legend) - 2
        else:
            y = (bottom + 46 if self.legend_below else top - LEGEND_ROW * len(self.legend) - 2)
            y = min(y, height - LEGEND_ROW * len(self.legend))
        draw = self.draw_
        for row in self.legend:
            x = left if self.legend_below else 10.0
            for name, trace, w in row:
                mode = trace.get("mode", "lines")
                line, marker = trace.get("line", {}), trace.get("marker", {})
                colour = _rgba(line.get("color") or marker.get("color") or COLORWAY[0])
                middle = (y + LEGEND_ROW / 2) * s
                if "lines" in mode:
                    sample = [(x * s, middle), ((x + 30) * s, middle)]
                    self._polyline(draw, sample, colour, min(line.get("width", 2), 4), line.get("dash"))
                if "markers" in mode and marker.get("symbol") != "arrow":
                    self._marker(draw, ((x + 15) * s, middle), marker.get("symbol", "circle"),
                                 min(marker.get("size", 6), 10), colour, 1.5, None)
                self._text(draw, ((x + 36) * s, middle), name, TICK_FONT, anchor="lm")
                x += w
            y += LEGEND_ROW

    def _notes(self) -> None:
        """The layout's notes placed on the plot (those the figures have: in the plot's own fractions)."""
        for note in self.layout.get("annotations", []):
            if note.get("xref") == "paper" and note.get("yref") == "paper":
                left, top, right, bottom = self.box
                at = ((left + note["x"] * (right - left)) * self.s, (bottom - note["y"] * (bottom - top)) * self.s)
                self._text(self.draw_, at, unescape(note["text"]), TITLE_FONT)


def _z_range(trace: dict[str, Any]) -> tuple[float, float] | None:
    """The values a heat map's colour scale spans, as plotly sets them (zmin and zmax, else the data's, made
    symmetric about zmid if given); None for a heat map without a value."""
    values = [v for row in trace["z"] for v in row if v is not None]
    if not values:
        return None
    if "zmid" in trace and not ("zmin" in trace and "zmax" in trace):
        half = max(abs(v - trace["zmid"]) for v in values) or 1.0
        return trace["zmid"] - half, trace["zmid"] + half
    return trace.get("zmin", min(values)), trace.get("zmax", max(values))


def _colour_scale(trace: dict[str, Any]) -> list[list[Any]]:
    """A heat map's colour scale, plotly's template's sequential one if it names none."""
    return trace.get("colorscale") or PLOTLY_TEMPLATE["layout"]["colorscale"]["sequential"]


def _grid_image(z: list[list[float | None]], low: float, high: float, scale: list[list[Any]],
                reverse: bool) -> Image.Image:
    """A heat map's grid as an image of one pixel per cell (row 0 at the bottom, no value clear), coloured by
    Pillow from 256 steps of the scale: a 1,000-square board's grid has a million cells."""
    size = (len(z[0]), len(z))
    rows = list(reversed(z))
    values = Image.new("F", size)
    values.putdata([low if v is None else v for row in rows for v in row])
    levels = values.point(lambda v: (v - low) * (255 / ((high - low) or 1.0))).convert("L")  # clipped to 0…255
    cells = Image.frombytes("P", size, levels.tobytes())
    cells.putpalette([channel for colour in _steps(scale, reverse) for channel in colour[:3]])
    cells = cells.convert("RGBA")
    cells.putalpha(Image.frombytes("L", size, bytes(0 if v is None else 255 for row in rows for v in row)))
    return cells


def _steps(scale: list[list[Any]], reverse: bool) -> list[tuple[int, int, int, int]]:
    """256 colours evenly along a colour scale (reversed if `reverse`), low end first."""
    return [_scale_colour(scale, 1 - k / 255 if reverse else k / 255) for k in range(256)]


def _edges(coords: Sequence[float]) -> list[float]:
    """The boundaries of a heat map's cells around their centres (half a step beyond the first and last)."""
    if len(coords) == 1:
        return [coords[0] - 0.5, coords[0] + 0.5]
    mids = [(a + b) / 2 for a, b in zip(coords, coords[1:])]
    return [coords[0] - (coords[1] - coords[0]) / 2, *mids, coords[-1] + (coords[-1] - coords[-2]) / 2]
