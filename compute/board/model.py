"""Board files: parse TOML, validate, and hold the result as an immutable `Board`.

Every problem with a board file becomes a `BoardError` whose message is one line naming the file,
the key or entry, and what is wrong; the command line prints it as it is. A folder of boards is checked
whole (`compute.stage.load_all`): its error has one such line per bad file.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from functools import cached_property
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, PrivateAttr, ValidationError, model_validator

from .problems import BoardError, board_problems
from .rules import roll_target

Jump = tuple[int, int]


class Board(BaseModel):
    """A board, validated once, here: squares 1..`squares`, players start on `start` (0 is off the board).

    Making a `Board` checks every rule (`board_problems`) and raises pydantic's ValidationError if one is
    broken; `variant` makes a changed copy, checked again. The experiments' deliberately invalid boards
    (a new jump that may chain) are made explicitly with `unchecked`."""

    model_config = ConfigDict(frozen=True)

    title: str
    squares: int
    die: int
    overshoot: Literal["stay", "bounce", "pass"] = "stay"
    ladders: tuple[Jump, ...] = ()
    chutes: tuple[Jump, ...] = ()
    roll_again_on: int | None = None
    start: int = 0
    source: str = ""
    slug: str = ""
    chute_word: Literal["chutes", "snakes"] = "chutes"
    listed: bool = True
    _jumps: dict[int, int] = PrivateAttr(default_factory=dict)

    def model_post_init(self, context: Any) -> None:
        self._jumps.update(self.ladders + self.chutes)

    @model_validator(mode="after")
    def _rules(self) -> Board:
        problems = board_problems(self)
        if problems:
            raise ValueError("; ".join(problems))
        return self

    @classmethod
    def unchecked(cls, **fields: Any) -> Board:
        """A board whose rules are not checked (the experiments add jumps that may chain, on purpose)."""
        board = cls.model_construct(**fields)
        board.model_post_init(None)
        return board

    @property
    def jumps(self) -> dict[int, int]:
        """Where a roll that lands on each jump's foot takes the player."""
        return self._jumps

    @property
    def last(self) -> int:
        """The winning square."""
        return self.squares

    @cached_property
    def _move(self) -> Callable[[int, int], int]:
        """The rule with this board bound once (a private attribute costs a slow lookup on every call)."""
        return functools.partial(roll_target, self.squares, self.overshoot, self._jumps)

    def move(self, square: int, roll: int) -> int:
        """Square after one roll from `square` (the rules: `compute.board.rules`)."""
        return self._move(square, roll)

    def canonical(self) -> dict[str, Any]:
        """Everything that determines the results, in a fixed form (title and source excluded)."""
        return {
            "squares": self.squares,
            "die": self.die,
            "overshoot": self.overshoot,
            "roll_again_on": self.roll_again_on,
            "start": self.start,
            "ladders": sorted(list(j) for j in self.ladders),
            "chutes": sorted(list(j) for j in self.chutes),
        }

    def fields(self) -> dict[str, Any]:
        """Everything needed to make this board again with Board(**fields) (plain data, picklable)."""
        return self.model_dump()

    def variant(self, **changes: Any) -> Board:
        """A copy with some fields changed, checked again (BoardError naming the board if a rule breaks)."""
        try:
            return Board(**{**self.fields(), **changes})
        except ValidationError as exc:
            raise BoardError(f"{self.slug or 'board'}: {rules_message(exc)}") from None


def rules_message(exc: ValidationError) -> str:
    """The rule problems of a Board's ValidationError, without pydantic's prefix."""
    return "; ".join(str(e["msg"]).removeprefix("Value error, ") for e in exc.errors())


