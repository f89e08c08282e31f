"""`chutes new DIR`: a ready site project, which `chutes build` turns into a site at once.

The files come from the package's `scaffold/` folder (an example board with comments, a README, a
.gitignore and the CI workflow that publishes it) and the reference site's own mkdocs.yml with the new
site's name; requirements.txt pins this version of chutes, from PyPI or from the project's `wheels/` folder.
`provide_generator` then makes sure that a fresh machine (the CI workflow's) installs that same version: from
the package index it came from, or from its wheel put into `wheels/`, or from the repository it came from.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from importlib import metadata
from importlib.resources import files
from pathlib import Path
from string import Template
from urllib.parse import unquote, urlsplit

from ..project import ProjectError, absolute

DISTRIBUTION = "chutes-exact"
WHEELS = "wheels"

SCAFFOLD = files("chutes.site_build") / "scaffold"
REFERENCE_CONFIG = files("chutes") / "mkdocs.yml"
LAYOUT = {
    "README.md": "README.md",
    "gitignore": ".gitignore",
    "example.toml": "site_src/boards/example.toml",
    "workflow.yml": ".github/workflows/site.yml",
}


def site_config(reference: str, name: str) -> str:
    """The reference site's mkdocs.yml for a new site: its name, a neutral description, the same setup, without
    the generator's guide (`guide: true`: the reference site's own tab, from pages a new project does not have)."""
    lines = []
    for line in reference.splitlines():
        if line.strip().startswith("guide:"):
            continue
        if line.startswith("site_name:"):
            line = f"site_name: {json.dumps(name)}"
        elif line.startswith("site_description:"):
            line = "site_description: Chutes and Ladders boards, analysed exactly."
        lines.append(line)
    return "\n".join(lines) + "\n"


def requirements(version: str, requirement: str | None = None) -> str:
    """The new site's requirements.txt: this chutes version, from PyPI or from a wheel in `wheels/` (or
    `requirement`, a line of its own: the repository it was installed from)."""
    return ("# The generator, at the version this site was made with: from PyPI, or from a wheel in wheels/ (until\n"
            "# chutes-exact is on PyPI, or offline: pip wheel --no-deps -w wheels PATH/TO/A/CLONE/OF/IT).\n"
            f"--find-links {WHEELS}\n{requirement or f'{DISTRIBUTION}=={version}'}\n")


def installed_from() -> dict[str, object] | None:
    """Where the running chutes was installed from: its distribution's `direct_url.json` (PEP 610: a folder, a
    wheel or archive file or address, a repository), or None when it came from a package index (or is not
    installed as a distribution at all)."""
    try:
        text = metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
    try:
        found = json.loads(text) if text else None
    except ValueError:
        return None
    return found if isinstance(found, dict) else None


def _local(url: str) -> Path | None:
    split = urlsplit(url)
    return Path(unquote(split.path)) if split.scheme == "file" else None


def _pip_wheel(folder: Path, out: Path) -> str:
    """Build the wheel of the project in `folder` into `out` with pip: in an isolated build environment (its
    build backend from the index), else, offline, with the backend installed here; '' or why it failed."""
    why = ""
    for isolation in ([], ["--no-build-isolation"]):
        done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
                               "--disable-pip-version-check", *isolation, "-w", str(out), str(folder)],
                              capture_output=True, text=True, timeout=600)
        if done.returncode == 0:
            return ""
        lines = [line.strip() for line in done.stderr.splitlines() if line.strip()]
        why = lines[-1] if lines else f"pip exited with status {done.returncode}"
    return why


def provide_generator(root: Path, version: str) -> str:
    """Make the project in `root` install this chutes `version` on a fresh machine from its requirements.txt,
    as it can be from how chutes was installed here (`installed_from`); what was done, in one sentence.

    From a package index: the index pin stays. From a wheel file: a copy goes into `wheels/`. From a folder
    (a clone, editable or not): its wheel is built into `wheels/` and kept if it is this version. From a
    repository: requirements.txt names that repository at the installed commit. Otherwise the project is left
    with the pin, and the sentence says what to put in `wheels/`."""
    source = installed_from()
    manual = (f"until {DISTRIBUTION} {version} is on PyPI, put its wheel in {WHEELS}/ "
              f"(pip wheel --no-deps -w {WHEELS} PATH/TO/A/CLONE) and commit it")
    if source is None:
        return f"requirements.txt installs {DISTRIBUTION}=={version} from the package index it was installed from"
    url = str(source.get("url", ""))
    vcs = source.get("vcs_info")
    if isinstance(vcs, dict) and vcs.get("vcs") == "git" and vcs.get("commit_id") and not _local(url):
        line = f"{DISTRIBUTION} @ git+{url}@{vcs['commit_id']}"
        (root / "requirements.txt").write_text(requirements(version, line))
        return f"requirements.txt installs {DISTRIBUTION} {version} from the repository it was installed from ({line})"
    path = _local(url)
    wheels = root / WHEELS
    if path is not None and "archive_info" in source and path.suffix == ".whl" and path.is_file():
        wheels.mkdir(exist_ok=True)
        shutil.copy2(path, wheels / path.name)
        return (f"{WHEELS}/{path.name}: the wheel this chutes was installed from, which requirements.txt installs "
                "(commit it)")
    if path is not None and "dir_info" in source and path.is_dir():
        with tempfile.TemporaryDirectory() as scratch:
            why = _pip_wheel(path, Path(scratch))
            made = sorted(Path(scratch).glob("*.whl"))
            wanted = [w for w in made if w.name.startswith(f"{DISTRIBUTION.replace('-', '_')}-{version}-")]
            if not why and wanted:
                wheels.mkdir(exist_ok=True)
                shutil.copy2(wanted[0], wheels / wanted[0].name)
                return (f"{WHEELS}/{wanted[0].name}: the wheel of {path}, where this chutes was installed from, "
                        "which requirements.txt installs (commit it)")
        why = why or f"{path} now holds another version ({', '.join(w.name for w in made) or 'no wheel'})"
        return f"no wheel made ({why}): {manual}"
    return f"no wheel made (installed from {url or 'an unknown source'}): {manual}"


def write_project(directory: str | Path, version: str) -> list[Path]:
    """Write a new site project into `directory` (new or empty), pinned to chutes `version`; the files written."""
    root = absolute(directory)
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise ProjectError(f"{root}: already exists and is not an empty folder; choose a new name")
    name = root.name.replace("-", " ").replace("_", " ").strip().capitalize() or "Chutes and Ladders"
    contents = {target: Template((SCAFFOLD / source).read_text()).safe_substitute(site_name=name)
                if source == "README.md" else (SCAFFOLD / source).read_text()
                for source, target in LAYOUT.items()}
    contents["mkdocs.yml"] = site_config(REFERENCE_CONFIG.read_text(), name)
    contents["requirements.txt"] = requirements(version)
    written = []
    for rel, text in contents.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        written.append(path)
    return written
