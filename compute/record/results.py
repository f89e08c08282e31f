"""Assemble a board's results into one JSON-ready dictionary (and a plain-words summary).

This is what `chutes solve --json` prints: exact values as {numerator, denominator, decimal},
floats only where they are labelled as such.
"""

from __future__ import annotations

from fractions import Fraction
from math import isqrt
from typing import Any

from ..board.model import Board
from ..numbers import decimal_string, exact_json, fraction_json
from ..solve.chain import TurnChain
from ..solve.exact import bounds as exact_bounds
from ..solve.jumps import jump_usage, shortest_game
from .words import rules_in_words

WITHIN = (20, 50, 100)
PERCENTILES = ("2.5", "5", "10", "90", "95", "97.5")
BOUND_TURNS = (9, 100, 500)


def board_json(board: Board) -> dict[str, Any]:
    """The board's own definition, as read from its file."""
    return {"slug": board.slug, "title": board.title, "source": board.source, "listed": board.listed,
            **board.canonical()}


def solve(chain: TurnChain) -> dict[str, Any]:
    """Every one- and two-player headline result for a board's chain, exactly (what `chutes solve --json`
    prints)."""
    dist = chain.distribution
    mean, variance = chain.moments
    short = shortest_game(chain)
    usage = sorted(jump_usage(chain).items())
    bounds = {str(n): [float(x) for x in exact_bounds(dist, n)] for n in BOUND_TURNS}
    quartiles = {name: dist.quantile(q) for name, q in
                 (("lower_quartile", Fraction(1, 4)), ("median", Fraction(1, 2)), ("upper_quartile", Fraction(3, 4)))}
    return {
        "board": board_json(chain.board),
        "turn_states": chain.size,
        "expected_turns": exact_json(mean),
        "variance": exact_json(variance),
        "standard_deviation": decimal_string(_sqrt_fraction(variance)),
        "first_player_wins": fraction_json(chain.first_player_wins),  # a probability: no sign in its digits
        "game_length": {
            "mode": dist.mode(),
            **quartiles,
            "shortest": {"turns": short.turns, "rolls": list(short.rolls), "squares": list(short.squares),
                         "probability": exact_json(dist.term(short.turns)),
                         "path_probability": exact_json(short.path_probability)},
            "percentiles": {p: dist.quantile(Fraction(p) / 100) for p in PERCENTILES},
            "over_within": {str(k): exact_json(dist.cdf(k)) for k in WITHIN if k <= dist.terms},
            "exact_terms": dist.terms,
        },
        "bounds": bounds,
        "expected_turns_from": {str(sq): exact_json(t) for sq, t in zip(chain.states, chain.expected_turns)},
        "expected_visits": {str(sq): exact_json(v) for sq, v in zip(chain.states, chain.expected_visits)},
        "jump_usage": [{"from": a, "to": b, "kind": "ladder" if b > a else "chute", "per_game": exact_json(u)}
                       for (a, b), u in usage],
    }


def _sqrt_fraction(x: Fraction, digits: int = 60) -> Fraction:
    """√x to about `digits` significant digits, as a fraction (for display only)."""
    scale = 10 ** (2 * digits)
    return Fraction(isqrt(x.numerator * scale // x.denominator), 10**digits)


def summary(result: dict[str, Any]) -> str:
    """The headline results in plain words."""
    b = result["board"]
    g = result["game_length"]
    p = result["first_player_wins"]
    short = g["shortest"]
    lines = [
        f"{b['title']}",
        f"  {b['squares']} squares. " + " ".join(rules_in_words(b)),
        f"  Average game: {_short(result['expected_turns'])} turns for one player "
        f"(standard deviation {float(result['standard_deviation']):.2f}).",
        f"  Median {g['median']} turns (half the games are over by then); quartiles "
        f"{g['lower_quartile']} and {g['upper_quartile']}; most likely length {g['mode']} turns.",
        f"  Shortest game: {short['turns']} turn{'s' if short['turns'] != 1 else ''}, "
        f"e.g. rolling {', '.join(map(str, short['rolls']))}; "
        f"chance of a game that short: {short['probability']['numerator']}/{short['probability']['denominator']}.",
    ]
    for k, v in g["over_within"].items():
        lines.append(f"  Over within {k} turns: {100 * float(v['decimal']):.1f}% of one-player games.")
    lines += [
        f"  First of two players wins: {p['decimal']}",
        f"    about {round(1000 * float(p['decimal']))} of every 1,000 games; exactly a fraction with "
        f"{p['numerator_digits']:,} digits over {p['denominator_digits']:,} (use --json for all of them).",
    ]
    return "\n".join(lines)


def _short(x: dict[str, str]) -> str:
    return f"{float(x['decimal']):.4f}"
