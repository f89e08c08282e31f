"""Properties on random boards: exact equals float, simulation agrees, the validator never crashes."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import boards

from chutes.compute.board.file import KNOWN_KEYS, parse_board
from chutes.compute.board.model import BoardError
from chutes.compute.solve.chain import turn_chain
from chutes.compute.solve.exact import expected_turns
from chutes.compute.solve.simulate import game_lengths, mean_turns
from chutes.compute.solve.twoplayer import first_player_wins

SLOW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SLOW
@given(boards(max_squares=30))
def test_exact_equals_float(board) -> None:
    chain = turn_chain(board)
    exact = expected_turns(chain)
    floats = chain.floats
    bound = floats.relative_error(floats.start_series.terms)  # the series' own rounding bound, and its truncation
    for e, f in zip(exact, chain.expected_turns_float):
        assert abs(f - float(e)) <= bound * float(e) + 1e-15
    assert abs(chain.first_player_float - float(first_player_wins(chain))) <= bound


@SLOW
@given(boards(max_squares=30), st.integers(0, 2**32))
def test_simulation_agrees_within_its_interval(board, seed) -> None:
    chain = turn_chain(board)
    exact = float(expected_turns(chain)[chain.start])
    estimate = mean_turns(game_lengths(board, 50_000, seed))
    half = (estimate.high - estimate.low) / 2
    # 4.5 half-widths of a 95% interval is about 4.5·1.96 standard errors: a false alarm is vanishingly rare.
    assert abs(estimate.value - exact) <= 4.5 * half + 1e-12, (estimate, exact)


TOML_VALUES = st.one_of(
    st.integers(-10**12, 10**12).map(str), st.floats(allow_nan=True).map(lambda x: repr(x).replace("inf", "inf")),
    st.text(max_size=12).map(lambda t: '"' + t.replace("\\", "\\\\").replace('"', '\\"') + '"'),
    st.sampled_from(["true", "false", "[]", "[[1, 2]]", "[[1, 2, 3]]", "[[-1, 5]]", "[[5, 5]]", "[1, 2]",
                     '[["a", 1]]', "{ a = 1 }", "1979-05-27", "[[1, 2], [2, 3]]", "[[3, 1], [1, 3]]", "nan",
                     "0x10", "1e400", '"""multi\nline"""']),
    st.lists(st.lists(st.integers(-3, 120), max_size=3), max_size=5).map(str),
)
KEYS = st.one_of(st.sampled_from(list(KNOWN_KEYS)), st.text("abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=8))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(KEYS, TOML_VALUES), max_size=12))
def test_the_validator_never_crashes_on_toml_documents(entries) -> None:
    text = "\n".join(f"{key} = {value}" for key, value in entries) + "\n"
    _check(text.encode())


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.binary(max_size=300), st.text(max_size=300).map(str.encode)))
def test_the_validator_never_crashes_on_arbitrary_bytes(data) -> None:
    _check(data)


def _check(data: bytes) -> None:
    try:
        board = parse_board(data, "h.toml")
    except BoardError as exc:
        message = str(exc)
        assert "\n" not in message and message.startswith("h.toml: ") and len(message) < 2000
    else:
        assert board.squares >= 2 and math.isfinite(board.die)
