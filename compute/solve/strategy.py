"""The best play when the rules give a choice (`choice = "coin"`): after seeing roll r, move r, or flip a fair
coin and move r + 1 or r − 1. Exact, by policy iteration over rationals, and proven optimal.

One player minimises the expected number of turns. With W(q) the expected turns still to come after the turn
a roll from square q belongs to (the same whether the roll begins the turn or follows a roll again: roll-again
without a limit has no memory), a roll r from q with a choice a leads, for each of its outcomes, to
0 (it wins), W(q') (it rolls again) or 1 + W(q') (the turn ends on q'). Under a play π these are linear
equations, solved exactly: w·W = Σ_outcomes weight·(…), w the outcomes' total weight. The play is improved
where a flip is strictly better (ties go to not flipping) until nothing changes; it is then optimal, because
its values satisfy Bellman's equation, W(q) = Σ_r p_r·min_a Q(q, r, a), which the last round checks exactly for
every square and roll (a stochastic shortest-path problem: the value of a proper play that satisfies it is the
least over all plays). The first play comes from value iteration in floats, so that the exact rounds are few.

The squares are those from which some play can finish: a move into any other square never finishes, and is never
chosen (its value is infinite). Expected turns from the start of a turn on q are 1 + W(q). Under a roll-again
limit the turn has a memory (the rolls so far, where it began): `compute.solve.limited` solves that game, and a
`Play` holds either.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, cast

from flint import fmpz_mat

from ..board.model import Board
from ..board.reach import roll_squares
from . import limited
from .limited import TurnOptions

Decision = tuple[int, int]
"""(square, roll): where a player sees a roll and may flip."""
_Option = tuple[tuple[int, int, bool], ...]
"""One choice's outcomes: (weight, square it leads to, whether the turn goes on)."""

FLOAT_ROUNDS = 100_000
"""Value iteration in floats stops after this many rounds at the latest (it only proposes the first play)."""


@dataclass(frozen=True)
class Options:
    """Every decision of a board with a choice: for each square from which the game can end, each roll's outcomes
    if the player moves it (`stay`) and, where flipping changes anything, if the player flips (`flip`)."""

    board: Board
    squares: tuple[int, ...]
    rolls: dict[int, tuple[tuple[int, _Option, _Option | None], ...]]
    """square → (roll, stay, flip or None)."""

    @property
    def decisions(self) -> list[Decision]:
        """Every (square, roll) where a flip can change the move."""
        return [(q, r) for q in self.squares for r, _, flip in self.rolls[q] if flip is not None]


def options(board: Board) -> Options:
    """A board's decisions (`Options`); the squares: every square a roll is made from whose game some play can end."""
    plain, flipped = board.played(()), board.played([(q, r) for q in roll_squares(board) for r, _ in board.rolls])
    last = board.squares
    moves: dict[int, list[tuple[int, _Option, _Option | None]]] = {}
    for q in roll_squares(board):
        by_roll: dict[int, tuple[list[tuple[int, int, bool]], list[tuple[int, int, bool]]]] = {}
        for source, slot in ((plain, 0), (flipped, 1)):
            for roll, weight, _, nxt in source.outcomes(q):
                by_roll.setdefault(roll, ([], []))[slot].append((weight, nxt, roll == board.roll_again_on
                                                                  and nxt != last))
        moves[q] = [(r, tuple(stay), None if sorted(stay) == sorted(_merged(flip)) else tuple(flip))
                    for r, (stay, flip) in by_roll.items()]
    alive = _can_finish(moves, last)
    kept = tuple(q for q in roll_squares(board) if q in alive)

    def inside(option: _Option) -> bool:
        return all(nxt == last or nxt in alive for _, nxt, _ in option)

    rolls = {q: tuple((r, stay, flip if flip is not None and inside(flip) else None)
                      for r, stay, flip in moves[q]) for q in kept}
    return Options(board, kept, rolls)


