"""The build stage writes everything before the engine runs: a complete configuration any engine reads as it is.

And plain MkDocs in a chutes project stops with a pointer to `chutes build`, leaving the site as it was.
"""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers import chutes, new_project

from chutes.compute.record.schema import BoardRecord
from chutes.site_build.engine.engine_config import EngineInputs, Tagged, engine_config, read_config, write_config
from chutes.site_build.project import Project


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Project:
    """A project with a listed board and an unlisted one, built once."""
    project = new_project(tmp_path_factory.mktemp("engine") / "p", ["tiny", "short"])
    out = chutes("build", cwd=project.root)
    assert out.returncode == 0, out.stderr
    return project


def _snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    return {p.relative_to(folder).as_posix(): (p.stat().st_mtime_ns, p.stat().st_size)
            for p in folder.rglob("*") if p.is_file()}


@pytest.mark.xdist_group("engine-config")  # on one worker, which builds the project once
def test_the_engine_configuration_is_complete_and_its_navigation_comes_from_the_records(built: Project) -> None:
    config = yaml.load(built.build_area.config_file.read_text(), Loader=yaml.Loader)  # noqa: S506 (our own file)
    here = built.build_area.config_file.parent
    assert here / config["docs_dir"] == built.build_area.docs_dir and config["docs_dir"] == "docs"
    assert here / config["theme"]["custom_dir"] == built.build_area.theme_dir
    assert (built.build_area.theme_dir / "main.html").is_file()
    assert config["site_url"] == "http://127.0.0.1:8000/" and "hooks" not in config
    assert "chutes" not in str(config["plugins"]) and "search" in config["plugins"]
    boards = next(entry["Boards"] for entry in config["nav"] if "Boards" in entry)
    assert boards == [{"A short test board (50 squares)": "boards/short.md"}], \
        "tiny says listed = false: built, not in the menu (each page under its title)"
    assert (built.build_area.docs_dir / "boards" / "tiny.md").is_file()
    assert config["nav"][0] == {"Home": "index.md"} and {"Method": "method.md"} in config["nav"]
    fence = config["markdown_extensions"][-1]["pymdownx.superfences"]["custom_fences"][0]["format"]
    assert fence.__name__ == "block", "a !!python/name tag is written back as a tag"


@pytest.mark.xdist_group("engine-config")
def test_plain_mkdocs_builds_the_written_configuration_with_no_help_from_chutes(built: Project, tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--quiet", "-f", str(built.build_area.config_file),
                          "--site-dir", str(tmp_path / "site")], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert out.returncode == 0, out.stderr
    page = Path("boards", "short", "index.html")
    assert (tmp_path / "site" / page).read_text() == (built.site_dir / page).read_text()


