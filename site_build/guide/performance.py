"""The Performance page: the tables of the project's benchmarks/results.md (written by benchmarks/run.py and the
other benchmarks), each under its section's heading with the paragraph that introduces it, as they are there."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..checks import SiteError


@dataclass(frozen=True)
class Section:
    """A heading of results.md and the tables under it: each with the paragraph just before it (or "") and its
    Markdown lines."""

    heading: str
    level: int
    tables: list[tuple[str, str]]


def _is_row(line: str) -> bool:
    return line.startswith("|") and line.rstrip().endswith("|")


def _read(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise SiteError(f"{path}: cannot read the measurements for the guide ({exc.strerror})") from None


def results_tables(path: Path) -> list[Section]:
    """Every section of `path` that holds a table, with its tables; the file's title (its `#` heading) left out."""
    sections = _sections(_read(path))
    if not sections:
        raise SiteError(f"{path}: no table of measurements in it")
    return sections


def benchmark_tables(path: Path, benchmark: str) -> list[tuple[str, str]]:
    """The tables one benchmark writes into `path` (between its `<!-- NAME: begin -->` and `end` markers), each
    with the paragraph before it."""
    lines = _read(path)
    begin, end = f"<!-- {benchmark}: begin -->", f"<!-- {benchmark}: end -->"
    if begin not in lines or end not in lines:
        raise SiteError(f"{path}: no section written by benchmarks/{benchmark} (its markers {begin} ... {end})")
    tables = [table for section in _sections(lines[lines.index(begin) + 1:lines.index(end)])
              for table in section.tables]
    if not tables:
        raise SiteError(f"{path}: the section of benchmarks/{benchmark} holds no table")
    return tables


def _sections(lines: list[str]) -> list[Section]:
    sections: list[Section] = []
    heading, level = "", 2
    tables: list[tuple[str, str]] = []
    table: list[str] = []
    paragraph: list[str] = []  # the last paragraph of text, the table's caption if one follows it
    closed = False
    for line in [*lines, ""]:
        if _is_row(line):
            table.append(line.rstrip())
            continue
        if table:
            tables.append((" ".join(paragraph), "\n".join(table)))
            table, paragraph = [], []
        if not line.strip():
            closed = True
        elif line.startswith("#"):
            if line.startswith("##"):
                if tables:
                    sections.append(Section(heading, level, tables))
                marks = len(line) - len(line.lstrip("#"))
                heading, level, tables = line[marks:].strip(), marks, []
            paragraph = []
        else:
            if closed:
                paragraph, closed = [], False
            paragraph.append(line.strip())
    if tables:
        sections.append(Section(heading, level, tables))
    return sections
