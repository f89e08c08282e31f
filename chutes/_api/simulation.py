"""Simulated games for the Python API: `simulate(board)`, reproducible from a seed, beside the exact values."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from chutes.compute.board.model import Board
from chutes.compute.numbers import decimal_string
from chutes.compute.solve.simulate import Estimate, simulate_summary

from .exact import Exact
from .results import solve

MAX_SEED = 2**64 - 1


@dataclass(frozen=True)
class Simulation:
    """Two-player games simulated on a board (so twice as many one-player games): the average game length and
    the first player's share of wins, each with its 95% interval, beside the exact values they estimate.

    >>> import chutes
    >>> games = chutes.simulate(chutes.Board.load("tiny"), games=100_000, seed=1)
    >>> games.mean_turns.contains(float(games.exact_mean_turns)), games.shortest_seen
    (True, 2)
    """

    board: Board = field(repr=False)
    games: int
    seed: int
    mean_turns: Estimate
    first_player_wins: Estimate
    shortest_seen: int
    longest_seen: int
    exact_mean_turns: Exact = field(repr=False)
    exact_first_player_wins: Exact = field(repr=False)
    seconds: float = field(repr=False, compare=False)
    """How long the games took to play."""

    def to_json(self) -> dict[str, Any]:
        """The games as `chutes simulate BOARD --json` prints them."""
        one, two = self.mean_turns, self.first_player_wins
        return {
            "board": self.board.slug or self.board.title, "games": self.games, "seed": self.seed,
            "mean_turns": {"estimate": one.value, "ci95": [one.low, one.high],
                           "exact": decimal_string(self.exact_mean_turns, 20),
                           "inside_ci": one.contains(float(self.exact_mean_turns))},
            "first_player_wins": {"estimate": two.value, "ci95": [two.low, two.high],
                                  "exact": decimal_string(self.exact_first_player_wins, 20),
                                  "inside_ci": two.contains(float(self.exact_first_player_wins))},
            "shortest_seen": self.shortest_seen, "longest_seen": self.longest_seen,
        }


def simulate(board: Board, games: int = 1_000_000, seed: int = 0) -> Simulation:
    """Simulate `games` two-player games on `board` (with a choice, both playing best): the same seed gives the
    same games on any machine, with any number of threads. The game loop is compiled when first used (some
    seconds, once per machine)."""
    if not 1 <= games <= 10**9:
        raise ValueError(f"the number of games is 1 to 1,000,000,000, got {games}")
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"a seed is a whole number from 0 to 2**64 - 1, got {seed}")
    result = solve(board)  # refuses a board too long to solve, before any game is played
    started = time.perf_counter()
    summary = simulate_summary(result.played, games, seed)  # a board with a choice: its best play
    seconds = time.perf_counter() - started
    return Simulation(board, games, seed, summary.mean_turns, summary.first_player, summary.shortest,
                      summary.longest, result.expected_turns, result.first_player_wins, seconds)
