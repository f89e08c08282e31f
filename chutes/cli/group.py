"""The `chutes` command group and what its commands share: the common options, board and project lookup, output.

Only light modules are imported here; each command imports what it needs when it runs.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from chutes.compute.board.model import Board
    from chutes.site_build.project import Project

CommandFunction = TypeVar("CommandFunction", bound=Callable[..., Any])
"""A command's function, as an option decorator takes and returns it."""

PLAIN_DIGITS = frozenset("0123456789")
"""The characters of a square or a port as typed (no signs, spaces or other scripts' digits)."""


def emit_json(obj: Any) -> None:
    """Print one JSON object, the commands' --json output."""
    click.echo(json.dumps(obj, indent=1, sort_keys=True))


def say(message: str) -> None:
    """One line to standard error, prefixed with the command's name: notes, progress and errors."""
    click.echo(f"chutes: {message}", err=True)


def printable(text: str) -> str:
    """Board text for a terminal: control characters (escape sequences, newlines) shown as their code."""
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)


def open_project(path: Path | None, need_config: bool = True, **overrides: Path | None) -> Project:
    """The site project at `path` (default: the working directory), with any of its folders overridden."""
    from chutes.site_build.project import Project

    return Project.at(path, need_config=need_config, **overrides)


def find_board(spec: str, project: Path | None = None) -> Board:
    """A board file, else a board of the project in the working directory (or --project), else a bundled one."""
    return find_board_and_estimate(spec, project)[0]


def find_board_and_estimate(spec: str, project: Path | None = None) -> tuple[Board, float]:
    """The board (the library's lookup, `chutes._api.boards.find_board`), refused if it would take too long, and
    the seconds `chutes solve` should take."""
    from chutes._api.boards import find_board as lookup
    from chutes.compute.board.cost import check_cost
    from chutes.compute.solve.strategy import as_played

    board = lookup(spec, project)
    return board, check_cost(as_played(board), spec)[0]


def project_option(fn: CommandFunction) -> CommandFunction:
    """--project: the site project the command works in."""
    return click.option("--project", type=click.Path(file_okay=False, path_type=Path), default=None,
                        help="The site project (the folder holding mkdocs.yml) [default: the working directory].")(fn)


def scheduler_option(text: str) -> Callable[[CommandFunction], CommandFunction]:
    """--scheduler ADDRESS: a Dask cluster to do the command's work on, described by `text`."""
    return click.option("--scheduler", metavar="ADDRESS", default=None, help=text)


def _print_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """--version: the version is looked up only when asked (`chutes.compute.package_version`)."""
    if value and not ctx.resilient_parsing:
        from chutes.compute import package_version

        click.echo(f"chutes, version {package_version()}")
        ctx.exit()


@click.group(help="Exact analysis of Chutes and Ladders boards, published as a static website.")
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
              help="Show the version and exit.")
def main() -> None:
    """Entry point group."""
