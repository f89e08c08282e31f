"""The build stage: pages from the cache, identical rebuilds, offline and link checks, safe publishing."""

from __future__ import annotations

import copy
import csv
import json
import os
import re
import struct
from fractions import Fraction
from pathlib import Path

import gmpy2
import plotly
import pytest
from helpers import new_project

from chutes.cli.site import compute_stage
from chutes.compute.numbers import decimal_string
from chutes.compute.record.schema import BoardRecord
from chutes.site_build import pipeline
from chutes.site_build.checks import SiteError, broken_links, outside_references
from chutes.site_build.pages import board_page, downloads, figures
from chutes.site_build.pages.tables import board_tables
from chutes.site_build.pages.words import PageWords, plain
from chutes.site_build.project import DEFAULT_SITE_SRC, DEFAULT_TEMPLATES
from chutes.site_build.tree import docs_tree, render

ENGLISH = PageWords()
games, per_thousand, percent = ENGLISH.words.games, ENGLISH.words.per_thousand, ENGLISH.words.percent
rounded = ENGLISH.rounded


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_every_page_and_download_is_built(built_site: Path, bundled_records: list[dict]) -> None:
    for page in ("index.html", "compare/index.html", "house-rules/index.html", "method/index.html", "data/index.html",
                 "404.html"):
        assert (built_site / page).is_file(), page
    for record in bundled_records:
        slug = record["slug"]
        html = (built_site / "boards" / slug / "index.html").read_text()
        assert html.count('class="chutes-chart"') == ((10 if "skipped" in record["experiments"] else 14)
                                                    + (record["results"]["landing_chance"] is not None)
                                                    + (record["results"].get("strategy") is not None))  # the play
        p = record["results"]["first_player_wins"]
        fraction = (built_site / "data" / f"{slug}-first-player.txt").read_text()
        assert fraction == f"{p['numerator']}/{p['denominator']}\n"
        assert json.loads((built_site / "data" / f"{slug}.json").read_text()) == record
        csv_lines = (built_site / "data" / f"{slug}-distribution.csv").read_text().splitlines()
        assert csv_lines[0].startswith("turns,probability,cumulative")
        assert len(csv_lines) == len(record["series"]["length"]["turns"]) + 1
        assert p["numerator"] in html, "the whole fraction is on the page"
    assert (built_site / "assets" / "javascripts" / "plotly.min.js").stat().st_size > 1_000_000


def test_headline_numbers_in_words(built_site: Path, bundled_records: list[dict]) -> None:
    html = (built_site / "boards" / "classic" / "index.html").read_text()
    assert "508 of every 1,000 games" in html
    assert "39.60 turns" in html
    assert "4,453 digits" in html
    assert "0.50780 27734 60913 97787 39238 78419 54080 71654 27671 87941…" in html, "truncated, not rounded"
    home = (built_site / "index.html").read_text()
    assert "508 in 1,000" in home and "Chutes and Ladders (Milton Bradley, 1943)" in home


def test_the_first_of_three_players_is_shown_exactly_where_the_record_has_it(
        built_site: Path, bundled_records: list[dict]) -> None:
    """The page shows the first 50 digits and the sizes, and links (never inlines) the whole fraction, which
    lies inside the certified seat-1-of-3 interval; a board without it says why."""
    shown = 0
    for record in bundled_records:
        slug, three = record["slug"], record["players"]["first_of_three"]
        html = (built_site / "boards" / slug / "index.html").read_text()
        text = built_site / "data" / f"{slug}-first-of-three.txt"
        if "skipped" in three:
            assert plain(three["skipped"]) in html and not text.exists()
            continue
        shown += 1
        assert text.read_text() == f"{three['numerator']}/{three['denominator']}\n"
        assert f'href="../../data/{slug}-first-of-three.txt"' in html and 'class="chutes-fraction"' in html
        assert f"{three['numerator_digits']:,} digits" in html
        assert " ".join(three["truncated"][2 + 5 * i:7 + 5 * i] for i in range(10)) + "…" in html
        if len(three["numerator"]) > 60:
            assert three["numerator"][:60] not in html, "too long to inline: loaded when the box is opened"
        exact = gmpy2.mpq(f"{three['numerator']}/{three['denominator']}")  # GMP: Fraction's gcd of 10⁶ digits is slow
        certified = record["players"]["seats"]["3"][0]
        assert abs(exact - gmpy2.mpq(certified["decimal"])) <= gmpy2.mpq(certified["error_bound"])
    assert shown >= 7


