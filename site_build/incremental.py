"""What each generated page depends on, and its files kept until one of those inputs changes.

A part of the docs tree (a page with its charts' stills and downloads) is made from a template, the templates
it imports or includes, the board records it reads and the build's settings. `Parts` keeps each part's files
under a digest of exactly those inputs, so that a preview re-renders only the pages whose inputs changed (an
edited board page template re-renders the board pages, not the home page; an edited board its own page and the
pages that list every board, not the other boards' pages). Kept in memory, for one process: the code that
renders is the same for all of them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from jinja2 import Environment, TemplateNotFound, TemplateSyntaxError, meta

Files = dict[str, str | bytes | Path]


def digest(*inputs: object) -> str:
    """A short hash of `inputs` (their repr: strings, numbers, dates, tuples and lists of them)."""
    return hashlib.sha256(repr(inputs).encode()).hexdigest()


def template_sources(env: Environment, name: str) -> list[tuple[str, str]]:
    """The template `name` and every template it imports, includes or extends, recursively, as (name, source)
    pairs in a fixed order: what its output depends on of the templates. A name computed at render time (not
    a literal) makes it depend on every template; a template that is missing or does not parse on itself alone
    (rendering it will say why)."""
    assert env.loader is not None
    seen: dict[str, str] = {}
    todo = [name]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        try:
            source = env.loader.get_source(env, current)[0]
        except TemplateNotFound:
            seen[current] = ""
            continue
        seen[current] = source
        try:
            referenced = list(meta.find_referenced_templates(env.parse(source)))
        except TemplateSyntaxError:
            continue
        if None in referenced:
            todo.extend(env.list_templates())
        todo.extend(r for r in referenced if r is not None)
    return sorted(seen.items())


class Parts:
    """The files of each part of the docs tree made so far, by part name, with the digest of their inputs."""

    def __init__(self) -> None:
        self.kept: dict[str, tuple[str, Files]] = {}
        self.made: list[str] = []
        """The parts made (not taken from those kept) by the latest rendering, in order; a part that made no file
        (a page the site leaves out) is not among them."""
        self.used: set[str] = set()

    def start(self) -> None:
        """A new rendering begins: nothing made or used yet."""
        self.made = []
        self.used = set()

    def finish(self) -> None:
        """The rendering is over: drop the parts it did not use (a board deleted from the project)."""
        for name in [n for n in self.kept if n not in self.used]:
            del self.kept[name]

    def part(self, name: str, inputs: Callable[[], Iterable[Any]], make: Callable[[], Files]) -> Files:
        """The files of part `name`: those kept if `inputs()` (everything they are made from) is what it was, else
        `make()`'s, kept for next time."""
        self.used.add(name)
        key = digest(*inputs())
        kept = self.kept.get(name)
        if kept is not None and kept[0] == key:
            return kept[1]
        files = make()
        self.kept[name] = (key, files)
        if files:
            self.made.append(name)
        return files


class Fresh(Parts):
    """Every part made anew, its inputs never looked at (a build, which renders once per process)."""

    def part(self, name: str, inputs: Callable[[], Iterable[Any]], make: Callable[[], Files]) -> Files:
        files = make()
        if files:
            self.made.append(name)
        return files


def stats(paths: Iterable[Path]) -> list[tuple[str, int, int]]:
    """Each file's path, size and modification time, for the files and the files in the folders of `paths`:
    cheap to take, and different after any edit (for inputs too many or too large to read on every edit)."""
    found = []
    for path in paths:
        for file in sorted(path.rglob("*")) if path.is_dir() else [path]:
            try:
                stat = file.stat()
            except OSError:
                continue
            if not file.is_dir():
                found.append((str(file), stat.st_size, stat.st_mtime_ns))
    return found
