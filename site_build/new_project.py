"""`chutes new DIR`: a ready site project, which `chutes build` turns into a site at once.

The files come from the package's `scaffold/` folder (an example board with comments, a README, a
.gitignore and the CI workflow that publishes it) and the reference site's own mkdocs.yml with the new
site's name; requirements.txt pins this version of chutes, from PyPI or from the project's `wheels/` folder.
"""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path
from string import Template

from .project import ProjectError, absolute

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


def requirements(version: str) -> str:
    """The new site's requirements.txt: this chutes version, from PyPI or from a wheel put in `wheels/`."""
    return ("# The generator, at the version this site was made with: from PyPI, or from a wheel in wheels/ (until\n"
            "# chutes-exact is on PyPI, or offline: pip wheel --no-deps -w wheels PATH/TO/A/CLONE/OF/IT).\n"
            f"--find-links wheels\nchutes-exact=={version}\n")


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
