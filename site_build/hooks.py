"""MkDocs hooks (given to MkDocs by `chutes build` and `chutes serve`): theme overrides, navigation, live refresh.

The theme's templates come from the project's `templates/theme/` first, then the package's. During
`chutes serve`, every rebuild that MkDocs starts (an edited board, template or page) first brings the
cache and the generated pages up to date; a broken board is reported and the previous pages stay.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from site_build.pages import nav, render
from site_build.project import DEFAULT_TEMPLATES, Project

PREVIEW: dict[str, Any] = {}
"""Set by `pipeline.serve` while a preview runs: the project and the compute-stage callback."""

log = logging.getLogger("mkdocs.chutes")


def on_config(config: Any) -> Any:
    """Refresh the pages when previewing, add the theme overrides, then list the pages in the navigation."""
    project: Project | None = PREVIEW.get("project")
    docs_dir = Path(config["docs_dir"])
    if project is not None:
        try:
            render(PREVIEW["records"](project), docs_dir, project.templates_dirs, project.site_src_dirs)
        except ValueError as exc:  # BoardError, SiteError: one line, and the last good pages stay
            log.error(f"chutes: {exc}")
    root = Path(config.config_file_path).parent
    theme_dirs = [d / "theme" for d in (root / "templates", DEFAULT_TEMPLATES)]
    for folder in reversed([d for d in theme_dirs if d.is_dir()]):
        if str(folder) not in config.theme.dirs:
            config.theme.dirs.insert(0, str(folder))
    config["nav"] = nav(docs_dir)
    return config