def test_whole_fraction_is_kept_out_of_the_search_index(built_site: Path, bundled_records: list[dict]) -> None:
    index = (built_site / "search" / "search_index.json").read_text()
    assert "Going first" in index, "the board pages are indexed"
    for record in bundled_records:
        digits = record["results"]["first_player_wins"]["numerator"]
        if len(digits) > 60:
            assert digits[:60] not in index


def test_maths_is_rendered_as_mathml_at_build_time(built_site: Path) -> None:
    html = (built_site / "method" / "index.html").read_text()
    assert html.count("<math") >= 8 and "\\sum" not in html and "#!math" not in html


def test_the_built_site_is_offline_and_its_links_work(built_site: Path) -> None:
    assert outside_references(built_site) == []
    assert broken_links(built_site) == []


def test_every_page_s_headings_go_down_one_level_at_a_time(built_site: Path) -> None:
    """A page's content starts with its h1 and never skips a level going down (h2 → h4): screen readers list the
    headings as an outline, and Lighthouse's accessibility score counts a skipped level against the page."""
    for page in built_site.rglob("index.html"):
        html = page.read_text()
        content = html[html.find("<article"):html.find("</article>")]
        levels = [int(level) for level in re.findall(r"<h([1-6])[\s>]", content)]
        assert levels[:1] == [1], page
        assert all(b <= a + 1 for a, b in zip(levels, levels[1:])), (page, levels)


