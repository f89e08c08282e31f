"""Assemble a board's results into one JSON-ready dictionary (and a plain-words summary).

This is what `chutes solve --json` prints: exact values as {numerator, denominator, decimal},
floats only where they are labelled as such.
"""

from __future__ import annotations

from fractions import Fraction
from math import isqrt
from typing import TYPE_CHECKING, Any

from ..board.model import Board
from ..numbers import bracket, decimal_string, exact_json, fraction_json
from ..solve.chain import TurnChain
from ..solve.exact import bounds_after
from ..solve.jumps import jump_usage, shortest_game

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..solve.duel import Duel, Flips
    from ..solve.limited import TurnOptions
    from ..solve.strategy import Options

WITHIN = (20, 50, 100)
PERCENTILES = ("2.5", "5", "10", "90", "95", "97.5")
BOUND_TURNS = (9, 100, 500)


def board_json(board: Board) -> dict[str, Any]:
    """The board's own definition, as read from its file; `chute_word` only for a board that says "snakes" and its
    translations only if it has some (a board with neither keeps the record it always had)."""
    return {"slug": board.slug, "title": board.title, "source": board.source, "listed": board.listed,
            **({"chute_word": board.chute_word} if board.chute_word != "chutes" else {}), **board.canonical(),
            **({"translations": board.words()} if board.translations else {})}


def solve(chain: TurnChain) -> dict[str, Any]:
    """Every one- and two-player headline result for a board's chain, exactly (what `chutes solve --json`
    prints): the values first, then their JSON form."""
    mean, variance = chain.moments
    deviation = _sqrt_fraction(variance)
    board = board_json(chain.board)
    short = shortest_game(chain)
    usage = sorted(jump_usage(chain).items())
    dist = chain.distribution
    after = bounds_after(dist, BOUND_TURNS)
    exact = {str(n): after[n] for n in BOUND_TURNS}
    mode = dist.mode()
    quartiles = {name: dist.quantile(q) for name, q in
                 (("lower_quartile", Fraction(1, 4)), ("median", Fraction(1, 2)), ("upper_quartile", Fraction(3, 4)))}
    percentiles = {p: dist.quantile(Fraction(p) / 100) for p in PERCENTILES}
    landmarks = sorted({*quartiles.values(), *percentiles.values()})
    shortest_chance = dist.term(short.turns)
    over_within = {k: dist.cdf(min(k, dist.terms)) for k in WITHIN
                   if k <= dist.terms or not dist.alive}  # beyond the exact part: 1 if every game is over
    at_most = {k: dist.cdf(k) for k in landmarks}
    landed = chain.landing_chances
    return {
        "board": board,
        "turn_states": chain.size,
        "expected_turns": exact_json(mean),
        "variance": exact_json(variance),
        "standard_deviation": decimal_string(deviation),
        "first_player_wins": fraction_json(chain.first_player_wins),  # a probability: no sign in its digits
        "game_length": {
            "mode": mode,
            **quartiles,
            "shortest": {"turns": short.turns, "rolls": list(short.rolls), "squares": list(short.squares),
                         "probability": exact_json(shortest_chance),
                         "path_probability": exact_json(short.path_probability)},
            "percentiles": percentiles,
            "over_within": {str(k): exact_json(p) for k, p in over_within.items()},
            "at_most": {str(k): exact_json(p) for k, p in at_most.items()},
            "more_than": {str(k): exact_json(1 - p) for k, p in at_most.items()},
            "exact_terms": dist.terms,
        },
        "bounds": {n: [float(lower), float(upper)] for n, (lower, upper) in exact.items()},
        "bounds_outward": {n: bracket(lower, upper) for n, (lower, upper) in exact.items()},
        "expected_turns_from": {str(sq): exact_json(t) for sq, t in zip(chain.states, chain.expected_turns)},
        "expected_visits": {str(sq): exact_json(v) for sq, v in zip(chain.states, chain.expected_visits)},
        "landing_chance": None if landed is None else {str(sq): exact_json(p) for sq, p in landed.items()},
        "jump_usage": [{"from": a, "to": b, "kind": "ladder" if b > a else "chute", "per_game": exact_json(u)}
                       for (a, b), u in usage],
        **({"strategy": strategy_json(chain)} if chain.board.choice is not None else {}),
    }


SIMPLE_RULES = (("chute_heads", ("chute_heads",)), ("ladder_neighbours", ("ladder_neighbours",)),
                ("both", ("chute_heads", "ladder_neighbours")))
