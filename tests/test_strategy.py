"""The best play when the rules give a choice (the coin): optimal against every deterministic play on small boards,
Bellman's equation on every bundled board with a choice, each strategy's simulation against its exact mean, the
two-player games certified against exact solves, and the refusals."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from flint import fmpq_mat
from helpers import BUNDLED, board, random_coin_board
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from threadpoolctl import threadpool_limits

from chutes.compute.board.file import board_from_mapping
from chutes.compute.board.model import Board, BoardError
from chutes.compute.board.reach import doomed_squares
from chutes.compute.record.criteria import SIMULATION_Z
from chutes.compute.solve import duel, limited, strategy
from chutes.compute.solve.chain import turn_chain
from chutes.compute.solve.simulate import game_lengths

CHOICE = [slug for slug in BUNDLED if board(slug).choice is not None]


@st.composite
def small_coin_boards(draw) -> Board:
    """A valid board with the coin whose plays are few enough to try every one (at most 2⁹)."""
    squares = draw(st.integers(3, 7))
    die = draw(st.integers(1, 3))
    spec = {"squares": squares, "die": die, "choice": "coin",
            "overshoot": draw(st.sampled_from(["stay", "pass"] + (["bounce"] if die + 1 <= squares else [])))}
    if die > 1 and draw(st.booleans()):
        spec["roll_again_on"] = draw(st.integers(1, die))
    foot = draw(st.integers(1, squares - 1))
    head = draw(st.integers(0, squares).filter(lambda h: h != foot))
    spec["ladders" if head > foot else "chutes"] = [[foot, head]]
    try:
        b = board_from_mapping(spec, "small", "small")
    except BoardError:
        assume(False)
    assume(len(strategy.options(b).decisions) <= 9)
    return b


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(small_coin_boards())
def test_the_best_play_beats_every_deterministic_play_from_every_square(b: Board) -> None:
    play = strategy.best_play(b)
    opts = play.options
    for chosen in itertools.product([False, True], repeat=len(opts.decisions)):
        flips = {d for d, flip in zip(opts.decisions, chosen) if flip}
        values = strategy.evaluate(opts, flips)
        if values is None:  # a play whose game can fail to end is worth infinitely many turns
            continue
        assert all(play.values[q] <= values[q] for q in opts.squares)
        if flips == set(play.flips):
            assert values == play.values
    assert strategy.bellman_holds(play)


@st.composite
def small_limited_coin_boards(draw, penalty: str | None = None) -> Board:
    """A valid board with the coin and a roll-again limit (`penalty`, or "undo" or "start"), sometimes a roll to
    enter, whose plays over (square, rolls so far in the turn, square where it began) are few enough to try every
    one (≤ 2⁸)."""
    squares = draw(st.integers(3, 6))
    die = draw(st.integers(2, 3))
    spec = {"squares": squares, "die": die, "choice": "coin", "roll_again_on": draw(st.integers(1, die)),
            "roll_again_limit": draw(st.integers(0, 2)),
            "roll_again_penalty": penalty or draw(st.sampled_from(["undo", "start"])),
            "overshoot": draw(st.sampled_from(["stay", "pass"] + (["bounce"] if die + 1 <= squares else [])))}
    if draw(st.integers(0, 3)) == 0:
        spec["enter_on"] = [draw(st.integers(1, die))]
    foot = draw(st.integers(1, squares - 1))
    head = draw(st.integers(0, squares).filter(lambda h: h != foot))
    spec["ladders" if head > foot else "chutes"] = [[foot, head]]
    try:
        b = board_from_mapping(spec, "small", "small")
    except BoardError:
        assume(False)
    assume(len(limited.turn_options(b).turn_decisions) <= 8)
    return b


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(small_limited_coin_boards())
def test_under_a_limit_the_best_play_beats_every_deterministic_play_from_every_square(b: Board) -> None:
    """Every play that chooses by (square, roll, rolls so far in the turn, square where it began), each played as a
    board (`Board.outcomes_at`) and solved by its turn chain, apart from the solver: none is shorter from any square
    where a turn can begin, and the play found is the chain of the board played best."""
    play = strategy.best_play(b)
    assert isinstance(play.options, limited.TurnOptions) and strategy.bellman_holds(play)
    decisions = play.options.turn_decisions
    tried = 0
    for chosen in itertools.product([False, True], repeat=len(decisions)):
        played = b.played([d for d, flip in zip(decisions, chosen) if flip])
        if b.start in doomed_squares(played):  # its game can fail to end: worth infinitely many turns
            continue
        chain = turn_chain(played)
        tried += 1
        for q, t in zip(chain.states, chain.expected_turns):
            if q in play.values:
                assert play.expected_turns(q) <= t
    assert tried >= 1
    best = turn_chain(play.board)
    assert best.expected_turns[best.start] == play.expected_turns(b.start) == turn_chain(b).moments[0]


def _turn_bellman(play: strategy.Play) -> None:
    """Under a roll-again limit, from the play's W alone: each state's value from the last roll of a turn back,
    the chosen move no worse than the other at every state and roll, each square's first roll adding up to W."""
    opts = play.options
    assert isinstance(opts, limited.TurnOptions)
    W, total, chosen = play.values, opts.board.roll_weight, set(play.flips)
    V: dict = {}

    def worth(option) -> Fraction:
        return sum((w * (0 if n is None else V[n] if n[1] else 1 + W[n[0]]) for w, n in option), Fraction(0))

    for state in sorted(opts.rolls, key=lambda s: -s[1]):
        value = Fraction(0)
        for r, stay, flip in opts.rolls[state]:
            flips = (state[0], r, state[1], state[2]) in chosen
            assert flip is not None or not flips
            mine, other = (flip, stay) if flips else (stay, flip)
            assert other is None or worth(mine) <= worth(other)
            value += worth(mine)
        V[state] = value / total
    assert all(V[(q, 0, q)] == W[q] for q in opts.squares)