def test_checks_catch_outside_urls_and_broken_links(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text(
        '<html><head><script src="https://cdn.example.com/plotly.js"></script>\n'
        '<link rel="stylesheet" href="//fonts.example.com/x.css"></head>\n'
        '<body id="top"><a href="../b/">b</a> <a href="#top">ok</a> <a href="#nowhere">bad</a>\n'
        '<img src="../img/missing.png" alt=""></body></html>')
    (tmp_path / "style.css").write_text("body { background: url('http://example.com/bg.png'); }\n")
    outside = outside_references(tmp_path)
    assert len(outside) == 3 and any("cdn.example.com" in p and "a/index.html:1" in p for p in outside)
    broken = broken_links(tmp_path)
    assert len(broken) == 3
    assert any("../b/" in p for p in broken) and any("#nowhere" in p for p in broken)
    assert any("missing.png" in p for p in broken)


def test_rebuild_gives_identical_bytes(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1795000000")
    one = new_project(tmp_path / "one")
    two = new_project(tmp_path / "two", cache_dir=one.cache_dir)
    first = pipeline.build_site(one, compute_stage(quiet=True))
    second = pipeline.build_site(two, compute_stage(quiet=True))
    assert _files(first) == _files(second)
    assert _files(one.docs_dir) == _files(two.docs_dir)


def test_an_unchanged_build_keeps_the_published_site(tmp_path: Path, monkeypatch) -> None:
    """Nothing changed: the site is left as published (not a file written); a file touched but not changed is no
    change; a file changed in the published folder, or an edited page, builds it again, to the same bytes."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1795000000")
    project = new_project(tmp_path / "p")
    site = pipeline.build_site(project, compute_stage(quiet=True))
    published = _files(site)
    times = {p: p.stat().st_mtime_ns for p in site.rglob("*")}
    os.utime(project.config_file)
    pipeline.build_site(project, compute_stage(quiet=True))
    assert {p: p.stat().st_mtime_ns for p in site.rglob("*")} == times, "an unchanged build wrote nothing"
    (site / "index.html").write_text("edited by hand")
    pipeline.build_site(project, compute_stage(quiet=True))
    assert _files(site) == published, "a changed site is built again, to the same bytes"
    (project.root / "site_src" / "note.md").write_text("# Note\n\nA new page.\n")
    pipeline.build_site(project, compute_stage(quiet=True))
    assert "A new page." in (site / "note" / "index.html").read_text()


def test_an_unchanged_build_reads_no_record_and_a_changed_one_reads_them(tmp_path: Path, monkeypatch) -> None:
    """With the compute stage's keys (as `chutes build` passes them), nothing changed is seen from the boards' cache
    keys alone: the records are not read; a changed input (a board edited: its key changes) reads them, and builds
    the page it changes."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1795000000")
    project = new_project(tmp_path / "p")
    stage = compute_stage(quiet=True)
    site = pipeline.build_site(project, stage, keys=stage.keys)
    read: list[int] = []

    def records(project):
        read.append(1)
        return compute_stage(quiet=True)(project)

    times = {p: p.stat().st_mtime_ns for p in site.rglob("*")}
    pipeline.build_site(project, records, keys=compute_stage(quiet=True).keys)
    assert read == [] and {p: p.stat().st_mtime_ns for p in site.rglob("*")} == times
    tiny = project.boards_dir / "tiny.toml"
    tiny.write_text(re.sub(r"^title = .*$", 'title = "A tiny board, renamed"', tiny.read_text(), flags=re.M))
    pipeline.build_site(project, records, keys=compute_stage(quiet=True).keys)
    assert read == [1] and "A tiny board, renamed" in (site / "boards" / "tiny" / "index.html").read_text()


def test_a_failed_build_leaves_the_previous_site(tmp_path: Path, monkeypatch) -> None:
    project = new_project(tmp_path / "project")
    site = pipeline.build_site(project, compute_stage(quiet=True))
    before = _files(site)
    real = render.render_pages

    def with_cdn(records, *folders, **settings):
        files = real(records, *folders, **settings)
        files["cdn.md"] = '# CDN\n\n<script src="https://cdn.example.com/x.js"></script>\n'
        return files

    monkeypatch.setattr(pipeline, "render_pages", with_cdn)
    (project.root / "site_src" / "note.md").write_text("# Note\n")  # an edit: an unchanged project is not built
    (project.root / "site_src" / "house.md").write_text(
        "# Our rules\n\n![The box](https://images.example.org/box.png)\n\n<img src=\"https://images.example.org/"
        "lid.png\" alt=\"The lid\">\n\nA [link](https://example.org/) to another site is fine.\n")
    with pytest.raises(SiteError, match="cdn.example.com") as failed:
        pipeline.build_site(project, compute_stage(quiet=True))
    lines = str(failed.value).splitlines()
    assert all(line.startswith("site not published: ") for line in lines), lines
    said = [line.removeprefix("site not published: ") for line in lines]
    assert any(re.fullmatch(r"site_src/house.md:3: <img> refers to https://images.example.org/box.png: it would "
                            r"load from another site \(built as house/index.html:\d+\)", line) for line in said), said
    assert any(line.startswith("site_src/house.md:5: <img> refers to https://images.example.org/lid.png") for line in
               said), "every problem, none hidden"
    assert any(line.startswith("cdn/index.html:") and "cdn.example.com" in line for line in said), said
    assert not any("example.org/\"" in line or "https://example.org/ " in line for line in said), "links are fine"
    assert said[-1].startswith("to fix it: put each file a page shows in site_src/assets/"), said
    assert _files(site) == before
    assert [p.name for p in site.parent.iterdir() if ".chutes-" in p.name] == [], "no staging folder is left"


def _two(models: list[BoardRecord]) -> list[BoardRecord]:
    """The classic board's record and noordenbos's (which leaves out the first of three players): enough boards
    for the tests of the templates, a tenth of the rendering."""
    return [m for m in models if m.slug in ("classic", "noordenbos")]


def test_generated_pages_are_only_rewritten_when_they_change(tmp_path: Path,
                                                             bundled_models: list[BoardRecord]) -> None:
    docs = tmp_path / "docs"
    files = render.render_pages(_two(bundled_models))
    assert docs_tree.write_docs(files, docs)
    assert docs_tree.write_docs(files, docs) == []
    (docs / "stale.md").write_text("old")
    assert docs_tree.write_docs(files, docs) == ["stale.md"] and not (docs / "stale.md").exists()


def test_a_page_is_left_out_only_with_a_note_saying_why(bundled_models: list[BoardRecord]) -> None:
    """The bundled boards have both occasional pages; boards with house rules without their plain board have no
    House rules page, and boards the literature does not cover all of, no literature page: a note says each."""
    assert render.left_out(bundled_models, [DEFAULT_SITE_SRC]) == []
    variants = [m for m in bundled_models if m.slug.startswith("classic-") and m.results.board.house_rules]
    notes = render.left_out(variants, [DEFAULT_SITE_SRC])
    assert len(notes) == 2 and notes[0].startswith("no House rules page (house-rules/): it is made only when")
    assert notes[1].startswith("no What others found page (literature/): the package's literature.toml gives "
                               "figures of boards this site does not have (classic, ")
    assert render.left_out([m for m in bundled_models if m.slug in ("classic", "classic-roll-again")],
                           [DEFAULT_SITE_SRC])[0].startswith("no What others found page"), "a group: the page"


def test_a_broken_template_is_one_line_naming_it(bundled_models: list[BoardRecord], tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "data.md.j2").write_text("# Data\n\n{% for p in boards %}\n{{ p.nothing_here }\n")
    with pytest.raises(SiteError, match=r"^templates/data.md.j2:4: "):
        render.render_pages(_two(bundled_models), [templates, DEFAULT_TEMPLATES])
    (templates / "data.md.j2").write_text("{{ boards[0].no_such_field }}\n")
    with pytest.raises(SiteError, match=r"^templates/data.md.j2:1: .*no_such_field"):
        render.render_pages(_two(bundled_models), [templates, DEFAULT_TEMPLATES])
    (templates / "index.md.j2").write_text("# Home\n\n{% for b in boardz %}\n{{ b }}\n{% endfor %}\n")
    with pytest.raises(SiteError, match=r"^templates/index.md.j2:3: 'boardz' is undefined$"):
        render.render_pages(_two(bundled_models), [templates, DEFAULT_TEMPLATES])
    (templates / "_late.j2").write_text("{% macro late() %}\n\n{{ nope }}\n{% endmacro %}\n")
    (templates / "index.md.j2").write_text("{% import '_late.j2' as m %}\n# Home\n{{ m.late() }}\n")
    with pytest.raises(SiteError, match=r"^templates/_late.j2:3: 'nope' is undefined$"):
        render.render_pages(_two(bundled_models), [templates, DEFAULT_TEMPLATES])


def test_a_template_reads_the_record_by_its_fields(bundled_models: list[BoardRecord], tmp_path: Path) -> None:
    """Templates get the typed record: a field that is not in the model (a renamed one) stops the build, and a
    part left out is told apart by the test `is skipped`, not by a key."""
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "data.md.j2").write_text("{{ boards[0].record.results.board.squares_count }}\n")
    with pytest.raises(SiteError, match=r"^templates/data.md.j2:1: .*squares_count"):
        render.render_pages(_two(bundled_models), [templates, DEFAULT_TEMPLATES])
    (templates / "data.md.j2").write_text("{% for p in boards %}{{ p.slug }}: "
                                          "{{ p.record.players.first_of_three is skipped }}\n{% endfor %}")
    data = render.render_pages(_two(bundled_models), [templates, DEFAULT_TEMPLATES])["data.md"]
    assert "noordenbos: True" in data and "classic: False" in data


