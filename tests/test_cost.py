"""The cost model's view of a board (compute.board.cost): its turn in floats without numpy (so that a quick solve
never imports it: tests/test_cli.py), checked against numpy's dense turn matrix."""

from __future__ import annotations

import math

import numpy as np
from helpers import bundled_boards
from hypothesis import given, settings
from strategies import rule_boards

from chutes.compute.board.cost import _turns, ending_rate
from chutes.compute.board.file import load_board
from chutes.compute.board.model import Board
from chutes.compute.board.reach import roll_squares


def dense_turn(board: Board) -> tuple[np.ndarray, int]:
    """Q = (I − B)⁻¹A among the roll squares in floats (roll-again as if without a limit) by a dense solve, and
    the start's index."""
    squares = roll_squares(board)
    index = {q: i for i, q in enumerate(squares)}
    A, B = np.zeros((len(squares),) * 2), np.zeros((len(squares),) * 2)
    for i, q in enumerate(squares):
        for roll, weight, _, nxt in board.outcomes(q):  # with a choice and no flips: each roll moved as rolled
            if nxt != board.squares:
                (B if roll == board.roll_again_on else A)[i, index[nxt]] += weight / board.roll_weight
    return np.linalg.solve(np.eye(len(squares)) - B, A), index[board.start]


def start_radius(Q: np.ndarray, start: int) -> float:
    """The spectral radius of Q among the states reachable from `start`."""
    seen, todo = {start}, [start]
    while todo:
        for j in np.flatnonzero(Q[todo.pop()]):
            if j not in seen:
                seen.add(int(j))
                todo.append(int(j))
    part = Q[np.ix_(sorted(seen), sorted(seen))]
    return float(max(abs(np.linalg.eigvals(part))))


def agrees(board: Board) -> None:
    """The walk's ending rate is the start's spectral radius (to 1% in log ρ, what the estimated numbers of
    turns depend on: they go like 1/log ρ), and its count of Q's nonzeros is numpy's."""
    Q, start = dense_turn(board)
    turns = _turns(board)
    rate, radius = ending_rate(turns), start_radius(Q, start)
    if radius < 1e-12:  # every game ends within a few turns (Q is nilpotent)
        assert rate == 0.0
    else:
        assert abs(math.log(rate) - math.log(radius)) <= 0.01 * abs(math.log(radius)), (rate, radius)
    assert turns.nonzeros() == np.count_nonzero(Q)


def test_every_bundled_board_ends_at_the_rate_of_its_spectral_radius() -> None:
    for path in bundled_boards().values():
        agrees(load_board(path))


@settings(max_examples=150, deadline=None)
@given(rule_boards(max_squares=40))
def test_any_board_ends_at_the_rate_of_its_spectral_radius(board: Board) -> None:
    agrees(board)

