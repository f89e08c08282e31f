"""The GitHub Actions workflows pass real linters: this repository's site and release workflows, and the site
workflow that `chutes new` gives a new project.

actionlint checks syntax, expressions and the actions' inputs and outputs; zizmor audits security (template
injection, permissions, credentials left by checkout, cache poisoning in a release, ...). Both come with the `test`
extra and are pinned in requirements/test-lock.txt, so a missing tool is a failure here, never a skip.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement

REPO = Path(__file__).resolve().parents[1]
SITE_WORKFLOW = REPO / ".github" / "workflows" / "site.yml"
RELEASE_WORKFLOW = REPO / ".github" / "workflows" / "release.yml"
RELEASE_LOCK = REPO / "requirements" / "release-lock.txt"
RESULTS_KEY = "results-${{ runner.os }}-${{ steps.key.outputs.code }}-${{ hashFiles('site_src/boards/**') }}"
RESULTS_RESTORE_PREFIX = "results-${{ runner.os }}-${{ steps.key.outputs.code }}-"
DEFAULT_BRANCH_ONLY = "github.ref == format('refs/heads/{0}', github.event.repository.default_branch)"
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


def as_project(text: str, root: Path, name: str = "site.yml") -> tuple[Path, Path]:
    """`text` written as `.github/workflows/<name>` of a new project under `root` (the layout actionlint expects)."""
    workflow = root / ".github" / "workflows" / name
    workflow.parent.mkdir(parents=True)
    workflow.write_text(text)
    return workflow, root


def site_workflow(which: str) -> Path:
    return SITE_WORKFLOW if which == "repository" else scaffold_workflow()


def steps_using(job: dict, action: str) -> list[dict]:
    return [step for step in job["steps"] if step.get("uses", "").startswith(action + "@")]


def run_step_script(script: str, cwd: Path, tmp_path: Path, fakes: dict[str, str],
                    env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """A `run:` script under `bash -e` as the runner runs it, with `fakes` (name -> shell script) first on PATH."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    for name, body in fakes.items():
        fake = bin_dir / name
        fake.write_text("#!/bin/sh\n" + body)
        fake.chmod(0o755)
    (bin_dir / "python").unlink(missing_ok=True)
    (bin_dir / "python").symlink_to(sys.executable)
    full_env = {**os.environ, **env, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(["bash", "-e", "-c", script], cwd=cwd, env=full_env, capture_output=True, text=True,
                          timeout=60)


@pytest.fixture(params=["repository", "scaffold", "release"])
def workflow_in_project(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, Path]:
    """(workflow file, project folder): this repository's own two, or the scaffold's copied into a new project."""
    if request.param == "repository":
        return SITE_WORKFLOW, REPO
    if request.param == "release":
        return RELEASE_WORKFLOW, REPO
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


@pytest.mark.parametrize("which", ["repository", "scaffold", "release"])
def test_every_action_is_pinned_by_commit_with_its_version(which: str) -> None:
    path = RELEASE_WORKFLOW if which == "release" else site_workflow(which)
    lines = [line for line in path.read_text().splitlines() if re.match(r"\s*(-\s*)?uses:", line)]
    assert len(lines) >= 6
    for line in lines:
        ref = line.split("uses:", 1)[1].split("#", 1)[0].strip()
        assert SHA_PIN.match(ref), f"{path.name}: not pinned by a full commit SHA: {line.strip()}"
        assert VERSION_COMMENT.search(line), f"{path.name}: no '# vX.Y.Z' comment: {line.strip()}"


def test_the_same_actions_are_pinned_to_the_same_commits() -> None:
    """An action used by several workflows is pinned to one commit (an update cannot forget one of them)."""
    pins: dict[str, set[str]] = {}
    for path in (SITE_WORKFLOW, scaffold_workflow(), RELEASE_WORKFLOW):
        for line in path.read_text().splitlines():
            if re.match(r"\s*(-\s*)?uses:", line):
                action, _, rest = line.split("uses:", 1)[1].strip().partition("@")
                pins.setdefault(action, set()).add(rest)
    assert {"actions/checkout", "actions/setup-python", "pypa/gh-action-pypi-publish"} <= pins.keys()
    for action, refs in pins.items():
        assert len(refs) == 1, f"{action} is pinned differently: {sorted(refs)}"


@pytest.mark.parametrize("which", ["repository", "scaffold"])
def test_least_privilege_and_no_expressions_in_scripts(which: str) -> None:
    path = site_workflow(which)
    workflow = yaml.safe_load(path.read_text())
    assert workflow["permissions"] == {}
    # One run per branch; a newer run waits (a deployment is never cancelled half-way).
    assert workflow["concurrency"] == {"group": "site-${{ github.ref }}", "cancel-in-progress": False}
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


@pytest.mark.parametrize("which", ["repository", "scaffold"])
def test_pip_downloads_are_cached_on_the_installed_lock_file(which: str) -> None:
    path = site_workflow(which)
    build = yaml.safe_load(path.read_text())["jobs"]["build"]
    (setup,) = steps_using(build, "actions/setup-python")
    assert setup["with"]["cache"] == "pip", f"{path.name}: no pip cache"
    lock = setup["with"]["cache-dependency-path"]
    assert lock == ("requirements/lock.txt" if which == "repository" else "requirements.txt")
    installs = [step["run"] for step in build["steps"] if "pip install" in step.get("run", "")]
    assert installs and f"-r {lock}" in installs[0], f"{path.name}: the cache is keyed on a file not installed"


@pytest.mark.parametrize("which", ["repository", "scaffold"])
def test_every_branch_is_built_and_only_the_default_branch_is_deployed(which: str) -> None:
    path = site_workflow(which)
    workflow = yaml.safe_load(path.read_text())
    triggers = workflow[True]  # YAML 1.1 reads the key `on` as true
    assert triggers["push"] == {"branches": ["**"]}, f"{path.name}: not built on every branch (or built on tags)"
    assert "workflow_dispatch" in triggers
    jobs = workflow["jobs"]
    assert "if" not in jobs["build"]
    condition = " ".join(str(jobs["deploy"].get("if", "")).split())
    assert condition == DEFAULT_BRANCH_ONLY, f"{path.name}: deploy runs on {condition or 'every branch'}"


@pytest.mark.parametrize("which", ["repository", "scaffold"])
def test_the_results_cache_is_keyed_on_the_compute_code(which: str) -> None:
    path = site_workflow(which)
    steps = yaml.safe_load(path.read_text())["jobs"]["build"]["steps"]
    keys = [i for i, step in enumerate(steps) if step.get("id") == "key"]
    assert len(keys) == 1, f"{path.name}: no step with id: key"
    key_step = steps[keys[0]]
    assert "chutes cache-key" in key_step["run"] and '"$GITHUB_OUTPUT"' in key_step["run"]
    caches = [i for i, step in enumerate(steps) if step.get("uses", "").startswith("actions/cache@")]
    assert len(caches) == 1
    cache = steps[caches[0]]
    install = next(i for i, step in enumerate(steps) if "pip install" in step.get("run", ""))
    assert install < keys[0] < caches[0], f"{path.name}: the key must be made after the install, before the cache"
    assert cache["with"]["key"] == RESULTS_KEY
    restore_keys = [line.strip() for line in cache["with"]["restore-keys"].splitlines() if line.strip()]
    assert restore_keys == [RESULTS_RESTORE_PREFIX], f"{path.name}: records of other code could be restored"


@pytest.mark.parametrize("which", ["repository", "scaffold"])
def test_the_key_step_writes_the_code_hash_and_refuses_anything_else(which: str, tmp_path: Path) -> None:
    """The key step's own script, run with a stand-in `chutes`: one hex line is written, an error is not."""
    steps = yaml.safe_load(site_workflow(which).read_text())["jobs"]["build"]["steps"]
    script = next(step for step in steps if step.get("id") == "key")["run"]
    output = tmp_path / "github_output"
    env = {"GITHUB_OUTPUT": str(output)}
    result = run_step_script(script, tmp_path, tmp_path, {"chutes": 'test "$1" = cache-key && echo 3fa9c1d2e4b5a6c7\n'},
                             env)
    assert result.returncode == 0, result.stderr
    assert output.read_text() == "code=3fa9c1d2e4b5a6c7\n"
    output.unlink()
    for broken in ("echo \"Error: No such command 'cache-key'.\" >&2; exit 2\n", "echo 'not a hash'\n", "true\n"):
        result = run_step_script(script, tmp_path, tmp_path, {"chutes": broken}, env)
        assert result.returncode != 0, f"the step passed with a chutes that does: {broken}"
        assert not output.exists() or "code=" not in output.read_text()


def test_release_jobs_are_least_privileged() -> None:
    workflow = yaml.safe_load(RELEASE_WORKFLOW.read_text())
    assert workflow[True] == {"push": {"tags": ["v*"]}}
    assert workflow["permissions"] == {}
    jobs = workflow["jobs"]
    assert set(jobs) == {"build", "publish", "github-release"}
    assert jobs["build"]["permissions"] == {"contents": "read"}
    assert jobs["publish"]["permissions"] == {"id-token": "write"}
    assert jobs["github-release"]["permissions"] == {"contents": "write"}
    assert jobs["publish"]["needs"] == "build" and jobs["github-release"]["needs"] == "publish"
    environment = jobs["publish"]["environment"]
    assert (environment if isinstance(environment, str) else environment["name"]) == "pypi"
    for name, job in jobs.items():
        assert "environment" not in job or name == "publish", f"{name} has an environment"
        for step in job["steps"]:
            assert "${{" not in step.get("run", ""), f"release.yml: an expression inside run: {step}"
            if step.get("uses", "").startswith("actions/checkout@"):
                assert step["with"]["persist-credentials"] is False
    (publish,) = steps_using(jobs["publish"], "pypa/gh-action-pypi-publish")
    assert not {"password", "user"} & set(publish.get("with", {})), "trusted publishing needs no password"
    assert not steps_using(jobs["publish"], "actions/checkout"), "the publishing job runs no repository code"


def test_release_builds_checks_and_attaches_with_pinned_tools_and_no_cache() -> None:
    text = RELEASE_WORKFLOW.read_text()
    jobs = yaml.safe_load(text)["jobs"]
    assert "actions/cache@" not in text
    for job in jobs.values():
        for step in steps_using(job, "actions/setup-python"):
            assert "cache" not in step.get("with", {}), "a cache in a release workflow can be poisoned"
    runs = [step.get("run", "") for step in jobs["build"]["steps"]]
    install = next(i for i, run in enumerate(runs) if "pip install" in run)
    assert "-r requirements/release-lock.txt" in runs[install]
    build = next(i for i, run in enumerate(runs) if "python -m build" in run)
    check = next(i for i, run in enumerate(runs) if "twine check --strict dist/*" in run)
    assert install < build < check
    (release,) = [step for step in jobs["github-release"]["steps"] if "gh release create" in step.get("run", "")]
    assert release["env"]["GH_TOKEN"] == "${{ github.token }}"
    assert release["env"]["TAG"] == "${{ github.ref_name }}"
    assert '"$TAG"' in release["run"] and "--verify-tag" in release["run"] and "dist/*" in release["run"]


def test_the_release_lock_pins_every_build_tool_and_the_build_backend() -> None:
    pins = {}
    for line in RELEASE_LOCK.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            requirement = Requirement(line)
            (spec,) = requirement.specifier
            assert spec.operator == "==", f"not an exact version: {line}"
            pins[requirement.name.lower()] = spec.version
    assert {"build", "twine", "setuptools"} <= pins.keys()
    # The release builds with --no-isolation, so the locked tools must satisfy pyproject.toml's build-system.
    with (REPO / "pyproject.toml").open("rb") as file:
        build_requires = tomllib.load(file)["build-system"]["requires"]
    for text in build_requires:
        requirement = Requirement(text)
        assert requirement.name.lower() in pins, f"{text} (build-system) is not in {RELEASE_LOCK.name}"
        assert requirement.specifier.contains(pins[requirement.name.lower()]), f"{text} is not met by the lock"


def test_the_release_refuses_a_tag_other_than_the_version(tmp_path: Path) -> None:
    """The tag check's own script against this repository's pyproject.toml: v<version> passes, another tag fails."""
    steps = yaml.safe_load(RELEASE_WORKFLOW.read_text())["jobs"]["build"]["steps"]
    script = next(step["run"] for step in steps if "GITHUB_REF_NAME" in step.get("run", ""))
    with (REPO / "pyproject.toml").open("rb") as file:
        version = tomllib.load(file)["project"]["version"]
    passed = run_step_script(script, REPO, tmp_path, {}, {"GITHUB_REF_NAME": f"v{version}"})
    assert passed.returncode == 0, passed.stdout + passed.stderr
    for tag in (f"v{version}.1", version, "v0.0.0-not-this"):
        failed = run_step_script(script, REPO, tmp_path, {}, {"GITHUB_REF_NAME": tag})
        assert failed.returncode != 0 and "::error::" in failed.stdout, f"the tag {tag} was accepted"


def test_zizmor_catches_a_cache_in_the_release(tmp_path: Path) -> None:
    """The release has no cache because zizmor really flags one: the same workflow with pip's cache fails it."""
    setup = '          python-version: "3.11"\n'
    text = RELEASE_WORKFLOW.read_text()
    assert text.count(setup) == 1
    workflow, project = as_project(text.replace(setup, setup + "          cache: pip\n"), tmp_path, "release.yml")
    result = zizmor(workflow, project)
    assert result.returncode != 0, report(result)
    assert "cache-poisoning" in result.stdout + result.stderr, report(result)
