"""House rules, exact: a roll to enter, several dice, weighted faces, a roll-again limit and its penalty.

The exact turn chain is checked against the tests' own solver, written here from the rules' statement
(every roll path of a turn enumerated with fractions, then (I − Q)t = 1 solved by elimination), on random
small boards; the bundled house-rule boards against published guide values and the simulation.
"""

from __future__ import annotations

import tomllib
from fractions import Fraction
from itertools import product
from math import prod

import pytest
from helpers import board_file
from hypothesis import given, settings
from hypothesis import strategies as st

from chutes.compute.board.file import board_from_mapping
from chutes.compute.board.model import Board
from chutes.compute.board.problems import BoardError
from chutes.compute.record.criteria import SIMULATION_Z
from chutes.compute.solve.chain import turn_chain
from chutes.compute.solve.jumps import jump_usage, shortest_game
from chutes.compute.solve.simulate import game_lengths

CLASSIC = tomllib.loads(board_file("classic").read_text())


def _roll_chances(die: int, dice: int, weights: list[int] | None) -> dict[int, Fraction]:
    """Every total of `dice` dice and its chance, by listing every outcome of the dice."""
    w = weights or [1] * die
    chances: dict[int, Fraction] = {}
    for faces in product(range(1, die + 1), repeat=dice):
        p = Fraction(1)
        for f in faces:
            p *= Fraction(w[f - 1], sum(w))
        chances[sum(faces)] = chances.get(sum(faces), Fraction(0)) + p
    return {v: p for v, p in chances.items() if p}


def _step(spec: dict, square: int, roll: int) -> int:
    """One roll's move, from the rules' statement (not from the board model)."""
    last = spec["squares"]
    if square == 0 and spec.get("enter_on") is not None and roll not in spec["enter_on"]:
        return 0
    target = square + roll
    if target > last:
        target = {"stay": square, "pass": last, "bounce": 2 * last - target}[spec.get("overshoot", "stay")]
    jumps = dict(map(tuple, spec.get("ladders", []) + spec.get("chutes", [])))
    return jumps.get(target, target)


def _turn(spec: dict, square: int) -> dict[int, Fraction]:
    """Where one turn from `square` ends (the last square: the game is won), by every roll path of the turn."""
    chances = _roll_chances(spec["die"], spec.get("dice", 1), spec.get("weights"))
    again, limit = spec.get("roll_again_on"), spec.get("roll_again_limit")
    ends: dict[int, Fraction] = {}

    def walk(here: int, extra: int, p: Fraction) -> None:
        for roll, q in chances.items():
            if roll == again and extra == limit:
                where = square if spec.get("roll_again_penalty", "undo") == "undo" else 0
                ends[where] = ends.get(where, Fraction(0)) + p * q
                continue
            nxt = _step(spec, here, roll)
            if roll == again and nxt != spec["squares"]:
                walk(nxt, extra + 1, p * q)
            else:
                ends[nxt] = ends.get(nxt, Fraction(0)) + p * q

    walk(square, 0, Fraction(1))
    return ends


def _expected_turns(spec: dict, squares: list[int]) -> dict[int, Fraction]:
    """Expected turns to finish from each of `squares` (the chain's states): (I − Q)t = 1 by elimination."""
    index = {s: i for i, s in enumerate(squares)}
    n = len(squares)
    rows = []
    for s in squares:
        row = [Fraction(int(i == index[s])) for i in range(n)] + [Fraction(1)]
        for where, p in _turn(spec, s).items():
            if where != spec["squares"]:
                row[index[where]] -= p
        rows.append(row)
    for c in range(n):
        pivot = next(r for r in range(c, n) if rows[r][c])
        rows[c], rows[pivot] = rows[pivot], rows[c]
        for r in range(n):
            if r != c and rows[r][c]:
                factor = rows[r][c] / rows[c][c]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[c])]
    return {s: rows[index[s]][n] / rows[index[s]][index[s]] for s in squares}


