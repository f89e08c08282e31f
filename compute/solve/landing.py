"""The chance that a game ever lands on each square by a roll (for a chute's or ladder's foot: the chance the
game uses it at least once), exactly.

A square can be landed on many times, so this is not the expected number of landings (`jumps.jump_usage`). It
lives on the roll-level chain, whose state is what a roll leaves: the square alone without a roll-again limit
(turns do not matter to where rolls land), and with a limit L the square where the turn began with the number
k ≤ L of rolls of `roll_again_on` made in it (they all move alike, so the square is fixed by the two). For a
square j the chances h satisfy, over the rolls from each state x,

    h_x = Σ_rolls p · ([the roll lands on j] + [it lands elsewhere or nowhere] · h_next),

one exact linear system per square (`landing_chances_square_by_square`). Without a roll-again limit one system
serves every square: a landing on j always leaves the token in the same state a(j) (the jump's end), so with
m_x(j) the expected number of landings on j from x (one solve, (I − P)·m = L, every square a column of L),
P(ever land on j) = m_start(j) / (1 + m_a(j)(j)): the landings after the first are m_a(j)(j) on average.
A roll lands on a square when it moves the token there: a roll that
`enter_on` does not let onto the board, an overshoot that stays and a penalty roll land nowhere.
"""

from __future__ import annotations

from fractions import Fraction

from flint import fmpq_mat, fmpz_mat

from ..board.model import Board
from .exact import fraction

MAX_ROLL_STATES = 400
"""Above this many roll-level states the chances are not computed (one dense exact solve per square)."""

_State = tuple[int, int]
"""(square where the turn began, rolls of `roll_again_on` so far in it); without a limit, (square, 0)."""
_Roll = tuple[int, int | None, _State | None]
"""A roll's weight, the square it lands on (None: nowhere) and the next state (None: the game is won)."""


def _rolls_from(board: Board, state: _State) -> list[_Roll]:
    """Each roll from `state` (`_Roll`)."""
    begun, again_so_far = state
    limit, again, last = board.roll_again_limit, board.roll_again_on, board.squares
    here = begun
    if again_so_far:
        assert again is not None, "a state counts rolls of roll_again_on only on a board that has one (below)"
        for _ in range(again_so_far):
            here = board.move(here, again)
    out: list[_Roll] = []
    for roll, weight in board.rolls:
        if limit is not None and roll == again and again_so_far == limit:  # the penalty: not moved
            out.append((weight, None, (begun if board.penalty == "undo" else 0, 0)))
            continue
        moved = board.move(here, roll)
        stays = ((here == 0 and board.enter_on is not None and roll not in board.enter_on)
                 or (board.overshoot == "stay" and here + roll > last))
        landed = None if stays else board.landing(here, roll)
        if moved == last:
            nxt = None
        elif limit is not None and roll == again:
            nxt = (begun, again_so_far + 1)
        else:
            nxt = (moved, 0)
        out.append((weight, landed, nxt))
    return out


def roll_chain(board: Board) -> dict[_State, list[_Roll]]:
    """Every roll-level state reachable from the start, with its rolls (`_rolls_from`)."""
    chain: dict[_State, list[_Roll]] = {}
    todo = [(board.start, 0)]
    while todo:
        state = todo.pop()
        if state in chain:
            continue
        chain[state] = _rolls_from(board, state)
        todo.extend(nxt for _, _, nxt in chain[state] if nxt is not None and nxt not in chain)
    return chain


_System = tuple[dict[_State, int], list[int], list[list[int]], dict[_State, list[_Roll]]]


def _system(board: Board) -> _System | None:
    """The roll-level chain's states (indexed), the squares rolls land on, w·I − P in integers (w the rolls'
    total weight) and the chain; None, before the d × d matrix is made, above MAX_ROLL_STATES states."""
    chain = roll_chain(board)
    if len(chain) > MAX_ROLL_STATES:
        return None
    index = {state: i for i, state in enumerate(chain)}
    d, w = len(chain), board.roll_weight
    A = [[w * (r == c) for c in range(d)] for r in range(d)]
    for state, rolls in chain.items():
        for weight, _, nxt in rolls:
            if nxt is not None:
                A[index[state]][index[nxt]] -= weight
    targets = sorted({landed for rolls in chain.values() for _, landed, _ in rolls if landed})
    return index, targets, A, chain


def landing_chances(board: Board) -> dict[int, Fraction] | None:
    """For every square 1..last, the exact chance that one player's game lands on it by a roll at least once;
    None for a board with more than MAX_ROLL_STATES roll-level states. One solve for every square without a
    roll-again limit, one per square with one."""
    if board.roll_again_limit is not None:
        return landing_chances_square_by_square(board)
    system = _system(board)
    if system is None:
        return None
    index, targets, A, chain = system
    column = {j: c for c, j in enumerate(targets)}
    L = [[0] * len(targets) for _ in index]
    for state, rolls in chain.items():
        for weight, landed, _ in rolls:
            if landed:
                L[index[state]][column[landed]] += weight
    m = fmpq_mat(fmpz_mat(A)).solve(fmpq_mat(fmpz_mat(L)))
    start = index[(board.start, 0)]
    chances = dict.fromkeys(range(1, board.squares + 1), Fraction(0))
    for j, c in column.items():
        after = board.jumps.get(j, j)
        again = fraction(m[index[(after, 0)], c]) if after != board.squares else Fraction(0)
        chances[j] = fraction(m[start, c]) / (1 + again)
    return chances


def landing_chances_square_by_square(board: Board) -> dict[int, Fraction] | None:
    """`landing_chances` from one system per square (h above), under every rule; None for a board with more
    than MAX_ROLL_STATES roll-level states."""
    system = _system(board)
    if system is None:
        return None
    index, targets, A, chain = system
    d = len(index)
    start = index[(board.start, 0)]
    chances = dict.fromkeys(range(1, board.squares + 1), Fraction(0))
    for j in targets:
        killed = [row[:] for row in A]
        rhs = [0] * d
        for state, rolls in chain.items():
            r = index[state]
            for weight, landed, nxt in rolls:
                if landed == j:
                    rhs[r] += weight
                    if nxt is not None:
                        killed[r][index[nxt]] += weight  # a landing on j ends the count: no step on from it
        X = fmpq_mat(fmpz_mat(killed)).solve(fmpq_mat(d, 1, rhs))
        chances[j] = fraction(X[start, 0])
    return chances
