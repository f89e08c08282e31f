"""The movement rule of one die roll, shared by validation, the turn chain and the exact results, and what the
rule checks read of a board (`Rules`).

Kept apart from the board file format so that the rule is written once: roll, apply the overshoot
rule, then follow a chute or ladder that starts where the roll landed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol


def roll_landing(last: int, overshoot: str, square: int, roll: int) -> int:
    """Square the roll lands on, before any chute or ladder; `last` means the game is won."""
    target = square + roll
    if target <= last:
        return target
    if overshoot == "stay":
        return square
    if overshoot == "pass":
        return last
    return 2 * last - target


def roll_target(last: int, overshoot: str, jumps: Mapping[int, int], square: int, roll: int) -> int:
    """Square reached by rolling `roll` from `square`, after any chute or ladder."""
    landing = roll_landing(last, overshoot, square, roll)
    return jumps.get(landing, landing)


class Rules(Protocol):
    """What the rule checks (`problems`) and the reachability search (`reach`) read of a board. `model.Board`
    has all of it; naming it here lets the model check itself with them without their importing the model."""

    @property
    def squares(self) -> int: ...
    @property
    def die(self) -> int: ...
    @property
    def dice(self) -> int: ...
    @property
    def weights(self) -> tuple[int, ...] | None: ...
    @property
    def overshoot(self) -> str: ...
    @property
    def ladders(self) -> tuple[tuple[int, int], ...]: ...
    @property
    def chutes(self) -> tuple[tuple[int, int], ...]: ...
    @property
    def chute_word(self) -> str: ...
    @property
    def jumps(self) -> Mapping[int, int]: ...
    @property
    def start(self) -> int: ...
    @property
    def enter_on(self) -> tuple[int, ...] | None: ...
    @property
    def roll_again_on(self) -> int | None: ...
    @property
    def roll_again_limit(self) -> int | None: ...
    @property
    def roll_again_penalty(self) -> str | None: ...
    @property
    def penalty(self) -> str | None: ...
    @property
    def choice(self) -> str | None: ...
    @property
    def flips(self) -> tuple[tuple[int, ...], ...]: ...
    @property
    def rolls(self) -> tuple[tuple[int, int], ...]: ...
    def move(self, square: int, roll: int) -> int: ...
    def outcomes(self, square: int) -> tuple[tuple[int, int, int | None, int], ...]: ...
    def outcomes_at(self, square: int, rolls_so_far: int, origin: int) -> tuple[tuple[int, int, int | None, int], ...]:
        ...
