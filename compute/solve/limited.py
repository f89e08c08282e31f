"""The best play of a board with a choice under a roll-again limit: exact policy iteration over the turn's states.

With a limit L the turn holds at most L + 1 rolls, and the (L+1)-th roll of `roll_again_on` is not moved: the token
goes where the turn began ("undo") or to square 0 ("start"), whatever the choice. So the player's choice may depend
on the state (square, rolls so far in the turn, square where the turn began): a flip worth making on a turn's
first six may not be after two. With V the expected turns still to come after the current one, a roll r from a
state with a choice a leads, for each outcome, to 0 (it wins), V(next) (it rolls again: the next state of the same
turn) or 1 + W(q') (the turn ends on q', W(q') = V(q', 0, q')); the penalty ends the turn on its square. Under a
play these are linear: the turn's roll paths give the turn matrix (as `chain._played_limited_turn` does), the
expected turns t = (I − Q)⁻¹·1 come exactly, and every later state's value follows level by level from the last
roll back. A roll other than `roll_again_on` ends the turn, so its choice compares the same numbers at every state
of one square: only a six's choice can depend on the rolls so far and on where the turn began.

Policy iteration: improve where a flip is strictly better (ties go to not flipping) until nothing changes; the
first play comes from the same rounds in floats. The last round's exact values satisfy Bellman's equation at every
state and roll (`bellman_holds`, checked afresh, in integers over one common denominator). The states are those of
turns begun on squares from which some play can finish, reached by some play; a choice leading outside them is
never made.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Any

from flint import fmpq_mat, fmpz_mat

from ..board.model import Board
from ..board.reach import roll_squares

State = tuple[int, int, int]
"""(square, rolls so far in the turn, square where the turn began); a turn's first roll is (q, 0, q)."""
TurnDecision = tuple[int, int, int, int]
"""(square, roll, rolls so far in the turn, square where the turn began): where a player sees a roll and may flip."""
_Option = tuple[tuple[int, State | None], ...]
"""One choice's outcomes: (weight, the state it leads to, None if it wins); a state with 0 rolls so far begins a
new turn (the one that ended costs a turn)."""


@dataclass(frozen=True)
class TurnOptions:
    """Every decision of a board with a choice under a roll-again limit: for each state, each roll's outcomes if
    the player moves it (`stay`) and, where flipping changes anything, if the player flips (`flip`)."""

    board: Board
    squares: tuple[int, ...]
    """Squares where a turn can begin from which some play can finish."""
    rolls: dict[State, tuple[tuple[int, _Option, _Option | None], ...]]
    """state → (roll, stay, flip or None), the states grouped by the turn's square, level by level."""

    @property
    def decisions(self) -> list[tuple[int, int]]:
        """Every (square, roll) where a flip can change the move at some state (what a rule by square reads)."""
        return list(dict.fromkeys((s[0], r) for s, rolls in self.rolls.items() for r, _, f in rolls if f is not None))

    @property
    def turn_decisions(self) -> list[TurnDecision]:
        """Every (square, roll, rolls so far, origin) where a flip can change the move."""
        return [(s[0], r, s[1], s[2]) for s, rolls in self.rolls.items() for r, _, f in rolls if f is not None]


