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
from dataclasses import dataclass

from .model import Board, BoardError
from .reach import reachable_squares, roll_squares

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
SECONDS_PER_CHOICE_STATE_CUBED = 4e-9
"""A board with a choice: its best play (a float value iteration and an exact solve over the squares), per d³..."""
SECONDS_PER_DUEL_STATE_CUBED = 2e-6
"""...and its two two-player games (compute.solve.duel), per d³: the Stein preconditioner's products of d × d
matrices dominate (both games together, measured with the machine shared: 0.7 s at d = 80, 4.8 s at d = 180,
32 s at d = 280, 106 s at d = 380, random boards; benchmarks/choice.py). Under a roll-again limit, per m·d² (m the
states of a turn, `turn_states`; m = d without a limit): the exact values over the 2·m·d states dominate, more
rounds as they grow (measured: 6.4 s at d = 80, m = 773 and 85 s at d = 180, m = 1,690, random boards with the
coin and the family rules' limit of 2; benchmarks/choice.py --family)."""
EXACT_TURNS = 700
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


@dataclass(frozen=True)
class _Turns:
    """One turn among the roll squares in floats, kept as its rolls (roll-again folded in as if without a
    limit: a limit shortens turns, so the estimate errs long). Q = (I − B)⁻¹A: A holds the rolls that end the
    turn (`ends`: row i's (column, chance); the last square left out), B the rolls of `roll_again_on`, at most one
    per square (`again`: the square it moves to, None where there is none or it wins), each of chance
    `again_chance`. B's squares off its cycles in an order where each comes before the one it moves to
    (`order`), then its cycles (a roll-again move that cycles never leaves its cycle)."""

    start: int
    ends: list[list[tuple[int, float]]]
    again: list[int | None]
    again_chance: float
    order: list[int]
    cycles: list[list[int]]

    @property
    def size(self) -> int:
        return len(self.ends)

    def step(self, u: list[float]) -> list[float]:
        """u·Q for a row vector u: v = u(I − B)⁻¹ along the roll-again moves (a geometric series around each
        cycle), then v·A."""
        b, again = self.again_chance, self.again
        v = list(u)
        for i in self.order:
            j = again[i]
            if j is not None and v[i]:
                v[j] += b * v[i]
        for cycle in self.cycles:  # V_c(j) = x_j + b·V_c(j−1) all around
            n = len(cycle)
            first = sum(b**m * v[cycle[-m]] for m in range(n)) / (1 - b**n)
            v[cycle[0]] = first
            for k in range(1, n):
                v[cycle[k]] += b * v[cycle[k - 1]]
        out = [0.0] * self.size
        for i, vi in enumerate(v):
            if vi:
                for j, chance in self.ends[i]:
                    out[j] += vi * chance
        return out

    def nonzeros(self) -> int:
        """Nonzero entries of Q: row i reaches what A reaches from i and from every square B leads i to."""
        reach = [sum(1 << j for j, _ in row) for row in self.ends]
        for cycle in self.cycles:
            shared = 0
            for i in cycle:
                shared |= reach[i]
            for i in cycle:
                reach[i] = shared
        for i in reversed(self.order):
            j = self.again[i]
            if j is not None:
                reach[i] |= reach[j]
        return sum(r.bit_count() for r in reach)