def _meta(html: str, name: str) -> str:
    found = re.search(rf'<meta (?:property|name)="{re.escape(name)}" content="([^"]*)"', html)
    assert found, name
    return found.group(1)


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_board_pages_have_share_cards_and_a_citation(built_site: Path, bundled_records: list[dict]) -> None:
    home = (built_site / "index.html").read_text()
    site_url = re.search(r'<link rel="canonical" href="([^"]+)"', home).group(1)
    assert _meta(home, "og:title") == "Chutes and Ladders, exactly" and _meta(home, "og:type") == "website"
    for record in bundled_records:
        slug = record["slug"]
        html = (built_site / "boards" / slug / "index.html").read_text()
        url = f"{site_url}boards/{slug}/"
        assert f'<link rel="canonical" href="{url}">' in html
        assert _meta(html, "og:url") == url and _meta(html, "twitter:card") == "summary_large_image"
        assert _meta(html, "og:title") == _meta(html, "twitter:title") == plain(record["results"]["board"]["title"])
        description = _meta(html, "og:description")
        assert description == _meta(html, "twitter:description") == _meta(html, "description")
        p = record["results"]["first_player_wins"]["decimal"]
        assert f"{per_thousand(p)} of every 1,000 games" in description
        assert f"{rounded(record['results']['expected_turns']['decimal'], 2)} turns on average" in description
        image = _meta(html, "og:image")
        assert image == _meta(html, "twitter:image") == site_url + f"data/{slug}-share.png"
        cite = html[html.index('id="cite-this-page"'):]
        assert f'<a href="{url}">{url}</a>' in cite and f"version {record['version']}," in cite
        assert f"@misc{{chutes-{slug}," in cite
    assert _png_size(built_site / "assets" / "images" / "share.png") == (1200, 630)


def test_the_data_page_lists_every_download_and_describes_every_field(built_site: Path,
                                                                     bundled_models: list[BoardRecord]) -> None:
    """Every board's downloads (`downloads.DOWNLOADS`, the share image aside) are linked from the Data page, the
    first of three players' where the record has it; every field of its tables has a type and a description, and
    a part's type links to its entry there."""
    data_page = (built_site / "data" / "index.html").read_text()
    pages = {p.slug: p for p in board_page.board_pages(bundled_models)[0]}
    for slug, page in pages.items():
        for name, (file, _) in downloads.DOWNLOADS.items():
            if name == "share" or (name == "three" and page.three_file is None):
                continue
            assert f'href="{file.format(slug=slug).removeprefix("data/")}"' in data_page, (slug, file)
    assert any(p.three_file is None for p in pages.values()) and any(p.three_file for p in pages.values())
    cells = re.findall(r"<tr>\s*<td><code>([^<]+)</code></td>\s*<td>(.*?)</td>\s*<td>(.*?)</td>\s*</tr>", data_page,
                       re.S)
    assert len(cells) > 200
    assert [field for field, kind, text in cells if not kind.strip() or text.strip() in ("", "—")] == []
    assert '<a href="#results"><code>Results</code></a>' in data_page and 'id="results"' in data_page


