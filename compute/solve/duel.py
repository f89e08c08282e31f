"""Two players when the rules give a choice, each choice allowed to depend on where the other player is:
certified to CERTIFIED_DIGITS decimals.

V(i, j) is the chance that the player about to roll, on square i, beats the other, on j. A roll r with choice a
leads by each outcome to a win (1), another roll of the same player (V(i', j)) or the other's turn
(1 − V'(j, i'), V' the other player's). Two games are solved:
- `best_against_box`: one player maximises their chance, the other never flips (the box rules);
- `both_maximise`: both maximise their own chance (a turn-based zero-sum game; it is symmetric, so V' = V).
Plays come from value iteration in floats. A pair of plays is then valued to many digits: iterative refinement
with exact residuals (integers over 2^SCALE_BITS), each correction from a float solve, and the rigorous bound
|V − V̂| ≤ κ·max|residual|, where κ = max v for integers v ≥ 0 with (I − |T|)·v ≥ 1, checked exactly (T the
linear map of one roll; |T| counts rolls, so v bounds the rolls left). Every choice of a maximising player is
then checked against the other choice with those bounds: one better by more than they allow replaces it and the
round repeats; one within them is a tie, settled as not flipping. The decimals published are those that both ends
of the certified interval round to (refined until they do): the same digits on any machine. Only the pairs of
squares reachable from the start under the plays count (the others never occur).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from .strategy import Options

CERTIFIED_DIGITS = 30
MAX_STATES = 100
"""The games are solved on boards of at most this many squares a roll can be made from (their pairs number the
square of it, and the sparse solves grow faster still: 3 s of CPU at 94, 18 s at 135)."""
SCALE_BITS = 320
"""Values are carried as integers over 2^SCALE_BITS in the exact residuals."""
GUARD_DIGITS = 10
"""The error is driven below 10^-(CERTIFIED_DIGITS + GUARD_DIGITS), so that the interval almost never straddles a
rounding boundary of the last decimal (`chance` refuses one that does)."""
MAX_ROUNDS = 40
"""Refinements and play changes together, at most."""
FLOAT_ROUNDS = 100_000


@dataclass(frozen=True)
class _Rolls:
    """A board's rolls from each square, flattened (the rows of each square together, squares in order): row k is
    the square index, the stay outcomes and the flip outcomes, each (weight, kind, square index) with kind 0 a win,
    1 another roll, 2 the other's turn, padded to two outcomes of weight 0."""

    square: np.ndarray
    options: np.ndarray  # K × 2 (stay, flip) × 2 outcomes × 3 integers
    can_flip: np.ndarray
    total: int
    n: int
    first: np.ndarray
    """The first row of each square."""


def _rolls(opts: Options) -> _Rolls:
    index = {q: i for i, q in enumerate(opts.squares)}
    last = opts.board.squares
    squares, options, can = [], [], []

    def coded(option: tuple[tuple[int, int, bool], ...] | None) -> list[list[int]]:
        out = [[w, 0 if nxt == last else 1 if goes_on else 2, index.get(nxt, 0)] for w, nxt, goes_on in option or ()]
        return (out + [[0, 0, 0], [0, 0, 0]])[:2]

    for q in opts.squares:
        for _, moved, flipped in opts.rolls[q]:
            squares.append(index[q])
            options.append([coded(moved), coded(flipped)])
            can.append(flipped is not None)
    square = np.array(squares)
    return _Rolls(square, np.array(options, dtype=np.int64), np.array(can), opts.board.roll_weight, len(index),
                  np.searchsorted(square, np.arange(len(index))))


GAME, LINEAR, COUNTING = (1, 1, -1), (0, 0, -1), (0, 0, 1)
"""What an outcome is worth, (a win, the other's turn's constant, the sign of the other's value): the game's
chances; their linear part (a correction's equations); the rolls left (|T|, every outcome one more roll)."""