@st.composite
def house_boards(draw) -> dict:
    """Small boards under random combinations of the house rules (a limit whenever roll-again is on, so
    that every turn has finitely many roll paths), valid by construction or refused by the model."""
    squares = draw(st.integers(8, 18))
    die = draw(st.integers(2, 4))
    dice = draw(st.integers(1, 2))
    spec = {"title": "t", "squares": squares, "die": die, "dice": dice,
            "overshoot": draw(st.sampled_from(["pass", "bounce"] if dice > 1 else ["stay", "pass", "bounce"]))}
    if draw(st.booleans()):  # some faces may weigh 0: rolls that never come up, so that squares can trap
        spec["weights"] = draw(st.lists(st.integers(0, 4), min_size=die, max_size=die).filter(any))
    totals = list(range(dice, dice * die + 1))
    if draw(st.booleans()):
        spec["enter_on"] = sorted(set(draw(st.lists(st.sampled_from(totals), min_size=1, max_size=2))))
    if draw(st.booleans()):
        spec["roll_again_on"] = draw(st.sampled_from(totals))
        spec["roll_again_limit"] = draw(st.integers(0, 2))
        spec["roll_again_penalty"] = draw(st.sampled_from(["undo", "start"]))
    if draw(st.integers(0, 3)) == 0:
        spec["start"] = draw(st.integers(1, squares - 1))
    feet = draw(st.lists(st.integers(1, squares - 1), unique=True, max_size=3))
    ends = [draw(st.integers(0, squares)) for _ in feet]
    jumps = [[a, b] for a, b in zip(feet, ends) if a != b and b not in feet and a != spec.get("start")]
    spec["ladders"] = [j for j in jumps if j[1] > j[0]]
    spec["chutes"] = [j for j in jumps if j[1] < j[0]]
    return spec


def _safe_squares(spec: dict) -> set[int]:
    """The squares where a turn can begin (no jump's foot) from which the game ends with probability one:
    every square that turns can lead to, with a chance above 0 (`_turn`), can still reach the last square."""
    last = spec["squares"]
    feet = {a for a, _ in spec.get("ladders", []) + spec.get("chutes", [])}
    squares = [s for s in range(last) if s not in feet]
    after = {s: {t for t in _turn(spec, s) if t != last} for s in squares}
    finishes = {s for s in squares if last in _turn(spec, s)}
    while True:
        more = {s for s in squares if s not in finishes and after[s] & finishes}
        if not more:
            break
        finishes |= more
    reach = {}
    for s in squares:
        seen, todo = {s}, [s]
        while todo:
            for t in after[todo.pop()] - seen:
                seen.add(t)
                todo.append(t)
        reach[s] = seen
    return {s for s in squares if reach[s] <= finishes}


@settings(max_examples=80, deadline=None)
@given(house_boards())
def test_the_turn_chain_agrees_with_every_roll_path_of_a_turn(spec: dict) -> None:
    """A board is refused as one whose game can fail to end exactly when a turn-by-turn search over every roll
    path says so; otherwise the chain's states are the squares from which the game surely ends and its
    expected turns are those of the roll paths, exactly."""
    try:
        board = board_from_mapping(spec, "t.toml")
    except BoardError as exc:
        if "the game can fail to end" in str(exc):
            assert spec.get("start", 0) not in _safe_squares(spec)
        return  # else refused for a jump chain or a roll rule, as the file would be
    chain = turn_chain(board)
    assert set(chain.states) == _safe_squares(spec)
    direct = _expected_turns(spec, list(chain.states))
    assert dict(zip(chain.states, chain.expected_turns)) == direct


def test_a_roll_again_limit_is_followed_through_the_turn_when_asking_if_a_game_ends() -> None:
    """Reachability goes turn by turn: a limit that sends every turn back is refused, and a board whose turns
    can only end on squares that finish is accepted even though single rolls could reach a trap."""
    never = [{"squares": 4, "die": 1, "roll_again_on": 1, "roll_again_limit": 1},
             {"squares": 12, "die": 6, "weights": [0, 0, 0, 0, 0, 1], "roll_again_on": 6, "roll_again_limit": 1}]
    for spec in never:
        with pytest.raises(BoardError, match="the game can fail to end: from the start a player can reach square 0,"):
            board_from_mapping({"title": "t", **spec}, "t.toml")
    ends = {"title": "t", "squares": 6, "die": 3, "weights": [0, 1, 1], "roll_again_on": 2, "roll_again_limit": 1,
            "start": 1}
    chain = turn_chain(board_from_mapping(ends, "t.toml"))
    assert chain.expected_turns[chain.start] == _expected_turns(ends, list(chain.states))[1] == Fraction(8, 3)


def test_a_penalty_to_square_0_where_square_0_is_doomed_never_happens() -> None:
    """A board that starts past square 0, from which no turn can end in a penalty: square 0 itself is doomed (its
    every turn ends in the penalty that sends it back there), and the chain leaves it out."""
    spec = {"title": "t", "squares": 4, "die": 1, "roll_again_on": 1, "roll_again_limit": 2,
            "roll_again_penalty": "start", "start": 2}
    chain = turn_chain(board_from_mapping(spec, "t.toml"))
    assert 0 not in chain.states and chain.expected_turns[chain.start] == 1
    assert dict(zip(chain.states, chain.expected_turns)) == _expected_turns(spec, list(chain.states))