def test_downloads_show_their_size(built_site: Path, bundled_records: list[dict]) -> None:
    data_page = (built_site / "data" / "index.html").read_text()
    for record in bundled_records:
        slug = record["slug"]
        size = downloads.size_text((built_site / "data" / f"{slug}.json").stat().st_size)
        link = f'<a download="{slug}.json" href="../../data/{slug}.json">'
        html = (built_site / "boards" / slug / "index.html").read_text()
        assert f'{link}{slug}.json</a> ({size}' in html
        assert f'<a download="{slug}.json" href="{slug}.json">{slug}.json</a> ({size})' in data_page
    assert downloads.size_text(999) == "999 bytes" and downloads.size_text(8_870) == "8.9 kB"
    assert downloads.size_text(19_400) == "19 kB" and downloads.size_text(3_912_345) == "3.9 MB"


def test_plotly_is_the_small_bundle_loaded_only_where_charts_are(built_site: Path) -> None:
    shipped = (built_site / "assets" / "javascripts" / "plotly.min.js").read_text()
    bundled = (Path(plotly.__file__).parent / "package_data" / "plotly.min.js").read_text()
    version = re.search(r"plotly\.js v(\d+\.\d+\.\d+)", bundled[:300]).group(1)
    assert f"plotly.js (cartesian - minified) v{version}" in shipped[:600], "the version plotly.py draws with"
    assert len(shipped) < 2_000_000
    for page in built_site.rglob("*.html"):
        html = page.read_text()
        assert not re.search(r"<script[^>]*(plotly\.min|charts)\.js", html), page  # (the guide names them)
        assert "assets/javascripts/loader.js" in html, page
    board = (built_site / "boards" / "classic" / "index.html").read_text()
    assert '"showSendToCloud":false' in board and "plotlyServerURL" not in board


def test_each_board_page_shares_an_image_of_its_own(built_site: Path, bundled_records: list[dict]) -> None:
    """og:image and twitter:image name the board's own 1200 × 630 PNG, made at build time, its words in the alt
    text; the other pages keep the site's image. The same record gives the same bytes."""
    home = (built_site / "index.html").read_text()
    site_url = re.search(r'<link rel="canonical" href="([^"]+)"', home).group(1)
    assert _meta(home, "og:image") == site_url + "assets/images/share.png"
    for record in bundled_records:
        slug, res = record["slug"], record["results"]
        html = (built_site / "boards" / slug / "index.html").read_text()
        image = f"data/{slug}-share.png"
        assert _meta(html, "og:image") == _meta(html, "twitter:image") == site_url + image
        assert (_meta(html, "og:image:width"), _meta(html, "og:image:height")) == ("1200", "630")
        assert _png_size(built_site / image) == (1200, 630)
        alt = _meta(html, "og:image:alt")
        assert alt == _meta(html, "twitter:image:alt") and alt.startswith(plain(res["board"]["title"]))
        model = BoardRecord.model_validate(record)
        g = model.results.game_length
        for words in (f"{rounded(res['expected_turns']['decimal'], 1)} turns on average",
                      f"{g.median} turns or fewer in {games(g.at_most[str(g.median)])} (the median)",
                      f"{per_thousand(res['first_player_wins']['decimal'])} in 1,000 games"):
            assert plain(words) in alt, (slug, words, alt)
        again = figures.share_image(model.results.board, board_page.headlines(model))
        assert again == (built_site / image).read_bytes(), "the same inputs give the same bytes"
    assert len({(built_site / "data" / f"{r['slug']}-share.png").read_bytes() for r in bundled_records}) == \
        len(bundled_records), "each board its own image"


def test_each_square_csv_holds_the_record(built_site: Path, bundled_records: list[dict]) -> None:
    data_page = (built_site / "data" / "index.html").read_text()
    for record in bundled_records:
        slug = record["slug"]
        name = f"{slug}-squares.csv"
        text = (built_site / "data" / name).read_text()
        rows = list(csv.DictReader(text.splitlines()))
        squares = record["series"]["squares"]
        landings = {j["from"]: j["per_game"]["decimal"] for j in record["results"]["jump_usage"]}
        landed = record["results"]["landing_chance"] or {}
        assert text.splitlines()[0] == "square,turns_left,visits,landings,landing_chance"
        assert [int(row["square"]) for row in rows] == squares["square"]
        for row, left, visits in zip(rows, squares["turns_left"], squares["visits"]):
            assert (None if row["turns_left"] == "" else float(row["turns_left"])) == left, (slug, row)
            assert (None if row["visits"] == "" else float(row["visits"])) == visits, (slug, row)
            assert row["landings"] == landings.get(int(row["square"]), ""), (slug, row)
            assert row["landing_chance"] == landed.get(row["square"], {}).get("decimal", ""), (slug, row)
        assert set(landings) <= set(squares["square"]) and all(row["landings"] for row in rows
                                                                 if int(row["square"]) in landings)
        html = (built_site / "boards" / slug / "index.html").read_text()
        assert f'<a download="{name}" href="../../data/{name}">' in html
        assert f'<a download="{name}" href="{name}">{name}</a>' in data_page


