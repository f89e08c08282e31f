"""Run the experiments of a board as a user asks for them: in parallel pieces, cached, resumable.

Results are stored like the boards' (a file named by a hash of the board, the experiment, its settings
and the compute stage's code, with a checksum). A sweep killed halfway keeps its finished pieces and
resumes from them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from .. import __version__, code_hash
from ..board.limits import MAX_DIE
from ..board.model import Board
from ..board.problems import BoardError
from ..solve.chain import turn_chain
from ..store.files import key_of, read_checked, store
from ..store.sweep import PartStore, run_pieces
from . import HOUSE_RULE_KEYS, WITHOUT_HOUSE_RULES
from .variants import (
    MIN_JUMP_LENGTH,
    candidates,
    die_row,
    first_player_floats,
    longer_with_bigger_die,
    scan_exact,
    scan_json,
    start_sweep,
)

SWEEP_FORMAT = 2
"""The version of a stored sweep's layout (its own, apart from the board record's SCHEMA_VERSION)."""
JUMPS_PER_PIECE = 500
"""Candidates per piece of the add-jump sweep: fixed, so that a sweep resumed with another number of
workers finds exactly the pieces it would have made (the chains of a piece are iterated together: on the
classic board 500 a piece take 1.09–1.12 s for the 5,346 candidates, 200 a piece 1.27–1.43 s, with the same
floats; 11 pieces still share two workers evenly)."""


def dice_piece(fields: dict[str, Any], faces: int) -> dict[str, Any]:
    """One die size (a unit of parallel work)."""
    return die_row(Board(**fields), faces)


def jump_piece(fields: dict[str, Any], pairs: list[list[int]]) -> list[float | None]:
    """The first player's chance for a batch of added jumps (a unit of parallel work)."""
    return first_player_floats(Board(**fields), [(i, k) for i, k in pairs])


def _cached(board: Board, name: str, params: dict[str, Any], folder: Path | None,
            compute: Callable[[PartStore], dict[str, Any]], force: bool = False) -> dict[str, Any]:
    basis = {"board": board.canonical(), "experiment": name, "params": params, "format": SWEEP_FORMAT,
             "version": __version__, "code": code_hash()}
    key = key_of(basis)
    if folder is None:
        return compute(PartStore(None))
    stem = f"{board.slug or 'board'}-{name}-{key[:16]}"
    path = folder / f"{stem}.json"
    record, _ = (None, None) if force else read_checked(path, key)
    if record is not None:
        return record["result"]
    parts = PartStore(folder / f"{stem}.parts")
    if force:
        parts.clear()
    result = compute(parts)
    store(path, {"key": key, "experiment": name, "params": params, "result": result})
    parts.clear()
    return result


def _without_house_rules(board: Board, experiment: str) -> None:
    """Refuse, with one line, a board with house rules for an experiment of WITHOUT_HOUSE_RULES."""
    if experiment in WITHOUT_HOUSE_RULES and board.house_rules:
        raise BoardError(f"{board.slug or board.title}: this experiment is made for boards without house rules "
                         f"({', '.join(HOUSE_RULE_KEYS)})")


def dice(board: Board, max_faces: int = MAX_DIE, jobs: int = 1, scheduler: str | None = None,
         folder: Path | None = None, progress: bool | None = None, force: bool = False) -> dict[str, Any]:
    """Hochman's die-size experiment for 1..max_faces faces."""
    _without_house_rules(board, "dice")
    def compute(parts: PartStore) -> dict[str, Any]:
        pieces = [(board.fields(), faces) for faces in range(1, max_faces + 1)]
        rows = run_pieces(dice_piece, pieces, jobs, scheduler, parts, desc="die sizes", progress=progress)
        return {"max_faces": max_faces, "dice": rows, "longer_with_bigger_die": longer_with_bigger_die(rows)}

    return _cached(board, "dice", {"max_faces": max_faces}, folder, compute, force)


def start(board: Board) -> dict[str, Any]:
    """Hochman's starting-square experiment (one exact solve: nothing to cache)."""
    return start_sweep(turn_chain(board))


def add_jump(board: Board, min_length: int = MIN_JUMP_LENGTH, jobs: int = 1, scheduler: str | None = None,
             folder: Path | None = None, progress: bool | None = None, force: bool = False) -> dict[str, Any]:
    """Hochman's scan of every single added chute or ladder of length ≥ min_length."""
    _without_house_rules(board, "add-jump")
    def compute(parts: PartStore) -> dict[str, Any]:
        pairs = candidates(board, min_length)
        effects = scan_exact(board, pairs)
        changed = [[e.source, e.target] for e in effects if e.status == "changed"]
        size = JUMPS_PER_PIECE
        pieces = [(board.fields(), changed[n:n + size]) for n in range(0, len(changed), size)]
        floats = [f for chunk in run_pieces(jump_piece, pieces, jobs, scheduler, parts, desc="added jumps",
                                            progress=progress) for f in chunk]
        by_pair = {(i, k): f for (i, k), f in zip(changed, floats)}
        firsts = [by_pair.get((e.source, e.target)) for e in effects]
        return scan_json(effects, firsts, turn_chain(board).first_player_wins, min_length)

    return _cached(board, "add-jump", {"min_length": min_length}, folder, compute, force)
