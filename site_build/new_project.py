"""`chutes new DIR`: a ready site project, which `chutes build` turns into a site at once.

The files come from the package's `scaffold/` folder: mkdocs.yml, an example board with comments, a
README, a .gitignore, the requirements (this version of chutes) and the CI workflow that publishes it.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from string import Template

from site_build.project import ProjectError, absolute

SCAFFOLD = files("site_build") / "scaffold"
LAYOUT = {
    "mkdocs.yml": "mkdocs.yml",
    "README.md": "README.md",
    "gitignore": ".gitignore",
    "example.toml": "site_src/boards/example.toml",
    "workflow.yml": ".github/workflows/site.yml",
}


def write_project(directory: str | Path, version: str) -> list[Path]:
    """Write a new site project into `directory` (new or empty), pinned to chutes `version`; the files written."""
    root = absolute(directory)
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise ProjectError(f"{root}: already exists and is not an empty folder; choose a new name")
    name = root.name.replace("-", " ").replace("_", " ").strip().capitalize() or "Chutes and Ladders"
    contents = {target: Template((SCAFFOLD / source).read_text()).safe_substitute(site_name=name)
                if source in ("mkdocs.yml", "README.md") else (SCAFFOLD / source).read_text()
                for source, target in LAYOUT.items()}
    contents["requirements.txt"] = f"chutes-exact=={version}\n"
    written = []
    for rel, text in contents.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        written.append(path)
    return written
