"""A board record's cache key: everything its results depend on, hashed (the record file's name carries it).

Apart from `record.build` so that finding a record up to date imports no solver (`compute.stage`)."""

from __future__ import annotations

from .. import __version__, code_hash
from ..board.model import Board
from ..store.files import key_of
from . import SCHEMA_VERSION

SIMULATED_GAMES = 1_000_000
SIMULATION_SEED = 20261122


def cache_key(board: Board) -> str:
    """SHA-256 of everything a board's record depends on: the board, its words as the record holds them (title,
    source, translations: a board without translations keeps its key), the result schema, the package version,
    the simulation settings and the compute stage's code (`compute.code_hash`: any edit to it is a miss)."""
    basis = {"board": board.canonical(), "title": board.title, "source": board.source, "listed": board.listed,
             "chute_word": board.chute_word, **({"translations": board.words()} if board.translations else {}),
             "schema": SCHEMA_VERSION, "version": __version__, "code": code_hash(),
             "games": SIMULATED_GAMES, "seed": SIMULATION_SEED}
    return key_of(basis)
