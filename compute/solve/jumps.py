"""How a game uses the board: the rolls made from each square, each chute's and ladder's expected use in
one game, and a shortest game. These need the board's rules as well as its chain (the plain-integer
algorithms of `exact` do not)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from fractions import Fraction

from flint import fmpq_mat, fmpz_mat

from ..board.reach import turn_levels
from .chain import TurnChain
from .exact import fraction


def roll_visits(chain: TurnChain) -> list[Fraction]:
    """Expected number of rolls made from each state in one game, without a roll-again limit (with roll-again
    they outnumber the turns begun there): the roll-level chain, where turns do not matter, solved exactly."""
    board = chain.board
    if board.roll_again_on is None:
        return chain.expected_visits
    d, w = chain.size, board.roll_weight
    P = [[0] * d for _ in range(d)]
    for i, square in enumerate(chain.states):
        for _, weight, _, nxt in board.outcomes(square):
            if nxt != board.squares:
                P[i][chain.index[nxt]] += weight
    A = fmpz_mat(d, d, [w * (i == j) - P[i][j] for i in range(d) for j in range(d)]).transpose()
    e = fmpq_mat(d, 1, [w * (i == chain.start) for i in range(d)])
    X = fmpq_mat(A).solve(e)
    return [fraction(X[i, 0]) for i in range(d)]


def _limited_roll_visits(chain: TurnChain) -> dict[tuple[int, int, int], Fraction]:
    """With a roll-again limit L: the expected number of rolls made in one game from each (square, rolls so far in
    the turn, square where it began), the turn's (L+1)-th roll included (where `roll_again_on` is a penalty and
    lands nowhere): the turns begun on each state (`expected_visits`) times the weight of each level of their
    rolls (`reach.turn_levels`; without a choice the rolls of `roll_again_on` all move alike, one square a level)."""
    board = chain.board
    w = board.roll_weight
    visits: dict[tuple[int, int, int], Fraction] = {}
    for origin, turns in zip(chain.states, chain.expected_visits):
        for k, level in enumerate(turn_levels(board, origin)):
            for square, x in level.items():
                visits[(square, k, origin)] = visits.get((square, k, origin), Fraction(0)) + turns * Fraction(x, w**k)
    return visits


def jump_usage(chain: TurnChain) -> dict[tuple[int, int], Fraction]:
    """Expected number of times each chute or ladder is taken in one game: the rolls made from each state
    times the chance that one lands on the jump's foot."""
    board = chain.board
    usage = {(a, b): Fraction(0) for a, b in board.jumps.items()}
    if board.roll_again_limit is None:
        made = {(square, 0, square): v for square, v in zip(chain.states, roll_visits(chain))}
    else:
        made = _limited_roll_visits(chain)
    for (square, k, origin), rolls in made.items():
        if not rolls:
            continue
        for roll, weight, landing, _ in board.outcomes_at(square, k, origin):
            if landing in board.jumps and not (roll == board.roll_again_on and k == board.roll_again_limit):
                usage[(landing, board.jumps[landing])] += rolls * weight / board.roll_weight
    return usage


@dataclass(frozen=True)
class ShortestGame:
    """A fastest possible game: its number of turns and one sequence of rolls achieving it."""

    turns: int
    rolls: tuple[int, ...]
    squares: tuple[int, ...]
    path_probability: Fraction


def shortest_game(chain: TurnChain) -> ShortestGame:
    """Fewest turns to finish, with one shortest roll sequence: a 0-1 breadth-first search over (square, rolls
    of `roll_again_on` so far in the turn, and where the turn began if the play depends on it), where a roll that
    rolls again costs no turn. Past a roll-again limit that roll is a penalty: "start" sends the token to square 0
    (an edge of the search); "undo" returns it to where the turn began, which never shortens a game."""
    board = chain.board
    limit, last, by_turn = board.roll_again_limit, board.squares, board.flips_by_turn
    origin = (board.start, 0, board.start if by_turn else 0)
    best: dict[tuple[int, int, int], tuple[int, int]] = {origin: (0, 0)}
    parent: dict[tuple[int, int, int], tuple[tuple[int, int, int], int, int]] = {}
    queue: deque[tuple[int, int, int]] = deque([origin])
    done: set[tuple[int, int, int]] = set()
    while queue:
        node = queue.popleft()
        if node in done:
            continue
        done.add(node)
        square, again, began = node
        turns, rolls = best[node]
        for roll, weight, _, moved in board.outcomes_at(square, again, began if by_turn else square):
            if roll == board.roll_again_on and again == limit:
                if board.penalty != "start":
                    continue
                nxt, extra = (0, 0, 0), 1
            else:
                goes_on = roll == board.roll_again_on and moved != last
                more = goes_on and limit is not None
                nxt = (moved, again + 1 if more else 0, (began if more else moved) if by_turn else 0)
                extra = 0 if goes_on else 1
            cand = (turns + extra, rolls + 1)
            if nxt not in best or cand < best[nxt]:
                best[nxt] = cand
                parent[nxt] = (node, roll, weight)
                if nxt[0] != last:
                    (queue.appendleft if extra == 0 else queue.append)(nxt)
    path_rolls: list[int] = []
    path_squares = [last]
    chance = Fraction(1)
    end = (last, 0, last if by_turn else 0)
    node = end
    while node != origin:
        node, roll, weight = parent[node]
        path_rolls.append(roll)
        path_squares.append(node[0])
        chance *= Fraction(weight, board.roll_weight)
    path_rolls.reverse()
    path_squares.reverse()
    return ShortestGame(best[end][0], tuple(path_rolls), tuple(path_squares), chance)