@pytest.mark.xdist_group("engine-config")
@pytest.mark.parametrize("command", [["build"], ["build", "--clean"], ["serve", "--dev-addr", "127.0.0.1:0"]])
def test_plain_mkdocs_in_a_project_stops_with_one_line_and_leaves_the_site_alone(built: Project,
                                                                                   command: list[str]) -> None:
    before = _snapshot(built.site_dir)
    out = subprocess.run([sys.executable, "-m", "mkdocs", *command], cwd=built.root, capture_output=True, text=True,
                         timeout=120, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert out.returncode != 0
    lines = [line for line in out.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "chutes build" in lines[0] and "chutes serve" in lines[0], out.stderr
    assert _snapshot(built.site_dir) == before


def test_the_engine_setting_is_checked_in_one_line(tmp_path: Path) -> None:
    project = new_project(tmp_path / "p")
    text = project.config_file.read_text()
    assert "engine: mkdocs" in text
    project.config_file.write_text(text.replace("engine: mkdocs", "engine: sphinx"))
    out = chutes("build", cwd=project.root)
    assert out.returncode == 2 and not project.site_dir.exists()
    assert out.stderr.strip().splitlines()[-1] == (f"chutes: error: {project.config_file}: plugins → chutes → engine: "
                                                   "expected one of mkdocs, zensical, got 'sphinx'")


def test_tags_and_settings_survive_the_round_trip(tmp_path: Path) -> None:
    source = tmp_path / "mkdocs.yml"
    source.write_text("site_name: x\ntheme: material\nhooks: [h.py]\nextra:\n  token: !ENV [TOKEN, none]\n"
                      "plugins:\n  search: {}\n  chutes: {engine: zensical}\nmarkdown_extensions:\n"
                      "  - pymdownx.emoji:\n      emoji_index: !!python/name:material.extensions.emoji.twemoji\n")
    config = read_config(source)
    assert config["extra"]["token"] == Tagged("!ENV", ["TOKEN", "none"])
    out = tmp_path / "engine.yml"
    inputs = EngineInputs(tmp_path / "d", tmp_path / "t", tmp_path / "elsewhere" / "s", "http://h/", ["a.md"])
    written = engine_config(config, inputs, base=tmp_path)
    assert write_config(written, out) and not write_config(written, out), "an unchanged file is not rewritten"
    again = read_config(out)
    assert again["theme"] == {"name": "material", "custom_dir": "t", "language": "en"}, "inside the folder: relative"
    assert again["docs_dir"] == "d" and again["site_dir"] == "elsewhere/s"
    assert again["plugins"] == [{"search": {}}] and "hooks" not in again
    assert again["extra"]["token"] == Tagged("!ENV", ["TOKEN", "none"])
    emoji = again["markdown_extensions"][0]["pymdownx.emoji"]["emoji_index"]
    assert emoji == Tagged("tag:yaml.org,2002:python/name:material.extensions.emoji.twemoji", "")


FENCE = {"name": "chutes-html", "class": "chutes-html",
         "format": Tagged("tag:yaml.org,2002:python/name:chutes.site_build.fences.raw_html", "")}


@pytest.mark.parametrize(("extensions", "expected"), [
    (None, [{"pymdownx.superfences": {"custom_fences": [FENCE]}}]),
    (["tables", "pymdownx.superfences"], ["tables", {"pymdownx.superfences": {"custom_fences": [FENCE]}}]),
    ({"toc": {"permalink": True}, "pymdownx.superfences": {"preserve_tabs": True, "custom_fences": [{"name": "m"}]}},
     [{"toc": {"permalink": True, "permalink_title": "Permanent link"}},
      {"pymdownx.superfences": {"preserve_tabs": True, "custom_fences": [{"name": "m"}, FENCE]}}]),
    ([{"pymdownx.superfences": {"custom_fences": [{"name": "chutes-html", "format": "mine"}]}}],
     [{"pymdownx.superfences": {"custom_fences": [{"name": "chutes-html", "format": "mine"}]}}]),
])
def test_the_fence_of_the_templates_raw_html_is_added_to_the_engines_markdown(tmp_path: Path, extensions,
                                                                              expected) -> None:
    """The templates write charts in a ```chutes-html fence (site_build/fences.py), which the written configuration
    always has, whatever form the project's extensions take; the project's own fence of that name is kept."""
    config = {"site_name": "x"} if extensions is None else {"site_name": "x", "markdown_extensions": extensions}
    before = copy.deepcopy(config)
    inputs = EngineInputs(tmp_path / "d", tmp_path / "t", tmp_path / "s", "http://h/", ["a.md"])
    written = engine_config(config, inputs, base=tmp_path)
    assert written["markdown_extensions"] == expected
    write_config(written, tmp_path / "engine.yml")
    assert read_config(tmp_path / "engine.yml")["markdown_extensions"] == expected, "written as read"
    assert config == before, "the project's own settings are left as they were"


def test_a_missing_engine_is_named_before_any_board_is_computed(tmp_path: Path, monkeypatch) -> None:
    from chutes.site_build import pipeline
    from chutes.site_build.checks import SiteError
    from chutes.site_build.engine import engines

    project = new_project(tmp_path / "p")
    monkeypatch.setattr(engines, "find_spec", lambda name: None)

    def records(project: Project) -> list[BoardRecord]:
        raise AssertionError("the compute stage ran")

    with pytest.raises(SiteError, match=r"pip install 'chutes-exact\[zensical\]'"):
        pipeline.build_site(project, records, engine="zensical")
    assert not project.cache_dir.exists() and not project.site_dir.exists()


@pytest.mark.parametrize(("setting", "key", "what"), [
    ("languages: [en, xx]", "languages", "no catalogue for 'xx' (the languages with one: en"),
    ("languages: [en, en]", "languages", "'en' is listed twice"),
    ("languages: en", "languages", "expected a list of language codes such as [en, fr], got 'en'"),
    ("languages: []", "languages", "expected a list of language codes such as [en, fr], got []"),
    ("languages: {en: 1}", "languages", "expected a list of language codes such as [en, fr], got {'en': 1}"),
    ("languages: [en]\n      translations: {de: {site_name: Rutschen}}", "translations → de",
     "not one of the site's other languages (none)"),
    ("languages: [en]\n      translations: [de]", "translations", "expected a mapping of language → "),
])
def test_a_bad_languages_setting_is_one_line_naming_the_file_and_the_key(tmp_path: Path, setting: str, key: str,
                                                                         what: str) -> None:
    """An unknown language, one listed twice, a setting that is not a list, a name for a language the site does
    not publish: one line naming mkdocs.yml, the setting and what is wrong, before anything is computed or built."""
    project = new_project(tmp_path / "p")
    lines = [line for line in project.config_file.read_text().splitlines(keepends=True)
             if not line.strip().startswith(("languages:", "translations:"))]
    at = next(n for n, line in enumerate(lines) if line.strip().startswith("engine: mkdocs"))
    lines.insert(at + 1, f"      {setting}\n")
    project.config_file.write_text("".join(lines))
    out = chutes("build", cwd=project.root)
    assert out.returncode == 2 and not project.site_dir.exists() and not project.cache_dir.exists()
    [line] = out.stderr.strip().splitlines()
    assert line.startswith(f"chutes: error: {project.config_file}: plugins → chutes → {key}: {what}"), line


@pytest.mark.parametrize(("plugins", "lang", "expected"), [
    (["search", {"chutes": {}}], "en", ["search"]),
    (["search", {"chutes": {}}], "ar", [{"search": {"lang": ["ar"]}}]),
    ({"search": {"separator": "[\\s]+"}}, "fr", [{"search": {"lang": ["fr"], "separator": "[\\s]+"}}]),
    (["search"], "hi", [{"search": {"lang": ["en"]}}]),  # split at spaces: SEARCH_LANGUAGES
    ([{"search": {"lang": ["en", "ar"]}}], "ar", [{"search": {"lang": ["en", "ar"]}}]),
])
def test_search_is_in_the_language_of_the_build(tmp_path: Path, plugins, lang: str, expected) -> None:
    """Each language's search index uses lunr's pipeline for it (Material names none for Arabic, whose words the
    English pipeline trims away), unless the project sets the search plugin's `lang` itself."""
    inputs = EngineInputs(tmp_path / "d", tmp_path / "t", tmp_path / "s", "http://h/", ["a.md"], language=lang)
    assert engine_config({"site_name": "x", "plugins": plugins}, inputs, base=tmp_path)["plugins"] == expected
