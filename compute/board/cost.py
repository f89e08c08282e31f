"""How long solving a board will take, estimated from the board alone, so that hopeless boards are refused at once.

Two stages dominate. The exact two-player sum needs about m(m+1)·log2(s) bits of primes (m ≤ d states,
s the chain's common scale), each prime costing one polynomial inverse of degree m. The exact game-length
distribution keeps K terms whose numerators grow by log2(s) bits a turn: 500 turns (fewer if the tail falls
below 10⁻³⁰ or sᵏ passes 40,000 bits first), and at least until the 97.5th percentile, K set by how slowly
games end (the spectral radius ρ of the turn matrix: the tail falls like ρᵏ); floats continue to a tail of
10⁻³⁰ (compute.solve.exact.distribution). With a roll-again rule s can be huge:
a turn may hold any number of rolls, and a chain of repeated rolls that cycles (bouncing at the end, say)
contributes a factor dieᶜ − 1. All of this is known from the board in milliseconds, before any exact work.
The constants were measured on the 2-core reference machine (see benchmarks/).
"""

from __future__ import annotations

import math

import numpy as np

from .model import Board, BoardError
from .reach import roll_squares

BUDGET_SECONDS = 120.0
"""The most `chutes solve` may be expected to take; a board estimated above it is refused before any work."""
SECONDS_PER_PRIME_AT_320 = 4e-4
"""One residue of the half-degree two-player sum at degree 320, in one process (it grows like degree^1.6:
measured 3.1e-4 s at d = 320 and 1.3e-3 s at d = 800, random boards)."""
PRIME_COST_EXPONENT = 1.6
SECONDS_PER_NONZERO_TERM = 1e-7
"""The exact distribution, sparse turn matrix (a Python loop over its nonzeros): per nonzero, per term..."""
SECONDS_PER_TERM_BIT = 6e-11
"""...plus per nonzero, per term, per bit of the term's numerator."""
SECONDS_PER_ENTRY_TERM = 5e-9
"""Dense turn matrix (python-flint's product; roll-again boards): per entry of the d×d matrix, per term...
"""
SECONDS_PER_TERM_BIT_SQUARED = 7e-14
"""...plus per entry, per term, per bit of the term's numerator times bits of the scale (the entries' size)."""
DENSE = 16
"""The exact walk counts the turn matrix as dense when more than one entry in DENSE is nonzero (compute.solve.exact)."""
SECONDS_PER_FLOAT_STEP = 5e-6
SECONDS_PER_FLOAT_NONZERO = 1e-9
"""The float tail: per term, and per nonzero per term."""
EXACT_TURNS = 500
DECIDED_TAIL_LOG = math.log(1 / 40)
"""The 97.5th percentile lies about log(1/40)/log ρ turns in; taken DECIDE_MARGIN times, for the mode and the
turns before the tail settles into ρᵏ."""
DECIDE_MARGIN = 1.5
EXACT_TAIL_LOG = math.log(1e-30)
EXACT_BITS = 40_000
MAX_TERMS = 100_000


def scale_bits(board: Board) -> float:
    """An upper bound on log2 of the turn chain's common scale s (Q = M / s exactly).

    With W the weight of one roll (`Board.roll_weight`; W = die for one fair die): without roll-again, s = W;
    with a roll-again limit L, s divides W^(L+1). Without a limit, a turn from square q is the roll-again
    path q → n₁ → n₂ → … (rolling `roll_again_on` each time) until a roll ends the turn: the path's k-th step
    weighs W^-(k+1), and a path that enters a cycle of length c sums a geometric series, adding the factor
    Wᶜ − 1.
    """
    die = board.roll_weight
    if board.roll_again_on is None:
        return math.log2(die)
    if board.roll_again_limit is not None:
        return (board.roll_again_limit + 1) * math.log2(die)
    again, last = board.roll_again_on, board.squares
    denominator = 1
    for square in roll_squares(board):
        seen: dict[int, int] = {}
        here, steps = square, 0
        while here != last and here not in seen:
            seen[here] = steps
            here = board.move(here, again)
            steps += 1
        row = die ** (steps + 1)
        if here != last:
            row *= die ** (steps - seen[here]) - 1
        denominator = math.lcm(denominator, row)
    return denominator.bit_length()


