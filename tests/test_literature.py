"""What others found: every published figure that the page says we reproduce still matches."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import BUNDLED

from chutes.compute.record.catalogues import SOURCE, languages
from chutes.compute.record.literature import (
    Figure,
    LiteratureError,
    Source,
    compare,
    load_literature,
    reproduce,
    value_at,
)
from chutes.compute.record.schema import BoardRecord, Exact
from chutes.site_build.project import DEFAULT_SITE_SRC

LITERATURE = load_literature(DEFAULT_SITE_SRC / "literature.toml")
OTHERS = [lang for lang in languages() if lang != SOURCE]


def test_the_published_boards_are_bundled() -> None:
    assert {"punitive", "uk", "mistranscribed", "empty", "zeilberger-line", "classic-47-plus-79-81"} <= set(BUNDLED)
    assert {f.board for f in LITERATURE.figures} <= set(BUNDLED)


def test_every_figure_agrees_or_differs_as_the_page_says(bundled_models: list[BoardRecord]) -> None:
    records = {r.slug: r for r in bundled_models}
    comparisons = reproduce(LITERATURE, records)
    assert len(comparisons) == len(LITERATURE.figures) >= 40
    wrong = [(c.figure.board, c.figure.quantity, c.figure.published, c.ours, c.how) for c in comparisons
             if c.agrees != (c.figure.expect == "agree")]
    assert wrong == []
    assert all(c.figure.why for c in comparisons if not c.agrees), "every disagreement is explained"


def test_the_page_shows_the_comparison(built_site: Path, bundled_models: list[BoardRecord]) -> None:
    html = (built_site / "literature" / "index.html").read_text()
    agree = sum(c.agrees for c in reproduce(LITERATURE, {r.slug: r for r in bundled_models}))
    assert f"{agree} of the {len(LITERATURE.figures)} figures" in html
    assert "Hochman" in html and "exactly 254" in html
    assert 'href="https://github.com/kalyaninagaraj/Snakes-And-Ladders" rel="noreferrer"' in html


@pytest.mark.parametrize(("published", "ours", "kind", "agrees"), [
    ("39.2251", {"numerator": "392251", "denominator": "10000", "decimal": "39.2251"}, "digits", True),
    ("39.2252", {"numerator": "392251", "denominator": "10000", "decimal": "39.2251"}, "digits", False),
    ("1/3", {"numerator": "1", "denominator": "3", "decimal": "0.333"}, "exact", True),
    ("0.333333333333", {"numerator": "1", "denominator": "3", "decimal": "0.333"}, "double", True),
    ("0.3334", {"numerator": "1", "denominator": "3", "decimal": "0.333"}, "double", False),
    ("0.3340", {"numerator": "1", "denominator": "3", "decimal": "0.333"}, "simulation", True),
    ("0.3400", {"numerator": "1", "denominator": "3", "decimal": "0.333"}, "simulation", False),
])
def test_each_kind_of_comparison_can_fail(published: str, ours: dict, kind: str, agrees: bool) -> None:
    figure = Figure(source="s", board="b", rule="r", quantity="q", published=published, ours="x", compare=kind,
                    games=100_000 if kind == "simulation" else None)
    assert compare(figure, {"x": Exact.model_validate(ours)})[1] is agrees


def test_keys_reach_list_items_by_field_and_names_with_dots() -> None:
    record = {"a": {"97.5": 106, "rows": [{"from": 87, "v": 1}, {"from": 28, "v": 2}]}}
    assert value_at(record, "a.97.5") == 106
    assert value_at(record, "a.rows[from=28].v") == 2
    assert value_at(record, "a.rows[0].v") == 1


def test_keys_name_the_record_model_fields_as_in_its_json(bundled_models: list[BoardRecord]) -> None:
    """On the typed record a key is the JSON's path: a field under its JSON name ("from", not from_)."""
    classic = next(r for r in bundled_models if r.slug == "classic")
    chute = next(j for j in classic.results.jump_usage if j.from_ == 28)
    assert value_at(classic, "results.jump_usage[from=28].per_game") == chute.per_game
    assert value_at(classic, "results.game_length.percentiles.97.5") == classic.results.game_length.percentiles["97.5"]
    with pytest.raises(KeyError):
        value_at(classic, "results.jump_usage[0].from_")


