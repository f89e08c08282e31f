"""A site in several languages is built side by side (`pipeline.in_parallel`): the same files as one language after
the other, and an error in any language's pages is the same one line, the previous site left as it was. Needs the
site's and the wording's French catalogues (`chutes build` names the languages it has)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import chutes, new_project

from chutes.cli.site import compute_stage
from chutes.site_build import pipeline
from chutes.site_build.engine.engine_config import EngineInputs, engine_config
from chutes.site_build.project import Project


def _in_languages(project: Project, codes: str) -> None:
    text = re.sub(r"^ +languages:.*\n", "", project.config_file.read_text(), flags=re.M)
    project.config_file.write_text(text.replace("  - chutes:\n", f"  - chutes:\n      languages: {codes}\n", 1))


def _files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def test_side_by_side_the_site_is_the_one_built_one_language_after_the_other(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    sites = {}
    for name, cores in (("apart", 1), ("side-by-side", 2)):
        project = new_project(tmp_path / name, ["tiny"])
        _in_languages(project, "[en, fr]")
        monkeypatch.setattr(pipeline, "workers", lambda count, cores=cores: min(cores, count))
        sites[name] = _files(pipeline.build_site(project, compute_stage(quiet=True)))
    assert "fr/boards/tiny/index.html" in sites["apart"] and "boards/tiny/index.html" in sites["apart"]
    assert not [rel for rel in sites["apart"] if rel.startswith("fr/fr/")]
    assert sites["side-by-side"].keys() == sites["apart"].keys()
    differ = [rel for rel in sites["apart"] if sites["apart"][rel] != sites["side-by-side"][rel]]
    assert differ == [], differ
    for rel in ("search/search_index.json", "fr/search/search_index.json"):  # compact UTF-8, not \\u escapes
        index = sites["apart"][rel].decode("utf-8")
        assert "\\u" not in index and ", " not in index[:200] and json.loads(index)["docs"], rel
    assert max(sites["apart"]["fr/search/search_index.json"]) > 127, "the French words as UTF-8"


def test_a_hindi_search_loads_no_thai_word_segmenter(tmp_path: Path) -> None:
    """Hindi's search is configured as English's (split at spaces): Material would load wordcut.js, 0.68 MB,
    on every first visit of a Hindi page; a project's own search language is kept."""
    inputs = {"docs_dir": tmp_path / "docs", "theme_dir": tmp_path / "theme", "site_dir": tmp_path / "site",
              "site_url": "http://127.0.0.1:8000/", "nav": []}
    config = {"site_name": "x", "plugins": ["search", {"chutes": {}}]}
    hindi = engine_config(config, EngineInputs(**inputs, language="hi"), tmp_path)
    assert hindi["plugins"] == [{"search": {"lang": ["en"]}}]
    assert engine_config(config, EngineInputs(**inputs, language="fr"), tmp_path)["plugins"] == [
        {"search": {"lang": ["fr"]}}]
    own = [{"search": {"lang": "hi"}}]
    assert engine_config({**config, "plugins": own}, EngineInputs(**inputs, language="hi"), tmp_path)["plugins"] == own


def test_a_broken_template_in_another_language_is_one_line_and_the_site_stays(tmp_path: Path) -> None:
    project = new_project(tmp_path / "p", ["tiny"])
    _in_languages(project, "[en, fr]")
    assert chutes("build", cwd=project.root).returncode == 0
    before = _files(project.site_dir)
    (project.root / "templates").mkdir()
    (project.root / "templates" / "index.md.j2").write_text(
        "# Home\n\n{% if not language.is_default %}{{ no_such_value }}{% endif %}\n")
    refused = chutes("build", cwd=project.root)
    errors = [line for line in refused.stderr.splitlines() if "error" in line]
    assert refused.returncode != 0 and "Traceback" not in refused.stderr, refused.stderr
    assert len(errors) == 1 and errors[0].startswith("chutes: error: templates/index.md.j2:3: "), refused.stderr
    assert "no_such_value" in errors[0], errors
    assert _files(project.site_dir) == before, "the previous site stays"
