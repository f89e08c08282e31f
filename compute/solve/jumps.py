"""How a game uses the board: the rolls made from each square, each chute's and ladder's expected use in
one game, and a shortest game. These need the board's rules as well as its chain (the plain-integer
algorithms of `exact` do not)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from fractions import Fraction

from flint import fmpq_mat, fmpz_mat

from ..board.rules import roll_landing
from .chain import TurnChain
from .exact import expected_visits, fraction


def roll_visits(chain: TurnChain) -> list[Fraction]:
    """Expected number of rolls made from each state in one game (differs from turns with roll-again)."""
    board = chain.board
    if board.roll_again_on is None:
        return expected_visits(chain)
    d = chain.size
    die = board.die
    P = [[0] * d for _ in range(d)]
    for i, square in enumerate(chain.states):
        for roll in range(1, die + 1):
            nxt = board.move(square, roll)
            if nxt != board.squares:
                P[i][chain.index[nxt]] += 1
    A = fmpz_mat(d, d, [die * (i == j) - P[i][j] for i in range(d) for j in range(d)]).transpose()
    e = fmpq_mat(d, 1, [die * (i == chain.start) for i in range(d)])
    X = fmpq_mat(A).solve(e)
    return [fraction(X[i, 0]) for i in range(d)]


def jump_usage(chain: TurnChain) -> dict[tuple[int, int], Fraction]:
    """Expected number of times each chute or ladder is taken in one game."""
    board = chain.board
    rolls = roll_visits(chain)
    usage = {(a, b): Fraction(0) for a, b in board.jumps.items()}
    for i, square in enumerate(chain.states):
        if not rolls[i]:
            continue
        for roll in range(1, board.die + 1):
            landing = roll_landing(board.squares, board.overshoot, square, roll)
            if landing in board.jumps:
                usage[(landing, board.jumps[landing])] += rolls[i] / board.die
    return usage


@dataclass(frozen=True)
class ShortestGame:
    """A fastest possible game: its number of turns and one sequence of rolls achieving it."""

    turns: int
    rolls: tuple[int, ...]
    squares: tuple[int, ...]
    path_probability: Fraction


def shortest_game(chain: TurnChain) -> ShortestGame:
    """Fewest turns to finish, with one shortest roll sequence (0-1 BFS over rolls)."""
    board = chain.board
    best: dict[int, tuple[int, int]] = {board.start: (0, 0)}
    parent: dict[int, tuple[int, int]] = {}
    queue: deque[int] = deque([board.start])
    done: set[int] = set()
    while queue:
        square = queue.popleft()
        if square in done:
            continue
        done.add(square)
        turns, rolls = best[square]
        for roll in range(1, board.die + 1):
            nxt = board.move(square, roll)
            extra = 0 if (roll == board.roll_again_on and nxt != board.squares) else 1
            cand = (turns + extra, rolls + 1)
            if nxt not in best or cand < best[nxt]:
                best[nxt] = cand
                parent[nxt] = (square, roll)
                if nxt != board.squares:
                    (queue.appendleft if extra == 0 else queue.append)(nxt)
    path_rolls: list[int] = []
    path_squares = [board.squares]
    square = board.squares
    while square != board.start:
        square, roll = parent[square]
        path_rolls.append(roll)
        path_squares.append(square)
    path_rolls.reverse()
    path_squares.reverse()
    return ShortestGame(best[board.squares][0], tuple(path_rolls), tuple(path_squares),
                        Fraction(1, board.die ** len(path_rolls)))