def _merged(option: list[tuple[int, int, bool]]) -> list[tuple[int, int, bool]]:
    """Outcomes with the same end merged (a flip whose two moves end alike changes nothing)."""
    total: dict[tuple[int, bool], int] = {}
    for weight, nxt, goes_on in option:
        total[(nxt, goes_on)] = total.get((nxt, goes_on), 0) + weight
    return [(w, nxt, goes_on) for (nxt, goes_on), w in total.items()]


def _can_finish(moves: dict[int, list[tuple[int, _Option, _Option | None]]], last: int) -> set[int]:
    """Squares from which some play reaches the last square (backwards over every outcome of every choice)."""
    before: dict[int, set[int]] = {}
    for q, rolls in moves.items():
        for _, stay, flip in rolls:
            for _, nxt, _ in stay + (flip or ()):
                before.setdefault(nxt, set()).add(q)
    found, todo = set(), [last]
    while todo:
        for q in before.get(todo.pop(), ()):
            if q not in found:
                found.add(q)
                todo.append(q)
    return found


def _chosen(opts: Options, flips: set[Decision], q: int) -> list[tuple[int, int, bool]]:
    """The outcomes of every roll from square q under a play."""
    return [o for r, stay, flip in opts.rolls[q] for o in (flip if (q, r) in flips and flip is not None else stay)]


def _reached(opts: Options, flips: set[Decision], origin: int) -> list[int] | None:
    """The squares a game from `origin` can reach under a play (in the options' order), None if one lies outside
    the options' squares (the game could not end from there)."""
    last, seen, todo = opts.board.squares, {origin}, [origin]
    while todo:
        for _, nxt, _ in _chosen(opts, flips, todo.pop()):
            if nxt != last and nxt not in seen:
                if nxt not in opts.rolls:
                    return None
                seen.add(nxt)
                todo.append(nxt)
    return [q for q in opts.squares if q in seen]


def _system(opts: Options, flips: set[Decision], squares: list[int]) -> tuple[fmpz_mat, fmpz_mat] | None:
    """w·I − (the play's outcomes among `squares`), and the weight of the outcomes that end a turn without
    winning: the play's equations in integers. None if the play can move outside `squares`."""
    index = {q: i for i, q in enumerate(squares)}
    d, w, last = len(index), opts.board.roll_weight, opts.board.squares
    A = [[w * (i == j) for j in range(d)] for i in range(d)]
    b = [0] * d
    for q, i in index.items():
        for weight, nxt, goes_on in _chosen(opts, flips, q):
            if nxt == last:
                continue
            if nxt not in index:
                return None
            A[i][index[nxt]] -= weight
            b[i] += 0 if goes_on else weight
    return fmpz_mat(A), fmpz_mat(d, 1, b)


def evaluate(opts: Options | TurnOptions, flips: Iterable[tuple[int, ...]], origin: int | None = None
             ) -> dict[int, Fraction] | None:
    """W under a play (the flips it makes), exactly, on every square (or, from `origin`, on the squares a game from
    there can reach); None if the game can fail to end under it from one of them (`limited.evaluate` under a
    roll-again limit)."""
    if isinstance(opts, TurnOptions):
        return limited.evaluate(opts, flips, origin)
    chosen = cast(set[Decision], set(flips))
    squares = list(opts.squares) if origin is None else _reached(opts, chosen, origin)
    system = None if squares is None else _system(opts, chosen, squares)
    if system is None or squares is None:
        return None
    A, b = system
    try:
        W = A.solve(b)
    except ZeroDivisionError:  # singular: some square's game never ends under this play
        return None
    return {q: Fraction(int(W[i, 0].p), int(W[i, 0].q)) for i, q in enumerate(squares)}


