"""The chance that a game lands on each square at least once: the figures of the design notes, the one-solve
method against one system per square, and both against the tests' own simulation of the rules as written."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from helpers import board_file
from hypothesis import given, settings
from strategies import rule_boards

from chutes.compute.board.file import load_board
from chutes.compute.board.model import Board
from chutes.compute.record.criteria import SIMULATION_Z
from chutes.compute.record.results import solve
from chutes.compute.record.schema import Results
from chutes.compute.solve.chain import turn_chain
from chutes.compute.solve.landing import landing_chances, landing_chances_square_by_square


def _play(board: Board, rng: random.Random) -> set[int]:
    """The squares one game lands on by a roll, played from the rules' statement (not the engine's moves)."""
    faces, weights = range(1, board.die + 1), board.weights or [1] * board.die
    last, again, limit = board.squares, board.roll_again_on, board.roll_again_limit
    here, landed = board.start, set()
    while True:
        begun, agains = here, 0
        while True:
            total = sum(rng.choices(faces, weights, k=board.dice))
            if limit is not None and total == again and agains == limit:  # the penalty: not moved, turn over
                here = begun if (board.roll_again_penalty or "undo") == "undo" else 0
                break
            if here > 0 or board.enter_on is None or total in board.enter_on:
                target = here + total
                if target > last:
                    target = {"stay": None, "pass": last, "bounce": 2 * last - target}[board.overshoot]
                if target is not None:
                    landed.add(target)
                    here = board.jumps.get(target, target)
                    if here == last:
                        return landed
            if total != again:
                break
            agains += 1


@pytest.mark.parametrize("slug", ["classic", "classic-three-sixes", "classic-three-sixes-start",
                                  "classic-six-to-enter", "classic-two-dice", "classic-weighted", "tiny"])
def test_landing_chances_agree_with_a_simulation(slug: str) -> None:
    """Every square's exact chance against the share of 3,000 simulated games landing there, within the site's
    criterion of SIMULATION_Z standard errors (with one game of slack for the count's discreteness)."""
    board = load_board(board_file(slug))
    exact = landing_chances(board)
    assert exact is not None
    games = 3_000
    rng = random.Random(2026)
    counts = dict.fromkeys(exact, 0)
    for _ in range(games):
        for square in _play(board, rng):
            counts[square] += 1
    for square, p in exact.items():
        error = SIMULATION_Z * math.sqrt(games * p * (1 - p)) + 1
        assert abs(counts[square] - games * p) <= error, (slug, square, float(p), counts[square] / games)


def test_the_classic_board_figures() -> None:
    """The big chute at 87 is met in about 34.2% of games, the ladder at 80 used in about 48.2%; a square no roll
    reaches is never landed on, and 100 only by the games that do not finish by the ladder at 80."""
    board = load_board(board_file("classic"))
    chances = landing_chances(board)
    assert chances is not None
    assert round(float(chances[87]), 3) == 0.342 and round(float(chances[80]), 3) == 0.482
    assert all(0 < p < 1 for p in chances.values())
    assert chances[100] == 1 - chances[80]  # every game ends on 100: by the ladder at 80 or by a roll


def test_small_boards_by_hand() -> None:
    """Two squares and a one-sided die: a game lands on both, for certain. A chute from 2 back to 0 on three
    squares with a two-sided die: every game passes 1 (no roll wins from 0); 2 is landed on from 0 (a roll of 2,
    taken back to 0) or from 1 (a roll of 1, before the 2 that wins): h₀ = ½ + ½·h₁, h₁ = ½, so ¾. A landing
    from square 0 counts even when the chute brings the token back to where the roll began."""
    line = Board(title="line", squares=2, die=1)
    assert landing_chances(line) == {1: Fraction(1), 2: Fraction(1)}
    back = Board(title="back", squares=3, die=2, chutes=((2, 0),))
    assert landing_chances(back) == landing_chances_square_by_square(back) == \
        {1: Fraction(1), 2: Fraction(3, 4), 3: Fraction(1)}


@settings(max_examples=25, deadline=None)
@given(rule_boards(max_squares=16, max_seconds=0.2))
def test_one_solve_agrees_with_one_system_per_square(board: Board) -> None:
    """On random boards under every rule: the one-solve method (no roll-again limit) gives the same fractions
    as one system per square, and every chance is a probability."""
    by_square = landing_chances_square_by_square(board)
    assert by_square is not None
    assert landing_chances(board) == by_square
    assert all(0 <= p <= 1 for p in by_square.values())


def test_the_record_and_chutes_solve_json_hold_every_square() -> None:
    """`landing_chance` in the record (and so in `chutes solve --json`): each square 1..last as an exact
    numerator and denominator, and the jump's foot equal to the chance computed here."""
    chain = turn_chain(load_board(board_file("classic")))
    record = Results.model_validate(solve(chain)).landing_chance
    assert record is not None and sorted(map(int, record)) == list(range(1, 101))
    assert Fraction(int(record["87"].numerator), int(record["87"].denominator)) == chain.landing_chances[87]