def _turns(board: Board) -> _Turns:
    """A board's `_Turns`."""
    squares = roll_squares(board)
    index = {q: i for i, q in enumerate(squares)}
    last, total = board.squares, board.roll_weight
    ends: list[list[tuple[int, float]]] = []
    again: list[int | None] = []
    chance = 0.0
    for q in squares:
        row: dict[int, float] = {}
        target = None
        for roll, weight, _, nxt in board.outcomes(q):  # a roll-again that flips: its heads' move stands for it
            if roll == board.roll_again_on:
                chance = weight / total
                target = None if nxt == last else index[nxt]
            elif nxt != last:
                row[index[nxt]] = row.get(index[nxt], 0.0) + weight / total
        ends.append(sorted(row.items()))
        again.append(target)
    waiting = [0] * len(squares)  # Kahn's order over the roll-again moves: what remains lies on cycles
    for j in again:
        if j is not None:
            waiting[j] += 1
    order = [i for i, w in enumerate(waiting) if w == 0]
    for i in order:
        j = again[i]
        if j is not None:
            waiting[j] -= 1
            if waiting[j] == 0:
                order.append(j)
    cycles, placed = [], set(order)
    for i in range(len(squares)):
        if i not in placed:
            cycle = [i]
            placed.add(i)
            while (j := again[cycle[-1]]) != i:
                assert j is not None, "a square left by Kahn's order lies on a cycle"
                cycle.append(j)
                placed.add(j)
            cycles.append(cycle)
    return _Turns(index[board.start], ends, again, chance, order, cycles)


WALK_TURNS, WINDOW = 2000, 60
"""`ending_rate` follows at most WALK_TURNS turns and averages the rate over the last WINDOW (every period up
to 6, and 10, 12, 15, 20, 30 and 60, divides it: a chain that cycles with such a period averages out exactly)."""
SETTLED, SETTLED_TURNS = 1e-6, 10
"""`ending_rate` stops once half the games are over and the rate ρ has changed by less than SETTLED·(1 − ρ) from
turn to turn SETTLED_TURNS times in a row (the estimated numbers of turns go like 1/log ρ ≈ −1/(1 − ρ))."""