@pytest.mark.parametrize("slug", CHOICE)
def test_bellman_holds_on_every_bundled_board_with_a_choice(slug: str) -> None:
    """Exactly, at every square and roll: the play's choice is worth no more than the other, and each square's
    value is its rolls' sum (recomputed here from the options, apart from `bellman_holds`); under a roll-again
    limit at every state of a turn."""
    play = strategy.best_play(board(slug))
    assert strategy.bellman_holds(play)
    if isinstance(play.options, limited.TurnOptions):
        _turn_bellman(play)
        assert turn_chain(board(slug)).expected_turns[0] == play.expected_turns(board(slug).start)
        return
    opts, W = play.options, play.values
    last, total = opts.board.squares, opts.board.roll_weight

    def worth(option) -> Fraction:
        return sum((w * (0 if nxt == last else W[nxt] + (not goes_on)) for w, nxt, goes_on in option), Fraction(0))

    for q in opts.squares:
        best = [min(worth(stay), worth(flip)) if flip is not None else worth(stay) for _, stay, flip in opts.rolls[q]]
        assert sum(best) == total * W[q]
    assert turn_chain(board(slug)).expected_turns[0] == play.expected_turns(0)


def test_the_coin_makes_the_classic_board_much_shorter() -> None:
    b = board("classic-coin")
    rows = {key: value for key, _, value in strategy.compared(strategy.best_play(b))}
    assert rows["never"] == turn_chain(b.variant(choice=None)).expected_turns[0]  # the box rules
    assert rows["best"] < rows["chute_heads"] < rows["never"] < rows["always"]
    assert 16 < rows["best"] < 17


def test_under_a_limit_the_best_play_depends_on_the_rolls_so_far() -> None:
    """On the family rules with the coin a six's best choice differs with the rolls so far or where the turn began
    on some square; the best play with no limit is the limit's as it grows."""
    b = board("classic-family-coin")
    play = strategy.best_play(b)
    assert play.board.flips_by_turn
    assert strategy.compared(play)[-1][2] < min(v for _, _, v in strategy.compared(play)[:-1] if v is not None)
    coin = board("classic-coin").variant(roll_again_on=6)
    far = strategy.best_play(coin.variant(roll_again_limit=12)).expected_turns(0)
    assert abs(far - strategy.best_play(coin).expected_turns(0)) < Fraction(1, 10**6)