def _values(r: _Rolls, V: np.ndarray, other: np.ndarray, one: float | int, mode: tuple[int, int, int] = GAME
            ) -> np.ndarray:
    """Σ weight·value over each option's outcomes, for every row, option and other square j: K × 2 × n. Works on
    floats, or on Python integers over `one` (object arrays)."""
    w, kind, to = r.options[..., 0], r.options[..., 1], r.options[..., 2]
    win, turn, sign = mode
    mine = V[to]  # K × 2 × 2 × n: V(i', j)
    theirs = other[:, to].transpose(1, 2, 3, 0)  # V'(j, i')
    value = np.where((kind == 0)[..., None], win * one,
                     np.where((kind == 1)[..., None], mine, turn * one + sign * theirs))
    return (w[..., None] * value).sum(axis=2)


def _apply(r: _Rolls, V: np.ndarray, other: np.ndarray, play: np.ndarray, one: float | int,
           mode: tuple[int, int, int] = GAME) -> np.ndarray:
    """W·(the player's new V) under `play` (K × n booleans: flip), summed per square in a fixed order."""
    both = _values(r, V, other, one, mode)
    chosen = np.where(play, both[:, 1], both[:, 0])
    return np.add.reduceat(chosen, r.first, axis=0)  # the rows of each square are consecutive


def _best_play(r: _Rolls, V: np.ndarray, other: np.ndarray) -> np.ndarray:
    both = _values(r, V, other, 1.0)
    return r.can_flip[:, None] & (both[:, 1] > both[:, 0])


def _float_solve(r: _Rolls, symmetric: bool, plays: list[np.ndarray | None]) -> list[np.ndarray]:
    """The maximisers' plays (a play None) by value iteration in floats from 0, to about 10 digits: a start for the
    exact rounds, which settle every choice (`_Game._improve`)."""
    count = 1 if symmetric else 2
    V = [np.zeros((r.n, r.n)) for _ in range(count)]
    used = [p if p is not None else np.zeros((len(r.square), r.n), dtype=bool) for p in plays]
    for _ in range(FLOAT_ROUNDS):
        change = 0.0
        for p in range(count):
            other = V[0] if symmetric else V[1 - p]
            if plays[p] is None:
                used[p] = _best_play(r, V[p], other)
            new = _apply(r, V[p], other, used[p], 1.0) / r.total
            change = max(change, float(np.abs(new - V[p]).max()))
            V[p] = new
        if change <= 1e-11:
            break
    return used


def _system(r: _Rolls, symmetric: bool, plays: list[np.ndarray], mode: tuple[int, int, int],
            reach: list[np.ndarray]) -> tuple[Any, np.ndarray]:
    """The plays' equations in `mode`, W·V − Σ weight·(the outcomes' values) = Σ weight·(their constants), as a
    sparse matrix over every player's V(i, j) and the constants (floats). A pair not in `reach` (the pairs a game
    can end from) gets V = 0: nobody ever wins from there, and its equations would be singular."""
    from scipy.sparse import coo_matrix

    count, n = (1 if symmetric else 2), r.n
    win, turn, sign = mode
    rows, cols, vals, b = [], [], [], np.zeros(count * n * n)
    j = np.arange(n)
    for p in range(count):
        q = p if symmetric else 1 - p
        chosen = np.where(plays[p][:, None, :, None], r.options[:, 1][:, :, None, :], r.options[:, 0][:, :, None, :])
        w, kind, to = chosen[..., 0], chosen[..., 1], chosen[..., 2]  # K × 2 outcomes × n
        here = np.broadcast_to(p * n * n + r.square[:, None, None] * n + j[None, None, :], w.shape)
        jj = np.broadcast_to(j[None, None, :], w.shape)
        np.add.at(b, here, w * np.where(kind == 0, win, np.where(kind == 2, turn, 0)))
        own, theirs = kind == 1, kind == 2
        rows += [here[own], here[theirs]]
        cols += [(p * n * n + to * n + jj)[own], (q * n * n + jj * n + to)[theirs]]
        vals += [-w[own], -sign * w[theirs]]
    size = count * n * n
    occurs = np.concatenate([x.ravel() for x in reach])
    diagonal = np.arange(size)
    row, col, val = np.concatenate(rows), np.concatenate(cols), np.concatenate(vals).astype(float)
    kept = occurs[row]
    A = coo_matrix((np.concatenate([np.full(size, float(r.total)), val[kept]]),
                    (np.concatenate([diagonal, row[kept]]), np.concatenate([diagonal, col[kept]]))), shape=(size, size))
    return A.tocsc(), np.where(occurs, b, 0.0)