def ending_rate(turns: _Turns) -> float:
    """ρ, the rate at which games from the start go on: the spectral radius of the start's part of Q (the
    slowest way a game can go on decays like ρᵏ), from P(T > k) followed in floats turn by turn.

    For large k, P(T > k) ≈ C·kᵐ·ρᵏ, with m + 1 the size of ρ's largest Jordan block (m > 0 when ρ is repeated,
    as when entering the board and finishing need the same rare roll). With L(k) = log P(T > k) and w the window,
    L(k) − L(k − w) = m·log(k / (k − w)) + w·log ρ; two consecutive windows give m (rounded to a whole number,
    at least 0), then ρ. Followed until the rate settles (after some hundred turns where the next eigenvalue
    is close); 0 if every game is over first. Where it has not settled after WALK_TURNS turns (games of
    thousands of turns), ρ is taken from the eigenvalues of the start's part of Q (`_radius`)."""
    u = [0.0] * turns.size
    u[turns.start] = 1.0
    logs = [0.0]  # L(k) for k = 0, 1, …
    rate, settled = math.nan, 0
    for k in range(1, WALK_TURNS + 1):
        u = turns.step(u)
        alive = sum(u)
        if alive == 0:
            return 0.0
        logs.append(logs[-1] + math.log(alive))
        w, bent = max(1, min(k // 2, WINDOW)), 0.0
        if k > 2 * w:
            near, far = math.log(k / (k - w)), math.log((k - w) / (k - 2 * w))
            bent = max(0, round((logs[k] - 2 * logs[k - w] + logs[k - 2 * w]) / (near - far))) * near
        previous, rate = rate, math.exp((logs[k] - logs[k - w] - bent) / w)
        settled = settled + 1 if abs(rate - previous) < SETTLED * (1 - rate) else 0
        if logs[k] < -math.log(2) and settled >= SETTLED_TURNS:
            return rate
        u = [x / alive for x in u]
    return _radius(turns)


def _radius(turns: _Turns) -> float:
    """The spectral radius of Q among the states reachable from the start, by numpy's eigenvalues (Q's rows
    from `_Turns.step`)."""
    import numpy as np  # only for games of thousands of turns: numpy takes longer to import than a quick solve

    rows = [turns.step([float(i == j) for j in range(turns.size)]) for i in range(turns.size)]
    reached, todo = {turns.start}, [turns.start]
    while todo:
        for j, x in enumerate(rows[todo.pop()]):
            if x and j not in reached:
                reached.add(j)
                todo.append(j)
    part = sorted(reached)
    return float(max(abs(np.linalg.eigvals(np.array([[rows[i][j] for j in part] for i in part])))))


def turn_states(board: Board) -> int:
    """Under a roll-again limit L, the states (square, rolls so far, square where the turn began) that turns begun
    on every roll square reach by any choice: the levels of `roll_again_on` rolls, each moved as rolled or, with a
    choice, flipped (at least the best play's and the two-player games' states: compute.solve.limited)."""
    limit, again, last = board.roll_again_limit, board.roll_again_on, board.squares
    assert limit is not None and again is not None, "a roll-again limit needs roll_again_on"
    ways = [board.played(())]
    if board.choice is not None:
        ways.append(board.played([(q, r) for q in roll_squares(board) for r, _ in board.rolls]))
    count = 0
    for origin in roll_squares(board):
        level = {origin}
        for k in range(limit + 1):
            count += len(level)
            level = {moved for here in level for way in ways for roll, _, _, moved in way.outcomes_at(here, k, origin)
                     if roll == again and moved != last} if k < limit else set()
    return count


def estimated_seconds(board: Board) -> tuple[float, str]:
    """Estimated time of `chutes solve` on this board (`compute.record.results.solve`, one process, the reference
    machine) in seconds, and the stage that dominates it, as words ("the exact two-player sum (… primes at
    degree d)" or "the exact game-length distribution (about … terms)")."""
    turns = _turns(board)
    d = turns.size
    bits = scale_bits(board)
    k = min(d, len(reachable_squares(board)))  # the minimal polynomial's degree is at most the states reachable
    primes = (k * (k + 1) * bits + (k + 1) * k / (2 * math.log(2)) + 64) / 62
    two_player = primes * SECONDS_PER_PRIME_AT_320 * (k / 320) ** PRIME_COST_EXPONENT
    rho = ending_rate(turns) if d else 0.0
    tail = MAX_TERMS if rho >= 1 else (EXACT_TAIL_LOG / math.log(rho) if rho > 0 else 1)
    decide = MAX_TERMS if rho >= 1 else (DECIDE_MARGIN * DECIDED_TAIL_LOG / math.log(rho) if rho > 0 else 1)
    wide = EXACT_BITS / bits if bits else math.inf  # a one-sided fair die (s = 1): the terms never grow
    terms = min(max(min(EXACT_TURNS, tail, wide), decide), MAX_TERMS)
    nonzeros = turns.nonzeros()
    if DENSE * nonzeros > d * d:
        exact = d * d * terms * (SECONDS_PER_ENTRY_TERM + SECONDS_PER_TERM_BIT_SQUARED * terms * bits * bits / 2)
    else:
        exact = nonzeros * terms * (SECONDS_PER_NONZERO_TERM + SECONDS_PER_TERM_BIT * terms * bits / 2)
    distribution = exact
    choice, states = 0.0, d
    if board.choice is not None:  # the best play's chain is estimated as the box rules' (the same squares)
        choice = SECONDS_PER_CHOICE_STATE_CUBED * d**3
        if board.roll_again_limit is not None:  # the play by the rolls so far: up to (L+1)² states a square
            choice *= (board.roll_again_limit + 1) ** 2
            states = turn_states(board)
        choice += SECONDS_PER_DUEL_STATE_CUBED * states * d**2  # the two-player games
    total = two_player + distribution + choice
    if choice >= max(two_player, distribution):
        inside = f", {states:,} states of a turn" if board.roll_again_limit is not None else ""
        return total, f"the best play and its two-player games ({d} squares{inside})"
    if two_player >= distribution:
        return total, f"the exact two-player sum ({primes:,.0f} primes at degree {k})"
    return total, f"the exact game-length distribution (about {terms:,.0f} terms)"


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
