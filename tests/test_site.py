"""The build stage: pages from the cache, identical rebuilds, offline and link checks, safe publishing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import new_project

from chutes.cli import compute_stage
from site_build import pages, pipeline
from site_build.checks import SiteError, broken_links, outside_references
from site_build.project import DEFAULT_TEMPLATES


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_every_page_and_download_is_built(built_site: Path, bundled_records: list[dict]) -> None:
    for page in ("index.html", "compare/index.html", "method/index.html", "data/index.html", "404.html"):
        assert (built_site / page).is_file(), page
    for record in bundled_records:
        slug = record["slug"]
        html = (built_site / "boards" / slug / "index.html").read_text()
        assert html.count('class="chutes-chart"') == 13
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
    classic = next(r for r in bundled_records if r["slug"] == "classic")
    html = (built_site / "boards" / "classic" / "index.html").read_text()
    assert "508 of every 1,000 games" in html
    assert "39.60 turns" in html
    assert "4,453 digits" in html
    assert classic["results"]["first_player_wins"]["decimal"][:52] in html
    home = (built_site / "index.html").read_text()
    assert "508 in 1,000" in home and "Chutes and Ladders (Milton Bradley, 1943)" in home


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


def test_a_failed_build_leaves_the_previous_site(tmp_path: Path, monkeypatch) -> None:
    project = new_project(tmp_path / "project")
    site = pipeline.build_site(project, compute_stage(quiet=True))
    before = _files(site)
    real = pages.render_pages

    def with_cdn(records, *folders):
        files = real(records, *folders)
        files["cdn.md"] = '# CDN\n\n<script src="https://cdn.example.com/x.js"></script>\n'
        return files

    monkeypatch.setattr(pages, "render_pages", with_cdn)
    with pytest.raises(SiteError, match="cdn.example.com"):
        pipeline.build_site(project, compute_stage(quiet=True))
    assert _files(site) == before
    assert [p.name for p in site.parent.iterdir() if ".chutes-" in p.name] == [], "no staging folder is left"


def test_generated_pages_are_only_rewritten_when_they_change(tmp_path: Path, bundled_records: list[dict]) -> None:
    docs = tmp_path / "docs"
    files = pages.render_pages(bundled_records)
    assert pages.write_docs(files, docs)
    assert pages.write_docs(files, docs) == []
    (docs / "stale.md").write_text("old")
    assert pages.write_docs(files, docs) == ["stale.md"] and not (docs / "stale.md").exists()


def test_a_broken_template_is_one_line_naming_it(bundled_records: list[dict], tmp_path: Path, monkeypatch) -> None:
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "data.md.j2").write_text("# Data\n\n{% for p in boards %}\n{{ p.nothing_here }\n")
    with pytest.raises(SiteError, match=r"^templates/data.md.j2:4: "):
        pages.render_pages(bundled_records, [templates, DEFAULT_TEMPLATES])
    (templates / "data.md.j2").write_text("{{ boards[0].no_such_field }}\n")
    with pytest.raises(SiteError, match=r"^templates/data.md.j2: .*no_such_field"):
        pages.render_pages(bundled_records, [templates, DEFAULT_TEMPLATES])
