"""Shared fixtures: bundled boards and their chains, built once per test session."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from compute.boards import Board, bundled_boards, load_board
from compute.chain import TurnChain, turn_chain

DATA = Path(__file__).parent / "data"
BUNDLED = list(bundled_boards())


@cache
def board(slug: str) -> Board:
    """A bundled board by slug."""
    return load_board(bundled_boards()[slug])


@cache
def chain(slug: str) -> TurnChain:
    """The turn chain of a bundled board."""
    return turn_chain(board(slug))


@pytest.fixture
def classic() -> TurnChain:
    return chain("classic")


@pytest.fixture
def classic47() -> TurnChain:
    return chain("classic-47")
