"""Hypothesis strategies for random valid boards."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st

from chutes.compute.board.cost import estimated_seconds
from chutes.compute.board.file import board_from_mapping
from chutes.compute.board.model import Board, BoardError
from chutes.compute.board.problems import check_board
from chutes.compute.solve.chain import turn_chain


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


@st.composite
def rule_boards(draw, min_squares: int = 2, max_squares: int = 30, max_seconds: float = 1.0,
                choice: bool = True) -> Board:
    """A random valid board under any end rule and house rule (several dice, weighted faces, a roll to enter,
    roll-again with or without a limit, another start, and with `choice` sometimes the coin: then solved for the
    best play), with games from one or two turns (a big die, a ladder
    to the end) to thousands (a one-sided die, a rare roll to enter, chutes from the last squares) and lengths
    with large atoms (a face weighted 1,000 to 1); solved within about `max_seconds` (`cost.estimated_seconds`)
    and a modest memory (a board whose games last a million turns would take hours and gigabytes)."""
    squares = draw(st.integers(min_squares, max_squares))
    die = draw(st.integers(1, 6))
    dice = draw(st.sampled_from([1, 1, 2, 3])) if die > 1 else 1
    totals = list(range(dice, dice * die + 1))
    spec: dict = {"title": "random", "squares": squares, "die": die,
                  "overshoot": draw(st.sampled_from(["stay", "bounce", "pass"]))}
    if dice > 1:
        spec["dice"] = dice
    if die > 1 and draw(st.booleans()):
        spec["weights"] = draw(st.lists(st.sampled_from([1, 1, 2, 3, 1000]), min_size=die, max_size=die))
    if draw(st.integers(0, 3)) == 0:
        spec["enter_on"] = sorted(set(draw(st.lists(st.sampled_from(totals), min_size=1, max_size=2))))
    if die > 1 and draw(st.integers(0, 2)) == 0:
        spec["roll_again_on"] = draw(st.sampled_from(totals))
        if draw(st.booleans()):
            spec["roll_again_limit"] = draw(st.integers(0, 2))
            spec["roll_again_penalty"] = draw(st.sampled_from(["undo", "start"]))
    if choice and draw(st.integers(0, 3)) == 0:
        spec["choice"] = "coin"  # refused with bounce where a flipped roll passes the end
    if squares > 2 and draw(st.integers(0, 3)) == 0:
        spec["start"] = draw(st.integers(1, squares - 1))
    feet = draw(st.lists(st.integers(1, squares - 1), unique=True, max_size=max(0, squares // 3)))
    if squares > 4 and draw(st.integers(0, 3)) == 0:  # chutes from the last squares: long games
        feet += [f for f in range(squares - 1, squares - 1 - draw(st.integers(1, 3)), -1) if f not in feet]
    ends = [draw(st.integers(0, squares)) for _ in feet]
    jumps = [(a, b) for a, b in zip(feet, ends) if a != b and b not in feet and a != spec.get("start")]
    spec["ladders"] = [list(j) for j in jumps if j[1] > j[0]]
    spec["chutes"] = [list(j) for j in jumps if j[1] < j[0]]
    try:
        board = board_from_mapping(spec, "random.toml")
    except BoardError:
        assume(False)
        raise
    assume(estimated_seconds(board)[0] <= max_seconds)
    # The exact terms go on until the 97.5th percentile and the mode are decided, about 1.5·log(40)/log(1/ρ)
    # turns (ρ the spectral radius of the turn matrix), each a numerator of k·log2(s) bits: keep them all under
    # a quarter of a gigabyte (two squares and a total of 2 out of a million take a million turns).
    chain = turn_chain(board)
    Q = np.zeros((chain.size, chain.size))
    for i, row in enumerate(chain.rows):
        for j, w in row:
            Q[i, j] = w / chain.scale  # int / int: no overflow whatever the scale's size
    rho = max(abs(np.linalg.eigvals(Q))) if chain.size else 0.0
    assume(rho < 1)
    terms = max(500.0, 1.5 * math.log(40) / -math.log(rho)) if rho > 0 else 500.0
    assume(terms * terms * chain.scale.bit_length() < 2**32)
    return board