def turn_options(board: Board) -> TurnOptions:
    """A limited board's decisions (`TurnOptions`), over the states a turn begun on a square can reach by any play."""
    limit, again, last = board.roll_again_limit, board.roll_again_on, board.squares
    assert limit is not None and again is not None, "a roll-again limit needs roll_again_on (board_problems)"
    plain = board.played(())
    flipped = board.played([(q, r) for q in roll_squares(board) for r, _ in board.rolls])

    def where(roll: int, moved: int, state: State) -> State | None:
        if moved == last:
            return None
        return (moved, state[1] + 1, state[2]) if roll == again else (moved, 0, moved)

    moves: dict[State, list[tuple[int, _Option, _Option | None]]] = {}
    for origin in roll_squares(board):
        todo: list[State] = [(origin, 0, origin)]
        while todo:
            state = todo.pop()
            if state in moves:
                continue
            q, k, _ = state
            penalty = (state[2], 0, state[2]) if board.penalty == "undo" else (0, 0, 0)
            by_roll: dict[int, tuple[list[tuple[int, State | None]], list[tuple[int, State | None]]]] = {}
            for source, slot in ((plain, 0), (flipped, 1)):
                for roll, weight, _, moved in source.outcomes(q):
                    nxt = penalty if roll == again and k == limit else where(roll, moved, state)
                    by_roll.setdefault(roll, ([], []))[slot].append((weight, nxt))
            moves[state] = [(r, tuple(stay), None if _merged(stay) == _merged(flip) else tuple(flip))
                            for r, (stay, flip) in by_roll.items()]
            todo.extend(n for _, stay, flip in moves[state] for _, n in stay + (flip or ())
                        if n is not None and n[1] > 0 and n not in moves)
    alive = _can_finish(moves)

    def inside(option: _Option) -> bool:
        return all(n is None or n in alive for _, n in option)

    squares = tuple(q for q in roll_squares(board) if (q, 0, q) in alive)
    order = {q: i for i, q in enumerate(squares)}
    kept = sorted((s for s in moves if s in alive and s[2] in order), key=lambda s: (order[s[2]], s[1]))
    rolls = {s: tuple((r, stay, flip if flip is not None and inside(flip) else None) for r, stay, flip in moves[s])
             for s in kept}
    return TurnOptions(board, squares, rolls)


def _merged(option: list[tuple[int, State | None]]) -> list[tuple[int, State | None]]:
    """Outcomes with the same end merged, in a fixed order (a flip whose two moves end alike changes nothing)."""
    total: dict[State | None, int] = {}
    for weight, nxt in option:
        total[nxt] = total.get(nxt, 0) + weight
    return sorted(((w, n) for n, w in total.items()), key=lambda o: (o[1] is None, o[1] or (0, 0, 0), o[0]))


def _can_finish(moves: dict[State, list[tuple[int, _Option, _Option | None]]]) -> set[State]:
    """States from which some play wins (backwards over every outcome of every choice)."""
    before: dict[State | None, set[State]] = {}
    for state, rolls in moves.items():
        for _, stay, flip in rolls:
            for _, nxt in stay + (flip or ()):
                before.setdefault(nxt, set()).add(state)
    found: set[State] = set()
    todo: list[State | None] = [None]
    while todo:
        for s in before.get(todo.pop(), ()):
            if s not in found:
                found.add(s)
                todo.append(s)
    return found


def _flipping(flips: AbstractSet[tuple[int, ...]]) -> Any:
    """Whether a play flips at (state, roll): a (square, roll) pair flips at every roll, a TurnDecision at one."""
    return lambda s, r: (s[0], r) in flips or (s[0], r, s[1], s[2]) in flips


def _chosen(opts: TurnOptions, flips: AbstractSet[tuple[int, ...]], state: State) -> list[tuple[int, _Option]]:
    """Each roll's chosen outcomes from a state under a play."""
    flipping = _flipping(flips)
    return [(r, flip if flip is not None and flipping(state, r) else stay) for r, stay, flip in opts.rolls[state]]


def _turns(opts: TurnOptions, flips: AbstractSet[tuple[int, ...]], squares: Iterable[int]
           ) -> dict[int, tuple[dict[int, int], int]] | None:
    """For each square a turn begins on, the play's turn in integers over w^(L+1) (w the roll's weight): the weight
    of ending on each square (a penalty included) and of winning. None if the play can leave the states."""
    w, limit = opts.board.roll_weight, opts.board.roll_again_limit
    assert limit is not None, "a turn's paths need a limit"
    out: dict[int, tuple[dict[int, int], int]] = {}
    for origin in squares:
        ends: dict[int, int] = {}
        wins = 0
        level: dict[State, int] = {(origin, 0, origin): 1}
        for k in range(limit + 1):
            factor, after = w ** (limit - k), dict[State, int]()
            for state, x in level.items():
                if state not in opts.rolls:
                    return None
                for _, option in _chosen(opts, flips, state):
                    for weight, nxt in option:
                        if nxt is None:
                            wins += factor * x * weight
                        elif nxt[1] == 0:
                            ends[nxt[0]] = ends.get(nxt[0], 0) + factor * x * weight
                        else:
                            after[nxt] = after.get(nxt, 0) + x * weight
            level = after
        out[origin] = (ends, wins)
    return out


