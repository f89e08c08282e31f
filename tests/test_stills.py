"""The charts' still images (site_build/pages/stills.py): drawn from the figures, at the chart's size, kept between
builds, and written beside each page with the markup that shows them."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont, features

from chutes.compute.board.file import load_board
from chutes.compute.record.schema import BoardRecord
from chutes.site_build.checks import SiteError
from chutes.site_build.pages import board_page, figures, lettering, stills
from chutes.site_build.project import BUNDLED_BOARDS
from chutes.site_build.tree import render


def _image(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.convert("RGBA")


def _drawn(fig: figures.Figure, form: stills.Form = stills.WIDE, language: str = "en") -> Image.Image:
    """The still before its palette: exact colours."""
    image = Image.new("RGBA", (form.width * form.scale, stills.height_of(fig) * form.scale), (0, 0, 0, 0))
    stills._Still(fig, image, form.scale, form.narrow, language).draw()
    return image


def test_every_chart_of_a_board_page_has_a_still_of_its_size_in_both_forms(bundled_models: list[BoardRecord]):
    pages, _ = board_page.board_pages(bundled_models)
    page = next(p for p in pages if p.slug == "classic")
    charts = board_page.chart_figures(page)
    assert len(charts) == 15
    for name, fig in charts.items():
        for form in stills.FORMS:
            image = _image(stills.still(fig, form))
            assert image.size == (form.width * form.scale, stills.height_of(fig) * form.scale), name
            alpha = image.getchannel("A")
            low, high = alpha.getextrema()
            assert low == 0 and high > 240, f"{name}: a transparent ground with something drawn on it"
            assert sum(alpha.histogram()[1:]) > image.width * image.height // 50, name
        assert stills.still(fig) == stills.still(fig), "the same figure gives the same bytes"


def test_a_heat_map_s_cells_take_their_colour_from_the_scale_and_a_gap_stays_clear():
    fig = figures._figure(
        [figures._trace("heatmap", z=[[0.0, 1.0], [None, 0.5]], colorscale=[[0, "#000000"], [1, "#ffffff"]],
                        showscale=False)],
        {"height": 300, "margin": {"l": 0, "r": 0, "t": 0, "b": 0},
         "xaxis": {"range": [-0.5, 1.5], "showticklabels": False, "showgrid": False},
         "yaxis": {"range": [-0.5, 1.5], "showticklabels": False, "showgrid": False}})
    image = _drawn(fig)
    width, height = image.size
    assert image.getpixel((width // 4, 3 * height // 4)) == (0, 0, 0, 255)  # z = 0, row 0 at the bottom
    assert image.getpixel((3 * width // 4, 3 * height // 4)) == (255, 255, 255, 255)  # z = 1
    assert image.getpixel((width // 4, height // 4))[3] == 0  # no value: nothing drawn
    assert all(abs(c - 128) <= 2 for c in image.getpixel((3 * width // 4, height // 4))[:3])  # halfway up


def test_a_line_on_a_log_axis_leaves_out_what_is_not_positive():
    fig = figures._figure([figures._trace("scatter", x=[1, 2, 3, 4], y=[1.0, 1e-3, 0.0, 1e-6], mode="lines")],
                          {"height": 300, "yaxis": {"type": "log"}, "showlegend": False})
    assert _drawn(fig).getchannel("A").getextrema() == (0, 255)


def test_on_a_narrow_screen_the_legend_is_at_the_foot_of_the_chart(bundled_models: list[BoardRecord]):
    """As the page script lays a chart out under 600 px: the legend leaves the top for the foot."""
    fig = figures.length_figure(bundled_models[0].series.length, cumulative=False)

    def inked_rows(image: Image.Image, top: int, bottom: int) -> int:
        alpha = image.getchannel("A")
        return sum(1 for y in range(top, bottom) if any(alpha.getpixel((x, y)) for x in range(alpha.width)))

    wide, narrow = _drawn(fig, stills.WIDE), _drawn(fig, stills.NARROW)
    assert inked_rows(wide, 0, 28) > 0 and inked_rows(narrow, 0, 28 * stills.NARROW.scale) == 0
    foot = narrow.height - 20 * stills.NARROW.scale
    assert inked_rows(narrow, foot, narrow.height) > 0


def test_kept_stills_are_drawn_once_and_swept_when_long_unused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    fig = figures.seats_figure({"2": [1.1, 0.9], "3": [1.2, 1.0, 0.8]})
    text = figures.to_json(fig)
    kept = stills.Stills(tmp_path)
    first = kept.image(fig, text)
    monkeypatch.setattr(stills, "still", lambda *args: pytest.fail("a kept still drawn again"))
    assert stills.Stills(tmp_path).image(fig, text) == first
    monkeypatch.undo()
    again = stills.Stills(tmp_path)
    narrow = again.image(fig, text, stills.NARROW)
    assert _image(narrow).size[0] == stills.NARROW.width * stills.NARROW.scale
    assert len(list(tmp_path.glob("*.png"))) == 2
    again.sweep()  # this build used only the narrow one, but the other one was used a moment ago
    assert len(list(tmp_path.glob("*.png"))) == 2
    again.sweep(keep_seconds=-1)  # ... long ago
    assert [p.read_bytes() for p in tmp_path.glob("*.png")] == [narrow]


def test_each_page_names_its_charts_stills_and_they_lie_beside_it(bundled_models: list[BoardRecord], tmp_path: Path):
    records = [m for m in bundled_models if m.slug in ("classic", "tiny")]
    files = render.render_pages(records, stills=stills.Stills(tmp_path))
    page = files["boards/classic.md"]
    assert isinstance(page, str)
    for name, fig in board_page.chart_figures(next(p for p in board_page.board_pages(records)[0]
                                                   if p.slug == "classic")).items():
        height = stills.height_of(fig)
        assert (f'id="chart-{name}" role="figure"' in page and f'style="height: {height}px"><picture>'
                f'<source media="{stills.NARROW_MEDIA}" srcset="chart-{name}-narrow.png" width="360" '
                f'height="{height}"><img class="chart-still" src="chart-{name}.png" alt="" width="720" '
                f'height="{height}" loading="lazy" decoding="async"></picture></div>') in page, name
        for form in stills.FORMS:
            data = files[f"boards/classic/chart-{name}{form.suffix}.png"]
            assert isinstance(data, bytes) and _image(data).size == (form.width * form.scale, height * form.scale)
    assert "compare/chart-compare-length.png" in files and "compare/chart-compare-cumulative-narrow.png" in files
    assert "<picture>" not in render.render_pages(records)["boards/classic.md"], "no stills asked for, none named"


def _ink(text: str, language: str = "en", size: int = 40, width: int = 600) -> np.ndarray:
    """`text` drawn shaped, white on black, left end of its baseline at (10, 60): its ink as an array."""
    image = Image.new("L", (width, 90), 0)
    lettering.draw_text(ImageDraw.Draw(image), (10, 60), text, size, 255, anchor="ls", language=language)
    return np.asarray(image, dtype=float)


def _basic(text: str, size: int = 40) -> ImageFont.FreeTypeFont:
    """The shipped font laid out letter by letter, as Pillow does without raqm."""
    return ImageFont.truetype(io.BytesIO(lettering.FONT.read_bytes()), size, layout_engine=ImageFont.Layout.BASIC)


def _columns(ink: np.ndarray) -> tuple[int, int]:
    """The first and last column with ink."""
    inked = np.nonzero(ink.sum(axis=0))[0]
    return int(inked[0]), int(inked[-1])


def test_pillow_here_shapes_text():
    assert features.check("raqm") and lettering.RAQM, "the build's Pillow has raqm (and FriBiDi) to shape text"


def test_devanagari_conjuncts_are_formed():
    """क्ष and श्र are each one conjunct, narrower than the three letters side by side; the vowel sign ि of कि is
    drawn before (left of) its consonant, where it is read."""
    for conjunct in ("क्ष", "श्र"):
        assert lettering.length(conjunct, 40, "hi") < 0.75 * _basic(conjunct).getlength(conjunct), conjunct
    ka, ki = _ink("क", "hi"), _ink("कि", "hi")
    assert _columns(ki)[0] == _columns(ka)[0] and _columns(ki)[1] < _columns(ka)[1] + 20
    assert not np.array_equal(ki[:, :_columns(ka)[1]], ka[:, :_columns(ka)[1]]), "ि drawn over the क, not after it"


def test_arabic_letters_join_and_read_right_to_left():
    """Three behs joined (initial, medial, final forms) are narrower than three isolated ones; in "اب" (alef,
    then beh, which do not join) the alef's tall stroke is the right end; a number in Arabic text keeps its digits'
    order, on the left of the word before it."""
    beh = "\u0628"
    assert lettering.length(beh * 3, 40, "ar") < 0.8 * 3 * lettering.length(beh, 40, "ar")
    ink = _ink("\u0627\u0628", "ar")
    left, right = _columns(ink)
    heights = [np.count_nonzero(ink[:, x]) for x in range(left, right + 1)]
    assert heights.index(max(heights)) > 0.6 * len(heights), "the alef on the right"
    mixed = _ink("رمية 12", "ar")

    def mismatch(digits: str) -> float:
        alone = _ink(digits)
        first, last = _columns(alone)
        piece = alone[:, first:last + 1]
        start = _columns(mixed)[0]
        return float(np.abs(mixed[:, start:start + piece.shape[1]] - piece).sum() / piece.sum())

    assert mismatch("12") < 0.02 and mismatch("21") > 0.2, "12 at the left end, as written"


def test_a_still_s_title_is_shaped_in_its_language():
    """A chart titled in Hindi or Arabic: the title's ink is as wide as its shaped run, far narrower than the
    letters side by side."""
    for language, title in (("hi", "क्षत्रिय श्रम: 12 बार"), ("ar", "السلالم والثعابين: 12 دورًا")):
        fig = figures._figure([], {"height": 120, "title": {"text": title, "x": 0.05, "y": 0.7},
                                   "xaxis": {"visible": False, "showticklabels": False, "showgrid": False},
                                   "yaxis": {"visible": False, "showticklabels": False, "showgrid": False},
                                   "showlegend": False})
        ink = np.asarray(_drawn(fig, language=language).getchannel("A"), dtype=float)
        left, right = _columns(ink)
        shaped = lettering.length(title, 17, language)
        assert abs((right - left) - shaped) < 4 and shaped < 0.9 * _basic(title, 17).getlength(title), language


def test_the_font_draws_every_letter_the_languages_use():
    """No box for a missing letter: the shipped font has every character of the languages' alphabets and the
    signs the figures write (joiners and direction marks are drawn as nothing)."""
    cmap = TTFont(str(lettering.FONT)).getBestCmap()
    alphabets = ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,;:!?%()[]'\"-+/=<>&*#"
                 "áéíóúüñÁÉÍÓÚÜÑ¿¡àâæçèéêëîïôœùûüÿÀÂÆÇÈÉÊËÎÏÔŒÙÛÜŸäöüßÄÖÜẞ«»„“”‘’‹›…–—−×÷→←≤≥½¼¾⁄√∞≈ε·°€₹"
                 "\u202f\u00a0\u200e\u200f\u061c"
                 + "".join(map(chr, range(0x0905, 0x093a))) + "".join(map(chr, range(0x093e, 0x094e)))
                 + "ँंःऽ़।॥०१२३४५६७८९"
                 + "".join(map(chr, range(0x0621, 0x063b))) + "".join(map(chr, range(0x0641, 0x0653)))
                 + "٠١٢٣٤٥٦٧٨٩٪٫٬،؛؟")
    assert [c for c in alphabets if ord(c) not in cmap and c != "ẞ"] == []
    for path in BUNDLED_BOARDS.glob("*.toml"):  # the bundled boards' words, in every language
        board = load_board(path)
        texts = [board.title, board.source, *(t for words in board.words().values() for t in words.values())]
        assert {c for text in texts for c in text if ord(c) not in cmap} == set(), path.name
    notdef = _ink("\uffff")  # a character no font has: what a missing letter looks like
    for text in ("क्षत्रिय", "السلالم", "−3 × 2 → 81 ≤ ½ Café"):
        assert all(ord(c) in cmap for c in text)
        assert not np.array_equal(_ink(text[0]), notdef)


def test_without_raqm_latin_is_drawn_and_shaping_is_refused_in_one_line(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(lettering, "RAQM", False)
    assert lettering.length("Chutes and Ladders", 12) > 0
    assert not lettering.needs_shaping("Café −3 × 2") and lettering.needs_shaping("कि")
    with pytest.raises(SiteError, match=r"^drawing 'साँप' in an image needs Pillow's raqm layout[^\n]*$"):
        lettering.length("साँप", 12, "hi")


def test_the_share_image_sets_an_arabic_title_from_the_column_s_right_edge(bundled_models: list[BoardRecord]):
    board = bundled_models[0].results.board
    image = Image.open(io.BytesIO(figures.share_image(board, [("39,6", "دورًا في المتوسط")], language="ar",
                                                      title="السلالم والثعابين", name="السلالم والثعابين بدقة")))
    title = np.asarray(image.convert("L").crop((22, 40, 680, 120)), dtype=float)
    left, right = _columns(255 - title)
    assert right > 600 and left > 200, "right-aligned at the column's edge (x = 636), the board left where it is"
