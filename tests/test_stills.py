"""The charts' still images (site_build/stills.py): drawn from the figures, at the chart's size, kept between
builds, and written beside each page with the markup that shows them."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from chutes.compute.record.schema import BoardRecord
from chutes.site_build import board_page, figures, render, stills


def _image(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.convert("RGBA")


def _drawn(fig: figures.Figure, form: stills.Form = stills.WIDE) -> Image.Image:
    """The still before its palette: exact colours."""
    image = Image.new("RGBA", (form.width * form.scale, stills.height_of(fig) * form.scale), (0, 0, 0, 0))
    stills._Still(fig, image, form.scale, form.narrow).draw()
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


def test_signs_the_font_lacks_are_written_with_those_it_has():
    assert stills._drawable("ladder 79→81 − 3 × 2, Café ≤ ½") == "ladder 79->81 - 3 x 2, Cafe <= 1/2"
