"""The rules a board must keep, each broken one named in a phrase that points at the file's key."""

from __future__ import annotations

from collections.abc import Iterable

from .reach import doomed_squares, reachable_squares, trapped_squares
from .rules import Rules


class BoardError(ValueError):
    """A board file that cannot be used; the message is a single line meant for people, or, when a folder
    of boards is checked at once, one such line per bad file (`problems`)."""

    @property
    def problems(self) -> list[str]:
        """The message's lines: one per bad file, each naming its file."""
        return str(self).splitlines()





def check_board(board: Rules, name: str) -> None:
    """Raise `BoardError` listing every rule an unchecked board breaks."""
    problems = board_problems(board)
    if problems:
        raise BoardError(f"{name}: " + "; ".join(problems))


def board_problems(board: Rules) -> list[str]:
    """Every rule the board breaks, one phrase each, jumps named as in its file (the game-can-end check
    only once the other rules hold). The rules are stated on the method page."""
    problems = rule_problems(board)
    if problems:
        return problems
    trapped = unreachable_end(board)
    if trapped:  # the same words as compute.record.words.Words.unending, which a page writes in its language
        problems.append(f"the game can fail to end: from the start a player can reach "
                        f"square{'s' if len(trapped) > 1 else ''} {_ranges(trapped)}, "
                        f"from which square {board.squares} can never be reached")
    return problems


def rule_problems(board: Rules) -> list[str]:
    """The rules the board breaks but for the game-can-end check (`unreachable_end`), which needs them to hold."""
    last = board.squares
    chutes_key = board.chute_word
    ladders, chutes = list(board.ladders), list(board.chutes)
    problems: list[str] = []
    problems += _roll_problems(board)
    starts: dict[int, str] = {}
    entries = [("ladders", i, j) for i, j in enumerate(ladders)] + \
              [(chutes_key, i, j) for i, j in enumerate(chutes)]
    for key, i, (a, b) in entries:
        where = f"{key}[{i}] = [{a}, {b}]"
        if not 1 <= a < last:
            problems.append(f"{where}: a jump must start on a square from 1 to {last - 1}")
        elif not 0 <= b <= last:
            problems.append(f"{where}: a jump must end on a square from 0 to {last}")
        elif a == b:
            problems.append(f"{where}: a jump must go somewhere (from and to are equal)")
        elif key == "ladders" and b < a:
            problems.append(f"{where}: a ladder goes up; this one goes down (list it under {chutes_key})")
        elif key != "ladders" and b > a:
            problems.append(f"{where}: a {key[:-1]} goes down; this one goes up (list it under ladders)")
        elif a in starts:
            problems.append(f"{where}: square {a} already starts {starts[a]}")
        else:
            starts[a] = where
    for key, i, (a, b) in entries:
        if b in starts and starts.get(a) == f"{key}[{i}] = [{a}, {b}]":
            problems.append(f"{key}[{i}] = [{a}, {b}]: ends on square {b}, where {starts[b]} starts "
                            f"(jumps may not chain)")
    if board.start >= last:
        problems.append(f"start: must be below the last square {last}, got {board.start}")
    elif board.start in starts:
        problems.append(f"start: square {board.start} is where {starts[board.start]} starts; "
                        f"start at its other end instead")
    return problems


def unreachable_end(board: Rules) -> list[int]:
    """The squares a player can reach from the start from which the last square can never be reached: none
    unless the game can fail to end (the board keeping the other rules, `rule_problems`)."""
    if board.start not in doomed_squares(board):
        return []
    reach = reachable_squares(board)
    return sorted(s for s in trapped_squares(board) if s in reach)


def _roll_problems(board: Rules) -> list[str]:
    """What is wrong with the rolls: the dice, their weights, the roll to enter and the roll-again rule."""
    problems: list[str] = []
    die, dice = board.die, board.dice
    if board.weights is not None:
        if len(board.weights) != die:
            problems.append(f"weights: one weight per face of the die ({die}), got {len(board.weights)}")
        elif not any(board.weights):
            problems.append("weights: at least one face must have a weight above 0 (all are 0)")
    if problems:
        return problems
    totals = dict(board.rolls)
    again = board.roll_again_on
    if again is not None and again not in totals:
        if dice == 1 and not 1 <= again <= die:
            problems.append(f"roll_again_on: must be a face of the die (1 to {die}), got {again}")
        elif dice == 1:
            problems.append(f"roll_again_on: the die never shows a {again} (its weight is 0)")
        else:
            problems.append(f"roll_again_on: {dice} dice of {die} faces never make a total of {again} "
                            f"(they make {_ranges(sorted(totals))})")
    largest = max(totals)
    if board.overshoot == "bounce" and largest > board.squares:
        if dice == 1:
            problems.append(f"die: with overshoot = \"bounce\" the die may have at most {board.squares} faces "
                            f"(one per square), got {die}")
        else:
            problems.append(f"dice: with overshoot = \"bounce\" a roll may be at most {board.squares} (the "
                            f"squares), but {dice} dice of {die} faces make up to {largest}")
    if board.choice is not None and board.overshoot == "bounce" and largest + 1 > board.squares:
        problems.append(f"choice: with overshoot = \"bounce\" a move may be at most {board.squares} (the squares), "
                        f"but a roll of {largest} flipped to heads moves {largest + 1}")
    bad = [f"[{q}, {r}]" for q, r, *_ in board.flips if r not in totals or not 0 <= q < board.squares]
    if board.flips and board.choice is None:
        problems.append("flips: a play of flips needs choice = \"coin\"")
    elif bad:
        problems.append(f"flips: no roll from a square of the board: {', '.join(bad)}")
    if again is not None and board.roll_again_limit is None and die == 1 and dice == 1:
        problems.append("roll_again_on: a 1-faced die would roll again forever")
    elif again is not None and board.roll_again_limit is None and list(totals) == [again]:
        problems.append(f"roll_again_on: every roll is a {again}, so a turn would roll again forever "
                        f"(give roll_again_limit to end it)")
    if again is None:
        for key in ("roll_again_limit", "roll_again_penalty"):
            if getattr(board, key) is not None:
                problems.append(f"{key}: needs roll_again_on (the roll that rolls again)")
    elif board.roll_again_penalty is not None and board.roll_again_limit is None:
        problems.append("roll_again_penalty: needs roll_again_limit (the most extra rolls in one turn)")
    if board.enter_on is not None:
        twice = sorted({v for v in board.enter_on if board.enter_on.count(v) > 1})
        if twice:
            problems.append(f"enter_on: {_ranges(twice)} listed more than once (list each roll once)")
        never = [v for v in board.enter_on if v not in totals]
        if never:
            problems.append(f"enter_on: no roll makes {_ranges(never)} (a roll makes {_ranges(sorted(totals))})")
    return problems


def runs(squares: Iterable[int]) -> list[tuple[int, int]]:
    """Squares as runs of consecutive ones, each (first, last): [3, 4, 5, 9] → [(3, 5), (9, 9)]."""
    out: list[tuple[int, int]] = []
    for s in sorted(squares):
        if out and s == out[-1][1] + 1:
            out[-1] = (out[-1][0], s)
        else:
            out.append((s, s))
    return out


def _ranges(squares: list[int]) -> str:
    """Compact text for a list of squares: '3-7, 9'."""
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs(squares))