def _reached(opts: TurnOptions, flips: AbstractSet[tuple[int, ...]], origin: int) -> list[int] | None:
    """The squares where a turn begins in a game from `origin` under a play (in the options' order), None if one
    lies outside the options' squares (the game could not end from there)."""
    seen, todo = {origin}, [origin]
    while todo:
        turn = _turns(opts, flips, [todo.pop()])
        if turn is None:
            return None
        for q in next(iter(turn.values()))[0]:
            if q not in seen:
                if (q, 0, q) not in opts.rolls:
                    return None
                seen.add(q)
                todo.append(q)
    return [q for q in opts.squares if q in seen]


def _expected_turns(opts: TurnOptions, flips: AbstractSet[tuple[int, ...]], squares: list[int], exact: bool
                    ) -> tuple[dict[int, Any], Any] | None:
    """Expected turns t from the start of a turn on each square under a play: exactly, as integers N over a common
    denominator D (t = N / D), or in floats (D = 1.0); None if the game can fail to end under it."""
    turns = _turns(opts, flips, squares)
    if turns is None:
        return None
    limit = opts.board.roll_again_limit
    assert limit is not None
    scale, index, d = opts.board.roll_weight ** (limit + 1), {q: i for i, q in enumerate(squares)}, len(squares)
    A = [[scale * (i == j) for j in range(d)] for i in range(d)]
    for q, (ends, _) in turns.items():
        for nxt, x in ends.items():
            if nxt not in index:
                return None
            A[index[q]][index[nxt]] -= x
    if not exact:
        import numpy as np  # a board with a choice only

        try:
            t = np.linalg.solve(np.array(A, dtype=float), np.full(d, float(scale)))
        except np.linalg.LinAlgError:
            return None
        return ({q: float(t[i]) for q, i in index.items()}, 1.0) if np.all(np.isfinite(t)) and t.min() > 0 else None
    try:
        solution = fmpq_mat(fmpz_mat(A)).solve(fmpq_mat(d, 1, [scale] * d))
    except ZeroDivisionError:  # singular: some square's game never ends under this play
        return None
    numerators, denominator = solution.numer_denom()
    return {q: int(numerators[i, 0]) for q, i in index.items()}, int(denominator)


def _option_value(option: _Option, U: dict[State, Any], N: dict[int, Any], unit: Any) -> Any:
    """Σ weight·(0 if it wins, U(next) if the turn goes on, N(q')·unit if it ends on q'): one choice's worth in the
    units of the state values one level further on; None (infinite) if an outcome's game can fail to end."""
    total = 0
    for weight, nxt in option:
        value = 0 if nxt is None else U.get(nxt) if nxt[1] else N.get(nxt[0])
        if value is None:
            return None
        total += weight * (value if nxt is None or nxt[1] else value * unit)
    return total


def _better(a: Any, b: Any, strict: Any) -> bool:
    """Whether worth a is better than b (`strict`), None being infinite."""
    return a is not None and (b is None or strict(a, b))