def test_the_board_comes_alive_from_the_record(built_site: Path, bundled_records: list[dict]) -> None:
    """The page carries the record's positions after each turn, in millionths, beside the heat map's figure."""
    for record in bundled_records:
        positions = record["series"]["positions"]
        html = (built_site / "boards" / record["slug"] / "index.html").read_text()
        found = re.search(r'<div class="chutes-alive-data"[^>]*data-for="alive"[^>]*>(.*?)</div>', html)
        data = json.loads(found.group(1))
        assert data["feet"] == positions["feet"] and data["turns"] == positions["turns"][-1]
        assert positions["turns"] == list(range(len(data["millionths"])))
        for shown, row in zip(data["millionths"], positions["on_square"], strict=True):
            assert len(shown) == len(row) == record["results"]["board"]["squares"] + 1
            assert all(abs(m / 1e6 - v) <= 5.000001e-7 and (m == 0) == (v == 0) for m, v in zip(shown, row))
        assert f'max="{positions["turns"][-1]}"' in html and 'id="chart-alive"' in html
        assert '<label for="alive-turn">Turns played</label>' in html


def _classic(records: list[dict]) -> dict:
    """A copy of the classic board's record, to alter in a test."""
    return copy.deepcopy(next(r for r in records if r["slug"] == "classic"))


def test_a_long_two_player_fraction_is_linked_not_inlined(bundled_records: list[dict], monkeypatch) -> None:
    """Past INLINE_FRACTION_CHARS (page weight) the page holds a box stating the size of the text, which
    fraction.js fills from the box's download link; the text file has the whole fraction."""
    record = _classic(bundled_records)
    p = record["results"]["first_player_wins"]
    monkeypatch.setattr(board_page, "INLINE_FRACTION_CHARS", 1000)
    files = render.render_pages([BoardRecord.model_validate(record)])
    md = files["boards/classic.md"]
    assert p["numerator"][:60] not in md and p["denominator"][:60] not in md
    assert "```text" not in md and md.count('<pre class="chutes-fraction" tabindex="0">') == 2
    box = md[md.index('??? note "The whole fraction (4,453 digits over 4,453)"'):md.index("### Closing in on it")]
    text = " ".join(box.split())
    size = board_page.BoardPage(BoardRecord.model_validate(record)).fraction_size
    assert f"{size} of text, shown here when you open this box." in text
    assert '[download it as a text file](../data/classic-first-player.txt){ download="classic-first-player.txt" }' \
        in text and '<pre class="chutes-fraction"' in text
    assert files["data/classic-first-player.txt"] == f"{p['numerator']}/{p['denominator']}\n"
    monkeypatch.undo()
    again = render.render_pages([BoardRecord.model_validate(record)])["boards/classic.md"]
    assert f"```text\n    {p['numerator']}/{p['denominator']}\n" in again


def _state_map_text(record: dict) -> str:
    """The "Who is ahead" section of the record's board page, its lines joined."""
    md = render.render_pages([BoardRecord.model_validate(record)])[f"boards/{record['slug']}.md"]
    return " ".join(md[md.index("### Who is ahead"):md.index("### Try it")].split())


def test_a_sampled_state_map_says_what_it_shows(bundled_records: list[dict]) -> None:
    """A big board's record keeps an evenly spaced sample of the squares in its state map: the page says how
    many of how many, points to the calculator for the rest, and no longer claims the JSON has them all."""
    record = _classic(bundled_records)
    sm = record["players"]["state_map"]
    full = sm["mover_wins"]
    keep = range(0, len(sm["squares"]), 2)
    sm["squares"] = [sm["squares"][i] for i in keep]
    sm["mover_wins"] = [[full[i][j] for j in keep] for i in keep]
    assert (len(sm["squares"]), record["results"]["turn_states"]) == (41, 81)
    text = _state_map_text(record)
    assert ("A turn can start on 81 squares of this board, too many to draw every pair: the map shows 41 of them, "
            "evenly spaced from square 0 to square 99.") in text
    assert "The calculator below gives the chance for any pair of squares, on the map or not" in text
    assert "the same 41 squares as the map" in text
    assert "whole table" not in text and "full table" not in text
    assert "(the 41 evenly spaced squares of the map, of the 81 where a turn can start; the calculator below " \
        "gives any other square)" in text
    second = sm["squares"][1]
    assert f"<tr><td>{second}</td><td>{percent(full[2][2], 2)}</td></tr>" in text, "the diagonal of the sample"