@dataclass(frozen=True)
class Certified:
    """A chance to CERTIFIED_DIGITS decimals (`decimal`, rounded half up from an interval whose ends round alike)
    and the proven bound on the error of the value it was rounded from (`error`)."""

    decimal: str
    error: Fraction


def _certified(value: int, error: Fraction) -> Certified:
    """The chance `value` (over 2^SCALE_BITS) to CERTIFIED_DIGITS decimals: the decimal both ends of
    [value − error, value + error] round to (half up); ArithmeticError if they round apart."""
    scale, one = 10**CERTIFIED_DIGITS, 1 << SCALE_BITS
    ends = [Fraction(value, one) - error, Fraction(value, one) + error]
    rounded = {int(x * scale + Fraction(1, 2)) for x in ends}
    if len(rounded) != 1:
        raise ArithmeticError("the certified interval straddles a rounding boundary")
    a = rounded.pop()
    return Certified(f"{a // scale}.{a % scale:0{CERTIFIED_DIGITS}d}", error)


class _Game:
    """One game: the rolls, whether it is symmetric, and which players maximise (the others never flip)."""

    def __init__(self, opts: Options, symmetric: bool) -> None:
        self.r = _rolls(opts)
        self.symmetric = symmetric
        self.count = 1 if symmetric else 2
        self.start = opts.squares.index(opts.board.start)

    def _others(self, V: list[np.ndarray]) -> list[np.ndarray]:
        return [V[0]] if self.symmetric else [V[1], V[0]]

    def _reachable(self, plays: list[np.ndarray]) -> list[np.ndarray]:
        """The pairs (i, j) each player can be to move on, from both on the start, under the plays."""
        r, n = self.r, self.r.n
        seen = [np.zeros((n, n), dtype=bool) for _ in range(self.count)]
        todo = [(0, self.start, self.start)]
        seen[0][self.start, self.start] = True
        if not self.symmetric:  # the second player may move first too
            todo.append((1, self.start, self.start))
            seen[1][self.start, self.start] = True
        rows = [np.flatnonzero(r.square == i) for i in range(n)]
        while todo:
            p, i, j = todo.pop()
            for k in rows[i]:
                for w, kind, to in r.options[k, int(plays[p][k, j])]:
                    if w == 0 or kind == 0:
                        continue
                    q, a, b = (p, to, j) if kind == 1 else ((0 if self.symmetric else 1 - p), j, to)
                    if not seen[q][a, b]:
                        seen[q][a, b] = True
                        todo.append((q, a, b))
        return seen

    def _ending(self, plays: list[np.ndarray]) -> list[np.ndarray]:
        """The pairs from which a game can end under the plays (someone can win): backwards from every pair with a
        winning outcome. From any other pair nobody ever wins, so each player's chance there is 0."""
        r, n = self.r, self.r.n
        before: dict[tuple[int, int, int], list[tuple[int, int, int]]] = {}
        found = [np.zeros((n, n), dtype=bool) for _ in range(self.count)]
        todo = []
        for p in range(self.count):
            for k in range(len(r.square)):
                i = int(r.square[k])
                for j in range(n):
                    for w, kind, to in r.options[k, int(plays[p][k, j])]:
                        if w == 0:
                            continue
                        if kind == 0:
                            if not found[p][i, j]:
                                found[p][i, j] = True
                                todo.append((p, i, j))
                            continue
                        nxt = (p, int(to), j) if kind == 1 else ((0 if self.symmetric else 1 - p), j, int(to))
                        before.setdefault(nxt, []).append((p, i, j))
        while todo:
            for p, i, j in before.get(todo.pop(), ()):
                if not found[p][i, j]:
                    found[p][i, j] = True
                    todo.append((p, i, j))
        return found

    def _residual(self, V: list[np.ndarray], plays: list[np.ndarray], one: int) -> list[np.ndarray]:
        """W·V − W·F(V) exactly, V integers over `one` (object arrays)."""
        others = self._others(V)
        return [self.r.total * V[p] - _apply(self.r, V[p], others[p], plays[p], one) for p in range(self.count)]

    def _split(self, x: np.ndarray) -> list[np.ndarray]:
        n = self.r.n
        return [x[p * n * n:(p + 1) * n * n].reshape(n, n) for p in range(self.count)]

    def _kappa(self, plays: list[np.ndarray], reach: list[np.ndarray], ending: list[np.ndarray]) -> int:
        """κ: the largest entry of integers v ≥ 0 with W·v − W·|T|(v) ≥ W on every reachable pair, checked exactly.
        v = ⌈2u⌉ for u the rolls left in floats (u = |T|u + 1): then v − |T|v ≥ 2 − |T|1 ≥ 1, whatever u's
        rounding, as long as u is within a fraction of a roll of its value."""
        from scipy.sparse.linalg import spsolve

        r = self.r
        A, _ = _system(r, self.symmetric, plays, COUNTING, ending)
        u = self._split(spsolve(A, np.full(A.shape[0], float(r.total))))
        scaled = [np.vectorize(lambda x: int(np.ceil(2 * x)) if np.isfinite(x) and x > 0 else 0,
                               otypes=[object])(x) for x in u]
        others = self._others(scaled)
        for p in range(self.count):
            check = r.total * scaled[p] - _apply(r, scaled[p], others[p], plays[p], 1, COUNTING)
            if not all(x >= r.total for x in check[reach[p]]):
                raise ArithmeticError("the rolls left could not be bounded (a play that may never end)")
        return int(max(max(x[reach[p]]) for p, x in enumerate(scaled)))

    def solve(self, maximisers: tuple[bool, ...]) -> tuple[list[np.ndarray], list[np.ndarray], Fraction]:
        """The plays, V as integers over 2^SCALE_BITS and the proven error bound: each round solves the plays'
        equations in floats (a sparse LU, kept for the corrections), measures the exact residual, bounds the error
        and settles the choices (`_improve`); a changed play starts the round again."""
        from scipy.sparse.linalg import splu

        r, one = self.r, 1 << SCALE_BITS
        plays = _float_solve(r, self.symmetric, [None if m else np.zeros((len(r.square), r.n), dtype=bool)
                                                 for m in maximisers])
        as_integers = np.vectorize(lambda x: int(round(x * one)), otypes=[object])
        lu, exact = None, None
        seen: set[bytes] = set()
        single = False
        for _ in range(MAX_ROUNDS):
            if lu is None:
                reach, ending = self._reachable(plays), self._ending(plays)
                if any((x & ~e).any() for x, e in zip(reach, ending)):
                    raise ArithmeticError("under the plays found, a game from the start could go on forever")
                A, b = _system(r, self.symmetric, plays, GAME, ending)
                lu = splu(A)
                exact = [as_integers(x) for x in self._split(lu.solve(b))]
                kappa = self._kappa(plays, reach, ending)
            assert exact is not None
            residual = self._residual(exact, plays, one)
            worst = max(max(abs(x) for x in res[reach[p]]) for p, res in enumerate(residual))
            error = Fraction(kappa * worst, r.total * one)
            final = error < Fraction(1, 10 ** (CERTIFIED_DIGITS + GUARD_DIGITS))
            seen.add(b"".join(x.tobytes() for x in plays))
            if self._improve(exact, plays, error, one, maximisers, reach, final, single):
                single = single or b"".join(x.tobytes() for x in plays) in seen  # a play seen before: a cycle
                lu = None
                continue
            if final:
                return exact, plays, error
            as_floats = np.vectorize(lambda x: -float(Fraction(x, one)))
            rhs = np.concatenate([np.where(ending[p], as_floats(res), 0.0).ravel()  # where nobody can win, V stays 0
                                  for p, res in enumerate(residual)])
            delta = self._split(lu.solve(rhs))  # the correction: the same equations' linear part, in floats
            exact = [e + as_integers(d) for e, d in zip(exact, delta)]
        raise ArithmeticError("the two-player values did not settle")

    def _improve(self, exact: list[np.ndarray], plays: list[np.ndarray], error: Fraction, one: int,
                 maximisers: tuple[bool, ...], reach: list[np.ndarray], final: bool, single: bool) -> bool:
        """Replace every choice of a maximiser that the other choice beats by more than the error allows (with
        `single`, only the one that gains most); a choice within it stays as it is until the values are `final`,
        then becomes not flipping (so the play does not depend on the rounds' precision). Whether any changed."""
        r = self.r
        others = self._others(exact)
        changed = False
        for p in range(self.count):
            if not maximisers[p]:
                continue
            both = _values(r, exact[p], others[p], one)  # K × 2 × n, exact
            margin = 2 * error * r.total * one  # each option's value is off by at most its weight times the error
            gain = both[:, 1] - both[:, 0]
            flip = np.array([[bool(r.can_flip[k]) and gain[k, j] > margin for j in range(r.n)]
                             for k in range(len(r.square))])
            keep = np.array([[not r.can_flip[k] or abs(gain[k, j]) <= margin for j in range(r.n)]
                             for k in range(len(r.square))])
            new = np.where(keep, False if final else plays[p], flip)
            live = reach[p][r.square]  # rows k at the squares j where the player can be: K × n
            switch = (new != plays[p]) & live
            if switch.any() and single:  # one switch, the largest gain: switching every one at once can cycle
                k, j = max(zip(*np.nonzero(switch)), key=lambda kj: abs(gain[kj[0], kj[1]]))
                switch = np.zeros_like(switch)
                switch[k, j] = True
            changed = changed or bool(switch.any())
            plays[p] = np.where(switch, new, plays[p])
        return changed


