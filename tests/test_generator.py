"""chutes as a tool people install: the README's install lines in a new virtualenv, `chutes new`, the new
project's own requirements, projects side by side."""

from __future__ import annotations

import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers import REPOSITORY, chutes, in_languages, new_project
from uv import find_uv_bin

from chutes.site_build import scaffold as new_project_module
from chutes.site_build.project import SITE_MARKER
from chutes.site_build.scaffold import provide_generator, write_project

INSTALL = pytest.mark.xdist_group("install")  # one virtualenv per worker: its tests run on one worker


def _block(heading: str) -> str:
    """The first code block under a README heading (without its language line)."""
    text = (REPOSITORY / "README.md").read_text()
    section = text[text.index(heading):]
    return section.split("```", 2)[1].split("\n", 1)[1]


def readme_install_line() -> str:
    """The command under "Start your own site" that installs the generator (its comment left out)."""
    return next(line.split("#")[0].strip() for line in _block("## Start your own site").splitlines()
                if line.startswith("pip install"))


def copy_of_repository(target: Path) -> Path:
    """This repository's files (tracked and new, as a clone would have them), links kept as links."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=REPOSITORY, capture_output=True, check=True).stdout.decode().split("\0")
    for rel in filter(None, listed):
        source, dest = REPOSITORY / rel, target / rel
        if not source.exists() and not source.is_symlink():
            continue  # deleted in the work tree
        dest.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            dest.symlink_to(os.readlink(source))
        else:
            shutil.copy2(source, dest)
    return target


def _link_locked_distributions(env: Path) -> None:
    """Put the lock file's distributions (requirements/lock.txt: what pip would install for the generator and
    its extras) into a new virtualenv as links to this test environment's files, the versions checked against
    the lock (unpacked afresh they are 700 MB: about a minute of the suite)."""
    lines = (REPOSITORY / "requirements" / "lock.txt").read_text().splitlines()
    pinned = {re.sub(r"[-_.]+", "-", name).lower(): version.strip()
              for name, version in (line.split("==") for line in lines if "==" in line and line[0] not in " #")}
    [site] = (env / "lib").glob("python*/site-packages")
    present = {re.sub(r"[-_.]+", "-", d.metadata["Name"]).lower()
               for d in importlib.metadata.distributions(path=[str(site)])}
    for dist in importlib.metadata.distributions():
        name = re.sub(r"[-_.]+", "-", dist.metadata["Name"]).lower()
        if name not in pinned or name in present:
            continue
        assert dist.version == pinned[name], f"{name} {dist.version} here, {pinned[name]} in the lock"
        present.add(name)
        for file in dist.files or ():
            source = Path(dist.locate_file(file))
            if ".." in file.parts or not source.is_file():
                continue  # a console script outside site-packages, or a file never written
            target = site / file
            target.parent.mkdir(parents=True, exist_ok=True)
            target.symlink_to(source.resolve())
    assert set(pinned) - {"chutes-exact"} <= present, sorted(set(pinned) - present)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new virtualenv where the README's install line, run as written beside a copy of this repository in the
    folder it names, installed the generator with pip. The virtualenv (made by uv, with pip in it) starts with
    the lock file's distributions (`_link_locked_distributions`), so pip checks each of the generator's
    requirements against them and builds and installs the generator itself; the lock file's versions are
    pip's constraints, as when the README's build command installs them."""
    root = tmp_path_factory.mktemp("install")
    line = readme_install_line()
    folder = line.split()[-1]
    assert line == f"pip install {folder}" and folder.startswith("./"), line
    copy_of_repository(root / folder)
    subprocess.run([find_uv_bin(), "venv", "--quiet", "--seed", "--python", sys.executable, str(root / "env")],
                   check=True, capture_output=True)
    _link_locked_distributions(root / "env")
    env = _environment(root / "env" / "bin")
    env["PIP_CONSTRAINT"] = str(REPOSITORY / "requirements" / "lock.txt")
    done = subprocess.run(line, shell=True, cwd=root, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return root / "env" / "bin"


def _environment(bin_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CHUTES_SITE_URL", "VIRTUAL_ENV")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"
    env["VIRTUAL_ENV"] = str(bin_dir.parent)
    return env


def _run(bin_dir: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), cwd=cwd, env=_environment(bin_dir), capture_output=True, text=True,
                          timeout=900)


@INSTALL
def test_the_wheel_carries_its_templates_assets_and_boards(installed: Path, tmp_path: Path) -> None:
    here = _run(installed, "python", "-c", "import chutes.compute, chutes.site_build; print(chutes.compute.__file__, "
                "chutes.site_build.__file__, chutes.compute.__version__)", cwd=tmp_path)
    assert here.returncode == 0 and str(REPOSITORY) not in here.stdout and "site-packages/chutes/compute" in here.stdout
    top = _run(installed, "python", "-c", "import importlib.util as u; print([n for n in ('compute', 'site_build') "
               "if u.find_spec(n)])", cwd=tmp_path)
    assert top.stdout.strip() == "[]", "one import package: nothing of ours at the top of site-packages but chutes"
    solved = _run(installed, "chutes", "solve", "classic", "--json", cwd=tmp_path)
    assert solved.returncode == 0, solved.stderr
    assert '"numerator_digits": 4453' in solved.stdout
    assert list(tmp_path.iterdir()) == [], "solving writes nothing"


@INSTALL
def test_a_new_project_builds_into_a_site_at_once(installed: Path, tmp_path: Path) -> None:
    made = _run(installed, "chutes", "new", "site1", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    project = tmp_path / "site1"
    for name in ("mkdocs.yml", "README.md", ".gitignore", "requirements.txt", ".github/workflows/site.yml",
                 "site_src/boards/example.toml"):
        assert (project / name).is_file(), name
    built = _run(installed, "chutes", "build", cwd=project)
    assert built.returncode == 0, built.stderr
    assert (project / "site" / "boards" / "example" / "index.html").is_file()
    assert (project / "site" / "assets" / "javascripts" / "charts.js").is_file()
    assert (project / "site" / SITE_MARKER).is_file() and "local preview" in built.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site1"], "nothing is written outside the project"


def test_a_new_project_gets_the_generator_as_it_was_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """From an index: the pin; from a wheel file: a copy in wheels/; from a git repository: that commit; from
    anything else: what to put in wheels/ (a folder's wheel is made by pip: the test above)."""
    version = "0.1.0"

    def project(name: str, source: dict | None) -> tuple[Path, str]:
        monkeypatch.setattr(new_project_module, "installed_from", lambda: source)
        root = tmp_path / name
        write_project(root, version)
        return root, provide_generator(root, version)

    root, said = project("index", None)
    assert "chutes-exact==0.1.0 from the package index" in said and not (root / "wheels").exists()
    assert (root / "requirements.txt").read_text().endswith("--find-links wheels\nchutes-exact==0.1.0\n")
    wheel = tmp_path / "chutes_exact-0.1.0-py3-none-any.whl"
    wheel.write_bytes(b"PK")
    root, said = project("wheel", {"url": wheel.as_uri(), "archive_info": {}})
    assert (root / "wheels" / wheel.name).read_bytes() == b"PK" and said.startswith(f"wheels/{wheel.name}: ")
    root, said = project("git", {"url": "https://example.org/chutes.git",
                                 "vcs_info": {"vcs": "git", "commit_id": "a" * 40}})
    line = f"chutes-exact @ git+https://example.org/chutes.git@{'a' * 40}"
    assert (root / "requirements.txt").read_text().splitlines()[-1] == line and line in said
    root, said = project("gone", {"url": (tmp_path / "no-such-clone").as_uri(), "dir_info": {}})
    assert said.startswith("no wheel made") and "put its wheel in wheels/" in said
    assert not (root / "wheels").exists()


def test_a_new_project_in_three_languages_builds_each_in_its_folder(tmp_path: Path) -> None:
    """`chutes new`, then `languages: [en, fr, hi]` under its chutes settings: the build publishes English at the
    root and French and Hindi in their folders, each page in its language, the downloads once (needs the site's
    and the wording's catalogues of both languages: `chutes build` names those it has)."""
    root = tmp_path / "site1"
    write_project(root, "0.1.0")
    config = root / "mkdocs.yml"
    assert re.search(r"^ +languages: \[en, es, fr, de, hi, ar\]", config.read_text(), flags=re.M), \
        "a new site publishes the six languages the package has catalogues for"
    config.write_text(in_languages(config.read_text(), ["en", "fr", "hi"]))  # its translations: fr's and hi's
    built = chutes("build", cwd=root)
    assert built.returncode == 0, built.stderr
    site = root / "site"
    for prefix, code in (("", "en"), ("fr/", "fr"), ("hi/", "hi")):
        page = (site / prefix / "boards" / "example" / "index.html").read_text()
        assert f'<html lang="{code}"' in page, code
        assert (site / prefix / "index.html").is_file() and (site / prefix / "search" / "search_index.json").is_file()
    assert (site / "data" / "example.json").is_file() and not (site / "fr" / "data" / "example.json").exists(), \
        "the downloads are published once"
    assert not (site / "fr" / "fr").exists() and not (site / "hi" / "fr").exists()


def test_two_projects_side_by_side_never_touch_each_other(tmp_path: Path) -> None:
    one = new_project(tmp_path / "one", ["tiny"])
    two = new_project(tmp_path / "two", ["short"])
    for project in (one, two):
        out = chutes("build", cwd=project.root)
        assert out.returncode == 0, out.stderr
    assert [p.name.split("-")[0] for p in one.cache_dir.glob("*.json")] == ["tiny"]
    assert [p.name.rsplit("-", 1)[0] for p in two.cache_dir.glob("*.json")] == ["short"]
    assert (one.site_dir / "boards" / "tiny").is_dir() and not (one.site_dir / "boards" / "short").exists()
    assert (two.site_dir / "boards" / "short").is_dir() and not (two.site_dir / "boards" / "tiny").exists()
    # neither has a plain board beside a board with house rules, nor the boards the literature compares: both
    # pages are left out, said so with the reason, and nothing links to them
    assert "note: no House rules page (house-rules/): it is made only when a board with house rules" in out.stderr
    assert re.search(r"note: no What others found page \(literature/\): the package's literature.toml gives figures "
                     r"of boards this site does not have \([a-z0-9-]+(, [a-z0-9-]+)*\)", out.stderr), out.stderr
    for project in (one, two):
        assert not (project.site_dir / "house-rules").exists() and not (project.site_dir / "literature").exists()
        for html in project.site_dir.rglob("*.html"):
            assert not re.search(r'href="[^"]*(house-rules|literature)/', html.read_text()), html


def test_a_project_template_overrides_the_default_file_by_file(tmp_path: Path) -> None:
    project = new_project(tmp_path / "p")
    (project.root / "templates").mkdir()
    (project.root / "templates" / "data.md.j2").write_text("# Our data\n\nAsk us for the files.\n")
    (project.root / "site_src" / "about.md").write_text("# About\n\nA project page.\n")
    config = project.root / "mkdocs.yml"
    config.write_text(config.read_text() + "nav:\n  - About us: about.md\n")  # a hand-written page in the menu
    out = chutes("build", "--project", str(project.root))
    assert out.returncode == 0, out.stderr
    assert "Ask us for the files." in (project.site_dir / "data" / "index.html").read_text()
    assert (project.site_dir / "about" / "index.html").is_file()
    assert "Going first" in (project.site_dir / "boards" / "tiny" / "index.html").read_text(), "defaults remain"
    for page in ("index.html", "boards/tiny/index.html", "data/index.html"):
        menu = (project.site_dir / page).read_text()
        link = r'<a href="[./]*about/" class="md-nav__link">\s*<span class="md-ellipsis">\s*About us'
        assert re.search(link, menu), page
    config.write_text(config.read_text() + "  - Tiny: boards/tiny.md\n")
    refused = chutes("build", "--project", str(project.root))
    errors = [line for line in refused.stderr.splitlines() if line.startswith("chutes: error: ")]
    assert refused.returncode != 0 and len(errors) == 1 and "Traceback" not in refused.stderr, refused.stderr
    assert "nav → boards/tiny.md: a page chutes places in the menu itself" in refused.stderr


def test_python_m_chutes_is_the_same_command(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "chutes", "compute", "--project", str(new_project(tmp_path).root)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and "tiny: computed" in out.stderr, out.stderr


@INSTALL
def test_a_new_project_installs_from_its_requirements_with_the_wheel_in_its_wheels_folder(installed: Path,
                                                                                           tmp_path: Path) -> None:
    """Before a release is on PyPI: `chutes new`, run by a chutes installed from a clone, puts the wheel of that
    clone in wheels/ and says so, and that is what `pip install -r requirements.txt` (the line of the project's
    README, its workflow and the GitLab snippet) installs on a machine without chutes, with no index."""
    new = _run(installed, "chutes", "new", "site1", cwd=tmp_path)
    assert new.returncode == 0, new.stderr
    project = tmp_path / "site1"
    version = _run(installed, "chutes", "--version", cwd=project).stdout.split()[-1]
    [wheel] = (project / "wheels").glob("*.whl")
    assert wheel.name.startswith(f"chutes_exact-{version}-"), wheel.name
    assert f"note: wheels/{wheel.name}: the wheel of " in new.stderr and "(commit it)" in new.stderr, new.stderr
    readme = (project / "README.md").read_text()
    assert "pip install -r requirements.txt" in readme and "pypi.org/project/chutes/" not in readme
    assert re.search(r"pip wheel --no-deps -w wheels \S+", readme), "the README says how to make one by hand"
    assert not any(line.strip().startswith(("wheels", "/wheels")) for line in
                   (project / ".gitignore").read_text().splitlines()), "the wheel is committed"
    assert _run(installed, "pip", "uninstall", "--yes", "chutes-exact", cwd=project).returncode == 0
    assert _run(installed, "python", "-c", "import chutes", cwd=project).returncode != 0, "uninstalled"
    again = _run(installed, "pip", "install", "--no-index", "-r", "requirements.txt", cwd=project)
    assert again.returncode == 0, again.stderr
    again_version = _run(installed, "chutes", "--version", cwd=project)
    assert again_version.returncode == 0 and again_version.stdout.split()[-1] == version
    assert f"chutes-exact=={version}" in (project / "requirements.txt").read_text()
    workflow = yaml.safe_load((project / ".github" / "workflows" / "site.yml").read_text())
    runs = [step.get("run", "") for job in workflow["jobs"].values() for step in job["steps"]]
    assert any("-r requirements.txt" in run for run in runs), "the workflow installs from requirements.txt"
    publishing = (REPOSITORY / "guide" / "publishing.md.j2").read_text()  # the guide's GitLab file does the same
    gitlab = publishing[publishing.index("## GitLab Pages"):].split("```yaml\n", 1)[1].split("```", 1)[0]
    assert "pip install -r requirements.txt" in yaml.safe_load(gitlab)["pages"]["script"]
