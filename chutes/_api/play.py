"""The best play of a board with a choice, for the Python API: `BestPlay`, read from the command line's JSON
through the record's own schema (`chutes.compute.record.schema.Strategy`), with its values as `Exact` fractions
and certified `Bounded` values, and drawn on the board."""

from __future__ import annotations

from base64 import b64encode
from copy import deepcopy
from dataclasses import dataclass, field
from fractions import Fraction
from html import escape
from typing import TYPE_CHECKING, Any

from chutes.compute.board.model import Board
from chutes.compute.record.schema import Duel, Strategy
from chutes.compute.record.schema import Exact as ExactJson

from .drawing import board_plot, board_png
from .exact import Exact
from .results import Bounded, _bounded_text, _shown

if TYPE_CHECKING:
    from plotly.graph_objects import Figure


@dataclass(frozen=True)
class NamedPlay:
    """One way of playing a board with a choice (never flipping, always flipping, a rule of thumb, the best play)
    and its exact expected turns from the start, and the turns it loses against the best play (None where the
    game can fail to end)."""

    key: str
    label: str
    expected_turns: Exact | None
    loss: Exact | None


@dataclass(frozen=True)
class BestPlay:
    """The best play of a board whose rules give a choice (`choice = "coin"`), proven optimal by exact policy
    iteration (Bellman's equation holds exactly at every square and roll): the (square, roll) pairs where it
    flips, the named strategies compared (the best play last), and two players' chances, exact when both play
    best, certified when a best player meets one who never flips or both maximise their own chance knowing where
    the other is (None only where a certification fails: met on no board so far). In Jupyter it shows its table
    and the flips drawn on the board (`figure()` gives that drawing as a plotly figure).

    >>> import chutes
    >>> board = chutes.Board.from_toml('squares = 10\\ndie = 6\\nchoice = "coin"\\n'
    ...                                'ladders = [[4, 9]]\\nchutes = [[8, 2]]')
    >>> play = chutes.solve(board).strategy
    >>> play.expected_turns, play.strategies[0].label, play.strategies[0].expected_turns
    (Exact(13181, 2574), 'Never flip (the box rules)', Exact(268, 33))
    >>> play.flips[:4], play.both_best.exact, play.against_box[0]
    (((0, 2), (0, 3), (0, 4), (1, 1)), True, Bounded(0.718847964194 ± 5e-31))
    """

    board: Board = field(repr=False)
    flips: tuple[tuple[int, int], ...]
    """The (square, roll) pairs where the best play flips the coin."""
    ties: tuple[tuple[int, int], ...]
    """Where flipping and moving are worth exactly the same (the best play moves there)."""
    strategies: tuple[NamedPlay, ...]
    both_best: Bounded
    """The first of two players' chance when both play best (exact)."""
    against_box: tuple[Bounded, Bounded] | None
    """A best player's chance against one who never flips, moving first and moving second (certified)."""
    both_maximise: tuple[Bounded, Bounded] | None
    """The first mover's and the second's chances when both maximise their own chance (certified)."""
    advice: str
    """One plain sentence a player can use at the table, true on this board."""
    rounds: int
    """Rounds of exact policy iteration."""
    _json: dict[str, Any] = field(repr=False)

    @classmethod
    def from_json(cls, board: Board, found: dict[str, Any]) -> BestPlay:
        """The best play of `board` from the strategy JSON the command line prints (checked by its schema)."""
        play = Strategy.model_validate(found)
        return cls(board, tuple(map(tuple, play.flips)), tuple(map(tuple, play.ties)),  # type: ignore[arg-type]
                   tuple(NamedPlay(row.key, row.label, _exact(row.expected_turns), _exact(row.loss))
                         for row in play.strategies),
                   Bounded(Exact(play.both_best.fraction)),
                   _duel(play.against_box), _duel(play.both_maximise), play.advice, play.rounds, deepcopy(found))

    @property
    def expected_turns(self) -> Exact:
        """The best play's exact expected turns from the start."""
        best = self.strategies[-1].expected_turns
        assert best is not None  # the best play always ends the game
        return best

    def to_json(self) -> dict[str, Any]:
        """The best play as `chutes strategy BOARD --json` prints it (its "strategy" field)."""
        return deepcopy(self._json)

    def figure(self) -> Figure:
        """The flips drawn on the board, as the site's board page draws them: a plotly figure."""
        return board_plot(self.board, self.flips)

    def _repr_html_(self) -> str:
        """What Jupyter shows: the advice, the strategies compared, and the flips drawn on the board."""
        rows = "".join(f"<tr><td>{escape(s.label)}</td><td>{_turns(s.expected_turns)}</td>"
                       f"<td>{_turns(s.loss)}</td></tr>" for s in self.strategies)
        chances = [("Both play best: the first wins", self.both_best)]
        if self.against_box:
            chances.append(("A best player against one who never flips, moving first", self.against_box[0]))
        if self.both_maximise:
            chances.append(("Both maximise their own chance: the first wins", self.both_maximise[0]))
        duels = "".join(f"<tr><td>{name}</td><td colspan=2>{escape(_bounded_text(value))}</td></tr>"
                        for name, value in chances)
        image = b64encode(board_png(self.board, self.flips)).decode("ascii")
        return (f"<p>{escape(self.advice)}</p><table><thead><tr><th>Strategy</th><th>Expected turns</th>"
                f"<th>Turns lost</th></tr></thead><tbody>{rows}{duels}</tbody></table>"
                f'<img src="data:image/png;base64,{image}" alt="The squares where the best play flips, and the rolls '
                f'it flips for, on the board">')


def _exact(value: ExactJson | None) -> Exact | None:
    return None if value is None else Exact(value.fraction)


def _turns(value: Exact | None) -> str:
    return "never ends" if value is None else escape(_shown(value))


def _duel(duel: Duel | None) -> tuple[Bounded, Bounded] | None:
    """A certified duel's two chances: each decimal is within half a unit of its last place of the chance (both
    ends of the certified interval round to it)."""
    if duel is None:
        return None
    return _certified(duel.first), _certified(duel.second)


def _certified(decimal: str) -> Bounded:
    places = len(decimal.partition(".")[2])
    return Bounded(Exact(decimal), Exact(Fraction(1, 2 * 10**places)))