@pytest.mark.parametrize("slug", ["classic-coin", "classic-family-coin"])
@pytest.mark.parametrize("key", ["never", "always", "chute_heads", "ladder_neighbours", "best"])
def test_each_strategy_simulates_to_its_exact_mean(slug: str, key: str) -> None:
    """200,000 games played with each strategy's flips (under a limit the best play's by the rolls so far and the
    turn's square), within SIMULATION_Z standard errors (from the exact variance) of its exact expected turns."""
    b = board(slug)
    play = strategy.best_play(b)
    flips = set(play.board.flips) if key == "best" else dict((k, f) for k, _, f in strategy.STRATEGIES)[key](
        play.options)
    chain = turn_chain(b.played(flips)) if flips else turn_chain(b.variant(choice=None))
    mean, variance = chain.moments
    lengths = game_lengths(chain.board, 200_000, seed=5)
    z = abs(lengths.mean() - float(mean)) / math.sqrt(float(variance) / len(lengths))
    assert z <= SIMULATION_Z, (key, z)


def _exact_pairs(opts: strategy.Options, plays: list) -> list[dict[tuple[int, int], Fraction]]:
    """A's chance under fixed plays (plays[p][(square, roll, other square)] → flip; p = 0 when A moves, 1 when B
    moves), exactly, by one rational solve over every pair and mover: a reference for the certified ones."""
    squares, last, total = opts.squares, opts.board.squares, opts.board.roll_weight
    keys = [(p, i, j) for p in range(2) for i in squares for j in squares]
    at = {k: n for n, k in enumerate(keys)}
    A = [[0] * len(keys) for _ in keys]
    b = [0] * len(keys)
    for (p, i, j), row in at.items():
        A[row][row] += total
        for r, stay, flip in opts.rolls[i]:
            for w, nxt, goes_on in flip if flip is not None and plays[p].get((i, r, j)) else stay:
                if nxt == last:
                    b[row] += w if p == 0 else 0  # the mover wins: A's chance is 1 or 0
                else:
                    A[row][at[(p, nxt, j) if goes_on else (1 - p, j, nxt)]] -= w
    X = fmpq_mat(A).solve(fmpq_mat(len(keys), 1, b))
    return [{(i, j): Fraction(int(X[at[(p, i, j)], 0].p), int(X[at[(p, i, j)], 0].q)) for i in squares
             for j in squares} for p in range(2)]


SMALL_DUELS = {
    "ladder and chute": {"squares": 9, "die": 3, "ladders": [[2, 6]], "chutes": [[7, 1]]},
    "bounce": {"squares": 8, "die": 3, "overshoot": "bounce", "chutes": [[6, 2]]},
    "roll again": {"squares": 9, "die": 3, "roll_again_on": 3, "ladders": [[1, 4]], "chutes": [[8, 3]]},
    "pass": {"squares": 10, "die": 4, "overshoot": "pass", "ladders": [[3, 7]], "chutes": [[9, 2]]},
}


