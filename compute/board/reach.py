"""Which squares a turn can reach, and from which the last square never can (trapped, doomed)."""

from __future__ import annotations

from .rules import Rules


def turn_levels(board: Rules, origin: int) -> list[dict[int, int]]:
    """Under a roll-again limit L, where the rolls of a turn begun on `origin` are made: for k = 0..L, each square
    the (k+1)-th roll can be made from, with the weight of getting there (in units of `roll_weight`ᵏ: k rolls of
    `roll_again_on` that did not win, each moved as the play moves it there, `Rules.outcomes_at`)."""
    assert board.roll_again_limit is not None, "a turn's levels are for a board with a roll-again limit"
    levels = [{origin: 1}]
    for k in range(board.roll_again_limit):
        after: dict[int, int] = {}
        for here, x in levels[-1].items():
            for roll, weight, _, moved in board.outcomes_at(here, k, origin):
                if roll == board.roll_again_on and moved != board.squares:
                    after[moved] = after.get(moved, 0) + x * weight
        if not after:
            break
        levels.append(after)
    return levels


def _successors(board: Rules, square: int) -> set[int]:
    """Where the next turn can begin after a turn begun on `square` (`board.squares` if the turn can win).

    Without a roll-again limit one roll at a time is enough: any run of rolls can be cut into turns. With a
    limit L a turn moves by at most L rolls of `roll_again_on` (`turn_levels`) and then one other roll; the
    (L+1)-th roll of `roll_again_on` is a penalty, not moved, which ends the turn where it began ("undo") or
    on square 0 ("start")."""
    if board.roll_again_limit is None:
        return {destination for *_, destination in board.outcomes(square)}
    found: set[int] = set()
    for k, level in enumerate(turn_levels(board, square)):
        for here in level:
            for roll, _, _, moved in board.outcomes_at(here, k, square):
                if roll == board.roll_again_on and k == board.roll_again_limit:
                    found.add(square if board.penalty == "undo" else 0)
                elif roll != board.roll_again_on or moved == board.squares:
                    found.add(moved)
    return found


def passed_squares(board: Rules, squares: tuple[int, ...]) -> tuple[int, ...]:
    """`squares`, then every other square that a turn begun on one of them can pass through between its rolls
    of `roll_again_on` (only with a roll-again limit can that square be one where a turn must not begin)."""
    passed = dict.fromkeys(squares)
    if board.roll_again_limit is not None:
        for square in squares:
            for level in turn_levels(board, square)[1:]:
                for here in level:
                    passed.setdefault(here)
    return tuple(passed)


def reachable_squares(board: Rules, origin: int | None = None) -> set[int]:
    """Squares where a turn can begin, reachable from `origin` (default the start)."""
    origin = board.start if origin is None else origin
    seen = {origin}
    todo = [origin]
    while todo:
        for nxt in _successors(board, todo.pop()):
            if nxt != board.squares and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def roll_squares(board: Rules) -> list[int]:
    """Squares a roll can be made from: not the foot of a jump, unless a jump also ends there.

    (Jumps never chain: arriving on a square by a jump does not trigger a jump starting there. Valid
    board files have no such squares; the single-jump experiments create them.)"""
    ends = set(board.jumps.values())
    return [s for s in range(board.squares) if s not in board.jumps or s in ends]


def _predecessors(board: Rules) -> dict[int, set[int]]:
    """For each square, the squares from which one turn leads to it."""
    squares = roll_squares(board)
    preds: dict[int, set[int]] = {s: set() for s in squares + [board.squares]}
    for s in squares:
        for nxt in _successors(board, s):
            preds[nxt].add(s)
    return preds


def _backward(preds: dict[int, set[int]], targets: set[int]) -> set[int]:
    """Every square from which some square of `targets` can be reached (targets included)."""
    found = set(targets)
    todo = list(targets)
    while todo:
        for p in preds[todo.pop()]:
            if p not in found:
                found.add(p)
                todo.append(p)
    return found


def trapped_squares(board: Rules) -> set[int]:
    """Squares from which the last square can never be reached."""
    return set(roll_squares(board)) - _backward(_predecessors(board), {board.squares})


def doomed_squares(board: Rules) -> set[int]:
    """Squares from which the game may never end (a trapped square can be reached)."""
    trapped = trapped_squares(board)
    return _backward(_predecessors(board), trapped) if trapped else set()
