"""Two players when the rules give a choice, each choice allowed to depend on where the other player is:
certified to CERTIFIED_DIGITS decimals.

A state is (who moves, the mover's state i, the other's square j); U is the first player's (A's) chance of
winning from it. Without a roll-again limit the mover's state is a square; under a limit it is where the mover is
within the turn (square, rolls so far, square where the turn began: `compute.solve.limited`), the other waiting on
the square where their next turn begins, so that a choice may depend on all four. A roll r with choice a leads by
each outcome to a win of the mover, another roll of the mover (the turn's next state), the other's turn (on the
square where the mover's turn ended, a penalty included), or a state from which the mover can never finish (a
loss: the other, playing for it, finishes). Two games are solved:
- `best_against_box`: A maximises U, B never flips (the box rules): a Markov decision process;
- `both_maximise`: A maximises U, B minimises it (B maximises their own chance: the game ends, see below): a
  turn-based zero-sum stochastic game.
Only the states a game from both on the start reaches by some choice are solved: the others, to which none of
those leads, are held at 0 (no moves, no win), so that a play that cannot end from a state no game reaches
leaves the certificate alone.
Hoffman–Karp strategy iteration: B's play is improved until it is a best reply to A's, then A's, and again,
each change a gain above 10^-MARGIN_DIGITS (a roll's weight each) in values whose error is far below it (so the
values only rise, no play returns, and the rounds end); the first plays come from Newton steps in floats, from the
one-player best play. A pair of plays is valued to many digits by iterative refinement: exact residuals (integers
over 2^SCALE_BITS, in 30-bit limbs, vectorised), each correction a float solve of the same equations. That solve
takes preconditioned Richardson steps (GMRES where they stall); the preconditioner is the exact solve of the plays
made alike against every square of the other, a Stein equation Y − N₀YN₁ᵀ = C in n × n matrices over the squares
where turns begin (N the turn kernels; under a limit each turn's rolls are summed first, a nilpotent series, and
the states inside turns follow from Y), summed by Smith's doubling in O(n³) — where a sparse LU of the 2n² states
grows far faster (1 s at n = 81 already).

The certificate does not depend on how the values were found: for any values Û and plays σ̂ (A), τ̂ (B),
U* ≥ Û − v_σ̂·max(Û − T_σ̂ Û)⁺ and U* ≤ Û + v_τ̂·max(T_τ̂ Û − Û)⁺, where T_σ̂ is one roll with A playing σ̂ and
B at their best (T_τ̂ likewise), both computed exactly, and v an integer vector with v ≥ 1 + P·v under every
reply of the other side, checked exactly (it bounds the rolls left, so each bound holds from every state: the
game ends whatever the other does). Then A's chance is that of the zero-sum game, and as every game ends, B
maximising their own chance is B minimising A's. The decimals published are those both ends of the certified
interval round to: the same digits on any machine.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from . import limited
from .limited import TurnOptions
from .strategy import Options

CERTIFIED_DIGITS = 30
GUARD_DIGITS = 10
"""The certified interval is driven below 10^-(CERTIFIED_DIGITS + GUARD_DIGITS), so that it almost never
straddles a rounding boundary of the last decimal (`_certified` refuses one that does)."""
MARGIN_DIGITS = CERTIFIED_DIGITS + GUARD_DIGITS + 5
"""A play changes where the other choice is better by more than 10^-MARGIN_DIGITS (a roll's weight each)."""
RESIDUAL_DIGITS = MARGIN_DIGITS + 5
"""A pair of plays is valued until its equations' exact residual is below 10^-RESIDUAL_DIGITS."""
LIMB_BITS = 30
LIMBS = 13
SCALE_BITS = 330
"""Values are integers over 2^SCALE_BITS, held in LIMBS signed limbs of LIMB_BITS bits (1 is limb 11)."""
MAX_ROUNDS = 60
"""Valuations of a pair of plays (strategy iteration's rounds), at most."""
NEWTON_ROUNDS = 12
"""Newton steps in floats for the first plays (and policy iteration for the rolls left), at most."""
REFINEMENTS = 12
"""Exact residuals and float corrections of one pair of plays' values, at most."""
RICHARDSON_STEPS = 100
"""Preconditioned Richardson steps of one float solve, at most (each gains about a decimal; GMRES if they stall)."""
STEIN_SQUARINGS = 60
"""Squarings of the turn kernels in Smith's doubling, at most (2^60 turns: only a play that never ends needs more)."""


@dataclass(frozen=True)
class _Rolls:
    """A board's rolls from each of the mover's states, flattened (the rows of each state together, states in
    order): row k is the state index, the stay outcomes and the flip outcomes, each (weight, kind, index) with
    kind 0 a win, 1 another roll (index: the mover's next state), 2 the other's turn (index: the square the turn
    ended on), 3 a state from which the mover can never finish (a loss), padded to two outcomes of weight 0."""

    square: np.ndarray
    options: np.ndarray  # K × 2 (stay, flip) × 2 outcomes × 3 integers
    can_flip: np.ndarray
    total: int
    n: int
    """Squares where a turn can begin (the other's squares)."""
    states: int
    """The mover's states: the n squares without a roll-again limit, the states of a turn under one."""
    begin: np.ndarray
    """The mover's state at the first roll of a turn begun on each square."""
    limited: bool
    """Whether a roll-again limit bounds the rolls of a turn (the rolls again then never return to a state)."""
    first: np.ndarray
    """The first row of each state."""


def _rolls(opts: Options | TurnOptions) -> _Rolls:
    index = {q: i for i, q in enumerate(opts.squares)}
    if isinstance(opts, TurnOptions):
        order = {state: i for i, state in enumerate(opts.rolls)}
        begin = [order[(q, 0, q)] for q in opts.squares]

        def code(nxt: limited.State | None) -> tuple[int, int]:
            if nxt is None:
                return 0, 0
            if nxt[1] == 0:
                return (2, index[nxt[0]]) if nxt[0] in index else (3, 0)
            return (1, order[nxt]) if nxt in order else (3, 0)

        rows = [(order[state], [[(w, *code(nxt)) for w, nxt in option] if option is not None else None
                                for option in (stay, flip)])
                for state, rolls in opts.rolls.items() for _, stay, flip in rolls]
    else:
        last = opts.board.squares
        begin = list(range(len(index)))

        def coded(nxt: int, goes_on: bool) -> tuple[int, int]:
            if nxt == last:
                return 0, 0
            return (1 if goes_on else 2, index[nxt]) if nxt in index else (3, 0)

        rows = [(index[q], [[(w, *coded(nxt, goes_on)) for w, nxt, goes_on in option] if option is not None else None
                            for option in (moved, flipped)])
                for q in opts.squares for _, moved, flipped in opts.rolls[q]]
    square = np.array([state for state, _ in rows])
    options = [[(option or []) + [(0, 0, 0)] * (2 - len(option or [])) for option in pair] for _, pair in rows]
    states = len(opts.rolls)
    return _Rolls(square, np.array(options, dtype=np.int64), np.array([pair[1] is not None for _, pair in rows]),
                  opts.board.roll_weight, len(index), states, np.array(begin), isinstance(opts, TurnOptions),
                  np.searchsorted(square, np.arange(states)))


# --- exact values in limbs ------------------------------------------------------------------------------------

_HALF, _MASK = 1 << (LIMB_BITS - 1), (1 << LIMB_BITS) - 1
_ONE_LIMB = SCALE_BITS // LIMB_BITS


def _normal(X: np.ndarray) -> np.ndarray:
    """Limbs (LIMBS × …) carried so that every limb but the top one lies in [−2^29, 2^29): the same integers."""
    X = X.copy()
    for k in range(LIMBS - 1):
        carry = (X[k] + _HALF) >> LIMB_BITS
        X[k] -= carry << LIMB_BITS
        X[k + 1] += carry
    return X


def _signs(X: np.ndarray) -> np.ndarray:
    """The sign of each integer of normalised limbs (that of its highest nonzero limb)."""
    sign = np.zeros(X.shape[1:], dtype=np.int64)
    for k in range(LIMBS - 1, -1, -1):
        sign = np.where(sign == 0, np.sign(X[k]), sign)
    return sign


def _bound(X: np.ndarray) -> int:
    """An integer ≥ every |x| of normalised limbs: (the largest |top limb| + 1)·2^(30h), h the highest limb used."""
    for k in range(LIMBS - 1, -1, -1):
        if X[k].any():
            return (int(np.abs(X[k]).max()) + 1) << (LIMB_BITS * k)
    return 0


def _as_limbs(x: int, shape: tuple[int, ...]) -> np.ndarray:
    """A nonnegative integer x as normalised limbs, repeated over `shape`."""
    X = np.zeros((LIMBS, *shape), dtype=np.int64)
    for k in range(LIMBS):
        X[k] = (x >> (LIMB_BITS * k)) & _MASK
    return _normal(X)


def _floats(X: np.ndarray) -> np.ndarray:
    """Normalised limbs as floats over 2^SCALE_BITS (the top limbs dominate; for the float corrections)."""
    out = np.zeros(X.shape[1:])
    for k in range(LIMBS - 1, -1, -1):
        out += np.ldexp(X[k].astype(float), LIMB_BITS * k - SCALE_BITS)
    return out


def _add_float(X: np.ndarray, d: np.ndarray) -> np.ndarray:
    """X + d·2^SCALE_BITS, d rounded to 62 bits of its largest entry (a correction: its own error is refined)."""
    big = float(np.abs(d).max())
    if big == 0:
        return X
    q = min(SCALE_BITS, 62 - int(np.frexp(big)[1]))
    D = np.rint(np.ldexp(d, q)).astype(np.int64)
    base, sub = divmod(SCALE_BITS - q, LIMB_BITS)
    X = X.copy()
    for m in range(LIMBS - base):
        chunk = ((D + _HALF) & _MASK) - _HALF
        D = (D - chunk) >> LIMB_BITS
        X[base + m] += chunk << sub
        if not D.any():
            break
    return _normal(X)


# --- the equations of a pair of plays -----------------------------------------------------------------------

_Chosen = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""One mover's chosen outcomes against every square of the other, each K × n: the two outcomes' weights (0 for a
win) and the states they lead to (weight, state, weight, state), and A's winning weight."""


def _moved(chosen: _Chosen, x: np.ndarray) -> np.ndarray:
    """Σ weight·x(next) over a mover's two outcomes at every row and j (K × n)."""
    return chosen[0] * x[chosen[1]] + chosen[2] * x[chosen[3]]


class _Game:
    """One game: the rolls, and who chooses (A maximises; B minimises or never flips). States p·m·n + i·n + j
    (m the mover's states, n the squares where a turn begins), p = 0 when A moves (A in state i, B on j), 1 when
    B moves (B in state i, A on j)."""

    def __init__(self, opts: Options | TurnOptions, b_chooses: bool) -> None:
        r = self.r = _rolls(opts)
        self.b_chooses = b_chooses
        self.choosers = (0, 1) if b_chooses else (0,)
        n, m = self.n, self.m = r.n, r.states
        self.half = m * n
        self.size = 2 * m * n
        self.start = opts.squares.index(opts.board.start)
        self.one = _as_limbs(1 << SCALE_BITS, ())
        self._stein_cache: dict[bytes, Any] = {}
        counts = np.diff(np.append(r.first, len(r.square)))
        self.per_square = int(counts[0]) if (counts == counts[0]).all() else 0
        K, j = len(r.square), np.arange(n)[None, :, None]
        self.options: dict[tuple[int, int], _Chosen] = {}
        for p in range(2):
            for o in range(2):
                w, kind, to = (r.options[:, None, o, :, x] for x in range(3))  # K × 1 × 2
                state = np.where(kind == 1, p * m * n + to * n + j, (1 - p) * m * n + r.begin[j] * n + to)
                ends = (kind == 0) | (kind == 3)
                moves = np.broadcast_to(np.where(ends, 0, w), (K, n, 2))
                state = np.where(ends, 0, state)
                win = np.where(kind == (0 if p == 0 else 3), w, 0).sum(axis=2)  # A wins, or B never can
                self.options[(p, o)] = tuple(np.ascontiguousarray(x) for x in (  # type: ignore[assignment]
                    moves[..., 0], state[..., 0], moves[..., 1], state[..., 1], np.broadcast_to(win, (K, n))))
        self.starts = np.array([p * self.half + int(r.begin[self.start]) * n + self.start for p in range(2)])
        followed = [[self.options[(0, 0)], self.options[(0, 1)]],
                    [self.options[(1, 0)], self.options[(1, 1)]] if b_chooses else [self.options[(1, 0)]]]
        self.live = self.reach(followed)
        for (p, o), c in self.options.items():  # a state no play reaches is held at 0: no moves, no win
            keep = self.rows_of(self.live, p)
            self.options[(p, o)] = (c[0] * keep, c[1], c[2] * keep, c[3], c[4] * keep)

    def rows_of(self, states: np.ndarray, p: int) -> np.ndarray:
        """Mover p's part of a vector over the states as K × n: the value at each row's state against each j."""
        return states[p * self.half:(p + 1) * self.half].reshape(self.m, self.n)[self.r.square]

    def reach(self, followed: list[list[_Chosen]]) -> np.ndarray:
        """The states a game from both players on the start reaches, either moving first, each mover p following
        the outcomes of weight > 0 of every choice in followed[p] (a breadth-first search, each state once)."""
        n, half, r = self.n, self.half, self.r
        counts = np.diff(np.append(r.first, len(r.square)))
        seen = np.zeros(self.size, dtype=bool)
        seen[self.starts] = True
        frontier = self.starts
        while frontier.size:
            found = []
            for p in range(2):
                mine = frontier[frontier // half == p] - p * half
                each = counts[mine // n]  # the rows of each state's roll
                j = np.repeat(mine % n, each)
                rows = np.repeat(r.first[mine // n] - (np.cumsum(each) - each), each) + np.arange(len(j))
                for c in followed[p]:
                    for w, to in (c[:2], c[2:4]):
                        found.append(to[rows, j][w[rows, j] > 0])
            new = np.unique(np.concatenate(found)) if found else np.zeros(0, dtype=np.int64)
            frontier = new[~seen[new]]
            seen[frontier] = True
        return seen

    def chosen(self, p: int, play: np.ndarray) -> _Chosen:
        """Mover p's outcomes under `play` (K × n booleans: flip)."""
        stay, flip = self.options[(p, 0)], self.options[(p, 1)]
        return tuple(np.where(play, b, a) for a, b in zip(stay, flip))  # type: ignore[return-value]

    def _by_square(self, rows: np.ndarray) -> np.ndarray:
        """Per-row sums (K × n) added up per state of the mover, in a fixed order: the m·n states of one mover."""
        if self.per_square:  # every state has as many rows
            return rows.reshape(self.m, self.per_square, self.n).sum(axis=1).ravel()
        return np.add.reduceat(rows, self.r.first, axis=0).ravel()

    def apply(self, chosen: list[_Chosen], x: np.ndarray) -> np.ndarray:
        """L·x: Σ weight·x(next) over the moves of each state (floats or integers)."""
        return np.concatenate([self._by_square(_moved(c, x)) for c in chosen])

    def constant(self, chosen: list[_Chosen]) -> np.ndarray:
        """A's winning weight per state."""
        return np.concatenate([self._by_square(c[4]) for c in chosen])

    def exact(self, chosen: list[_Chosen], X: np.ndarray) -> np.ndarray:
        """W·(one roll of X) under the outcomes chosen, exactly: L·X + c·2^SCALE_BITS, normalised limbs."""
        out = np.stack([self.apply(chosen, X[k]) for k in range(LIMBS)])
        return _normal(out + self.constant(chosen)[None, :] * self.one[:, None])

    def option_values(self, p: int, x: np.ndarray) -> list[np.ndarray]:
        """Each option's Σ weight·value for mover p at every row and j (K × n), values x (floats or integers),
        without A's winning weight."""
        return [_moved(self.options[(p, o)], x) for o in (0, 1)]

    def exact_gains(self, X: np.ndarray, p: int) -> np.ndarray:
        """Flipping's gain over moving for mover p at every row and j, exactly (normalised limbs, LIMBS × K × n)."""
        out = np.stack([np.subtract(*self.option_values(p, X[k])[::-1]) for k in range(LIMBS)])
        win = self.options[(p, 1)][4] - self.options[(p, 0)][4]
        return _normal(out + win[None] * self.one[:, None, None])

    # --- float solves ---------------------------------------------------------------------------------------

    def solver(self, plays: list[np.ndarray], chosen: list[_Chosen]):
        """x ↦ (W·I − L)⁻¹x in floats to a relative residual `rtol`: preconditioned Richardson steps, the
        preconditioner the Stein solve of the plays made alike against every square of the other (each row's
        choice that of most of them); GMRES with the same preconditioner where the steps stall."""
        n, W = self.n, float(self.r.total)
        bases = [p.sum(axis=1) * 2 > n for p in plays]
        key = b"".join(b.tobytes() for b in bases)
        if key not in self._stein_cache:
            self._stein_cache[key] = self._stein(bases)
        precondition = self._stein_cache[key]

        def operator(x: np.ndarray) -> np.ndarray:
            return W * x - self.apply(chosen, x)

        def solve(b: np.ndarray, rtol: float, x: np.ndarray | None = None) -> np.ndarray:
            scale = float(np.abs(b).max())
            if scale == 0:
                return np.zeros_like(b, dtype=float)
            b = b / scale
            x = precondition(b) if x is None else x / scale
            previous = np.inf
            for _ in range(RICHARDSON_STEPS):
                residual = b - operator(x)
                size = float(np.abs(residual).max())
                if size <= rtol:
                    return x * scale
                if not size < 0.7 * previous:
                    break
                previous = size
                x = x + precondition(residual)
            return self._gmres(operator, precondition, b, x, rtol) * scale

        return solve

    def _gmres(self, operator: Any, precondition: Any, b: np.ndarray, x: np.ndarray, rtol: float) -> np.ndarray:
        from scipy.sparse.linalg import LinearOperator, gmres

        shape = (self.size, self.size)
        x, info = gmres(LinearOperator(shape, matvec=operator, dtype=float), b, x0=x, rtol=rtol, atol=0.0,
                        restart=60, maxiter=20, M=LinearOperator(shape, matvec=precondition, dtype=float))
        if info != 0 or not np.isfinite(x).all():
            raise ArithmeticError("the two-player equations could not be solved (a play that may never end)")
        return x

    def _stein(self, bases: list[np.ndarray]):
        """The exact float solve of the equations when each player's choice at a row is the same against every
        square of the other (`bases`: K booleans each). Each mover's rolls again B (m × m) are summed first,
        S = (I − B)⁻¹ (a dense inverse, or under a limit the series I + B + … + Bᴸ, B sparse and nilpotent), and the
        turn's ends A (m × n) give Ñ = SA and the turn kernel N = Ñ restricted to the states where turns begin;
        there the values Y solve a Stein equation Y − N₀YN₁ᵀ = C, Y = Σₖ N₀ᵏCN₁ᵀᵏ summed by doubling (Smith's
        method: m squarings give 2^m terms), until the powers' norms are negligible; the states inside turns
        follow: X = S·(right-hand side) + ÑYᵀ. A state no play reaches is held at 0 (W·x = b there): no other state
        leads to it, so its value is its own right-hand side over W."""
        from scipy.sparse import csr_array

        r, n, m, W = self.r, self.n, self.m, float(self.r.total)
        parts = []
        for base in bases:
            opt = np.where(base[:, None, None], r.options[:, 1], r.options[:, 0])  # K × 2 × 3
            rows, cols, weights, turn = [], [], [], np.zeros((m, n))
            for o in range(2):
                w, kind, to = opt[:, o, 0] / W, opt[:, o, 1], opt[:, o, 2]
                rows.append(r.square[kind == 1])
                cols.append(to[kind == 1])
                weights.append(w[kind == 1])
                np.add.at(turn, (r.square[kind == 2], to[kind == 2]), w[kind == 2])
            again = csr_array((np.concatenate(weights), (np.concatenate(rows), np.concatenate(cols))), shape=(m, m))
            summed = _summed(again, r.limited)
            inside = summed(turn)
            parts.append((summed, inside, inside[r.begin]))
        (S0, inside0, N0), (S1, inside1, N1) = parts
        left, right = [N0], [N1.T]
        while np.abs(left[-1]).sum(axis=1).max() * np.abs(right[-1]).sum(axis=0).max() > 1e-17:
            if len(left) > STEIN_SQUARINGS:
                raise ArithmeticError("the two-player equations could not be solved (a play that may never end)")
            left.append(left[-1] @ left[-1])
            right.append(right[-1] @ right[-1])
        begin, half, live = r.begin, self.half, self.live

        def precondition(x: np.ndarray) -> np.ndarray:
            s0, s1 = S0(x[:half].reshape(m, n) / W), S1(x[half:].reshape(m, n) / W)
            y0 = s0[begin] + N0 @ s1[begin].T
            for a, b in zip(left[:-1], right[:-1]):
                y0 = y0 + a @ y0 @ b
            y1 = s1[begin] + N1 @ y0.T
            if not r.limited:  # every state begins a turn
                out = np.concatenate([y0.ravel(), y1.ravel()])
            else:
                out = np.concatenate([(s0 + inside0 @ y1.T).ravel(), (s1 + inside1 @ y0.T).ravel()])
            return np.where(live, out, x / W)

        return precondition

    # --- plays ----------------------------------------------------------------------------------------------

    def _pair(self, plays: list[np.ndarray]) -> list[_Chosen]:
        return [self.chosen(p, plays[p]) for p in range(2)]

    def float_plays(self, start: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
        """Newton steps in floats from `start` (a play against every j, both players): value the plays, let each
        chooser take its better choice everywhere, until nothing changes or a play returns (a proposal for the
        exact rounds); and the last values, in floats."""
        K, n = len(self.r.square), self.n
        plays = [np.repeat(start[:, None], n, axis=1), np.repeat(start[:, None], n, axis=1) if self.b_chooses
                 else np.zeros((K, n), dtype=bool)]
        seen: set[bytes] = set()
        x = None
        tol = 1e-9 * self.r.total
        for _ in range(NEWTON_ROUNDS):
            chosen = self._pair(plays)
            x = self.solver(plays, chosen)(self.constant(chosen).astype(float), 1e-12, x)
            new = list(plays)
            for p in self.choosers:
                stay, flip = self.option_values(p, x)
                gain = flip - stay + (self.options[(p, 1)][4] - self.options[(p, 0)][4])
                better = gain > tol if p == 0 else gain < -tol
                new[p] = self.r.can_flip[:, None] & np.where(np.abs(gain) <= tol, plays[p], better)
            key = b"".join(x.tobytes() for x in new)
            if all((a == b).all() for a, b in zip(new, plays)) or key in seen:
                break
            seen.add(key)
            plays = new
        assert x is not None
        return plays, x

    def value(self, plays: list[np.ndarray], X: np.ndarray | None, guess: np.ndarray) -> np.ndarray:
        """The plays' values as limbs, refined until the exact residual is below 10^-RESIDUAL_DIGITS (from X, or
        the float values `guess`)."""
        chosen = self._pair(plays)
        solve = self.solver(plays, chosen)
        W = self.r.total
        limit = (W << SCALE_BITS) // 10**RESIDUAL_DIGITS
        if X is None:
            X = _add_float(np.zeros((LIMBS, self.size), dtype=np.int64), guess)
        for _ in range(REFINEMENTS):
            R = _normal(W * X - self.exact(chosen, X))
            if _bound(R) <= limit:
                return X
            X = _add_float(X, -solve(_floats(R), 1e-14))
        raise ArithmeticError("the two-player values did not settle")

    def solve(self, start: np.ndarray) -> tuple[list[np.ndarray], np.ndarray, list[tuple[int, int]]]:
        """Strategy iteration (Hoffman–Karp) from the float plays, then the certificate: the canonical plays (a
        flip only where it gains more than the margin), the values (limbs) and the certified [low, high] of A's
        chance from both players on the start, A moving first and B moving first (integers over 2^SCALE_BITS)."""
        K, n = len(self.r.square), self.n
        margin = (self.r.total << SCALE_BITS) // 10**MARGIN_DIGITS
        M = _as_limbs(margin, (K, n))
        can = self.r.can_flip[:, None]
        plays, guess = self.float_plays(start)
        X = None
        for _ in range(MAX_ROUNDS):
            X = self.value(plays, X, guess)
            changed = False
            for p in reversed(self.choosers):  # B's best reply first, then A's improvement
                gain = self.exact_gains(X, p)
                up, down = _signs(_normal(gain - M)) > 0, _signs(_normal(gain + M)) < 0
                better, worse = (up, down) if p == 0 else (down, up)
                new = can & np.where(better, True, np.where(worse, False, plays[p]))
                if (new != plays[p]).any():
                    plays[p], changed = new, True
                    break
            if not changed:
                break
        else:
            raise ArithmeticError("the two-player plays did not settle")
        assert X is not None
        canonical = list(plays)
        for p in self.choosers:
            gain = self.exact_gains(X, p)
            canonical[p] = can & (_signs(_normal(gain - M)) > 0 if p == 0 else _signs(_normal(gain + M)) < 0)
        return canonical, X, self.certify(X, canonical)

    # --- the certificate ------------------------------------------------------------------------------------

    def _one_side(self, X: np.ndarray, plays: list[np.ndarray], free: int) -> np.ndarray:
        """W·(one roll of X) with player `free` at their best, exactly (A the larger value, B the smaller), the
        other on its play: normalised limbs over the states."""
        use = list(plays)
        gain = _signs(self.exact_gains(X, free))
        use[free] = self.r.can_flip[:, None] & ((gain > 0) if free == 0 else (gain < 0))
        return self.exact(self._pair(use), X)

    def rolls_left(self, plays: list[np.ndarray], free: int) -> np.ndarray:
        """Integers v ≥ 0 with W·v ≥ W + Σ weight·v(next) for every choice of player `free` and the other's play,
        checked exactly: v bounds the expected rolls left from each state, whatever `free` does. v = ⌈2h⌉ + 1 for
        h the expected rolls in floats under a play of `free`, improved towards the longest (policy iteration)
        until the check holds (the factor 2 absorbs a play a little short of the longest and h's rounding)."""
        W = self.r.total
        use = list(plays)
        can = self.r.can_flip[:, None]
        for _ in range(NEWTON_ROUNDS):
            chosen = self._pair(use)
            h = self.solver(use, chosen)(np.full(self.size, float(W)), 1e-6)
            if not np.isfinite(h).all() or h.min() < 0 or h.max() > 1e15:
                break
            v = np.ceil(2 * h).astype(np.int64) + 1
            stay, flip = self.option_values(free, v)
            worst = [self._by_square(np.where(can, np.maximum(stay, flip), stay)) if p == free
                     else self._by_square(_moved(chosen[p], v)) for p in range(2)]
            if (W * v - np.concatenate(worst) >= W).all():
                return v
            use[free] = can & np.where(flip == stay, use[free], flip > stay)
        raise ArithmeticError("the rolls left could not be bounded (a play that may never end)")

    def certify(self, X: np.ndarray, plays: list[np.ndarray]) -> list[tuple[int, int]]:
        """[low, high] of A's chance from (A moves, s, s) and (B moves, s, s): Û ∓ v·δ (see the module)."""
        W = self.r.total
        WX = _normal(W * X)
        high_gap = _normal(self._one_side(X, plays, 0) - WX)  # W(T_τ̂ Û − Û): A at their best
        if self.b_chooses:  # W(Û − T_σ̂ Û): B at their best
            low_gap = _normal(WX - self._one_side(X, plays, 1))
        else:  # B never flips: T_σ̂ is the plays' own roll
            low_gap = _normal(WX - self.exact(self._pair(plays), X))
        low_delta, high_delta = (_bound(np.where(_signs(g) > 0, g, 0)) for g in (low_gap, high_gap))
        v_high = self.rolls_left(plays, 0)  # A free, B on τ̂
        v_low = self.rolls_left(plays, 1) if self.b_chooses else v_high
        out = []
        for state in self.starts:
            value = sum(int(X[k, state]) << (LIMB_BITS * k) for k in range(LIMBS))
            out.append((value - _ceil_div(int(v_low[state]) * low_delta, W),
                        value + _ceil_div(int(v_high[state]) * high_delta, W)))
        return out


def _summed(again: Any, nilpotent: bool) -> Callable[[np.ndarray], np.ndarray]:
    """x ↦ (I − B)⁻¹x for the rolls again B (a sparse m × m matrix): under a roll-again limit each roll again adds
    one to the rolls so far, so Bᴸ⁺¹ = 0 and the series I + B + … + Bᴸ is summed until its terms vanish; without
    one B may cycle (a bounce), and its inverse is dense."""
    if nilpotent:
        def series(x: np.ndarray) -> np.ndarray:
            total = term = x
            while (term := again @ term).any():
                total = total + term
            return total

        return series
    inverse = np.linalg.inv(np.eye(again.shape[0]) - again.toarray())
    return lambda x: inverse @ x


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


@dataclass(frozen=True)
class Certified:
    """A chance to CERTIFIED_DIGITS decimals (`decimal`, rounded half up from an interval whose ends round alike)
    and the proven bound on the error of the value it was rounded from (`error`)."""

    decimal: str
    error: Fraction


def _certified(low: int, high: int) -> Certified:
    """The chance in [low, high] (over 2^SCALE_BITS) to CERTIFIED_DIGITS decimals: the decimal both ends round to
    (half up); ArithmeticError if they round apart or the interval is wider than 10^-(digits + guard)."""
    scale, one = 10**CERTIFIED_DIGITS, 1 << SCALE_BITS
    if Fraction(high - low, one) > Fraction(2, 10 ** (CERTIFIED_DIGITS + GUARD_DIGITS)):
        raise ArithmeticError("the certified interval is too wide")
    rounded = {int(Fraction(x, one) * scale + Fraction(1, 2)) for x in (low, high)}
    if len(rounded) != 1:
        raise ArithmeticError("the certified interval straddles a rounding boundary")
    a = rounded.pop()
    return Certified(f"{a // scale}.{a % scale:0{CERTIFIED_DIGITS}d}", Fraction(high - low, 2 * one))


@dataclass(frozen=True)
class Duel:
    """A two-player game's certified chances for the first and the second to move, and its maximiser's play: how
    many of its decisions it flips for against some square of the other, and how many of those depend on it (a
    decision is a (square, roll) pair, under a roll-again limit (square, roll, rolls so far, square where the turn
    began))."""

    first: Certified
    second: Certified
    flips: int
    depends: int


def _duel(opts: Options | TurnOptions, b_chooses: bool, start: np.ndarray) -> Duel:
    from threadpoolctl import threadpool_limits

    game = _Game(opts, b_chooses)
    with threadpool_limits(1):  # small dense products: one thread is fastest, and threads only compete
        plays, _, (first, second) = game.solve(start)
    reach = game.rows_of(game.reach([[c] for c in game._pair(plays)]), 0)  # K × n: where A rolls against j
    play = plays[0]
    flipped, stayed = (play & reach).any(axis=1), (~play & reach).any(axis=1)
    return Duel(_certified(*first), _certified(*second), int(flipped.sum()), int((flipped & stayed).sum()))


Flips = tuple[tuple[int, ...], ...]
"""A one-player play's flips: (square, roll) pairs, under a roll-again limit also TurnDecisions (square, roll, rolls
so far, square where the turn began)."""


def _start(opts: Options | TurnOptions, flips: Flips) -> np.ndarray:
    """The one-player best play's flips as a row per roll (the first plays' proposal)."""
    chosen = set(flips)
    if isinstance(opts, TurnOptions):
        return np.array([(s[0], roll) in chosen or (s[0], roll, s[1], s[2]) in chosen
                         for s, rolls in opts.rolls.items() for roll, _, _ in rolls])
    return np.array([(q, roll) in chosen for q in opts.squares for roll, _, _ in opts.rolls[q]])


def best_against_box(opts: Options | TurnOptions, flips: Flips = ()) -> Duel:
    """One player plays best against one who never flips: that player's chance moving first and moving second
    (`flips`: a play to start from, the one-player best play's)."""
    return _duel(opts, False, _start(opts, flips))


def both_maximise(opts: Options | TurnOptions, flips: Flips = ()) -> Duel:
    """Both players maximise their own chance, knowing where the other is: the first mover's chance and the
    same player's moving second (they add up to 1)."""
    return _duel(opts, True, _start(opts, flips))
