"""The generator's guide ("Make your own", the reference site's own tab): its pages agree with the code they describe
(the board file's keys, the click commands, the templates' values, `chutes.__all__`, the measurements), every shell
and Python example in it runs, only the reference site has it, and its tab is in the navigation.

The guide's pages are rendered once here from the repository's own project (no build: tests/test_engines.py builds
the reference site's pages with each engine and checks them)."""

from __future__ import annotations

import doctest
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import click
import pytest
from helpers import REPOSITORY

import chutes
from chutes.cli import main, run
from chutes.compute.board.file import KNOWN_KEYS, board_from_mapping
from chutes.compute.experiments import WITHOUT_HOUSE_RULES
from chutes.compute.record import schema
from chutes.site_build import checks
from chutes.site_build.checks import SiteError
from chutes.site_build.engine.engine_config import EngineInputs, engine_config, guide_setting, read_config
from chutes.site_build.engine.guard import MESSAGE as GUARD_MESSAGE
from chutes.site_build.guide import PAGES, TAB, guide_nav, guide_pages
from chutes.site_build.guide.boards import board_keys
from chutes.site_build.guide.commands import commands
from chutes.site_build.guide.searched import searched_by_their_leads
from chutes.site_build.guide.templates import template_inputs
from chutes.site_build.pages.downloads import DOWNLOADS
from chutes.site_build.pages.records import record_schema, schema_parts
from chutes.site_build.pages.words import markdown_text
from chutes.site_build.project import BUNDLED_BOARDS, Project
from chutes.site_build.scaffold import write_project
from chutes.site_build.tree.nav import RESULTS_TAB, site_nav

BLOCK = re.compile(r"^```(bash|python)\n(.*?)^```", re.M | re.S)
SKIPPED = {
    r"^git clone ": "needs the network: the tests run in a clone already",
    r"^python3 -m venv ": "a virtual environment of its own: tests/test_generator.py installs into new ones",
    r"^pip (install|wheel) ": "installing: tests/test_generator.py runs the README's install line and the wheel's",
    r"^chutes serve\b": "a server until Ctrl-C: tests/test_preview.py serves and follows edits",
    r"^dask (scheduler|worker)\b": "a cluster's daemons: the guide's Python example runs a cluster of its own",
    r"tcp://10\.0\.0\.5:": "the example cluster's address: the Python example runs the same on a local cluster",
    r"^bash scripts/": "the whole build and test suite",
}
"""The lines of the guide's shell examples that are not run here, each with where it is tested instead."""
JSON_ARGS = {
    "chutes solve": ["solve", "tiny", "--json"],
    "chutes strategy": ["strategy", "classic-coin", "--json"],
    "chutes simulate": ["simulate", "tiny", "--games", "1000", "--json"],
    "chutes experiment dice": ["experiment", "dice", "tiny", "--max-faces", "4", "--json"],
    "chutes experiment start": ["experiment", "start", "tiny", "--json"],
    "chutes experiment add-jump": ["experiment", "add-jump", "tiny", "--min-length", "3", "--json"],
}
"""How to run each command that prints JSON: on the bundled 10-square board, or a bundled board with a choice."""


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    return guide_pages(Project.at(REPOSITORY))


def _section(page: str, heading: str) -> str:
    """A page's text from a heading to the next heading of the same level or above."""
    start = page.index(heading)
    level = len(heading) - len(heading.lstrip("#"))
    following = re.compile(rf"^#{{1,{level}}} ", re.M).search(page, start + len(heading))
    return page[start:following.start() if following else len(page)]


# --- Board files ---------------------------------------------------------------------------------------------

def test_every_key_a_board_file_accepts_is_documented_and_no_other(pages: dict[str, str]) -> None:
    page = pages["guide/boards.md"]
    documented = set(re.findall(r"^### `(\w+)`", page, re.M))
    assert documented == set(KNOWN_KEYS)
    table = {row.split("|")[1].strip() for row in page.splitlines() if row.startswith("| [`")}
    assert table == {f"[`{key}`](#{key})" for key in KNOWN_KEYS}
    for key in ("squares", "die", "dice", "weights", "roll_again_limit"):
        assert re.search(rf"^\| \[`{key}`\].*\d", page, re.M), f"{key}: its limits are on the page"


