"""MkDocs hooks (listed in mkdocs.yml): the navigation from the generated pages, and live re-rendering.

During `chutes serve`, every rebuild that MkDocs starts (an edited board, template or page) first
brings the cache and the generated pages up to date.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from site_build.pages import nav


def on_config(config: Any) -> Any:
    """Refresh the pages when previewing, then list them in the navigation."""
    if os.environ.get("CHUTES_SERVE") == "1":
        from site_build.pipeline import prepare

        prepare(quiet=True)
    config["nav"] = nav(Path(config["docs_dir"]))
    return config