def test_every_figure_and_source_is_in_every_language() -> None:
    """The bundled file gives every figure's words, and every source's `where`, in each language but English."""
    assert len(OTHERS) == 5
    for n, figure in enumerate(LITERATURE.figures):
        assert sorted(figure.translations) == sorted(OTHERS), f"figures[{n}]"
        for lang in OTHERS:
            rule, quantity, why = figure.words(lang)
            assert rule and quantity and (rule, quantity) != (figure.rule, figure.quantity), f"figures[{n}] {lang}"
            assert bool(why) == bool(figure.why), f"figures[{n}] {lang}"
    for name, source in LITERATURE.sources.items():
        assert sorted(source.translations) == (sorted(OTHERS) if source.where else []), name
        assert all(source.where_in(lang) for lang in OTHERS) if source.where else source.where_in("fr") is None


def test_a_language_without_translations_falls_back_to_the_english() -> None:
    figure = Figure.model_validate({"source": "s", "board": "b", "rule": "exact landing", "quantity": "Shortest game",
                                    "published": "7", "ours": "x", "compare": "whole",
                                    "translations": {"fr": {"rule": "arrivée exacte",
                                                            "quantity": "Partie la plus courte"}}})
    assert figure.words("fr") == ("arrivée exacte", "Partie la plus courte", "")
    assert figure.words("de") == figure.words(SOURCE) == ("exact landing", "Shortest game", "")
    source = Source.model_validate({"author": "A", "title": "T", "where": "blog post",
                                    "translations": {"fr": {"where": "billet de blog"}}})
    assert (source.where_in("fr"), source.where_in("hi"), source.where_in(SOURCE)) == (
        "billet de blog", "blog post", "blog post")
    assert Source(author="A", title="T").where_in("fr") is None


FIGURE = """
[sources.s]
author = "A"
title = "T"
where = "blog post"
{source}
[[figures]]
source = "s"
board = "classic"
rule = "exact landing"
quantity = "Shortest game (turns)"
published = "7"
ours = "results.game_length.shortest.turns"
compare = "whole"
{why}
{figure}
"""


@pytest.mark.parametrize(("source", "why", "figure", "error"), [
    ("", "", '[figures.translations.xx]\nrule = "r"\nquantity = "q"',
     "figures[0].translations.xx: no catalogue for the language 'xx' (the other languages are ar, de, es, fr, hi)"),
    ('[sources.s.translations.en]\nwhere = "w"', "", "",
     "sources.s.translations.en: no catalogue for the language 'en'"),
    ("", "", '[figures.translations.fr]\nrule = "r"', "figures.0.translations.fr.quantity: Field required"),
    ("", "", '[figures.translations.fr]\nrule = "r"\nquantity = "q"\nsource = "s"',
     "figures.0.translations.fr.source: Extra inputs are not permitted"),
    ('[sources.s.translations.fr]\nwhere = "w"\ntitle = "t"', "", "",
     "sources.s.translations.fr.title: Extra inputs are not permitted"),
    ("", "", '[figures.translations.fr]\nrule = "r"\nquantity = ""',
     "figures.0.translations.fr.quantity: String should have at least 1 character"),
    ("", 'why = "w"', '[figures.translations.fr]\nrule = "r"\nquantity = "q"',
     "figures[0].translations.fr: `why` is missing: the English has one"),
    ("", "", '[figures.translations.fr]\nrule = "r"\nquantity = "q"\nwhy = "w"',
     "figures[0].translations.fr: `why` is not expected: the English has none"),
])
def test_a_bad_translation_is_refused_in_one_line(tmp_path: Path, source: str, why: str, figure: str,
                                                  error: str) -> None:
    path = tmp_path / "literature.toml"
    path.write_text(FIGURE.format(source=source, why=why, figure=figure), encoding="utf-8")
    with pytest.raises(LiteratureError) as raised:
        load_literature(path)
    assert str(raised.value).startswith(f"{path}: {error}")
    assert "\n" not in str(raised.value)


def test_a_source_without_where_has_nothing_to_translate(tmp_path: Path) -> None:
    path = tmp_path / "literature.toml"
    path.write_text('figures = []\n[sources.s]\nauthor = "A"\ntitle = "T"\n[sources.s.translations.fr]\nwhere = "w"\n',
                    encoding="utf-8")
    with pytest.raises(LiteratureError, match=r"sources\.s\.translations: only `where` is translated, and this "
                                              "source has none$"):
        load_literature(path)