def test_every_documented_example_is_a_board_the_reader_accepts(pages: dict[str, str]) -> None:
    for key in board_keys():
        example = tomllib.loads(key.example)
        assert key.name in example, f"{key.name}: its example sets it"
        board = board_from_mapping({"squares": 100, "die": 6, **example}, f"the example of {key.name}")
        assert board.squares == example.get("squares", 100)
        assert f"```toml\n{key.example}\n```" in pages["guide/boards.md"]


def test_a_key_without_a_meaning_or_an_example_stops_the_build() -> None:
    """The page is the schema's: a key added to the reader without its description or example stops the build."""
    from pydantic import Field, create_model

    from chutes.compute.board.file import BoardFile

    bare = create_model("Bare", __base__=BoardFile, colour=(int, Field(default=1)))
    with pytest.raises(SiteError, match="colour needs a description and an example"):
        board_keys(bare)
    described = create_model("Described", __base__=BoardFile,
                             colour=(int, Field(default=1, description="The board's colour.", examples=["colour = 1"])))
    assert [k.name for k in board_keys(described)][-1] == "colour"


# --- Command line --------------------------------------------------------------------------------------------

def _every_command(command: click.Command, path: str, ctx: click.Context) -> list[tuple[str, click.Command]]:
    found = [(path, command)]
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            assert sub is not None
            found += _every_command(sub, f"{path} {name}", click.Context(sub, info_name=name, parent=ctx))
    return found


def test_every_command_and_option_is_on_the_command_line_page(pages: dict[str, str]) -> None:
    page = pages["guide/cli.md"]
    listed = _every_command(main, "chutes", click.Context(main, info_name="chutes"))
    assert len(listed) >= 11
    for path, command in listed:
        section = _section(page, f"## `{path}`")
        if command.help:
            assert " ".join(command.help.split()) in section, path
        for param in command.params:
            names = param.opts + param.secondary_opts if isinstance(param, click.Option) else [
                param.human_readable_name]
            for name in names:
                assert f"`{name}`" in section, f"{path} {name}"
            if isinstance(param, click.Option) and param.help:
                assert " ".join(param.help.split()) in section, f"{path} {names[0]}"