@pytest.mark.parametrize("b_chooses", [False, True], ids=["against box", "both maximise"])
@pytest.mark.parametrize("spec", SMALL_DUELS.values(), ids=SMALL_DUELS.keys())
def test_the_two_player_games_are_certified_against_an_exact_solve(spec: dict, b_chooses: bool) -> None:
    """On small boards: the certified decimals are the exact values of the plays found, to the last decimal, and
    no single choice of a chooser improves on its play anywhere a game from the start can go (checked exactly on
    every pair reached by any choice): the plays are each the best reply to the other, so the values are the
    game's."""
    b = board_from_mapping({**spec, "choice": "coin"}, "small", "small")
    play = strategy.best_play(b)
    opts = play.options
    game = duel._Game(opts, b_chooses)
    plays, _, _ = game.solve(duel._start(opts, play.flips))
    rows = [(opts.squares[game.r.square[k]], r) for k, (r, _, _) in
            enumerate(x for q in opts.squares for x in opts.rolls[q])]
    table = [{(i, r, opts.squares[j]): bool(plays[p][k, j]) for k, (i, r) in enumerate(rows) for j in range(game.n)}
             for p in range(2)]
    if not b_chooses:
        assert not any(table[1].values())  # the box rules
    U = _exact_pairs(opts, table)
    s = b.start
    found = (duel.both_maximise if b_chooses else duel.best_against_box)(opts, play.flips)
    half = Fraction(1, 2 * 10**duel.CERTIFIED_DIGITS)
    assert abs(Fraction(found.first.decimal) - U[0][(s, s)]) <= half
    assert abs(Fraction(found.second.decimal) - U[1][(s, s)]) <= half
    if b_chooses:
        assert Fraction(found.first.decimal) + Fraction(found.second.decimal) == 1
    last = opts.board.squares

    def worth(p: int, option, j: int) -> Fraction:
        return sum((w * (Fraction(p == 0) if nxt == last else U[p][(nxt, j)] if goes_on else U[1 - p][(j, nxt)])
                    for w, nxt, goes_on in option), Fraction(0))

    reached = {(0, s, s), (1, s, s)}  # by any choice of a chooser (B moving as rolled where B never flips)
    todo = list(reached)
    while todo:
        p, i, j = todo.pop()
        for _, stay, flip in opts.rolls[i]:
            for w, nxt, goes_on in stay + (flip or () if p == 0 or b_chooses else ()):
                state = (p, nxt, j) if goes_on else (1 - p, j, nxt)
                if w and nxt != last and state not in reached:
                    reached.add(state)
                    todo.append(state)
    for p, i, j in sorted(reached):  # A maximises A's chance, B minimises it
        if p == 0 or b_chooses:
            for r, stay, flip in opts.rolls[i]:
                if flip is not None:
                    chosen, other = (flip, stay) if table[p][(i, r, j)] else (stay, flip)
                    gain = worth(p, chosen, j) - worth(p, other, j)
                    assert (gain >= 0) if p == 0 else (gain <= 0), (p, i, j, r)


def test_the_float_solve_falls_back_on_gmres_with_the_same_answer() -> None:
    """The float solve's fallback (GMRES, where Richardson steps stall) solves the same equations."""
    b = board_from_mapping({**SMALL_DUELS["roll again"], "choice": "coin"}, "small", "small")
    play = strategy.best_play(b)
    game = duel._Game(play.options, True)
    plays, _ = game.float_plays(duel._start(play.options, play.flips))
    chosen = game._pair(plays)
    rhs = game.constant(chosen).astype(float)
    W = game.r.total

    def operator(x: np.ndarray) -> np.ndarray:
        return W * x - game.apply(chosen, x)

    bases = [p.sum(axis=1) * 2 > game.n for p in plays]
    x = game._gmres(operator, game._stein(bases), rhs, np.zeros_like(rhs), 1e-13)
    assert np.abs(operator(x) - rhs).max() < 1e-11
    assert np.allclose(x, game.solver(plays, chosen)(rhs, 1e-13), atol=1e-11)


def _value_iteration(opts: strategy.Options, b_chooses: bool, rounds: int = 100_000) -> tuple[float, float]:
    """A's chance from both on the start, A moving first and B moving first, by value iteration in floats from 0
    (it rises to the game's value), apart from compute.solve.duel: every roll's options, the best taken."""
    squares, last, total = opts.squares, opts.board.squares, float(opts.board.roll_weight)
    index = {q: i for i, q in enumerate(squares)}
    n = len(squares)
    rows, table = [], []  # per roll: its square; per option and outcome (weight, wins, square, goes on)
    for q in squares:
        for _, stay, flip in opts.rolls[q]:
            rows.append(index[q])
            table.append([[(w / total, nxt == last, index.get(nxt, 0), goes_on) for w, nxt, goes_on in option]
                          + [(0.0, True, 0, False)] * (2 - len(option)) for option in (stay, flip or stay)])
    w, wins, to, again = (np.array([[[o[x] for o in option] for option in roll] for roll in table]) for x in range(4))
    to = to.astype(int)
    U = np.zeros((2, n, n))
    for _ in range(rounds):
        new = np.zeros_like(U)
        for p in range(2):
            mine, theirs = U[p][to], U[1 - p][:, to].transpose(1, 2, 3, 0)  # K × 2 × 2 × n
            value = (w[..., None] * np.where(wins[..., None], float(p == 0),
                                             np.where(again[..., None], mine, theirs))).sum(axis=2)
            best = value.max(axis=1) if p == 0 else value.min(axis=1) if b_chooses else value[:, 0]
            np.add.at(new[p], rows, best)
        change = np.abs(new - U).max()
        U = new
        if change < 1e-15:
            break
    s = index[opts.board.start]
    return float(U[0][s, s]), float(U[1][s, s])