def test_the_bundled_house_rules_boards_match_the_guide_values() -> None:
    """Values no one here computed: about 45.46 turns with a six to enter, 33.11 with a six rolling again."""
    assert round(float(turn_chain(_classic(enter_on=[6])).moments[0]), 2) == 45.46
    assert round(float(turn_chain(_classic(roll_again_on=6)).moments[0]), 2) == 33.11


def _classic(**rules) -> Board:
    return board_from_mapping({**CLASSIC, **rules}, "classic.toml")


RULES = {"six to enter": {"enter_on": [6]}, "three sixes undo": {"roll_again_on": 6, "roll_again_limit": 2},
         "three sixes start": {"roll_again_on": 6, "roll_again_limit": 2, "roll_again_penalty": "start"},
         "two dice": {"dice": 2, "overshoot": "pass"}, "weighted": {"weights": [1, 2, 3, 4, 5, 6]},
         "family": {"enter_on": [6], "roll_again_on": 6, "roll_again_limit": 2}}


@pytest.mark.parametrize("rules", RULES.values(), ids=RULES.keys())
def test_exact_float_and_simulated_means_agree(rules: dict) -> None:
    board = _classic(**rules)
    chain = turn_chain(board)
    exact = float(chain.moments[0])
    assert abs(chain.expected_turns_float[chain.start] - exact) < 1e-9 * exact
    lengths = game_lengths(board, 200_000, 11)
    spread = lengths.std() / len(lengths) ** 0.5
    assert abs(lengths.mean() - exact) < SIMULATION_Z * spread
    assert 0.5 < chain.first_player_float < 0.53


def test_a_penalty_roll_never_wins() -> None:
    """With a roll-again limit of 0 every roll of `roll_again_on` is a penalty, not moved: on a 2-faced die
    that rolls again on 1, square 9 of 10 can never finish (a 2 overshoots, the 1 is a penalty)."""
    spec = {"title": "t", "squares": 10, "die": 2, "overshoot": "stay", "roll_again_on": 1, "roll_again_limit": 0,
            "start": 9}
    assert _turn(spec, 9) == {9: Fraction(1)}
    with pytest.raises(BoardError, match="can reach square 9, from which square 10 can never be reached"):
        board_from_mapping(spec, "t.toml")
    winning = board_from_mapping({**spec, "overshoot": "pass"}, "t.toml")  # a 2 from square 9 wins
    assert dict(zip(turn_chain(winning).states, turn_chain(winning).expected_turns)) == \
        _expected_turns({**spec, "overshoot": "pass"}, list(turn_chain(winning).states))


def test_jump_use_and_the_shortest_game_follow_the_rules() -> None:
    enter = _classic(enter_on=[6])
    short = shortest_game(turn_chain(enter))
    assert short.rolls[0] == 6 and short.squares[1] == 6  # the first roll must be a 6
    plain = jump_usage(turn_chain(_classic()))
    assert jump_usage(turn_chain(enter))[(1, 38)] == 0  # square 1 can no longer be landed on from square 0
    assert plain[(1, 38)] > 0
    family = turn_chain(_classic(**RULES["family"]))
    assert shortest_game(family).turns <= shortest_game(turn_chain(_classic())).turns
    weighted = shortest_game(turn_chain(_classic(weights=[1, 2, 3, 4, 5, 6])))
    assert weighted.path_probability == prod(Fraction(face, 21) for face in weighted.rolls)


BAD = {
    "weights": ({"weights": [1, 2, 3]}, "weights: one weight per face of the die (6), got 3"),
    "weights zero": ({"weights": [0] * 6}, "weights: at least one face must have a weight above 0"),
    "weights negative": ({"weights": [1, -1, 1, 1, 1, 1]}, "weights[1]"),
    "enter_on": ({"enter_on": [7]}, "enter_on: no roll makes 7"),
    "limit alone": ({"roll_again_limit": 2}, "roll_again_limit: needs roll_again_on"),
    "penalty alone": ({"roll_again_on": 6, "roll_again_penalty": "start"},
                      "roll_again_penalty: needs roll_again_limit"),
    "again total": ({"dice": 2, "overshoot": "pass", "roll_again_on": 1}, "roll_again_on: 2 dice of 6 faces never"),
    "two dice stay": ({"dice": 2}, "from which square 100 can never be reached"),
}


@pytest.mark.parametrize("rules,message", BAD.values(), ids=BAD.keys())
def test_bad_house_rules_get_one_line_naming_the_key(rules: dict, message: str) -> None:
    with pytest.raises(BoardError) as caught:
        _classic(**rules)
    text = str(caught.value)
    assert message in text and "\n" not in text and text.startswith("classic.toml: ")
    if rules == {"dice": 2}:
        assert "can reach square 99," in text
