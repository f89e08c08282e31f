"""The engine: its configuration written from the project's (`engine_config`), MkDocs or Zensical run on it
(`engines`), and the `chutes` plugin that stops a plain `mkdocs build` (`guard`)."""
