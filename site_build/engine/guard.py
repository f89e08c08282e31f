"""The `chutes` entry of a project's mkdocs.yml, as plain MkDocs sees it: a stop sign.

A chutes project's pages are generated, so plain `mkdocs build` or `mkdocs serve` there would publish an
empty or stale site over the real one. MkDocs loads this plugin (registered under `mkdocs.plugins`) from
the project's `plugins: - chutes` entry and stops before it builds or cleans anything, with one line that
says what to run instead. `chutes` itself reads the entry's settings (`engine`) and leaves it out of the
configuration it gives the engine (`site_build.engine.engine_config`).
"""

from __future__ import annotations

from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin

from .engine_config import DEFAULT_ENGINE, ENGINES

MESSAGE = ("this is a chutes project: its pages are generated, so build it with 'chutes build' "
           "(or preview it with 'chutes serve'), not with mkdocs")


class ChutesSettings(Config):
    """The settings a project gives `chutes` in its mkdocs.yml."""

    engine = config_options.Choice(ENGINES, default=DEFAULT_ENGINE)


class ChutesPlugin(BasePlugin[ChutesSettings]):
    """Refuses every plain MkDocs command before it touches the site folder."""

    def on_startup(self, *, command: str, dirty: bool) -> None:
        raise PluginError(MESSAGE)

    def on_config(self, config: object) -> None:
        raise PluginError(MESSAGE)  # MkDocs' Python API skips on_startup
