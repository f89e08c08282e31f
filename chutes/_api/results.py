"""Exact results for the Python API: `solve(board)` and what it answers, each value computed once when first
asked (by the board's turn chain, `chutes.compute.solve.chain.TurnChain`, which the command line shares)."""

from __future__ import annotations

from collections.abc import Sequence
from copy import deepcopy
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from html import escape
from typing import TYPE_CHECKING, Any

from chutes.compute.board.cost import BUDGET_SECONDS, check_cost
from chutes.compute.board.limits import MAX_PLAYERS
from chutes.compute.board.model import Board
from chutes.compute.numbers import decimal_string, digit_count, fraction_from_json
from chutes.compute.record.results import board_json
from chutes.compute.record.results import solve as results_json
from chutes.compute.solve.chain import TurnChain, safe_squares, turn_chain
from chutes.compute.solve.strategy import as_played

from .exact import Exact, exact

if TYPE_CHECKING:
    from plotly.graph_objects import Figure

    from chutes.compute.record.schema import BoardRecord

    from .play import BestPlay

SHOWN_DIGITS = 12
"""Significant digits of the values a result's table and representations show (the values stay exact)."""


def solve(board: Board, budget: float = BUDGET_SECONDS) -> Result:
    """The exact results of `board`, each computed when first asked. A board that would take longer than `budget`
    seconds to solve (estimated in milliseconds, from the board alone) is refused at once with a `BoardError`, as
    the command line refuses it.

    >>> import chutes
    >>> result = chutes.solve(chutes.Board.load("tiny"))
    >>> result.expected_turns
    Exact(53, 6)
    >>> print(result.first_player_wins)
    30799/57720
    >>> result.length.median, result.length.pmf(1), result.length.cdf(3)
    (7, Exact(0, 1), Exact(11, 54))
    """
    check_cost(as_played(board), board.slug or board.title, budget)
    return Result(board)


@dataclass(frozen=True)
class Bounded:
    """A number known to lie within `error_bound` of `value` (both exact, as `Exact`): certified decimals, or an
    exact value (`error_bound` 0).

    >>> Bounded(Fraction(1, 3)).exact, float(Bounded(Fraction("0.333"), Fraction("0.001")))
    (True, 0.333)
    """

    value: Exact
    error_bound: Exact = Exact(0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "value", exact(self.value))  # any fraction given: an Exact, which prints
        object.__setattr__(self, "error_bound", exact(self.error_bound))

    @property
    def exact(self) -> bool:
        """Whether `value` is the number itself."""
        return self.error_bound == 0

    def __float__(self) -> float:
        return float(self.value)

    def __repr__(self) -> str:
        return f"Bounded({decimal_string(self.value, SHOWN_DIGITS)} ± {float(self.error_bound):.3g})"


def _bounded(entry: dict[str, Any]) -> Bounded:
    """A value of the command line's JSON: exact (numerator and denominator), or certified (decimal, error bound)."""
    if entry["exact"]:
        return Bounded(Exact(fraction_from_json(entry)))
    return Bounded(Exact(entry["decimal"]), Exact(entry["error_bound"]))


@dataclass(frozen=True)
class Race:
    """Players racing on one board, the first listed moving first: each seat's chance to win (exact for two
    players, certified to 35 digits for more) and the expected number of rounds until someone wins (certified).

    >>> import chutes
    >>> race = chutes.solve(chutes.Board.load("tiny")).positions([8, 3])
    >>> [seat.value for seat in race.chances]
    [Exact(294, 481), Exact(187, 481)]
    >>> race.expected_rounds
    Bounded(4.31101871102 ± 5.63e-38)
    """

    squares: tuple[int, ...]
    chances: tuple[Bounded, ...]
    expected_rounds: Bounded
    _json: dict[str, Any] = field(repr=False)

    def to_json(self) -> dict[str, Any]:
        """The race as `chutes solve BOARD --players N --json` (or `--positions A,B,... --json`) prints it."""
        return deepcopy(self._json)

    def _repr_html_(self) -> str:
        """The table of seats Jupyter shows: each seat's square and chance, and the expected rounds."""
        rows = "".join(f"<tr><td>{seat}</td><td>{square}</td><td>{_bounded_text(chance)}</td></tr>"
                       for seat, (square, chance) in enumerate(zip(self.squares, self.chances), start=1))
        return (f"<table><caption>A race of {len(self.squares)} players, seat 1 moving first</caption><thead><tr>"
                f"<th>Seat</th><th>Square</th><th>Chance to win</th></tr></thead><tbody>{rows}</tbody><tfoot><tr>"
                f"<td colspan=3>Expected rounds: {_bounded_text(self.expected_rounds)}</td></tr></tfoot></table>")


