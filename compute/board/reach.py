"""Which squares a roll can reach, and from which the last square never can (trapped, doomed)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the model checks itself with these functions
    from .model import Board


def _successors(board: Board, square: int) -> set[int]:
    """Where one roll can take a token from `square`. With a roll-again limit of 0, every roll of
    `roll_again_on` is a penalty, which is not moved: it sends the token back, to square 0 with "start"."""
    moving = [roll for roll, _ in board.rolls if not (board.roll_again_limit == 0 and roll == board.roll_again_on)]
    found = {board.move(square, roll) for roll in moving}
    if board.penalty == "start":
        found.add(0)
    return found


def reachable_squares(board: Board, origin: int | None = None) -> set[int]:
    """Squares where a roll can be made, reachable from `origin` (default the start)."""
    origin = board.start if origin is None else origin
    seen = {origin}
    todo = [origin]
    while todo:
        for nxt in _successors(board, todo.pop()):
            if nxt != board.squares and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def roll_squares(board: Board) -> list[int]:
    """Squares a roll can be made from: not the foot of a jump, unless a jump also ends there.

    (Jumps never chain: arriving on a square by a jump does not trigger a jump starting there. Valid
    board files have no such squares; the single-jump experiments create them.)"""
    ends = set(board.jumps.values())
    return [s for s in range(board.squares) if s not in board.jumps or s in ends]


def _predecessors(board: Board) -> dict[int, set[int]]:
    """For each square, the squares from which one roll leads to it."""
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


def trapped_squares(board: Board) -> set[int]:
    """Squares from which the last square can never be reached."""
    return set(roll_squares(board)) - _backward(_predecessors(board), {board.squares})


def doomed_squares(board: Board) -> set[int]:
    """Squares from which the game may never end (a trapped square can be reached)."""
    trapped = trapped_squares(board)
    return _backward(_predecessors(board), trapped) if trapped else set()