def _value(option: _Option, W: dict[int, Fraction] | dict[int, float], last: int):
    """Σ weight·(0 if it wins, W(q') if the turn goes on, 1 + W(q') if it ends on q'), over the option's outcomes."""
    return sum(weight * (0 if nxt == last else W[nxt] + (0 if goes_on else 1)) for weight, nxt, goes_on in option)


def _greedy(opts: Options, W: dict[int, Fraction] | dict[int, float], strict: Callable[[Any, Any], bool]
            ) -> tuple[set[Decision], set[Decision]]:
    """The flips that are better than moving under values W (`strict(flip, stay)`), and the exact ties."""
    last = opts.board.squares
    flips, ties = set(), set()
    for q in opts.squares:
        for r, stay, flip in opts.rolls[q]:
            if flip is None:
                continue
            a, b = _value(flip, W, last), _value(stay, W, last)
            if strict(a, b):
                flips.add((q, r))
            elif a == b:
                ties.add((q, r))
    return flips, ties


def _float_play(opts: Options) -> set[Decision]:
    """A first play: value iteration in floats from W = 0 (it rises to the least values), then greedy. Each roll's
    move is one outcome and a flip two; the last square is index d, worth 0."""
    import numpy as np  # only a board with a choice needs it: a quick exact solve never imports numpy

    index = {q: i for i, q in enumerate(opts.squares)}
    d, last = len(index), opts.board.squares
    where = {**index, last: d}
    rows, stay, flip = [], [], []
    for q in opts.squares:
        for _, moved, flipped in opts.rolls[q]:
            rows.append(index[q])
            stay.append([(w, where[n], not goes_on and n != last) for w, n, goes_on in moved][0])
            flip.append([(w, where[n], not goes_on and n != last) for w, n, goes_on in flipped]
                        if flipped is not None else [(0, d, False), (0, d, False)])
    row = np.array(rows)
    sw, sn, se = (np.array(x, dtype=float if k != 1 else int) for k, x in enumerate(zip(*stay)))
    fw, fn, fe = (np.array([[o[k] for o in f] for f in flip], dtype=float if k != 1 else int) for k in range(3))
    can = np.array([f[0][0] > 0 for f in flip])
    total = float(opts.board.roll_weight)
    W = np.zeros(d + 1)
    for _ in range(FLOAT_ROUNDS):
        by_moving = sw * (W[sn] + se)
        by_flipping = np.where(can, (fw * (W[fn] + fe)).sum(axis=1), np.inf)
        new = np.append(np.bincount(row, np.minimum(by_moving, by_flipping), minlength=d) / total, 0.0)
        change = np.abs(new - W).max()
        W = new
        if change <= 1e-12 * max(1.0, W.max()):
            break
    values = {q: float(W[i]) for q, i in index.items()}
    return _greedy(opts, values, lambda a, b: a < b - 1e-9 * abs(b))[0]


@dataclass(frozen=True)
class Play:
    """The best play of a board with a choice, proven optimal: where it flips, where flipping and moving are worth
    exactly the same (`ties`: it moves), W under it (`values`), and the exact rounds of policy iteration. Its
    decisions are (square, roll), or under a roll-again limit (square, roll, rolls so far, origin)."""

    flips: tuple[tuple[int, ...], ...]
    ties: tuple[tuple[int, ...], ...]
    values: dict[int, Fraction]
    rounds: int
    options: Options | TurnOptions

    @property
    def board(self) -> Board:
        """The board played this way."""
        if isinstance(self.options, TurnOptions):
            return self.options.board.played(limited.board_flips(self.options, cast(Any, self.flips)))
        return self.options.board.played(self.flips)

    def expected_turns(self, square: int) -> Fraction:
        """Expected turns from the start of a turn on `square`."""
        return 1 + self.values[square]