@pytest.mark.parametrize("b_chooses", [False, True], ids=["against box", "both maximise"])
def test_the_two_player_games_agree_with_value_iteration_on_a_large_board(b_chooses: bool) -> None:
    """A random 125-square board with the coin (beyond the old limit of 100): the certified chances are those
    value iteration converges to."""
    play = strategy.best_play(random_coin_board(125, jumps=8, seed=3))
    opts = play.options
    assert len(opts.squares) > 100
    found = (duel.both_maximise if b_chooses else duel.best_against_box)(opts, play.flips)
    first, second = _value_iteration(opts, b_chooses)
    assert abs(float(found.first.decimal) - first) < 1e-10
    assert abs(float(found.second.decimal) - second) < 1e-10


def _turn_step(opts: limited.TurnOptions, p: int, s: tuple, j: int, option) -> list[tuple[int, object]]:
    """Where an option's outcomes lead from mover p in state s against the other on j: (weight, "win"), (weight,
    "loss": a state from which the mover can never finish, the other's win) or (weight, the next (mover, state,
    other's square)): the same mover's next roll, or the other's turn begun on their square."""
    out: list[tuple[int, object]] = []
    for w, nxt in option:
        if nxt is None:
            out.append((w, "win"))
        elif nxt[1] and nxt in opts.rolls:
            out.append((w, (p, nxt, j)))
        elif not nxt[1] and nxt[0] in opts.squares:
            out.append((w, (1 - p, (j, 0, j), nxt[0])))
        else:
            out.append((w, "loss"))
    return out


def _turn_states(opts: limited.TurnOptions, b_chooses: bool) -> list[tuple]:
    """Every (mover, state, other's square) a game from both on the start reaches, either moving first, by any
    choice of a chooser (B moving as rolled where B never flips)."""
    s = opts.board.start
    todo = [(0, (s, 0, s), s), (1, (s, 0, s), s)]
    seen = set(todo)
    while todo:
        p, state, j = todo.pop()
        for _, stay, flip in opts.rolls[state]:
            for option in (stay, flip) if flip is not None and (p == 0 or b_chooses) else (stay,):
                for w, nxt in _turn_step(opts, p, state, j, option):
                    if w and isinstance(nxt, tuple) and nxt not in seen:
                        seen.add(nxt)
                        todo.append(nxt)
    return sorted(seen)


def _exact_turn_pairs(opts: limited.TurnOptions, plays: list[dict], keys: list[tuple]) -> dict[tuple, Fraction]:
    """Under a roll-again limit: A's chance under fixed plays (plays[p][(state, roll, other's square)] → flip; a
    state (square, rolls so far in the turn, square where it began); p = 0 when A moves, 1 when B moves), exactly,
    by one rational solve over the states reached (`keys`), read from the turn's options alone."""
    at = {k: n for n, k in enumerate(keys)}
    A = [[0] * len(keys) for _ in keys]
    b = [0] * len(keys)
    for (p, s, j), row in at.items():
        A[row][row] += opts.board.roll_weight
        for r, stay, flip in opts.rolls[s]:
            for w, nxt in _turn_step(opts, p, s, j, flip if flip is not None and plays[p][(s, r, j)] else stay):
                if isinstance(nxt, tuple):
                    A[row][at[nxt]] -= w
                else:  # the game is over: A's chance is 1 or 0
                    b[row] += w if (nxt == "win") == (p == 0) else 0
    X = fmpq_mat(A).solve(fmpq_mat(len(keys), 1, b))
    return {k: Fraction(int(X[at[k], 0].p), int(X[at[k], 0].q)) for k in keys}


