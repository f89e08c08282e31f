"""Each benchmark script owns one section of benchmarks/results.md, between its own begin and end markers."""

from __future__ import annotations

from pathlib import Path


def write_section(path: Path, begin: str, end: str, text: str) -> None:
    """Put `text` (which starts with `begin` and ends with `end`) in place of that section of the file, or
    append it if the file has no such section yet."""
    old = path.read_text() if path.exists() else ""
    if begin in old and end in old:
        path.write_text(old[:old.index(begin)] + text + old[old.index(end) + len(end):])
    else:
        path.write_text(old.rstrip("\n") + "\n\n" + text + "\n")


def write_table(path: Path, begin: str, end: str, intro: str, columns: list[str], rows: list[str]) -> str:
    """A section of one paragraph and one table (`columns`, then `rows`, each a Markdown table row) written in
    place of the old one (`write_section`); returns its text."""
    text = "\n".join([begin, "", intro, "", "| " + " | ".join(columns) + " |", "|" + "---|" * len(columns), *rows,
                      "", end])
    write_section(path, begin, end, text)
    return text