class GameLength:
    """The number of turns one player's game lasts, exactly: its distribution (`pmf`, `cdf`, `quantile`, `mode`)
    and its `mean` and `variance`. The distribution is exact for its first `exact_terms` turns (500 on most
    boards, fewer where nearly every game is over sooner, and always past the 97.5th percentile and the mode); a
    question beyond them raises ValueError, unless every game is over by then.

    >>> import chutes
    >>> length = chutes.solve(chutes.Board.load("zeilberger-line")).length
    >>> length.mean, length.mode, length.quantile(0.9), length.pmf(40)
    (Exact(5249404473, 268435456), 19, 21, Exact(0, 1))
    """

    def __init__(self, chain: TurnChain) -> None:
        self._chain = chain

    @property
    def exact_terms(self) -> int:
        """How many turns `pmf` and `cdf` answer exactly."""
        return self._chain.distribution.terms

    def _over_by(self, k: int) -> bool:
        """Whether k lies beyond the exact part with every game over within it."""
        dist = self._chain.distribution
        return k > dist.terms and not dist.alive

    def pmf(self, k: int) -> Exact:
        """P(T = k): the chance that a game lasts exactly `k` turns."""
        if k < 1 or self._over_by(k):
            return Exact(0)
        return exact(self._chain.distribution.term(k))

    def cdf(self, k: int) -> Exact:
        """P(T ≤ k): the chance that a game is over within `k` turns."""
        return Exact(1) if self._over_by(k) else exact(self._chain.distribution.cdf(k))

    def quantile(self, q: Fraction | int | float | str) -> int:
        """The smallest k with P(T ≤ k) ≥ q, decided exactly; a float is read as the decimal it prints as (0.9
        is 9/10)."""
        level = Fraction(str(q)) if isinstance(q, float) else Fraction(q)
        if not 0 < level <= 1:
            raise ValueError(f"a quantile's level is above 0 and at most 1, got {q}")
        return self._chain.distribution.quantile(level)

    @property
    def median(self) -> int:
        """The median game length: the smallest k with P(T ≤ k) ≥ 1/2."""
        return self.quantile(Fraction(1, 2))

    @property
    def mode(self) -> int:
        """The most likely game length (the shortest, if several tie)."""
        return self._chain.distribution.mode()

    @property
    def mean(self) -> Exact:
        """E[T]: the expected number of turns."""
        return exact(self._chain.moments[0])

    @property
    def variance(self) -> Exact:
        """Var[T]: the variance of the number of turns."""
        return exact(self._chain.moments[1])


def checked_squares(board: Board, squares: Sequence[int]) -> list[int]:
    """`squares` as a list, if 2 to MAX_PLAYERS players can race from them (each a square where a turn starts
    and from which the game ends), else ValueError saying why in one line."""
    found = list(squares)
    if not 2 <= len(found) <= MAX_PLAYERS:
        raise ValueError(f"give 2 to {MAX_PLAYERS} squares (got {len(found)})")
    safe = set(safe_squares(board))
    for sq in found:
        if not 0 <= sq < board.squares:
            raise ValueError(f"square {sq} is not on the board (0 to {board.squares - 1})")
        if sq not in safe:
            why = ("is the foot of a jump; no turn starts there" if sq in board.jumps
                   else "can lead to a game that never ends")
            raise ValueError(f"square {sq} {why}")
    return found