@dataclass(frozen=True)
class Duel:
    """A two-player game's certified chances for the first and the second to move, and its maximiser's play: how
    many (square, roll) pairs it flips for against some square of the other, and how many of those depend on it."""

    first: Certified
    second: Certified
    flips: int
    depends: int


def _duel(opts: Options, symmetric: bool) -> Duel:
    game = _Game(opts, symmetric)
    maximisers = (True,) if symmetric else (True, False)
    exact, plays, error = game.solve(maximisers)
    s, one = game.start, 1 << SCALE_BITS
    first = _certified(int(exact[0][s, s]), error)
    second = _certified(one - int(exact[-1][s, s]), error)  # the other moves first: 1 − their chance
    play, reach = plays[0], game._reachable(plays)[0][game.r.square]  # K × n: the other's squares that occur
    flipped, stayed = (play & reach).any(axis=1), (~play & reach).any(axis=1)
    return Duel(first, second, int(flipped.sum()), int((flipped & stayed).sum()))


def best_against_box(opts: Options) -> Duel:
    """One player plays best against one who never flips: that player's chance moving first and moving second."""
    return _duel(opts, symmetric=False)


def both_maximise(opts: Options) -> Duel:
    """Both players maximise their own chance, knowing where the other is: the first and the second mover's
    chances (they add up to 1)."""
    return _duel(opts, symmetric=True)
