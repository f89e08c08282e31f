"""Boards for the Python API: `Board`, the compute stage's validated model with two ways to make one, and the
lookup `chutes solve BOARD` uses to find a board by name or path (`find_board`)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from chutes.compute.board import model
from chutes.compute.board.file import parse_board, resolve_board
from chutes.site_build.project import BUNDLED_BOARDS, Project

from .drawing import board_plot, board_png

if TYPE_CHECKING:
    from plotly.graph_objects import Figure


def find_board(spec: str, project: str | os.PathLike[str] | None = None) -> model.Board:
    """The board `spec` names, as every command finds it: a board file (a path ending in .toml, holding a
    folder separator, or naming a file), else the board of that name in the site project at `project` (default:
    the working directory, if it is a project), else the bundled board of that name. A `BoardError` (one line,
    with the nearest name) if there is none."""
    here = Project.at(project, need_config=False)
    folders = [here.boards_dir] if here.config_file.is_file() and here.boards_dir.is_dir() else []
    return resolve_board(spec, [*folders, BUNDLED_BOARDS])


class Board(model.Board):
    """A board, validated: its squares, die, rules, chutes and ladders, as its TOML file gives them.

    It is the compute stage's own model (`chutes.compute.board.model.Board`, which every command uses), with
    two ways to make one; a board equals any other with the same fields, however it was made. A bad board
    raises `BoardError` with the command line's one-line message. In Jupyter a board shows itself drawn, as the
    site draws it (`figure()` gives the drawing as a plotly figure).

    >>> board = Board.load("tiny")
    >>> board.squares, board.die, board.jumps
    (10, 6, {4: 7, 9: 2})
    >>> same = Board.from_toml("squares = 10\\ndie = 6\\nladders = [[4, 7]]\\nchutes = [[9, 2]]")
    >>> same.title, same.canonical() == board.canonical()  # the same game: the same results
    ('board', True)
    """

    @classmethod
    def load(cls, spec: str | os.PathLike[str], project: str | os.PathLike[str] | None = None) -> Board:
        """The board `spec` names, found as `chutes solve BOARD` finds it (`find_board`): a path to a .toml file,
        else a board of the site project at `project` (default: the working directory), else a bundled board.

        >>> Board.load("classic").title
        'Chutes and Ladders (Milton Bradley, 1943)'
        >>> Board.load("clasic")
        Traceback (most recent call last):
        ...
        chutes.compute.board.problems.BoardError: clasic: no such board file or board (did you mean 'classic'?)
        """
        return cls._of(find_board(os.fspath(spec), project))

    @classmethod
    def from_toml(cls, text: str | bytes, name: str = "board") -> Board:
        """The board a TOML text describes, checked as a board file is; `name` starts every error message and is
        the title if the text gives none.

        >>> Board.from_toml('title = "A line"\\nsquares = 3\\ndie = 2').title
        'A line'
        >>> Board.from_toml("die = 6")
        Traceback (most recent call last):
        ...
        chutes.compute.board.problems.BoardError: board: squares: missing (every board needs it)
        """
        data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text  # bad text: a BoardError
        return cls._of(parse_board(data, name))

    @classmethod
    def _of(cls, board: model.Board) -> Board:
        """The same board as this class (its fields were checked when `board` was made)."""
        return cls.model_construct(**board.fields())

    def __eq__(self, other: object) -> bool:
        """Equal to any board with the same fields, whichever class made it (`variant` makes the compute stage's)."""
        if isinstance(other, model.Board):
            return self.fields() == other.fields()
        return NotImplemented

    __hash__ = model.Board.__hash__

    def figure(self) -> Figure:
        """The board drawn as its page on the site draws it (numbered zig-zag squares, ladders and chutes as
        arrows), as a plotly figure."""
        return board_plot(self)

    def _repr_png_(self) -> tuple[bytes, dict[str, str]]:
        """What Jupyter shows: the same drawing as a PNG (the still image the site shows before its chart), and
        the words for it (its metadata's "alt")."""
        return board_png(self), {"alt": f"The board {self.title} drawn: its {self.squares} squares, its ladders and "
                                        "chutes as arrows"}