def _turn_plays(game: duel._Game, opts: limited.TurnOptions, plays: list[np.ndarray]) -> list[dict]:
    """The game's plays (rows × the other's squares) as plays[p][(state, roll, other's square)] → flip."""
    rows = [(s, r) for s, rolls in opts.rolls.items() for r, _, _ in rolls]
    return [{(s, r, opts.squares[j]): bool(plays[p][k, j]) for k, (s, r) in enumerate(rows) for j in range(game.n)}
            for p in range(2)]


def _turn_value_iteration(opts: limited.TurnOptions, b_chooses: bool, keys: list[tuple], rounds: int = 20_000
                          ) -> dict[tuple, float]:
    """A's chance at the states reached (`keys`) under a roll-again limit, by value iteration in floats from 0 (it
    rises to the game's value), every roll's options, the best taken."""
    U = dict.fromkeys(keys, 0.0)

    def worth(p: int, s: tuple, j: int, option) -> float:
        return sum(w * (U[nxt] if isinstance(nxt, tuple) else float((nxt == "win") == (p == 0)))
                   for w, nxt in _turn_step(opts, p, s, j, option))

    for _ in range(rounds):
        new = {}
        for p, s, j in keys:
            value = 0.0
            for _, stay, flip in opts.rolls[s]:
                options = [worth(p, s, j, stay)] + ([worth(p, s, j, flip)] if flip is not None and (
                    p == 0 or b_chooses) else [])
                value += max(options) if p == 0 else min(options)
            new[(p, s, j)] = value / opts.board.roll_weight
        change = max(abs(new[k] - U[k]) for k in U)
        U = new
        if change < 1e-15:
            break
    return U


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@pytest.mark.parametrize("b_chooses", [False, True], ids=["against box", "both maximise"])
@pytest.mark.parametrize("penalty", ["undo", "start"])
@given(data=st.data())
def test_under_a_limit_the_two_player_games_are_certified_against_an_exact_solve(penalty: str, b_chooses: bool,
                                                                                 data: st.DataObject) -> None:
    """On small random boards with a roll-again limit (each penalty): the certified decimals are the exact values
    of the plays found (one rational solve over every (mover, state of the turn, other's square)), to the last
    decimal; no single choice of a chooser improves on its play at any state, roll and square of the other
    (checked exactly: the plays are each the best reply to the other); and value iteration over every choice
    rises to the same chances."""
    b = data.draw(small_limited_coin_boards(penalty))
    play = strategy.best_play(b)
    opts = play.options
    assert isinstance(opts, limited.TurnOptions)
    game = duel._Game(opts, b_chooses)
    plays, _, _ = game.solve(duel._start(opts, play.flips))
    table = _turn_plays(game, opts, plays)
    if not b_chooses:
        assert not any(table[1].values())  # the box rules
    keys = _turn_states(opts, b_chooses)
    U = _exact_turn_pairs(opts, table, keys)
    start = [(p, (b.start, 0, b.start), b.start) for p in range(2)]
    found = (duel.both_maximise if b_chooses else duel.best_against_box)(opts, play.flips)
    half = Fraction(1, 2 * 10**duel.CERTIFIED_DIGITS)
    assert abs(Fraction(found.first.decimal) - U[start[0]]) <= half
    assert abs(Fraction(found.second.decimal) - U[start[1]]) <= half
    if b_chooses:
        assert Fraction(found.first.decimal) + Fraction(found.second.decimal) == 1

    def worth(p: int, s: tuple, j: int, option) -> Fraction:
        return sum((w * (U[nxt] if isinstance(nxt, tuple) else Fraction((nxt == "win") == (p == 0)))
                    for w, nxt in _turn_step(opts, p, s, j, option)), Fraction(0))

    for p, state, j in keys:  # A maximises A's chance, B minimises it
        if p == 0 or b_chooses:
            for r, stay, flip in opts.rolls[state]:
                if flip is not None:
                    chosen, other = (flip, stay) if table[p][(state, r, j)] else (stay, flip)
                    gain = worth(p, state, j, chosen) - worth(p, state, j, other)
                    assert (gain >= 0) if p == 0 else (gain <= 0), (p, state, j, r)
    iterated = _turn_value_iteration(opts, b_chooses, keys)
    assert abs(float(found.first.decimal) - iterated[start[0]]) < 1e-9
    assert abs(float(found.second.decimal) - iterated[start[1]]) < 1e-9