@lru_cache(maxsize=16)
def best_play(board: Board) -> Play:
    """The play that minimises the expected number of turns (`board` with a choice, its flips ignored)."""
    if board.roll_again_limit is not None:
        found, flips_made, ties_made, values, exact_rounds = limited.best_play(board)
        return Play(flips_made, ties_made, values, exact_rounds, found)
    opts = options(board.played(()))
    flips = _float_play(opts)
    rounds = 0
    while True:
        rounds += 1
        W = evaluate(opts, flips)
        if W is None:  # the float play can fail to end somewhere (it never should): start from the box rules
            W = evaluate(opts, ())
            if W is None:
                raise ArithmeticError("the box rules' game can fail to end from a square that some play finishes")
        better, ties = _greedy(opts, W, lambda a, b: a < b)
        if better == flips:
            return Play(tuple(sorted(flips)), tuple(sorted(ties)), W, rounds, opts)
        flips = better


def as_played(board: Board) -> Board:
    """The board as it is solved: with a choice, its best play's flips (found now: seconds at most on 1,000
    squares, about 14 s there under a roll-again limit of 2); else the board itself. What the cost model
    estimates (the best play's chain, not the box rules')."""
    if board.choice is None or board.flips:
        return board
    return best_play(board).board


def bellman_holds(play: Play) -> bool:
    """Whether the play's exact values satisfy Bellman's equation: at every square and roll its choice is worth
    no more than the other, and each square's value is the chances' sum of its choices (checked afresh; under a
    roll-again limit at every state of a turn: `limited.bellman_holds`)."""
    if isinstance(play.options, TurnOptions):
        return limited.bellman_holds(play.options, cast(Any, play.flips), play.values)
    opts, W = play.options, play.values
    last, total = opts.board.squares, opts.board.roll_weight
    flips = set(play.flips)
    for q in opts.squares:
        value = Fraction(0)
        for r, stay, flip in opts.rolls[q]:
            chosen = flip if (q, r) in flips else stay
            assert chosen is not None
            other = stay if (q, r) in flips else flip
            if other is not None and _value(other, W, last) < _value(chosen, W, last):
                return False
            value += _value(chosen, W, last)
        if value != total * W[q]:
            return False
    return True


# --- the strategies compared --------------------------------------------------------------------------------


def _never(opts: Options | TurnOptions) -> set[Decision]:
    return set()


def _always(opts: Options | TurnOptions) -> set[Decision]:
    return set(opts.decisions)


def _chute_heads(opts: Options | TurnOptions) -> set[Decision]:
    """Flip when the roll would land on the head of a chute."""
    board = opts.board
    heads = {a for a, b in board.jumps.items() if b < a}
    return {(q, r) for q, r in opts.decisions if board.landing(q, r) in heads}


def _ladder_neighbours(opts: Options | TurnOptions) -> set[Decision]:
    """Flip when a neighbour of the square the roll reaches is the foot of a ladder."""
    board = opts.board
    feet = {a for a, b in board.jumps.items() if b > a}
    return {(q, r) for q, r in opts.decisions if {board.landing(q, r) - 1, board.landing(q, r) + 1} & feet}


STRATEGIES: tuple[tuple[str, str, Callable[[Options | TurnOptions], set[Decision]]], ...] = (
    ("never", "Never flip (the box rules)", _never),
    ("always", "Always flip", _always),
    ("chute_heads", "Flip when the roll would land on the head of a chute", _chute_heads),
    ("ladder_neighbours", "Flip when a neighbour of the square the roll reaches is the foot of a ladder",
     _ladder_neighbours),
)
"""The named strategies compared with the best play: (key, description, the flips it makes)."""


def compared(play: Play) -> list[tuple[str, str, Fraction | None]]:
    """Each named strategy's exact expected turns from the start (None: the game can fail to end), then the best
    play's."""
    opts, start = play.options, play.options.board.start
    out: list[tuple[str, str, Fraction | None]] = []
    for key, label, flips in STRATEGIES:
        W = evaluate(opts, flips(opts), start)
        out.append((key, label, None if W is None else 1 + W[start]))
    out.append(("best", "The best play", play.expected_turns(start)))
    return out