def test_the_command_line_page_says_which_experiments_refuse_house_rules(pages: dict[str, str],
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Each experiment that refuses a board with house rules says so on the page, and does refuse one (the bundled
    board with a choice) with one line; the others say nothing of it."""
    page = pages["guide/cli.md"]
    experiments = [c for c in commands() if c.path.startswith("chutes experiment ")]
    refusing = {c.path.split()[-1] for c in experiments if c.refuses}
    assert refusing == set(WITHOUT_HOUSE_RULES) == {"dice", "add-jump"}
    for command in experiments:
        said = "Refuses a board with house rules" in _section(page, f"## `{command.path}`")
        assert said == (command.path.split()[-1] in refusing), command.path
    for name in refusing:
        capsys.readouterr()
        assert run(["experiment", name, "classic-coin"]) == 2
        error = capsys.readouterr().err.strip()
        assert len(error.splitlines()) == 1 and "without house rules" in error and "choice" in error, error


def test_the_json_output_of_every_command_has_the_form_the_data_page_gives(
        pages: dict[str, str], capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # outside any project: nothing is cached
    with_json = [c for c in commands() if c.json]
    assert {c.path for c in with_json} == set(JSON_ARGS)
    data = pages["guide/data.md"]
    for command in with_json:
        assert f"`{command.path} BOARD --json`" in data
        capsys.readouterr()
        assert run(JSON_ARGS[command.path]) == 0, command.path
        printed = json.loads(capsys.readouterr().out)
        if command.json_part:
            part = printed if command.path == "chutes solve" else printed["strategy"] \
                if command.path == "chutes strategy" else {k: v for k, v in printed.items() if k != "board"}
            getattr(schema, command.json_part).model_validate(part)
            assert f"### `{command.json_part}`" in data
        else:
            assert printed["board"] == "tiny" and printed["games"] == 1000, command.path


# --- Customising, Data, Python API, Performance --------------------------------------------------------------

def test_every_template_and_the_values_it_receives_are_on_the_customising_page(pages: dict[str, str]) -> None:
    page = pages["guide/customising.md"]
    templates = sorted(p.name for p in (REPOSITORY / "templates").glob("*.j2") if not p.name.startswith("_"))
    assert [t.name for t in template_inputs()] == templates
    for inputs in template_inputs():
        section = _section(page, f"### `{inputs.name}`")
        assert inputs.values, inputs.name
        for name, _, _ in inputs.values:
            assert f"| `{name}` |" in section, (inputs.name, name)
    board = next(t for t in template_inputs() if t.name == "board.md.j2")
    assert {"page", "r", "charts", "stills", "tables"} <= {name for name, _, _ in board.values}
    for setting in ("engine", "guide"):
        assert f"| `{setting}` |" in page


def test_the_customising_page_says_exactly_what_the_build_checks(pages: dict[str, str]) -> None:
    """Every attribute, tag, host and scheme the checks look at is named there (from checks.py), what a link may
    do, where a file from elsewhere goes, and what plain MkDocs says (guard.py)."""
    section = _section(pages["guide/customising.md"], "## What the build checks")
    for name in (*checks.URL_ATTRIBUTES, *checks.NAVIGATION_TAGS, *checks.LOCAL_HOSTS, *checks.FORBIDDEN_TAGS,
                 *checks.SCRIPT_SCHEMES, *checks.INERT_SCRIPT_TYPES):
        assert f"`{name}`" in section, name
    assert "may lead anywhere" in section and "`site_src/assets/`" in section and GUARD_MESSAGE in section
    assert "site_src/house.md:3" in section, "problems are named by the author's file"
    assert "customising.md#what-the-build-checks" in pages["guide/index.md"]


def test_the_data_page_gives_every_part_of_the_record(pages: dict[str, str]) -> None:
    page = pages["guide/data.md"]
    parts = schema.BoardRecord.model_json_schema(by_alias=True, mode="serialization")["$defs"]
    for name, part in parts.items():
        if part.get("properties"):
            section = _section(page, f"### `{name}`")
            for field in part["properties"]:
                assert f"| `{field}` |" in section, (name, field)


def test_every_field_of_the_record_has_a_description_and_a_type_linking_to_its_part(pages: dict[str, str]) -> None:
    parts = schema_parts(record_schema())
    fields = [(part["name"], *field) for part in parts for field in part["fields"]]
    assert len(fields) > 200
    assert [(p, f) for p, f, _, text in fields if not text.strip()] == [], "fields without a description"
    page = pages["guide/data.md"]
    anchors = set(re.findall(r"\{ #([\w-]+) \}", page))
    rows = [row for row in page.splitlines() if re.match(r"^\| `[^`]+` \| ", row) and row.count(" | ") == 2]
    assert len(rows) == len(fields) and not [row for row in rows if row.endswith("| — |")]
    for name, field, kind, _ in fields:
        assert kind and "any" not in kind.split(), (name, field, kind)
    for name in ("Results", "Series", "Checks", "Players"):  # BoardRecord's parts, by their types
        assert f"| `{name.lower()}` | [`{name}`](#{name.lower()}) |" in _section(page, "### `BoardRecord`")
    linked = set(re.findall(r"\]\(#([\w-]+)\)", page))
    assert linked and linked <= anchors, sorted(linked - anchors)
    table = _section(page, "# Data").split("## The record")[0]
    for file, _ in DOWNLOADS.values():
        assert f"| `{file.format(slug='NAME')}` |" in table, file


def test_the_api_page_documents_every_name_of_chutes_all(pages: dict[str, str]) -> None:
    page = pages["guide/api.md"]
    names = list(getattr(chutes, "__all__", []))
    headings = re.findall(r"^## `([^`]+)`", page, re.M)
    assert headings == names
    for name in names:
        assert _section(page, f"## `{name}`").count("```text\n") >= 1, f"{name}: its signature"


def test_every_example_of_the_api_page_runs_as_a_doctest(pages: dict[str, str], tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's examples are the docstrings' own: the package's and those of each name of `chutes.__all__` and
    of their members, run here as doctests (in an empty folder: no project of this repository is found)."""
    monkeypatch.chdir(tmp_path)
    finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    tests = finder.find(chutes, "chutes", globs={}) if chutes.__doc__ else []
    for name in getattr(chutes, "__all__", []):
        obj = getattr(chutes, name)
        tests += finder.find(obj, f"chutes.{name}", globs={"chutes": chutes, **vars(sys.modules[obj.__module__])})
    for test in tests:
        runner.run(test)
    assert runner.failures == 0, f"{runner.failures} of {runner.tries} API examples failed"
    run_lines = {line.strip() for test in tests for example in test.examples for line in example.source.splitlines()}
    shown = [line.strip()[4:] for line in pages["guide/api.md"].splitlines() if line.strip().startswith(">>> ")]
    assert set(shown) <= run_lines, "every example on the page is one of the doctests run"
    assert len(shown) >= (10 if getattr(chutes, "__all__", []) else 0)


def test_the_performance_page_has_every_row_of_the_measurements(pages: dict[str, str]) -> None:
    page = pages["guide/performance.md"]
    rows = [line.rstrip() for line in (REPOSITORY / "benchmarks" / "results.md").read_text().splitlines()
            if line.startswith("|") and line.rstrip().endswith("|")]
    rows = [markdown_text(row) for row in rows]  # as text: a `<` of theirs is never read as markup
    assert rows and all(row in page for row in rows)
    assert all(row in pages["guide/scaling.md"] for row in rows if "first player, random 800 squares" in row)


def test_the_performance_page_counts_the_bundled_boards_from_the_code(pages: dict[str, str]) -> None:
    """The page says how many boards the package bundles, counted from its folder of boards; every measurement's
    count is of its day, and nothing on it points at figures elsewhere (the README has none)."""
    page = pages["guide/performance.md"]
    count = len(list(BUNDLED_BOARDS.glob("*.toml")))
    assert count >= 19 and f"The package bundles {count} boards today" in " ".join(page.split())
    counts = re.findall(r"(\d+) bundled boards( of the day)?", page)
    assert counts and all(day for _, day in counts), counts
    assert "README" not in page


# --- Every example runs -------------------------------------------------------------------------------------

def _runnable(line: str) -> bool:
    return not any(re.search(pattern, line.strip()) for pattern in SKIPPED)


def test_every_shell_and_python_example_of_the_guide_runs(pages: dict[str, str], tmp_path: Path) -> None:
    """Each page's shell examples as one script (so `cd mysite` holds for the page's later blocks), in one folder
    for the whole guide, page after page: Getting started makes the project `mysite` the others use. Python
    examples run in that folder too."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "CHUTES_SITE_URL": ""}
    ran = {"bash": 0, "python": 0}
    for name in PAGES:
        page = pages[f"guide/{name}"]
        shell = [line for kind, block in BLOCK.findall(page) if kind == "bash"
                 for line in block.splitlines() if _runnable(line)]
        if shell:
            script = "set -euo pipefail\n" + "\n".join(shell)
            done = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True,
                                  timeout=300)
            assert done.returncode == 0, f"guide/{name}: {done.stderr[-2000:]}"
            ran["bash"] += len([line for line in shell if line.strip() and not line.startswith("#")])
        for kind, block in BLOCK.findall(page):
            if kind == "python":
                done = subprocess.run([sys.executable, "-c", block], cwd=tmp_path, env=env, capture_output=True,
                                      text=True, timeout=300)
                assert done.returncode == 0, f"guide/{name}: {done.stderr[-2000:]}"
                ran["python"] += 1
    assert ran["bash"] >= 20 and ran["python"] >= 2, ran
    site = tmp_path / "mysite" / "site"
    assert "https://example.org/mysite/" in (site / "sitemap.xml").read_text(), "Publishing's build was the last"
    assert "This site is ours." in (site / "index.html").read_text(), "Customising's template is in the site"


def test_only_shell_lines_that_need_more_than_a_test_are_left_out(pages: dict[str, str]) -> None:
    skipped = [line.strip() for page in pages.values() for kind, block in BLOCK.findall(page) if kind == "bash"
               for line in block.splitlines() if line.strip() and not _runnable(line)]
    assert len(skipped) <= 10, skipped
    assert not any(line.startswith("chutes") and "serve" not in line and "tcp://" not in line for line in skipped)


# --- Only the reference site has it, as a tab of its own -----------------------------------------------------

def test_only_the_reference_site_has_the_guide(tmp_path: Path) -> None:
    ours = REPOSITORY / "mkdocs.yml"
    assert guide_setting(read_config(ours), ours)
    write_project(tmp_path / "new", "0.1.0")
    theirs = tmp_path / "new" / "mkdocs.yml"
    assert not guide_setting(read_config(theirs), theirs)
    assert "guide" not in theirs.read_text()
    assert not (REPOSITORY / "site_src" / "guide").exists(), "the guide is not package data"
    bad = tmp_path / "bad.yml"
    bad.write_text("site_name: x\nplugins:\n  - chutes:\n      guide: yes please\n")
    with pytest.raises(ValueError, match="guide: expected true or false"):
        guide_setting(read_config(bad), bad)


def test_the_guide_is_a_tab_of_its_own(tmp_path: Path) -> None:
    files = {name: "" for name in ("index.md", "design.md", "data.md")}
    plain = site_nav([], files)
    tabbed = site_nav([], files, (TAB, guide_nav()))
    assert tabbed == [{RESULTS_TAB: plain}, {TAB: [f"guide/{name}" for name in PAGES]}]
    inputs = EngineInputs(tmp_path / "d", tmp_path / "t", tmp_path / "s", "http://h/", tabbed, tabs=True)
    config = engine_config({"theme": {"name": "material", "features": ["navigation.sections"]}}, inputs, tmp_path)
    assert config["theme"]["features"] == ["navigation.sections", "navigation.tabs"]
    untabbed = engine_config({"theme": {"name": "material", "features": ["navigation.sections"]}},
                             EngineInputs(tmp_path / "d", tmp_path / "t", tmp_path / "s", "http://h/", plain),
                             tmp_path)
    assert untabbed["theme"]["features"] == ["navigation.sections"]


def test_a_guide_page_missing_stops_the_build(tmp_path: Path) -> None:
    shutil.copytree(REPOSITORY / "guide", tmp_path / "guide")
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n")
    (tmp_path / "benchmarks").mkdir()
    shutil.copy(REPOSITORY / "benchmarks" / "results.md", tmp_path / "benchmarks" / "results.md")
    (tmp_path / "guide" / "scaling.md.j2").unlink()
    with pytest.raises(SiteError, match="the guide needs scaling.md"):
        guide_pages(Project.at(tmp_path))


def test_the_search_index_holds_each_guide_sections_heading_and_first_paragraph() -> None:
    """What follows a section's first paragraph is left out of the search as whole Markdown (a block that ends
    where it starts), code blocks too; a heading inside code or an HTML block is not a section."""
    page = ("# Title\n\nThe lead\ncontinues.\n\nMore.\n\n```bash\n# a comment\n```\n\n## Section\n\n| a |\n|---|\n\n"
            "Its lead.\n\n<div class=\"x\" markdown>\n\n## inside\n\n</div>\n\n## Empty\n")
    out = searched_by_their_leads(page)
    assert out.startswith("# Title\n\nThe lead\ncontinues.\n\n<div data-search-exclude markdown>\n\nMore.\n\n</div>")
    assert "\n## inside\n" in out and out.count("\n## ") == 3, "no section begins inside an HTML block"
    section = out[out.index("## Section"):out.index("## Empty")]
    assert "| a |" in section and "Its lead." in section and "data-search-exclude" not in section, \
        "an HTML block stays as it is: a <div> inside a left-out one would end it for the search"
    assert out.count("<div") == out.count("</div>") == 3
    assert "# a comment" in out.split("## Section")[0].split("</div>", 1)[1]
    usage = "<div data-search-exclude markdown>\n\n```text\nx\n```\n\n</div>\n"
    assert searched_by_their_leads(f"# A command\n\nIts lead.\n\n{usage}") == f"# A command\n\nIts lead.\n\n{usage}", \
        "a block the page already leaves out is not wrapped again"


def test_the_built_guide_is_searched_by_its_headings_and_leads(built_site: Path) -> None:
    index = json.loads((built_site / "search" / "search_index.json").read_text())["docs"]
    guide = [doc for doc in index if doc["location"].startswith("guide/")]
    pages = {doc["location"].split("#")[0] for doc in guide}
    assert {f"guide/{page}" for page in ("", "boards/", "cli/", "customising/", "api/", "tutorial/")} <= pages
    written = [doc for doc in guide if not doc["location"].startswith("guide/tutorial/")]  # a notebook's outputs
    assert max(doc["text"].count("<p>") for doc in written) == 1, "a section by its first paragraph"
    assert sum(1 for doc in guide if doc["text"]) > len(pages), "the sections' leads are there"
