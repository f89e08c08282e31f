"""Boards drawn for the Python API: the site's own drawing of a board (and of a best play on it), as a plotly
figure or as the still image the site shows before plotly.js draws it. The build stage is imported here, when a
drawing is first asked for, never by the compute stage."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from chutes.compute.board.model import Board
from chutes.compute.record.results import board_json

if TYPE_CHECKING:
    from plotly.graph_objects import Figure


def _figure(board: Board, flips: Sequence[tuple[int, int]] | None) -> dict:
    from chutes.compute.record.schema import BoardDefinition
    from chutes.site_build.pages.figures import board_figure, play_figure

    definition = BoardDefinition.model_validate(board_json(board))
    return board_figure(definition) if flips is None else play_figure(definition, list(flips))


def board_plot(board: Board, flips: Sequence[tuple[int, int]] | None = None) -> Figure:
    """The board as the site draws it (with `flips`, the squares and rolls where a best play flips), as a plotly
    figure."""
    from plotly.graph_objects import Figure

    return Figure(_figure(board, flips))


def board_png(board: Board, flips: Sequence[tuple[int, int]] | None = None) -> bytes:
    """The same drawing as a PNG: the still image of the site's figure."""
    from chutes.site_build.pages.stills import still

    return still(_figure(board, flips))
