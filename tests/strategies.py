"""Hypothesis strategies for random valid boards."""

from __future__ import annotations

from hypothesis import assume
from hypothesis import strategies as st

from chutes.compute.board.model import Board, BoardError
from chutes.compute.board.problems import check_board


@st.composite
def boards(draw, min_squares: int = 4, max_squares: int = 14, rules: bool = True) -> Board:
    """A random board that passes validation (any overshoot rule, sometimes roll-again)."""
    squares = draw(st.integers(min_squares, max_squares))
    die = draw(st.integers(1, min(6, squares)))
    overshoot = draw(st.sampled_from(["stay", "bounce", "pass"])) if rules else "stay"
    again = draw(st.one_of(st.none(), st.integers(1, die))) if rules and die > 1 else None
    count = draw(st.integers(0, max(0, squares // 3)))
    feet = draw(st.lists(st.integers(1, squares - 1), min_size=count, max_size=count, unique=True))
    ladders, chutes = [], []
    for foot in feet:
        head = draw(st.integers(0, squares).filter(lambda h, f=foot: h != f))
        (ladders if head > foot else chutes).append((foot, head))
    board = Board.unchecked(title="random", squares=squares, die=die, overshoot=overshoot, ladders=tuple(ladders),
                  chutes=tuple(chutes), roll_again_on=again, source="hypothesis")
    try:
        check_board(board, "random")
    except BoardError:
        assume(False)
    return board
