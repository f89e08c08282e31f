"""The GitHub Actions workflows pass real linters: this repository's, and the one `chutes new` gives a new site.

actionlint checks syntax, expressions and the actions' inputs and outputs; zizmor audits security (template
injection, permissions, credentials left by checkout, ...). Both come with the `test` extra and are pinned in
requirements/test-lock.txt, so a missing tool is a failure here, never a skip.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
SITE_WORKFLOW = REPO / ".github" / "workflows" / "site.yml"
SHA_PIN = re.compile(r"^[\w.-]+/[\w.-]+(/[\w./-]+)?@[0-9a-f]{40}$")
VERSION_COMMENT = re.compile(r"#\s*v\d+\.\d+\.\d+\s*$")


def scaffold_workflow() -> Path:
    """The workflow the scaffold copies into a new site project (the one `*/scaffold/workflow.yml` in the repo)."""
    found = sorted(p for p in REPO.glob("*/scaffold/workflow.yml") if ".git" not in p.parts)
    assert len(found) == 1, f"expected one */scaffold/workflow.yml in {REPO}, found {found}"
    return found[0]


def tool(name: str) -> str:
    """The path of a linter's executable: on PATH, else in this interpreter's scripts folder."""
    candidates = [shutil.which(name), shutil.which(name, path=sysconfig.get_path("scripts")),
                  shutil.which(name, path=str(Path(sys.executable).parent))]
    for found in candidates:
        if found:
            return found
    pytest.fail(f"{name} is not installed: install the test tools with "
                f"'python3 -m pip install -r requirements/test-lock.txt'")


def lint(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120)


def actionlint(workflow: Path, project: Path) -> subprocess.CompletedProcess[str]:
    return lint([tool("actionlint"), "-no-color", str(workflow.relative_to(project))], cwd=project)


def zizmor(workflow: Path, project: Path) -> subprocess.CompletedProcess[str]:
    return lint([tool("zizmor"), "--offline", "--no-progress", "--color=never", str(workflow.relative_to(project))],
                cwd=project)


def report(result: subprocess.CompletedProcess[str]) -> str:
    return f"{' '.join(result.args)} exited {result.returncode}\n{result.stdout}\n{result.stderr}"


def as_project(text: str, root: Path) -> tuple[Path, Path]:
    """`text` written as `.github/workflows/site.yml` of a new project under `root` (the layout actionlint expects)."""
    workflow = root / ".github" / "workflows" / "site.yml"
    workflow.parent.mkdir(parents=True)
    workflow.write_text(text)
    return workflow, root


@pytest.fixture(params=["repository", "scaffold"])
def workflow_in_project(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, Path]:
    """(workflow file, project folder): this repository's own, or the scaffold's copied into a new project."""
    if request.param == "repository":
        return SITE_WORKFLOW, REPO
    return as_project(scaffold_workflow().read_text(), tmp_path)


def test_actionlint_passes(workflow_in_project: tuple[Path, Path]) -> None:
    result = actionlint(*workflow_in_project)
    assert result.returncode == 0, report(result)


def test_zizmor_passes(workflow_in_project: tuple[Path, Path]) -> None:
    result = zizmor(*workflow_in_project)
    assert result.returncode == 0, report(result)


def test_the_linters_do_catch_a_template_injection(tmp_path: Path) -> None:
    """Both linters really look: the same workflow with an attacker-controlled value inlined in `run:` fails both."""
    safe = 'run: chutes build --site-url "$SITE_URL"'
    text = SITE_WORKFLOW.read_text()
    assert safe in text
    unsafe = 'run: chutes build --site-url "${{ github.event.head_commit.message }}"'
    workflow, project = as_project(text.replace(safe, unsafe), tmp_path)
    for result in (actionlint(workflow, project), zizmor(workflow, project)):
        assert result.returncode != 0, report(result)
        assert "head_commit.message" in result.stdout + result.stderr, report(result)


@pytest.mark.parametrize("which", ["repository", "scaffold"])
def test_every_action_is_pinned_by_commit_with_its_version(which: str) -> None:
    path = SITE_WORKFLOW if which == "repository" else scaffold_workflow()
    lines = [line for line in path.read_text().splitlines() if re.match(r"\s*(-\s*)?uses:", line)]
    assert len(lines) >= 6
    for line in lines:
        ref = line.split("uses:", 1)[1].split("#", 1)[0].strip()
        assert SHA_PIN.match(ref), f"{path.name}: not pinned by a full commit SHA: {line.strip()}"
        assert VERSION_COMMENT.search(line), f"{path.name}: no '# vX.Y.Z' comment: {line.strip()}"


@pytest.mark.parametrize("which", ["repository", "scaffold"])
def test_least_privilege_and_no_expressions_in_scripts(which: str) -> None:
    path = SITE_WORKFLOW if which == "repository" else scaffold_workflow()
    workflow = yaml.safe_load(path.read_text())
    assert workflow["permissions"] == {}
    assert workflow["concurrency"]["group"] == "pages"
    jobs = workflow["jobs"]
    assert jobs["build"]["permissions"] == {"contents": "read", "pages": "read"}
    assert jobs["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}
    assert jobs["deploy"]["needs"] == "build"
    for job in jobs.values():
        for step in job["steps"]:
            assert "${{" not in step.get("run", ""), f"{path.name}: an expression inside run: {step}"
            if step.get("uses", "").startswith("actions/checkout@"):
                assert step["with"]["persist-credentials"] is False
    build = next(step for step in jobs["build"]["steps"] if "chutes build" in step.get("run", ""))
    assert build["env"]["SITE_URL"] == "${{ steps.pages.outputs.base_url }}"
