"""What a page depends on (`site_build.incremental`) and the titles the navigation names (`site_build.tree.nav`): the
parts a preview keeps are made again exactly when one of their inputs changes."""

from __future__ import annotations

from pathlib import Path

import pytest
from jinja2 import DictLoader, Environment

from chutes.site_build.incremental import Fresh, Parts, template_sources
from chutes.site_build.project import ProjectError
from chutes.site_build.tree.nav import all_titled, own_nav, page_title


def test_a_page_depends_on_the_templates_it_imports_and_no_other() -> None:
    env = Environment(loader=DictLoader({"page.j2": '{% import "_m.j2" as m %}{{ m.x() }}',
                                         "_m.j2": '{% macro x() %}{% include "_part.j2" %}{% endmacro %}',
                                         "_part.j2": "part", "other.j2": "other"}))
    assert [name for name, _ in template_sources(env, "page.j2")] == ["_m.j2", "_part.j2", "page.j2"]
    dynamic = Environment(loader=DictLoader({"page.j2": "{% include name %}", "a.j2": "a", "b.j2": "b"}))
    assert [name for name, _ in template_sources(dynamic, "page.j2")] == ["a.j2", "b.j2", "page.j2"]


def test_a_part_is_made_again_only_when_its_inputs_change() -> None:
    parts, made = Parts(), []

    def page(text: str) -> dict[str, str | bytes | Path]:
        made.append(text)
        return {"page.md": text}

    for inputs in (["a"], ["a"], ["b"], ["b"]):
        parts.start()
        assert parts.part("page", lambda i=inputs: i, lambda i=inputs: page(i[0])) == {"page.md": inputs[0]}
        parts.finish()
    assert made == ["a", "b"]
    parts.start()
    parts.finish()
    assert parts.kept == {}, "a part no longer made is dropped"


def test_a_part_that_makes_no_page_is_not_reported_as_made() -> None:
    """A page the site leaves out (the House rules page without a plain board) is never named among those made."""
    for parts in (Parts(), Fresh()):
        parts.start()
        parts.part("house-rules", lambda: ["no group"], lambda: {})
        parts.part("index", lambda: ["home"], lambda: {"index.md": "# Home\n"})
        parts.finish()
        assert parts.made == ["index"], type(parts).__name__


def test_the_navigation_names_the_titles_the_engine_would_give() -> None:
    assert page_title('---\ntitle: "Althoen&#39;s board"\n---\n\n# Other\n') == "Althoen&#39;s board"
    assert page_title("Intro.\n\n```\n# not a heading\n```\n\n# Method\n\nText.\n") == "Method"
    assert page_title("# The *classic* board\n") is None, "a heading with markup: the engine finds its title"
    assert page_title(b"\x89PNG") is None and page_title(None) is None
    assert all_titled([{"Home": "index.md"}, {"Boards": [{"Classic": "boards/classic.md"}]}])
    assert not all_titled([{"Home": "index.md"}, {"Boards": ["boards/classic.md"]}])


def test_the_author_s_nav_adds_hand_written_pages_and_refuses_what_it_cannot_honour(tmp_path: Path) -> None:
    house, us = tmp_path / "house.md", tmp_path / "us.md"
    house.write_text("# Our house rules\n")
    us.write_text("No heading here.\n")
    files = {"index.md": "# Home\n", "boards/tiny.md": "# Tiny\n", "data.md": "# Data\n", "method.md": house,
             "house.md": house, "about/us.md": us, "assets/x.png": tmp_path / "x.png"}
    nav = ["house.md", {"About": [{"Who we are": "about/us.md"}, {"Our box": "https://example.org/box"}]}]
    assert own_nav(nav, files, "mkdocs.yml") == [{"Our house rules": "house.md"},
                                                 {"About": [{"Who we are": "about/us.md"},
                                                            {"Our box": "https://example.org/box"}]}]
    assert own_nav(None, files, "mkdocs.yml") == []
    for bad, why in (([{"Tiny": "boards/tiny.md"}], "a page chutes places in the menu itself"),
                     (["data.md"], "a page chutes places"), (["method.md"], "a page chutes places"),
                     (["rules.md"], "no such page in site_src/"), (["assets/x.png"], "no such page"),
                     (["house.md", {"Again": "house.md"}], "listed twice"), ([42], "expected - page.md"),
                     ({"Home": "index.md"}, "expected a list")):
        with pytest.raises(ProjectError, match=f"^mkdocs.yml: nav.*{why}") as refused:
            own_nav(bad, files, "mkdocs.yml")
        assert "\n" not in str(refused.value)