def test_a_full_state_map_points_to_the_whole_table(bundled_records: list[dict]) -> None:
    text = _state_map_text(_classic(bundled_records))
    assert "the data page's file has the whole table" in text
    assert "(the full table is in the JSON on the data page)" in text
    assert "evenly spaced" not in text


def test_every_chart_is_a_figure_plotly_accepts_unchanged(bundled_models: list[BoardRecord]) -> None:
    """The figures are written as plain data (the build writes hundreds); plotly's own figure objects check each
    property name and value and give every figure back as it is: no misspelt property, no value plotly would
    rewrite (a named colour scale, say). Each is checked as the page draws it, with the template the site writes
    once (`figures.TEMPLATE_SCRIPT`) and no figure carries."""
    import plotly.graph_objects as go

    pages, listed = board_page.board_pages(bundled_models)
    curves = [(p.title, p.record.series.length) for p in listed]
    charts = [fig for page in pages for fig in board_page.chart_figures(page).values()]
    charts += [figures.overlay_figure(curves, cumulative) for cumulative in (False, True)]
    assert len(charts) > 200
    for fig in charts:
        assert "template" not in fig["layout"]
        drawn = {**fig, "layout": {**fig["layout"], "template": figures.PLOTLY_TEMPLATE}}
        assert json.loads(json.dumps(go.Figure(drawn).to_plotly_json())) == json.loads(json.dumps(drawn))


# --- a board with a choice: the coin ---------------------------------------------------------------------------


def _coin(bundled_records: list[dict]) -> dict:
    return copy.deepcopy(next(r for r in bundled_records if r["slug"] == "classic-coin"))


def _play_section(md: str) -> str:
    return md[md.index("## Playing best: when to flip the coin"):md.index("## The board comes alive")]


def test_a_board_with_a_choice_shows_its_best_play(bundled_records: list[dict]) -> None:
    """The coin board's page: its sentence for the table, the best play drawn on the board (a square coloured where
    it flips for some roll, the rolls written under its number) with its table of square → rolls, the strategies
    compared and the two-player chances; a board without a choice has none of it."""
    record = _coin(bundled_records)
    strategy = record["results"]["strategy"]
    model = BoardRecord.model_validate(record)
    pages = render.render_pages([model])
    section = _play_section(pages["boards/classic-coin.md"])
    assert f"**{strategy['advice']}**" in section and strategy["advice"].startswith("Flip when ")
    by_square: dict[int, list[int]] = {}
    for q, r in strategy["flips"]:
        by_square.setdefault(q, []).append(r)
    assert f"Off the board, on square 0: flip on a roll of {figures.either(by_square[0])}." in " ".join(section.split())
    page = board_page.BoardPage(model)
    fig = board_page.chart_figures(page)["play"]
    cells, digits = fig["data"][0], next(t for t in fig["data"] if t["name"] == "rolls to flip for")
    width = figures.grid_columns(100)
    col, row = figures.cell(2, width)
    assert cells["z"][row][col] == 1.0 and "flip on a roll of" in cells["customdata"][row][col]
    col, row = figures.cell(80, width)  # a ladder's foot: no roll is made there
    assert cells["z"][row][col] == 0.0
    assert digits["text"][digits["x"].index(figures.cell(2, width)[0])] == "".join(map(str, by_square[2]))
    assert len(digits["text"]) == page.flip_squares == len([q for q in by_square if q >= 1])
    table = board_tables(model, None, ["play"])["play"]
    assert "<td>0 (off the board)</td><td>" + ", ".join(map(str, by_square[0])) + "</td>" in table
    assert f"<tr><td>2</td><td>{', '.join(map(str, by_square[2]))}</td></tr>" in table
    rows = {row["key"]: row for row in strategy["strategies"]}
    assert f"| Never flip (the box rules) | {rounded(rows['never']['expected_turns']['decimal'], 2)} | " in section
    assert f"| The best play | {rounded(rows['best']['expected_turns']['decimal'], 2)} | 0.00 |" in section
    p = strategy["both_best"]
    assert (f"| Both play best (the fewest turns on average): either player | {percent(p['decimal'], 2)} | "
            f"{percent(decimal_string(1 - Fraction(int(p['numerator']), int(p['denominator'])), 50), 2)} |") in section
    for key in ("against_box", "both_maximise"):
        duel = strategy.get(key)
        if duel:
            assert f" | {percent(duel['first'], 2)} | {percent(duel['second'], 2)} |" in section
    assert "Playing best" not in render.render_pages([BoardRecord.model_validate(_classic(bundled_records))])[
        "boards/classic.md"]