def _turn_matrix_float(board: Board) -> np.ndarray:
    """The turn matrix among the roll squares in floats (roll-again folded in, as if without a limit: a
    limit shortens turns, so the estimate errs long), for the spectral radius."""
    squares = roll_squares(board)
    index = {q: i for i, q in enumerate(squares)}
    d = len(squares)
    A = np.zeros((d, d))
    B = np.zeros((d, d))
    for i, q in enumerate(squares):
        for roll, weight in board.rolls:
            nxt = board.move(q, roll)
            if nxt != board.squares:
                (B if roll == board.roll_again_on else A)[i, index[nxt]] += weight / board.roll_weight
    return np.linalg.solve(np.eye(d) - B, A) if board.roll_again_on is not None else A


def estimated_seconds(board: Board) -> tuple[float, str]:
    """Estimated time of `chutes solve` on this board (`compute.record.results.solve`, one process, the reference
    machine) in seconds, and the stage that dominates it, as words ("the exact two-player sum (… primes at
    degree d)" or "the exact game-length distribution (about … terms)")."""
    Q = _turn_matrix_float(board)
    d = len(Q)
    bits = scale_bits(board)
    primes = (d * (d + 1) * bits + (d + 1) * d / (2 * math.log(2)) + 64) / 62
    two_player = primes * SECONDS_PER_PRIME_AT_320 * (d / 320) ** PRIME_COST_EXPONENT
    rho = float(max(abs(np.linalg.eigvals(Q)))) if d else 0.0
    tail = MAX_TERMS if rho >= 1 else (EXACT_TAIL_LOG / math.log(rho) if rho > 0 else 1)
    decide = MAX_TERMS if rho >= 1 else (DECIDE_MARGIN * DECIDED_TAIL_LOG / math.log(rho) if rho > 0 else 1)
    wide = EXACT_BITS / bits if bits else math.inf  # a one-sided fair die (s = 1): the terms never grow
    terms = min(max(min(EXACT_TURNS, tail, wide), decide), MAX_TERMS)
    nonzeros = int(np.count_nonzero(Q))
    if DENSE * nonzeros > d * d:
        exact = d * d * terms * (SECONDS_PER_ENTRY_TERM + SECONDS_PER_TERM_BIT_SQUARED * terms * bits * bits / 2)
    else:
        exact = nonzeros * terms * (SECONDS_PER_NONZERO_TERM + SECONDS_PER_TERM_BIT * terms * bits / 2)
    floats = max(0.0, min(tail, MAX_TERMS) - terms) * (SECONDS_PER_FLOAT_STEP + SECONDS_PER_FLOAT_NONZERO * nonzeros)
    distribution = exact + floats
    if two_player >= distribution:
        return two_player + distribution, f"the exact two-player sum ({primes:,.0f} primes at degree {d})"
    return two_player + distribution, f"the exact game-length distribution (about {terms:,.0f} terms)"


def check_cost(board: Board, name: str, budget: float = BUDGET_SECONDS) -> tuple[float, str]:
    """Raise BoardError, in one line and before any exact work, if the board would take longer than `budget`;
    otherwise return the estimate (`estimated_seconds`: seconds, and the stage that dominates)."""
    seconds, stage = estimated_seconds(board)
    if seconds > budget:
        raise BoardError(f"{name}: solving this board would take about {_duration(seconds)} (limit "
                         f"{budget:.0f} s), mostly {stage}; use fewer squares, a smaller die"
                         f"{' or no roll_again_on' if board.roll_again_on is not None else ''}")
    return seconds, stage


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} minutes"
    return f"{seconds / 3600:,.0f} hours"