def _state_values(opts: TurnOptions, flips: AbstractSet[tuple[int, ...]], N: dict[int, Any], squares: list[int]
                  ) -> dict[State, Any]:
    """Every state's value U of the turns begun on `squares`, from the last roll back: U(q, k, o) = D·w^(L+1−k)·V(q,
    k, o), the rolls' chosen worths summed (`_option_value`, with unit w^(L−k); None: infinite); N the expected
    turns over D."""
    w, limit = opts.board.roll_weight, opts.board.roll_again_limit
    assert limit is not None
    begun = set(squares)
    U: dict[State, Any] = {}
    for state in sorted((s for s in opts.rolls if s[2] in begun), key=lambda s: -s[1]):
        unit = w ** (limit - state[1])
        worths = [_option_value(option, U, N, unit) for _, option in _chosen(opts, flips, state)]
        U[state] = None if None in worths else sum(worths)
    return U


def _greedy(opts: TurnOptions, U: dict[State, Any], N: dict[int, Any], strict: Any
            ) -> tuple[set[TurnDecision], set[TurnDecision]]:
    """The flips better than moving under the values (`strict(flip, stay)`), and the exact ties."""
    w, limit = opts.board.roll_weight, opts.board.roll_again_limit
    assert limit is not None
    flips, ties = set(), set()
    for state, rolls in opts.rolls.items():
        unit = w ** (limit - state[1])
        for r, stay, flip in rolls:
            if flip is None:
                continue
            a, b = _option_value(flip, U, N, unit), _option_value(stay, U, N, unit)
            if _better(a, b, strict):
                flips.add((state[0], r, state[1], state[2]))
            elif a == b:
                ties.add((state[0], r, state[1], state[2]))
    return flips, ties


def evaluate(opts: TurnOptions, flips: Iterable[tuple[int, ...]], origin: int | None = None
             ) -> dict[int, Fraction] | None:
    """W (expected turns after the current one, at a turn's first roll) under a play: (square, roll) pairs flip at
    every roll, TurnDecisions at one; on every square (or those a game from `origin` reaches); None if the game can
    fail to end under it."""
    chosen = set(flips)
    squares = list(opts.squares) if origin is None else _reached(opts, chosen, origin)
    found = None if squares is None else _expected_turns(opts, chosen, squares, exact=True)
    if found is None:
        return None
    N, D = found
    return {q: Fraction(n, D) - 1 for q, n in N.items()}


def _rounds(opts: TurnOptions, flips: set[TurnDecision], exact: bool) -> tuple[set[TurnDecision], set[TurnDecision],
                                                                               dict[int, Any], int, int] | None:
    """Policy iteration from `flips` until nothing changes (floats: flips better by a relative 1e-9), with the last
    values N / D and the rounds; None if a play met can fail to end (floats only: the exact rounds start from a
    play that ends)."""
    squares = list(opts.squares)
    for rounds in range(1, 10_000):
        found = _expected_turns(opts, set(flips), squares, exact)
        if found is None:
            return None
        N, D = found
        U = _state_values(opts, set(flips), N, squares)
        strict = (lambda a, b: a < b) if exact else (lambda a, b: a < b - 1e-9 * abs(b))
        better, ties = _greedy(opts, U, N, strict)
        if better == flips:
            return flips, ties, N, D, rounds
        flips = better
    raise ArithmeticError("policy iteration did not settle")


def _proper_play(opts: TurnOptions) -> set[TurnDecision]:
    """A play whose game ends from every state (for a board where never flipping can fail to end from a square
    that some play finishes): at each state, the roll and choice with an outcome nearest a win (fewest rolls, a
    search backwards from it), every other roll moved as rolled where that stays among the states, else flipped."""
    before: dict[State | None, list[State]] = {}
    for state, rolls in opts.rolls.items():
        for _, stay, flip in rolls:
            for _, nxt in stay + (flip or ()):
                before.setdefault(nxt, []).append(state)
    distance: dict[State | None, int] = {None: 0}
    todo: list[State | None] = [None]
    for here in todo:
        for state in before.get(here, ()):
            if state not in distance:
                distance[state] = distance[here] + 1
                todo.append(state)
    flips: set[TurnDecision] = set()
    for state, rolls in opts.rolls.items():
        def nearest(option: _Option) -> int:
            return min(distance.get(n, len(distance)) for _, n in option)

        r0, _, flip0 = min(rolls, key=lambda x: min(nearest(x[1]), nearest(x[2]) if x[2] else len(distance)))
        for r, stay, flip in rolls:
            if flip is None:
                continue
            toward = r == r0 and flip0 is not None and nearest(flip) < nearest(stay)
            if toward or (r != r0 and not all(n is None or n in opts.rolls for _, n in stay)):
                flips.add((state[0], r, state[1], state[2]))
    return flips


