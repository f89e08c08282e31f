"""chutes as a tool people install: a wheel in a fresh virtualenv, `chutes new`, projects side by side."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPOSITORY, chutes, new_project
from uv import find_uv_bin

from site_build.project import SITE_MARKER


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtualenv holding the locked dependencies and a wheel built from this repository.

    uv builds, creates and installs (what pip does in a minute, from uv's cache in seconds); the wheel is
    the standard one any installer reads."""
    root = tmp_path_factory.mktemp("wheel")
    uv = find_uv_bin()
    subprocess.run([uv, "build", "--wheel", "--quiet", "--out-dir", str(root / "dist"), str(REPOSITORY)],
                   check=True, capture_output=True)
    [wheel] = (root / "dist").glob("chutes_exact-*.whl")
    subprocess.run([uv, "venv", "--quiet", "--python", sys.executable, str(root / "env")], check=True,
                   capture_output=True)
    python = root / "env" / "bin" / "python"
    for args in (["-r", str(REPOSITORY / "requirements" / "lock.txt")], ["--no-deps", str(wheel)]):
        subprocess.run([uv, "pip", "install", "--quiet", "--python", str(python), *args], check=True,
                       capture_output=True)
    return root / "env" / "bin"


def _run(bin_dir: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CHUTES_SITE_URL")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"
    return subprocess.run(list(args), cwd=cwd, env=env, capture_output=True, text=True, timeout=900)


def test_the_wheel_carries_its_templates_assets_and_boards(installed: Path, tmp_path: Path) -> None:
    here = _run(installed, "python", "-c", "import chutes, compute; print(chutes.__file__, compute.__version__)",
                cwd=tmp_path)
    assert here.returncode == 0 and str(REPOSITORY) not in here.stdout and "site-packages" in here.stdout
    solved = _run(installed, "chutes", "solve", "classic", "--json", cwd=tmp_path)
    assert solved.returncode == 0, solved.stderr
    assert '"numerator_digits": 4453' in solved.stdout
    assert list(tmp_path.iterdir()) == [], "solving writes nothing"


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


def test_a_project_template_overrides_the_default_file_by_file(tmp_path: Path) -> None:
    project = new_project(tmp_path / "p")
    (project.root / "templates").mkdir()
    (project.root / "templates" / "data.md.j2").write_text("# Our data\n\nAsk us for the files.\n")
    (project.root / "site_src" / "about.md").write_text("# About\n\nA project page.\n")
    out = chutes("build", "--project", str(project.root))
    assert out.returncode == 0, out.stderr
    assert "Ask us for the files." in (project.site_dir / "data" / "index.html").read_text()
    assert (project.site_dir / "about" / "index.html").is_file()
    assert "Going first" in (project.site_dir / "boards" / "tiny" / "index.html").read_text(), "defaults remain"


def test_python_m_chutes_is_the_same_command(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "chutes", "compute", "--project", str(new_project(tmp_path).root)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and "tiny: computed" in out.stderr, out.stderr