class Result:
    """A board's exact results (from `solve`), each computed once, when first asked: values as `Exact` fractions
    (which print at any length), the game-length distribution, races of several players, the best play of a board
    with a choice, the command line's JSON and the site's figures. In Jupyter a result shows its headline table.

    >>> import chutes
    >>> result = chutes.solve(chutes.Board.load("tiny"))
    >>> result.to_json()["expected_turns"]["numerator"], result.players(3).chances[0]
    ('53', Bounded(0.377617242198 ± 8.95e-39))
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        self._races: dict[tuple[tuple[int, ...], bool], Race] = {}

    @cached_property
    def _chain(self) -> TurnChain:
        return turn_chain(self.board)

    @property
    def played(self) -> Board:
        """The board as played: itself, or with a choice, with the flips of its best play (`strategy`)."""
        return self._chain.board

    @property
    def strategy(self) -> BestPlay | None:
        """With a choice (`choice = "coin"`): the best play, proven optimal, and the strategies compared (None
        without a choice); its `to_json()` is what `chutes strategy BOARD --json` prints.

        >>> import chutes
        >>> coin = chutes.solve(chutes.Board.from_toml('squares = 10\\ndie = 6\\nchoice = "coin"\\n'
        ...                                            'ladders = [[4, 9]]\\nchutes = [[8, 2]]'))
        >>> coin.strategy.flips[:3], coin.strategy.expected_turns
        (((0, 2), (0, 3), (0, 4)), Exact(13181, 2574))
        """
        return self._best_play

    @cached_property
    def _best_play(self) -> BestPlay | None:
        """The best play, read once from the JSON (a cached property's docstring is not a doctest)."""
        found = self.to_json().get("strategy")
        if found is None:
            return None
        from .play import BestPlay

        return BestPlay.from_json(self.board, found)

    @property
    def expected_turns(self) -> Exact:
        """The expected number of turns one player takes to finish, from the board's start."""
        chain = self._chain
        return exact(chain.expected_turns[chain.start])

    @property
    def first_player_wins(self) -> Exact:
        """The chance that the first of two players wins."""
        return exact(self._chain.first_player_wins)

    @property
    def first_of_three_seconds(self) -> float:
        """About the CPU seconds `first_of_three_wins` takes (estimated from the board's chain)."""
        return self._chain.first_of_three_seconds

    @property
    def first_of_three_wins(self) -> Exact:
        """The exact chance that the first of three players wins: a fraction of many digits, which may take long
        (`first_of_three_seconds`); `players(3)` certifies it to 35 digits at once."""
        return exact(self._chain.first_of_three_wins)

    @cached_property
    def length(self) -> GameLength:
        """The game-length distribution of one player."""
        return GameLength(self._chain)

    def players(self, n: int) -> Race:
        """The race of `n` players (2 to MAX_PLAYERS) who start together on the board's start square."""
        if not 2 <= n <= MAX_PLAYERS:
            raise ValueError(f"give 2 to {MAX_PLAYERS} players (got {n})")
        return self._race((self.board.start,) * n, given=False)

    def positions(self, squares: Sequence[int]) -> Race:
        """The race of players on `squares`, the first listed moving first (ValueError if a square cannot start
        a race: off the board, the foot of a jump, or one from which a game may never end)."""
        return self._race(tuple(checked_squares(self.board, squares)), given=True)

    def _race(self, squares: tuple[int, ...], given: bool) -> Race:
        """A race, run once per squares (and per the form of its JSON, which names the squares or counts them)."""
        if (squares, given) not in self._races:
            from chutes.compute.solve.races import position_chances, race  # numpy: only for a race

            chain = self._chain
            run = race(chain, squares)
            out: dict[str, Any] = {"board": board_json(self.board)}
            out["positions" if given else "players"] = list(squares) if given else len(squares)
            out["win_probabilities"] = position_chances(chain, list(squares), result=run)
            out["expected_rounds"] = run.rounds.json()
            self._races[squares, given] = Race(squares, tuple(_bounded(w) for w in out["win_probabilities"]),
                                               _bounded(out["expected_rounds"]), out)
        return self._races[squares, given]

    def to_json(self) -> dict[str, Any]:
        """Every one- and two-player headline result, as `chutes solve BOARD --json` prints it: exact values as
        {numerator, denominator, decimal}, floats only where labelled so."""
        return results_json(self._chain)

    @cached_property
    def _record(self) -> BoardRecord:
        """The board's record as the site reads it, without the experiments (it simulates a million games for
        its checks: a few seconds)."""
        from chutes.compute.record.build import board_record
        from chutes.compute.record.schema import BoardRecord, Skipped
        from chutes.compute.store.files import checksum

        record = board_record(self.board, Skipped(skipped="not run for the figures of one result")).json_form()
        return BoardRecord.model_validate({**record, "checksum": checksum(record)}, context={"checked_before": True})

    def figures(self) -> dict[str, Figure]:
        """The charts of the board's page on the site, as plotly figures by name ("board", "length", "bounds",
        ...), built by the build stage from the board's record (computed once: a few seconds)."""
        from plotly.graph_objects import Figure

        from chutes.site_build.pages.board_page import BoardPage, chart_figures

        return {name: Figure(figure) for name, figure in chart_figures(BoardPage(self._record)).items()}

    def _repr_html_(self) -> str:
        """The headline table Jupyter shows; the board's title is text, escaped, never markup."""
        rows = [("Expected turns, one player", _shown(self.expected_turns)),
                ("Median game length", f"{self.length.median} turns"),
                ("First of two players wins", _shown(self.first_player_wins))]
        body = "".join(f"<tr><th>{name}</th><td>{escape(value)}</td></tr>" for name, value in rows)
        return f"<table><caption>{escape(self.board.title)}</caption>{body}</table>"

    def __repr__(self) -> str:
        return f"Result(board={self.board.slug or self.board.title!r})"


def _bounded_text(x: Bounded) -> str:
    """A certified or exact value in a table: its decimals, and the fraction if exact, else its error bound."""
    if x.exact:
        return _shown(x.value)
    return f"{decimal_string(x.value, SHOWN_DIGITS)} (± {float(x.error_bound):.1e})"


def _shown(x: Fraction) -> str:
    """An exact value as a table shows it: decimals, then the fraction itself if short, else its size."""
    top, bottom = digit_count(x.numerator), digit_count(x.denominator)  # a long one is too long for str()
    exact = str(Exact(x)) if top + bottom < 2 * SHOWN_DIGITS else \
        f"a fraction of {top:,} digits over {bottom:,}"
    return f"{decimal_string(x, SHOWN_DIGITS)} (exactly {exact})"