def best_play(board: Board) -> tuple[TurnOptions, tuple[TurnDecision, ...], tuple[TurnDecision, ...],
                                     dict[int, Fraction], int]:
    """The play minimising the expected number of turns under a roll-again limit: the options, the flips, the
    ties (it moves there), W on every square, and the exact rounds. The rounds start from never flipping, or where
    that game can fail to end, from a play that ends (`_proper_play`)."""
    opts = turn_options(board.played(()))
    start: set[TurnDecision] = set()
    if _expected_turns(opts, start, list(opts.squares), exact=False) is None:
        start = _proper_play(opts)
    first = _rounds(opts, start, exact=False)
    found = _rounds(opts, first[0] if first is not None else start, exact=True)
    if found is None and first is not None:
        found = _rounds(opts, start, exact=True)
    if found is None:
        raise ArithmeticError("no play found whose game ends from every square that some play finishes")
    flips, ties, N, D, rounds = found
    return opts, tuple(sorted(flips)), tuple(sorted(ties)), {q: Fraction(n, D) - 1 for q, n in N.items()}, rounds


def bellman_holds(opts: TurnOptions, flips: Iterable[TurnDecision], W: dict[int, Fraction]) -> bool:
    """Whether the exact values W satisfy Bellman's equation under a roll-again limit: every later state's value
    taken afresh from W through the play's choices, at every state and roll the choice worth no more than the
    other, and each square's value at a turn's first roll the chances' sum of its choices."""
    chosen, squares = set(flips), list(opts.squares)
    w, limit = opts.board.roll_weight, opts.board.roll_again_limit
    assert limit is not None
    if set(W) != set(squares):
        return False
    D = lcm(*((1 + value).denominator for value in W.values()))
    N = {q: int((1 + W[q]) * D) for q in squares}
    U = _state_values(opts, chosen, N, squares)
    flipping = _flipping(chosen)
    for state, rolls in opts.rolls.items():
        unit = w ** (limit - state[1])
        for r, stay, flip in rolls:
            if flip is None:
                continue
            a, b = _option_value(flip, U, N, unit), _option_value(stay, U, N, unit)
            if _better(b, a, lambda x, y: x < y) if flipping(state, r) else _better(a, b, lambda x, y: x < y):
                return False
    return all(U[(q, 0, q)] == w ** (limit + 1) * (N[q] - D) for q in squares)


def board_flips(opts: TurnOptions, flips: Iterable[TurnDecision]) -> tuple[tuple[int, ...], ...]:
    """A play's flips as a board holds them (`Board.flips`): (square, roll) where it flips at every state of that
    square with that roll (a penalty roll aside), else each TurnDecision where it flips."""
    chosen = set(flips)
    limit, again = opts.board.roll_again_limit, opts.board.roll_again_on
    by_pair: dict[tuple[int, int], list[TurnDecision | None]] = {}
    for (q, k, o), rolls in opts.rolls.items():
        for r, _, flip in rolls:
            if not (r == again and k == limit):
                by_pair.setdefault((q, r), []).append(None if flip is None else (q, r, k, o))
    out: list[tuple[int, ...]] = []
    for pair, decisions in by_pair.items():
        taken = [d for d in decisions if d in chosen]
        if taken and len(taken) == len(decisions):
            out.append(pair)
        else:
            out.extend(d for d in taken if d is not None)
    return tuple(sorted(out))