def _simulated_duel(opts: limited.TurnOptions, plays: list[np.ndarray], games: int, a_first: bool, seed: int
                    ) -> float:
    """A's share of `games` two-player games under a roll-again limit, each roll drawn from the board's rolls and
    moved by the turn's options (a flip's two moves half each), A choosing by plays[0] and B by plays[1] (rows
    (state, roll) in the options' order × the other's square), from both on the start, A moving first or not."""
    rng = np.random.default_rng(seed)
    states = list(opts.rolls)
    order = {s: i for i, s in enumerate(states)}
    squares = {q: i for i, q in enumerate(opts.squares)}
    faces = [r for r, _ in opts.board.rolls]
    chance = np.array([w for _, w in opts.board.rolls], dtype=float)
    chance /= chance.sum()
    row_of = np.zeros((len(states), len(faces)), dtype=int)
    weight, kind, to = (np.zeros((sum(len(x) for x in opts.rolls.values()), 2, 2), dtype=int) for _ in range(3))
    k = 0
    for s, rolls in opts.rolls.items():
        for r, stay, flip in rolls:
            row_of[order[s], faces.index(r)] = k
            for o, option in enumerate((stay, flip or stay)):
                for i, (w, nxt) in enumerate(option):
                    weight[k, o, i] = w
                    kind[k, o, i], to[k, o, i] = ((0, 0) if nxt is None else (1, order[nxt]) if nxt[1]
                                                  else (2, squares[nxt[0]]))
            k += 1
    begin = np.array([order[(q, 0, q)] for q in opts.squares])
    start = squares[opts.board.start]
    mover = np.full(games, 0 if a_first else 1)
    state, other = np.full(games, begin[start]), np.full(games, start)
    a_wins = np.zeros(games, dtype=bool)
    live = np.arange(games)
    while live.size:
        p, s, j = mover[live], state[live], other[live]
        k = row_of[s, rng.choice(len(faces), size=live.size, p=chance)]
        o = np.where(p == 0, plays[0][k, j], plays[1][k, j]).astype(int)
        second = rng.random(live.size) * weight[k, o].sum(axis=1) >= weight[k, o, 0]
        what, where = kind[k, o, second.astype(int)], to[k, o, second.astype(int)]
        won = what == 0
        a_wins[live[won & (p == 0)]] = True
        again, ends = live[what == 1], what == 2
        state[again] = where[what == 1]
        turned = live[ends]
        mover[turned] = 1 - p[ends]
        state[turned] = begin[j[ends]]
        other[turned] = where[ends]
        live = live[~won]
    return float(a_wins.mean())


LIMITED_DUELS = {
    "classic-family-coin": lambda: board("classic-family-coin"),
    "random 40 squares, a second 6 sends to the start": lambda: random_coin_board(40, jumps=4, seed=2).variant(
        roll_again_on=6, roll_again_limit=1, roll_again_penalty="start"),
}


