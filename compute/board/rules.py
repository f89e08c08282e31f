"""The movement rule of one die roll, shared by validation, the turn chain and the exact results.

Kept apart from the board file format so that the rule is written once: roll, apply the overshoot
rule, then follow a chute or ladder that starts where the roll landed.
"""

from __future__ import annotations

from collections.abc import Mapping


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
