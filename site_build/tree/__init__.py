"""The docs tree: every file the engine reads (`render`), the navigation (`nav`), written to disk touching only
what changed (`docs_tree`)."""
