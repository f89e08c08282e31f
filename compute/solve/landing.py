"""The chance that a game ever lands on each square by a roll (for a chute's or ladder's foot: the chance the
game uses it at least once), exactly.

A square can be landed on many times, so this is not the expected number of landings (`jumps.jump_usage`). It
lives on the roll-level chain, whose state is what a roll leaves: the square alone without a roll-again limit
(turns do not matter to where rolls land), and with a limit L the square where the turn began with the number
k ≤ L of rolls of `roll_again_on` made in it (they all move alike, so the square is fixed by the two). For a
square j the chances h satisfy, over the rolls from each state x,

    h_x = Σ_rolls p · ([the roll lands on j] + [it lands elsewhere or nowhere] · h_next),

one exact linear system per square (`landing_chances_square_by_square`, the reference the tests compare with).
Without a roll-again limit one system serves every square: a landing on j always leaves the token in the same
state a(j) (the jump's end), so with m_x(j) the expected number of landings on j from x (one solve,
(I − P)·m = L, every square a column of L), P(ever land on j) = m_start(j) / (1 + m_a(j)(j)): the landings after
the first are m_a(j)(j) on average. With a limit the state after a landing is not unique, and the systems are
taken a turn at a time (`_by_turns`): every roll path of a turn is followed once, and the system of square j
is the turn chain's with the paths that land on j taken out of their rows, so a third of the roll-level
states, and the matrix of every square built from one base by the few entries that differ.
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

_State = tuple[int, int, int]
"""(square where the turn began, rolls of `roll_again_on` so far in it, the square the next roll is made from);
without a limit, (square, 0, square). Without a choice the square is fixed by the first two (the rolls of
`roll_again_on` all move alike); with one it may not be (a six flipped or not)."""
_Roll = tuple[int, int | None, _State | None]
"""A roll's weight, the square it lands on (None: nowhere) and the next state (None: the game is won)."""


def _rolls_from(board: Board, state: _State) -> list[_Roll]:
    """Each roll from `state` (`_Roll`)."""
    begun, again_so_far, here = state
    limit, again, last = board.roll_again_limit, board.roll_again_on, board.squares
    penalised = begun if board.penalty == "undo" else 0
    out: list[_Roll] = []
    for roll, weight, landed, moved in board.outcomes_at(here, again_so_far, begun):
        if limit is not None and roll == again and again_so_far == limit:  # the penalty: not moved
            out.append((weight, None, (penalised, 0, penalised)))
            continue
        if moved == last:
            nxt = None
        elif limit is not None and roll == again:
            nxt = (begun, again_so_far + 1, moved)
        else:
            nxt = (moved, 0, moved)
        out.append((weight, landed, nxt))
    return out


def roll_chain(board: Board) -> dict[_State, list[_Roll]]:
    """Every roll-level state reachable from the start, with its rolls (`_rolls_from`)."""
    chain: dict[_State, list[_Roll]] = {}
    todo = [(board.start, 0, board.start)]
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
        return _by_turns(board)
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
    start = index[(board.start, 0, board.start)]
    chances = dict.fromkeys(range(1, board.squares + 1), Fraction(0))
    for j, c in column.items():
        after = board.jumps.get(j, j)
        again = fraction(m[index[(after, 0, after)], c]) if after != board.squares else Fraction(0)
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
    start = index[(board.start, 0, board.start)]
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


def _by_turns(board: Board) -> dict[int, Fraction] | None:
    """`landing_chances` under a roll-again limit, one system per square over the turn chain (module notes).

    Each path of rolls of a turn from square x (rolls of `roll_again_on` continuing it, at most limit + 1 rolls)
    has a weight in units of w^(limit+1), an end (a square, or None for a win) and the squares it lands on.
    With M the turn chain's integer matrix and, for square j, D_j its paths landing on j and p_j their
    weights from each square: (w^(limit+1)·I − M + D_j)·h = p_j, and the chance is h at the start."""
    chain = roll_chain(board)
    if len(chain) > MAX_ROLL_STATES:
        return None
    assert board.roll_again_limit is not None, "the turn-by-turn systems are for a board with a limit"
    w, limit = board.roll_weight, board.roll_again_limit
    squares = sorted(x for x, again_so_far, _ in chain if again_so_far == 0)
    index = {x: i for i, x in enumerate(squares)}
    d, scale = len(squares), w ** (limit + 1)
    base = [[scale * (r == c) for c in range(d)] for r in range(d)]
    taken: dict[int, dict[tuple[int, int | None], int]] = {}  # j → (row, end's column or None: a win) → weight
    for x in squares:
        paths = [((x, 0, x), 1, 0, frozenset[int]())]
        while paths:
            state, weight, rolls, landed = paths.pop()
            for roll_weight, square, nxt in chain[state]:
                on = landed | {square} if square else landed
                if nxt is not None and nxt[1] > 0:  # a roll of `roll_again_on`: the turn goes on
                    paths.append((nxt, weight * roll_weight, rolls + 1, on))
                    continue
                units = weight * roll_weight * w ** (limit - rolls)
                cell = (index[x], None if nxt is None else index[nxt[0]])
                if cell[1] is not None:
                    base[cell[0]][cell[1]] -= units
                for j in on:
                    cells = taken.setdefault(j, {})
                    cells[cell] = cells.get(cell, 0) + units
    start = index[board.start]
    matrix = fmpz_mat(base)
    chances = dict.fromkeys(range(1, board.squares + 1), Fraction(0))
    for j, cells in taken.items():
        system, rhs = fmpz_mat(matrix), [0] * d
        for (row, column), units in cells.items():
            rhs[row] += units
            if column is not None:
                system[row, column] += units
        chances[j] = fraction(system.solve(fmpz_mat(d, 1, rhs))[start, 0])
    return chances