@pytest.mark.parametrize("b_chooses", [False, True], ids=["against box", "both maximise"])
@pytest.mark.parametrize("name", LIMITED_DUELS)
def test_under_a_limit_the_two_player_games_simulate_to_their_certified_chances(name: str, b_chooses: bool) -> None:
    """200,000 two-player games played with the plays found (by the other's square, the rolls so far in the turn
    and where it began), half with A moving first: A's share within SIMULATION_Z standard errors of the certified
    chance each time."""
    b = LIMITED_DUELS[name]()
    play = strategy.best_play(b)
    opts = play.options
    assert isinstance(opts, limited.TurnOptions)
    game = duel._Game(opts, b_chooses)
    with threadpool_limits(1):  # as the duels are solved: small dense products, threads only compete
        plays, _, (first, second) = game.solve(duel._start(opts, play.flips))
    for a_first, bounds in ((True, first), (False, second)):
        exact = float(Fraction(duel._certified(*bounds).decimal))
        games = 100_000
        share = _simulated_duel(opts, plays, games, a_first, seed=11)
        z = abs(share - exact) / math.sqrt(exact * (1 - exact) / games)
        assert z <= SIMULATION_Z, (a_first, share, exact, z)


@pytest.mark.parametrize("slug", CHOICE)
def test_no_bundled_board_with_a_choice_has_a_null_duel(slug: str) -> None:
    """Both duels are certified on every bundled board with a choice, under a roll-again limit too."""
    from chutes.compute.record.results import strategy_json

    found = strategy_json(turn_chain(board(slug)))
    assert found is not None
    assert found["against_box"] is not None and found["both_maximise"] is not None
    assert "duels_not_computed" not in found
    first = Fraction(found["both_maximise"]["first"])
    assert first + Fraction(found["both_maximise"]["second"]) == 1
    assert Fraction(found["against_box"]["first"]) > first  # playing best against the box rules wins more


@pytest.mark.parametrize(("extra", "message"), [
    ({"overshoot": "bounce", "squares": 6}, "choice: with overshoot = \"bounce\" a move may be at most 6"),
    ({"choice": "dice"}, "choice: must be one of \"coin\""),
])
def test_invalid_combinations_are_refused_in_one_line(extra: dict, message: str) -> None:
    spec = {"squares": 20, "die": 6, "choice": "coin", "ladders": [[3, 11]], **extra}
    with pytest.raises(BoardError) as refused:
        board_from_mapping(spec, "b.toml", "b")
    assert message in str(refused.value) and "\n" not in str(refused.value)


def test_the_cost_model_prices_the_two_player_games_and_refuses_a_huge_board() -> None:
    """Every size is solved now: a 150-square board with the coin is accepted, its estimate counting the two
    games; a 1,000-square one is refused in one line, with the estimate."""
    from chutes.compute.board.cost import check_cost, estimated_seconds

    medium = random_coin_board(150, jumps=10, seed=1)
    seconds, _ = check_cost(strategy.as_played(medium), "medium.toml")
    assert seconds > estimated_seconds(medium.variant(choice=None))[0]
    huge = random_coin_board(1000, jumps=10, seed=1)
    with pytest.raises(BoardError) as refused:
        check_cost(huge, "huge.toml")
    assert "two-player games" in str(refused.value) and "\n" not in str(refused.value)


def test_the_cost_model_prices_the_two_player_games_under_a_limit() -> None:
    """Under a roll-again limit the duels' states are those of a turn: the cost model counts them as the solver
    does (classic-family-coin) and prices the duels by them, so that a board with the coin costs more with a limit
    than without one, and a 400-square board with a limit of 2 is refused in one line, with the estimate."""
    from chutes.compute.board.cost import check_cost, estimated_seconds, turn_states

    family = board("classic-family-coin")
    assert turn_states(family) == len(limited.turn_options(family).rolls)
    medium = random_coin_board(150, jumps=10, seed=1)
    limit = {"roll_again_on": 6, "roll_again_limit": 2, "roll_again_penalty": "undo"}
    assert estimated_seconds(medium.variant(**limit))[0] > 3 * estimated_seconds(medium.variant(roll_again_on=6))[0]
    large = random_coin_board(400, jumps=10, seed=1).variant(**limit)
    with pytest.raises(BoardError) as refused:
        check_cost(large, "large.toml")
    assert "two-player games" in str(refused.value) and "states of a turn" in str(refused.value)
    assert "\n" not in str(refused.value)