def test_a_board_with_a_choice_under_a_limit_shows_where_the_rolls_so_far_change_it(bundled_records: list[dict]
                                                                                   ) -> None:
    """The family rules with the coin: the later rolls of a turn played otherwise are named in words, ringed on the
    board with their choice in the hover, listed in the table's last column; the sentence for the table names the
    roll that is never moved; the two-player games by the other's square are in the table of two players."""
    record = next(r for r in bundled_records if r["slug"] == "classic-family-coin")
    strategy = record["results"]["strategy"]
    later = strategy["later"]
    assert later and all(c["roll"] == 6 and c["rolls_so_far"] == 1 for c in later)  # a limit of 2: the second roll
    assert strategy["against_box"] and strategy["both_maximise"] and "duels_not_computed" not in strategy
    assert "(a third 6 in one turn is not moved, coin or not)" in strategy["advice"]
    model = BoardRecord.model_validate(record)
    section = " ".join(_play_section(render.render_pages([model])["boards/classic-family-coin.md"]).split())
    ringed = sorted({c["square"] for c in later if c["square"] >= 1})
    assert f"The {len(ringed)} squares with a small ring at the corner play such a 6 otherwise" in section
    assert "not worked out" not in section
    for key in ("against_box", "both_maximise"):
        assert f" | {percent(strategy[key]['first'], 2)} | {percent(strategy[key]['second'], 2)} |" in section
    fig = board_page.chart_figures(board_page.BoardPage(model))["play"]
    rings = next(t for t in fig["data"] if t["name"] == "squares where a later roll of a turn is played otherwise")
    width = figures.grid_columns(100)
    assert sorted(zip(rings["x"], rings["y"])) == sorted((c + 0.32, r + 0.3) for c, r in
                                                         (figures.cell(q, width) for q in ringed))
    first = later[0]
    col, row = figures.cell(first["square"], width)
    hover = fig["data"][0]["customdata"][row][col]
    assert "later in a turn, a 6 as roll 2 of a turn begun on " in hover
    assert ("flip" if first["flip"] else "move") in hover.split("later in a turn, ")[1]
    table = board_tables(model, None, ["play"])["play"]
    assert ">Later in a turn, otherwise</th>" in table and figures.later_words(model.results.strategy.later)[
        first["square"]] in table


def test_a_two_player_chance_the_record_lacks_is_left_out_and_a_new_one_is_one_line(
        bundled_records: list[dict], monkeypatch) -> None:
    record = _coin(bundled_records)
    page = board_page.BoardPage(BoardRecord.model_validate(record))
    strategy = record["results"]["strategy"]
    shown = len(page.two_player_rows)
    assert shown == 1 + sum(bool(strategy.get(k)) for k in ("against_box", "both_maximise"))
    assert page.two_player_rows[0][1] == strategy["both_best"]["decimal"]
    listed = board_page.two_players_with_a_choice
    monkeypatch.setattr(board_page, "two_players_with_a_choice",
                        lambda words: (*listed(words), ("not_in_the_record", "One plays best")))
    assert len(page.two_player_rows) == shown, "a field the record does not have is left out"
    record["results"]["strategy"]["against_box"] = None
    nulled = board_page.BoardPage(BoardRecord.model_validate(record)).two_player_rows
    assert [row[0] for row in nulled] == [row[0] for row in page.two_player_rows if not row[0].startswith("One")]


def test_the_house_rules_page_names_each_set_of_rules_briefly_and_in_full(bundled_records: list[dict]) -> None:
    """The table's first column names each set of rules in a few words; the rules in full are below it, each
    variant with the sentences of its rules that the box's rules do not have. The coin is one more row."""
    models = [BoardRecord.model_validate(r) for r in bundled_records]
    md = render.render_pages(models)["house-rules.md"]
    first = [line.split(" | ")[0] for line in md.splitlines() if line.startswith("| [")]
    assert "| [Coin flip](boards/classic-coin.md)" in first and "| [Six to enter](boards/classic-six-to-enter.md)" \
        in first and "| [The rules on the box](boards/classic.md)" in first
    assert all(len(cell.split("](")[0]) <= 60 for cell in first), first  # four rules: the family's with the coin
    text = " ".join(md.split())
    assert ("- **Coin flip**: After seeing a roll, a player may flip a coin and move one square more on heads, one "
            "less on tails") in text
    assert "**The rules on the box** (the first row): Each roll is one 6-sided die." in text
