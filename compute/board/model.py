"""Board files: parse TOML, validate, and hold the result as an immutable `Board`.

Every problem with a board file becomes a `BoardError` whose message is one line naming the file,
the key or entry, and what is wrong; the command line prints it as it is. A folder of boards is checked
whole (`compute.stage.load_all`): its error has one such line per bad file.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable
from functools import cached_property
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, model_validator

from .problems import BoardError, board_problems
from .rules import roll_landing, roll_target

Jump = tuple[int, int]
Words = tuple[str | None, str | None]
"""A board's own words in one language: its title and its source, either None where the file gives none."""
Outcome = tuple[int, int, int | None, int]
"""One way a roll goes (`Board.outcomes`): the roll, its weight, the square it lands on (None: none), where it leads."""


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
    translations: tuple[tuple[str, Words], ...] = Field(default=(), repr=False)
    """The title and source in other languages, by language code in code order (a board file's `translations`):
    words, not the game, so not in `canonical`."""
    slug: str = ""
    chute_word: Literal["chutes", "snakes"] = "chutes"
    listed: bool = True
    choice: Literal["coin"] | None = None
    flips: tuple[tuple[int, ...], ...] = ()
    """With a choice, where the player flips the coin: (square, roll) at every roll of a turn, or (square, roll,
    rolls so far in the turn, square where the turn began) at that roll only (a play under a roll-again limit);
    the play the board is solved for (`compute.solve.strategy`); empty, the box rules (never flip). A board file
    never gives it."""
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
        """The sum of the weights of `rolls`, doubled with a choice (a coin's two sides, each half a roll's
        weight): a roll of total v has chance weight(v) / roll_weight, an outcome its weight / roll_weight."""
        return sum(w for _, w in self.rolls) * (2 if self.choice else 1)

    @cached_property
    def _outcomes(self) -> dict[tuple[int, int, int], tuple[Outcome, ...]]:
        return {}

    @cached_property
    def flips_by_turn(self) -> bool:
        """Whether some flip holds only at one roll of a turn (a play that depends on the rolls so far in the turn
        and on where it began: a roll-again limit)."""
        return any(len(f) > 2 for f in self.flips)

    def outcomes(self, square: int) -> tuple[Outcome, ...]:
        """Every way one roll from `square` can go (the first roll of a turn begun there: `outcomes_at`)."""
        return self.outcomes_at(square, 0, square)

    def outcomes_at(self, square: int, rolls_so_far: int, origin: int) -> tuple[Outcome, ...]:
        """Every way one roll from `square` can go, after `rolls_so_far` rolls of a turn begun on `origin`, as
        (roll, weight of `roll_weight`, the square it lands on or None, the square it leads to), in a fixed order.
        The roll is the number rolled (it decides rolling again and entering); without a choice each roll is one
        outcome. With a choice, a roll r the player flips for there (`flips`) is two outcomes of half its weight,
        a move of r + 1 and one of r − 1 (a move of 0 leaves the token where it is); from square 0 a roll that
        `enter_on` does not list moves nothing. A roll lands nowhere if it moves nothing: not let onto the board,
        an overshoot that stays, a move of 0. (The penalty of a roll-again limit is the turn's, not the roll's.)"""
        key = (square, rolls_so_far, origin) if self.flips_by_turn else (square, 0, square)
        known = self._outcomes.get(key)
        if known is not None:
            return known
        factor = 2 if self.choice else 1
        flipped = set(self.flips)
        out: list[Outcome] = []
        for roll, weight in self.rolls:
            if square == 0 and self.enter_on is not None and roll not in self.enter_on:
                out.append((roll, weight * factor, None, 0))
                continue
            flip = (square, roll) in flipped or (square, roll, rolls_so_far, origin) in flipped
            for step, w in ((roll + 1, weight), (roll - 1, weight)) if flip else ((roll, weight * factor),):
                landed = roll_landing(self.squares, self.overshoot, square, step) if step else square
                lands = step > 0 and not (self.overshoot == "stay" and square + step > self.squares)
                out.append((roll, w, landed if lands else None, self._jumps.get(landed, landed)))
        self._outcomes[key] = tuple(out)
        return self._outcomes[key]

    def played(self, flips: Iterable[tuple[int, ...]]) -> Board:
        """The board played with these flips (a board with a choice), its rules not checked again."""
        return Board.unchecked(**{**self.fields(), "flips": tuple(sorted(flips))})

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
        weighted faces, a roll-again limit or a choice."""
        return (self.enter_on is not None or self.dice > 1 or self.weights is not None
                or self.roll_again_limit is not None or self.choice is not None)

    def canonical(self) -> dict[str, Any]:
        """Everything that determines the results, in a fixed form (title, source and translations excluded). The
        house rules appear only when used, so a board without them keeps the form (and cache key) it always had."""
        house = {"roll_again_limit": self.roll_again_limit, "roll_again_penalty": self.penalty,
                 "enter_on": None if self.enter_on is None else list(self.enter_on),
                 "dice": self.dice if self.dice > 1 else None,
                 "weights": None if self.weights is None else list(self.weights),
                 "choice": self.choice}
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

    def words(self) -> dict[str, dict[str, str]]:
        """The translations as the record holds them: {code: {"title": …, "source": …}}, each without what the
        file leaves out."""
        return {code: {key: text for key, text in (("title", title), ("source", source)) if text is not None}
                for code, (title, source) in self.translations}

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