"""Rules a player can follow at the table (`words.Words.advice` says them), each the flips of the named strategies
together."""


def snakes(words: str, chute_word: str) -> str:
    """Words about chutes as the board's file names them: "snake" for a board written with `snakes = [...]`."""
    return words.replace("chute", "snake") if chute_word == "snakes" else words


def strategy_json(chain: TurnChain) -> dict[str, Any] | None:
    """A board with a choice: where the best play flips, that it is optimal (Bellman's equation, checked exactly),
    the named strategies' exact expected turns and what each loses, the first of two players' chance when both
    play best, and the best simple rule in one sentence (`SIMPLE_RULES`, each evaluated exactly). None without a
    choice."""
    from ..solve import duel  # numpy and scipy: only for a board with a choice
    from ..solve.limited import TurnOptions
    from ..solve.strategy import STRATEGIES, bellman_holds, best_play, compared, evaluate

    board = chain.board
    if board.choice is None:
        return None
    play = best_play(board.played(()))
    if not bellman_holds(play):
        raise ArithmeticError("the best play does not satisfy Bellman's equation")
    best = play.expected_turns(board.start)
    rows = compared(play)
    named = {key: flips(play.options) for key, _, flips in STRATEGIES}
    simple = []
    for order, (rule, keys) in enumerate(SIMPLE_RULES):
        W = evaluate(play.options, set().union(*(named[k] for k in keys)), board.start)
        if W is not None:
            simple.append((1 + W[board.start], order, rule))
    never = next(value for key, _, value in rows if key == "never")
    assert never is not None, "the box rules' game ends (the board was validated)"
    simple_rule = None
    if play.flips and simple and min(simple)[0] < never:
        value, _, rule = min(simple)
        simple_rule = {"rule": rule, "expected_turns": exact_json(value)}
    if isinstance(play.options, TurnOptions):
        chosen = set(play.flips)
        first = sorted({(q, r) for q, r, k, _ in play.flips if k == 0})
        later = [{"square": q, "roll": r, "rolls_so_far": k, "began": o, "flip": (q, r, k, o) in chosen}
                 for q, r, k, o in play.options.turn_decisions
                 if k > 0 and ((q, r, k, o) in chosen) != ((q, r) in set(first))]
        ties = sorted({(q, r) for q, r, *_ in play.ties})
        parts: dict[str, Any] = {"later": later}
    else:
        first, ties = [(f[0], f[1]) for f in play.flips], [(t[0], t[1]) for t in play.ties]
        parts = {}
    parts["against_box"] = _certified(duel.best_against_box, play.options, play.flips)  # the one-player best play:
    parts["both_maximise"] = _certified(duel.both_maximise, play.options, play.flips)  # the duels' first proposal
    found: dict[str, Any] = {
        "flips": [list(f) for f in first],
        "ties": [list(t) for t in ties],
        "rounds": play.rounds,
        "bellman": True,
        "strategies": [{"key": key, "label": snakes(label, board.chute_word),
                        "expected_turns": None if value is None else exact_json(value),
                        "loss": None if value is None else exact_json(value - best)} for key, label, value in rows],
        "both_best": exact_json(chain.first_player_wins),
        "both_best_second": exact_json(1 - chain.first_player_wins),
        **parts,
        "simple_rule": simple_rule,
    }
    from .words import ENGLISH  # pydantic and Babel: only for a board with a choice

    found["advice"] = ENGLISH.advice(found, {"chute_word": board.chute_word, "roll_again_limit": board.roll_again_limit,
                                             "roll_again_on": board.roll_again_on})
    return found


def _certified(game: Callable[[Options | TurnOptions, Flips], Duel], options: Options | TurnOptions,
               flips: Flips) -> dict[str, Any] | None:
    """A two-player game's JSON (its first plays proposed from the one-player best play), or None where its
    certification fails (an interval straddling a rounding boundary: not met on any board so far)."""
    from ..solve.duel import CERTIFIED_DIGITS, GUARD_DIGITS

    try:
        found = game(options, flips)
    except ArithmeticError:
        return None
    return {"first": found.first.decimal, "second": found.second.decimal,
            "error_bound": f"1e-{CERTIFIED_DIGITS + GUARD_DIGITS}", "flips": found.flips, "depends": found.depends}


def _sqrt_fraction(x: Fraction, digits: int = 60) -> Fraction:
    """√x to about `digits` significant digits, as a fraction (for display only)."""
    scale = 10 ** (2 * digits)
    return Fraction(isqrt(x.numerator * scale // x.denominator), 10**digits)
