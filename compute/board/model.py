"""Board files: parse TOML, validate, and hold the result as an immutable `Board`.

Every problem with a board file becomes a `BoardError` whose message is one line naming the file,
the key or entry, and what is wrong; the command line prints it as it is. A folder of boards is checked
whole (`compute.stage.load_all`): its error has one such line per bad file.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from functools import cached_property
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, PrivateAttr, ValidationError, model_validator

from .problems import BoardError, board_problems
from .rules import roll_landing, roll_target

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
    roll_again_limit: int | None = None
    roll_again_penalty: Literal["undo", "start"] | None = None
    enter_on: tuple[int, ...] | None = None
    dice: int = 1
    weights: tuple[int, ...] | None = None
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

    @cached_property
    def _move(self) -> Callable[[int, int], int]:
        """The rule with this board bound once (a private attribute costs a slow lookup on every call)."""
        return functools.partial(roll_target, self.squares, self.overshoot, self._jumps)

    def move(self, square: int, roll: int) -> int:
        """Square after one roll (a total of the dice) from `square`: a roll that `enter_on` does not list
        leaves a token on square 0 where it is; otherwise the rules of `compute.board.rules`."""
        if square == 0 and self.enter_on is not None and roll not in self.enter_on:
            return 0
        return self._move(square, roll)

    def landing(self, square: int, roll: int) -> int:
        """The square a roll lands on, before any chute or ladder (`squares` if it wins)."""
        if square == 0 and self.enter_on is not None and roll not in self.enter_on:
            return 0
        return roll_landing(self.squares, self.overshoot, square, roll)

    @cached_property
    def rolls(self) -> tuple[tuple[int, int], ...]:
        """Every total one roll can make, with its whole-number weight (of `roll_weight` in all), in
        increasing order: the `dice`-fold convolution of one die's faces 1..`die` weighted by `weights`
        (reduced by their common divisor; equal weights: each face weighs 1)."""
        faces = self.weights or (1,) * self.die
        common = math.gcd(*faces) or 1
        one = {face: w // common for face, w in enumerate(faces, start=1) if w}
        totals = {0: 1}
        for _ in range(self.dice):
            summed: dict[int, int] = {}
            for total, weight in totals.items():
                for face, w in one.items():
                    summed[total + face] = summed.get(total + face, 0) + weight * w
            totals = summed
        return tuple(sorted(totals.items()))

    @cached_property
    def roll_weight(self) -> int:
        """The sum of the weights of `rolls`: a roll of total v has chance weight(v) / roll_weight."""
        return sum(w for _, w in self.rolls)

    @property
    def penalty(self) -> Literal["undo", "start"] | None:
        """Where a roll of `roll_again_on` beyond `roll_again_limit` sends the token ("undo": where the turn
        began, "start": square 0), or None without a limit."""
        if self.roll_again_limit is None:
            return None
        return self.roll_again_penalty or "undo"

    @property
    def house_rules(self) -> bool:
        """Whether the board uses a rule beyond one fair die and roll-again: a roll to enter, several dice,
        weighted faces or a roll-again limit."""
        return (self.enter_on is not None or self.dice > 1 or self.weights is not None
                or self.roll_again_limit is not None)

    def canonical(self) -> dict[str, Any]:
        """Everything that determines the results, in a fixed form (title and source excluded). The house
        rules appear only when used, so a board without them keeps the form (and cache key) it always had."""
        house = {"roll_again_limit": self.roll_again_limit, "roll_again_penalty": self.penalty,
                 "enter_on": None if self.enter_on is None else list(self.enter_on),
                 "dice": self.dice if self.dice > 1 else None,
                 "weights": None if self.weights is None else list(self.weights)}
        return {
            "squares": self.squares,
            "die": self.die,
            "overshoot": self.overshoot,
            "roll_again_on": self.roll_again_on,
            **{key: value for key, value in house.items() if value is not None},
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


