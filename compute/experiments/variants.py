"""What-if experiments, after Hochman's REU paper "Chutes and Ladders" (2014): another die, another
starting square, one more chute or ladder.

The single-jump scan is exact without re-solving the board for every candidate. Adding a jump from
square i to square k redirects the rolls that land on i, a rank-one change of the roll-level chain
(rank two with roll-again, where a landing may end the turn or continue it). The Sherman–Morrison–
Woodbury identity then gives each candidate's exact expected turns from one exact solve shared by all
candidates. The first player's chance per candidate is computed in double precision, all candidates
at once, by iterating the modified turn chains side by side.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import gmpy2
import numpy as np
from flint import fmpq, fmpq_mat

from ..board.limits import MAX_DIE
from ..board.model import Board, BoardError
from ..board.problems import rule_problems, unreachable_end
from ..board.rules import roll_landing
from ..numbers import decimal_string, exact_json, fraction_from_json, rounded
from ..solve.chain import TurnChain, roll_counts, turn_chain
from ..solve.exact import fraction

MIN_JUMP_LENGTH = 10
ALIVE_TOLERANCE = 1e-7
"""The float scan stops a candidate once less than this mass A of games is still running: the neglected part
of ½·Σ P(T = k)² is then at most ½·A² = 5·10⁻¹⁵, far below the DELTA_DECIMALS stored."""
MAX_FLOAT_TURNS = 200_000


# --- die size ------------------------------------------------------------------------------------------


def _die_changes(board: Board, faces: int) -> tuple[dict[str, Any], str | None]:
    """The fields that change with a `faces`-sided die, and a note when a rule had to change."""
    again = board.roll_again_on
    if again is not None and again > faces:
        return {"die": faces, "roll_again_on": None}, f"no roll-again: a {faces}-sided die has no {again}"
    return {"die": faces}, None


def die_row(board: Board, faces: int) -> dict[str, Any]:
    """Expected turns (exact) and the first player's chance with a `faces`-sided die.

    The first player's chance is exact when the variant has no roll-again rule, and a double-precision
    value (marked "exact": false) otherwise. A die with which the game can fail to end gives null
    values, the reason, and the squares where it can be stuck (`unreachable_end`) for a page to say it in its
    language.
    """
    changes, note = _die_changes(board, faces)
    try:
        variant = board.variant(**changes)
    except BoardError as exc:
        reason = str(exc).split(": ", 1)[-1]
        return {"faces": faces, "expected_turns": None, "first_player_wins": None,
                "note": reason, "unending": _unending(Board.unchecked(**{**board.fields(), **changes}))}
    chain = turn_chain(variant)
    mean = chain.expected_turns[chain.start]
    if variant.roll_again_on is None:
        first: dict[str, Any] = {**exact_json(chain.first_player_wins), "exact": True}
    else:
        first = {"decimal": certified_digits(chain), "exact": False}
    return {"faces": faces, "expected_turns": exact_json(mean), "first_player_wins": first, "note": note,
            "unending": None}


def _unending(variant: Board) -> list[int] | None:
    """Where the game can be stuck with the variant (`unreachable_end`), if that is why it is refused; else None."""
    return None if rule_problems(variant) else unreachable_end(variant) or None


def certified_digits(chain: TurnChain) -> str:
    """The first player's chance in double precision (`floats.FloatChain.start_series`), to the significant digits
    its rounding bound certifies (at most 15)."""
    floats = chain.floats
    series = floats.start_series
    bound = Fraction(floats.relative_error(series.terms))
    digits = 1
    while digits < 15 and bound * 10 ** (digits + 1) <= 1:
        digits += 1
    return f"{float(series.pairs[0, 0]):.{digits}g}"


def longer_with_bigger_die(rows: Sequence[dict[str, Any]]) -> list[int]:
    """Die sizes n for which an (n+1)-sided die makes the average game longer (Hochman: n = 2 on the 47→26 board)."""
    out = []
    for a, b in zip(rows, rows[1:]):
        if a["expected_turns"] and b["expected_turns"]:
            if fraction_from_json(b["expected_turns"]) > fraction_from_json(a["expected_turns"]):
                out.append(a["faces"])
    return out


def die_sweep(board: Board, max_faces: int = MAX_DIE) -> list[dict[str, Any]]:
    """`die_row` for dice of 1..max_faces faces, in order (serially; see compute.experiments.sweeps for parallel)."""
    return [die_row(board, faces) for faces in range(1, max_faces + 1)]


# --- starting square -----------------------------------------------------------------------------------


def start_sweep(chain: TurnChain) -> dict[str, Any]:
    """Expected turns from every square where a turn can start, and the squares worse than the previous one.

    Hochman's comparison: each such square against the previous square where a turn can start
    (jump feet are skipped, since no turn starts on them).
    """
    turns = chain.expected_turns
    worse = [q for (p, tp), (q, tq) in zip(zip(chain.states, turns), zip(chain.states[1:], turns[1:])) if tq > tp]
    return {"expected_turns_from": {str(q): exact_json(t) for q, t in zip(chain.states, turns)},
            "worse_than_previous": worse}


# --- one more chute or ladder: candidates ----------------------------------------------------------------


def candidates(board: Board, min_length: int = MIN_JUMP_LENGTH) -> list[tuple[int, int]]:
    """Every single jump (from, to) under the reading that gives Hochman's count of 5,496 on the 47→26 board.

    Both ends lie on squares 0..last that are not the foot of an existing chute or ladder (the top of
    one is allowed), the ends differ, and the jump spans at least `min_length` squares.
    """
    free = [q for q in range(board.squares + 1) if q not in board.jumps]
    return [(i, k) for i in free for k in free if i != k and abs(i - k) >= min_length]


def with_jump(board: Board, source: int, target: int) -> Board:
    """The board with one more jump, not validated: like every jump, it acts only when a roll lands on it."""
    kind = "ladders" if target > source else "chutes"
    return Board.unchecked(**{**board.fields(), kind: (*getattr(board, kind), (source, target))})


# --- one more chute or ladder: exact expected turns --------------------------------------------------------


@dataclass(frozen=True)
class JumpEffect:
    """The exact effect of one added jump on the expected number of turns from the start."""

    source: int
    target: int
    status: str  # "changed", "no effect", or "never ends"
    delta: Fraction | None

    @property
    def kind(self) -> str:
        return "ladder" if self.target > self.source else "chute"

    @property
    def counterintuitive(self) -> bool:
        """A ladder that lengthens the game, or a chute that shortens it."""
        if self.delta is None:
            return False
        return self.delta.numerator > 0 if self.kind == "ladder" else self.delta.numerator < 0


class RollChain:
    """The roll-by-roll chain (square, and whether the roll continues a turn), solved once exactly.

    t = expected turns from each roll state; `landing[b][i]` = N·(chance of landing on square i with
    a roll of flag b), which is all the Woodbury update needs.
    """

    def __init__(self, chain: TurnChain, sources: Iterable[int]) -> None:
        board = chain.board
        self.board = board
        self.flags = (0, 1) if board.roll_again_on is not None else (0,)
        squares = chain.states
        self.index = {(q, f): n for f in self.flags for n, q in enumerate(squares, start=f * len(squares))}
        m = len(self.index)
        die = board.die
        self.sources = sorted(set(sources) & set(squares))
        col = {(i, f): c for c, (f, i) in enumerate((f, i) for f in self.flags for i in self.sources)}
        P = [[0] * m for _ in range(m)]
        rhs = [[0] * (1 + len(col)) for _ in range(m)]
        for (q, f), x in self.index.items():
            rhs[x][0] = die * (f == 0)
            for roll in range(1, die + 1):
                landing = roll_landing(board.squares, board.overshoot, q, roll)
                dest = board.jumps.get(landing, landing)
                flag = int(roll == board.roll_again_on)
                if dest != board.squares:
                    P[x][self.index[(dest, flag)]] += 1
                if (landing, flag) in col:
                    rhs[x][1 + col[(landing, flag)]] += 1
        A = fmpq_mat(m, m, [die * (x == y) - P[x][y] for x in range(m) for y in range(m)])
        X = A.solve(fmpq_mat(m, 1 + len(col), [v for row in rhs for v in row]))
        self.t = [X[x, 0] for x in range(m)]
        self.columns = {key: [X[x, 1 + c] for x in range(m)] for key, c in col.items()}
        self.start = self.index[(board.start, 0)]

    def _value(self, vector: Sequence[fmpq], square: int, flag: int) -> fmpq:
        x = self.index.get((square, flag))
        return vector[x] if x is not None else fmpq(0)

    def effect(self, source: int, target: int) -> JumpEffect:
        """Exact change of the expected turns from the start when a jump source → target is added."""
        last = self.board.squares
        if source == last or source not in self.sources:
            return JumpEffect(source, target, "no effect", None)
        if target != last and (target, 0) not in self.index:
            return JumpEffect(source, target, "never ends", None)
        C = [self.columns[(source, f)] for f in self.flags]
        if all(c[self.start] == 0 for c in C):
            return JumpEffect(source, target, "no effect", None)
        r = len(self.flags)
        G = fmpq_mat(r, r, [int(a == b) - (self._value(C[b], target, a) - self._value(C[b], source, a))
                            for a in range(r) for b in range(r)])
        if G.det() == 0:
            return JumpEffect(source, target, "never ends", None)
        dt = fmpq_mat(r, 1, [self._value(self.t, target, a) - self._value(self.t, source, a) for a in range(r)])
        y = G.solve(dt)
        delta = sum((C[a][self.start] * y[a, 0] for a in range(r)), fmpq(0))
        if delta == 0:
            return JumpEffect(source, target, "no effect", Fraction(0))
        return JumpEffect(source, target, "changed", Fraction(int(delta.p), int(delta.q)))


# --- one more chute or ladder: the first player's chance, in double precision ----------------------------


def _exact_updates(chain: TurnChain, feet: Sequence[int]
                   ) -> tuple[np.ndarray, dict[int, np.ndarray], dict[int, np.ndarray]]:
    """What every added jump's update is made of, exactly, then correctly rounded to floats. With B the rolls that
    continue a turn and N = (I − B)⁻¹ (N = I without roll-again), for each foot i: Na = N·a and g = N·b (a, b:
    the chances of landing on i with a roll that ends the turn, or continues it), and R = N·A (A: the rolls that
    end the turn)."""
    board = chain.board
    d, die = chain.size, board.die
    rolls = roll_counts(board, chain.states, chain.index)  # one fair die here: every weight is 1, their sum `die`
    land_end = {i: [0] * d for i in feet}
    land_cont = {i: [0] * d for i in feet}
    for x, q in enumerate(chain.states):
        for roll in range(1, die + 1):
            landing = roll_landing(board.squares, board.overshoot, q, roll)
            if landing in land_end:
                (land_cont if roll == board.roll_again_on else land_end)[landing][x] += 1
    # N·(columns/die) = (die·I − B·die)⁻¹·columns, the columns: A, then each foot's a and b (in counts)
    K = fmpq_mat(d, d, [die * (x == y) - rolls.again[x][y] for x in range(d) for y in range(d)])
    columns = [rolls.ends[x] + [land_end[i][x] for i in feet] + [land_cont[i][x] for i in feet] for x in range(d)]
    solved = K.solve(fmpq_mat(d, d + 2 * len(feet), [v for row in columns for v in row]))
    floats = np.array([[float(fraction(solved[x, c])) for c in range(d + 2 * len(feet))] for x in range(d)])
    n = len(feet)
    return (floats[:, :d], {i: floats[:, d + k] for k, i in enumerate(feet)},
            {i: floats[:, d + n + k] for k, i in enumerate(feet)})


def _float_updates(chain: TurnChain, pairs: Sequence[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
    """U, V (J×d×2) with Q' = Q + U Vᵀ for each added jump i → k (rank 2 covers roll-again turns), from the exact
    parts (`_exact_updates`) by elementwise operations only (each correctly rounded: the same floats anywhere).

    With e = e_k − e_i (no e_k if k is the last square), Sherman–Morrison on the continuing rolls gives
    β = 1/(1 − (g_k − g_i)), U = [Na + β·(Na_k − Na_i)·g, β·g] and V = [e, R_k − R_i] (R's rows)."""
    index = chain.index
    R, Na, g = _exact_updates(chain, sorted({i for i, _ in pairs}))
    J, d = len(pairs), chain.size
    U = np.zeros((J, d, 2))
    V = np.zeros((J, d, 2))
    zero = np.zeros(d)
    for j, (i, k) in enumerate(pairs):
        foot, top = index[i], index.get(k)
        gi, ai = g[i], Na[i]
        beta = 1 / (1 - ((gi[top] if top is not None else 0.0) - gi[foot]))
        U[j, :, 0] = ai + (beta * ((ai[top] if top is not None else 0.0) - ai[foot])) * gi
        U[j, :, 1] = beta * gi
        V[j, foot, 0] = -1.0
        if top is not None:
            V[j, top, 0] = 1.0
        V[j, :, 1] = (R[top] if top is not None else zero) - R[foot]
    return U, V


DELTA_DECIMALS = 9
"""The stored change of the first player's chance is rounded to this many decimals (the page shows 5)..."""
SCAN_ERROR = 10.0**-DELTA_DECIMALS / 4
"""...and each candidate's chance must have an error bound below this (`first_player_floats`): the change is then
within one unit of its last decimal."""


def first_player_floats(board: Board, pairs: Sequence[tuple[int, int]]) -> list[float | None]:
    """P(first of two players wins) for the board with each added jump, in double precision in a fixed order (the
    same floats on any processor: `floats.FloatChain.scan`), None if the chain runs past MAX_FLOAT_TURNS.

    Each chain is the board's turn chain plus the jump's rank-2 update (`_float_updates`), run until its games are
    over except for a mass A < ALIVE_TOLERANCE; P = ½ + ½·Σₖ P(T = k)². Error: the part left out is at most ½·A²
    (every later term is at most A, and they add up to A); each turn rounds every chance by at most (m + 6)·u of
    the mass still running (a sum of at most m + 4 terms, m the most entries in a row or column of Q: `floats`),
    so k turns change the sum of squares by at most 2·k·(m + 6)·u. A candidate whose bound passes SCAN_ERROR
    raises ArithmeticError: its stored change would claim a digit it does not have."""
    chain = turn_chain(board)
    if not pairs:
        return []
    U, V = _float_updates(chain, pairs)
    floats = chain.floats
    chances, turns = floats.scan(U, V, ALIVE_TOLERANCE, MAX_FLOAT_TURNS)
    worst = ALIVE_TOLERANCE**2 / 2 + 2 * int(turns.max()) * (floats.widest + 6) * 2.0**-53
    if worst > SCAN_ERROR:
        raise ArithmeticError(f"the added-jump scan's error bound {worst:.1e} is above {SCAN_ERROR:.1e}")
    return [None if np.isnan(p) else float(p) for p in chances]


# --- the scan ------------------------------------------------------------------------------------------


def scan_exact(board: Board, pairs: Sequence[tuple[int, int]]) -> list[JumpEffect]:
    """The exact effect on expected turns of every candidate jump."""
    chain = turn_chain(board)
    roll_chain = RollChain(chain, {i for i, _ in pairs})
    return [roll_chain.effect(i, k) for i, k in pairs]


STATUSES = ("changed", "no effect", "never ends")
TOP = 10


def scan_json(effects: Sequence[JumpEffect], firsts: Sequence[float | None], base_first: Fraction,
              min_length: int) -> dict[str, Any]:
    """The JSON form of a single-jump scan: counts, top-10 lists, and every candidate with its effects: the exact
    change of the expected turns, and the change of the first player's chance from the board's exact one
    (`base_first`) to each candidate's in double precision (`first_player_floats`), to DELTA_DECIMALS decimals."""
    rows = []
    for e, f in zip(effects, firsts):
        rows.append({"from": e.source, "to": e.target, "kind": e.kind, "status": e.status,
                     "delta_turns": exact_json(e.delta, 20) if e.delta is not None else None,
                     "delta_first_player": round(f - float(base_first), DELTA_DECIMALS)
                     if f is not None and e.status == "changed" else None,
                     "counterintuitive": e.counterintuitive})
    # a changed candidate always has its delta (`RollChain.effect`)
    changed = [(e, e.delta, r) for e, r in zip(effects, rows) if e.status == "changed" and e.delta is not None]

    def top(kind: str, sign: int) -> list[dict[str, Any]]:
        chosen = [(e, d, r) for e, d, r in changed if e.kind == kind and (d.numerator > 0) == (sign > 0)]
        chosen.sort(key=lambda edr: (-sign * gmpy2.mpq(edr[1]), edr[0].source, edr[0].target))  # GMP compares fast
        return [r for _, _, r in chosen[:TOP]]

    return {"min_length": min_length, "candidates": len(effects),
            "counts": {status: sum(1 for e in effects if e.status == status) for status in STATUSES},
            "counterintuitive": sum(1 for e in effects if e.counterintuitive),
            "counterintuitive_ladders": sum(1 for e in effects if e.counterintuitive and e.kind == "ladder"),
            "counterintuitive_chutes": sum(1 for e in effects if e.counterintuitive and e.kind == "chute"),
            "first_player_base": rounded(base_first),
            "top": {"helpful_ladders": top("ladder", -1), "harmful_chutes": top("chute", +1),
                    "lengthening_ladders": top("ladder", +1), "shortening_chutes": top("chute", -1)},
            "jumps": rows}


def exact_candidate(board: Board, source: int, target: int) -> dict[str, Any]:
    """One candidate in full, exactly: expected turns and the first player's chance with the jump added."""
    variant = with_jump(board, source, target)
    try:
        chain = turn_chain(variant)
        mean = chain.expected_turns[chain.start]
    except (BoardError, KeyError, ValueError) as exc:
        raise BoardError(f"a jump {source}→{target}: the game can no longer end ({exc})") from None
    p = chain.first_player_wins
    return {"from": source, "to": target, "expected_turns": exact_json(mean), "first_player_wins": exact_json(p),
            "first_player_preview": decimal_string(p, 20)}
