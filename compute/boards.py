"""Board files: parse TOML, validate, and hold the result as an immutable `Board`.

Every problem with a board file becomes a `BoardError` whose message is one line naming the file,
the key or entry, and what is wrong; the command line prints it as it is. A folder of boards is checked
whole (`compute.cache.load_all`): its error has one such line per bad file.
"""

from __future__ import annotations

import difflib
import functools
import os
import re
import stat
import tomllib
from collections.abc import Callable, Mapping
from functools import cached_property
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, model_validator

from compute.limits import MAX_DIE, MAX_FILE_BYTES, MAX_SQUARES
from compute.rules import roll_target

SLUG = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,79}")
"""A board's name (its file name without .toml, at most 80 characters): it becomes a page's address and
part of a cache file's name."""


class BoardError(ValueError):
    """A board file that cannot be used; the message is a single line meant for people, or, when a folder
    of boards is checked at once, one such line per bad file (`problems`)."""

    @property
    def problems(self) -> list[str]:
        """The message's lines: one per bad file, each naming its file."""
        return str(self).splitlines()


Jump = tuple[int, int]
_Pair = Annotated[list[int], Field(min_length=2, max_length=2)]


class _BoardFile(BaseModel):
    """The shape of a board file, checked strictly (no silent conversions)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    title: str | None = Field(default=None, min_length=1)
    squares: int = Field(ge=2, le=MAX_SQUARES)
    die: int = Field(ge=1, le=MAX_DIE)
    overshoot: Literal["stay", "bounce", "pass"] = "stay"
    roll_again_on: int | None = None
    start: int = Field(default=0, ge=0)
    ladders: list[_Pair] = []
    chutes: list[_Pair] | None = None
    snakes: list[_Pair] | None = None
    source: str = ""
    listed: bool = True


KNOWN_KEYS = tuple(_BoardFile.model_fields)


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
        """Square after one roll from `square` (the rules: `compute.rules`)."""
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
            raise BoardError(f"{self.slug or 'board'}: {_rules_message(exc)}") from None


def _rules_message(exc: ValidationError) -> str:
    """The rule problems of a Board's ValidationError, without pydantic's prefix."""
    return "; ".join(str(e["msg"]).removeprefix("Value error, ") for e in exc.errors())


def _ranges(squares: list[int]) -> str:
    """Compact text for a sorted list of squares: '3-7, 9'."""
    parts: list[str] = []
    run: list[int] = []
    for s in sorted(squares):
        if run and s == run[-1] + 1:
            run.append(s)
            continue
        if run:
            parts.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
        run = [s]
    if run:
        parts.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
    return ", ".join(parts)


def _loc(loc: tuple[Any, ...]) -> str:
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += ("." if text else "") + str(part)
    return text or "(top level)"


def _pydantic_problem(error: dict[str, Any], data: Mapping[str, Any]) -> str:
    """One readable sentence for the first schema error."""
    kind = error["type"]
    loc = tuple(error["loc"])
    if kind != "extra_forbidden":  # pydantic adds the union member tried, e.g. "list[int]", to the location
        loc = tuple(p for p in loc if not (isinstance(p, str) and "[" in p))
    key = _loc(loc)
    if kind == "extra_forbidden":
        name = str(loc[0]) if loc else "?"
        guess = difflib.get_close_matches(name, KNOWN_KEYS, n=1, cutoff=0.6)
        hint = f" (did you mean '{guess[0]}'?)" if guess else f" (known keys: {', '.join(KNOWN_KEYS)})"
        return f"unknown key '{name}'{hint}"
    if kind == "missing":
        return f"{key}: missing (every board needs it)"
    value = error.get("input")
    shown = repr(value) if not isinstance(value, (list, dict)) or len(repr(value)) < 60 else type(value).__name__
    if kind in ("int_type", "string_type", "list_type", "tuple_type", "bool_type"):
        wanted = {"int_type": "a whole number", "string_type": "a string", "list_type": "a list",
                  "tuple_type": "a pair [from, to]", "bool_type": "true or false"}[kind]
        return f"{key}: expected {wanted}, got {shown}"
    if kind in ("too_short", "too_long") and loc and loc[0] in ("ladders", "chutes", "snakes"):
        return f"{key}: each jump is a pair [from, to], got {shown}"
    if kind == "literal_error":
        return f"{key}: must be one of \"stay\", \"bounce\", \"pass\", got {shown}"
    return f"{key}: {error['msg'].lower()}, got {shown}"


def board_from_mapping(data: Mapping[str, Any], name: str, slug: str = "") -> Board:
    """Validate a parsed board description; `name` prefixes every error message, which lists every problem.

    A missing title defaults to the slug (the file name), a missing source to none."""
    if not isinstance(data, Mapping):
        raise BoardError(f"{name}: a board is a table of keys, got {type(data).__name__}")
    try:
        parsed = _BoardFile.model_validate(dict(data))
    except ValidationError as exc:
        errors = sorted(exc.errors(), key=lambda e: e["type"] != "extra_forbidden")
        raise BoardError(f"{name}: " + "; ".join(_pydantic_problem(e, data) for e in errors)) from None
    if parsed.chutes is not None and parsed.snakes is not None:
        raise BoardError(f"{name}: snakes: give chutes or snakes (two names for the same thing), not both")
    chute_word = "snakes" if parsed.snakes is not None else "chutes"
    chutes = parsed.snakes if parsed.snakes is not None else (parsed.chutes or [])
    try:
        return Board(title=parsed.title or slug or Path(name).stem, squares=parsed.squares, die=parsed.die,
                     overshoot=parsed.overshoot, ladders=tuple(tuple(j) for j in parsed.ladders),
                     chutes=tuple(tuple(j) for j in chutes), roll_again_on=parsed.roll_again_on,
                     start=parsed.start, source=parsed.source, slug=slug, chute_word=chute_word,
                     listed=parsed.listed)
    except ValidationError as exc:
        raise BoardError(f"{name}: {_rules_message(exc)}") from None


def check_board(board: Board, name: str) -> None:
    """Raise `BoardError` listing every rule an unchecked board breaks."""
    problems = board_problems(board)
    if problems:
        raise BoardError(f"{name}: " + "; ".join(problems))


def board_problems(board: Board) -> list[str]:
    """Every rule the board breaks, one phrase each, jumps named as in its file (the game-can-end check
    only once the jumps are valid). The rules are stated on the method page."""
    last = board.squares
    chutes_key = board.chute_word
    ladders, chutes = list(board.ladders), list(board.chutes)
    problems: list[str] = []
    if board.roll_again_on is not None and not 1 <= board.roll_again_on <= board.die:
        problems.append(f"roll_again_on: must be a face of the die (1 to {board.die}), got {board.roll_again_on}")
    if board.overshoot == "bounce" and board.die > last:
        problems.append(f"die: with overshoot = \"bounce\" the die may have at most {last} faces "
                        f"(one per square), got {board.die}")
    if board.roll_again_on is not None and board.die == 1:
        problems.append("roll_again_on: a 1-faced die would roll again forever")
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
    if problems:
        return problems
    doomed = doomed_squares(board)
    if board.start in doomed:
        reach = reachable_squares(board)
        trapped = sorted(s for s in trapped_squares(board) if s in reach)
        problems.append(f"the game can fail to end: from the start a player can reach "
                        f"square{'s' if len(trapped) > 1 else ''} {_ranges(trapped)}, "
                        f"from which square {last} can never be reached")
    return problems


def _successors(board: Board, square: int) -> set[int]:
    return {board.move(square, roll) for roll in range(1, board.die + 1)}


def reachable_squares(board: Board, origin: int | None = None) -> set[int]:
    """Squares where a roll can be made, reachable from `origin` (default the start)."""
    origin = board.start if origin is None else origin
    seen = {origin}
    todo = [origin]
    while todo:
        for nxt in _successors(board, todo.pop()):
            if nxt != board.squares and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def roll_squares(board: Board) -> list[int]:
    """Squares a roll can be made from: not the foot of a jump, unless a jump also ends there.

    (Jumps never chain: arriving on a square by a jump does not trigger a jump starting there. Valid
    board files have no such squares; the single-jump experiments create them.)"""
    ends = set(board.jumps.values())
    return [s for s in range(board.squares) if s not in board.jumps or s in ends]


def _predecessors(board: Board) -> dict[int, set[int]]:
    """For each square, the squares from which one roll leads to it."""
    squares = roll_squares(board)
    preds: dict[int, set[int]] = {s: set() for s in squares + [board.squares]}
    for s in squares:
        for nxt in _successors(board, s):
            preds[nxt].add(s)
    return preds


def _backward(preds: dict[int, set[int]], targets: set[int]) -> set[int]:
    """Every square from which some square of `targets` can be reached (targets included)."""
    found = set(targets)
    todo = list(targets)
    while todo:
        for p in preds[todo.pop()]:
            if p not in found:
                found.add(p)
                todo.append(p)
    return found


def trapped_squares(board: Board) -> set[int]:
    """Squares from which the last square can never be reached."""
    return set(roll_squares(board)) - _backward(_predecessors(board), {board.squares})


def doomed_squares(board: Board) -> set[int]:
    """Squares from which the game may never end (a trapped square can be reached)."""
    trapped = trapped_squares(board)
    return _backward(_predecessors(board), trapped) if trapped else set()


def parse_board(text: bytes, name: str, slug: str = "") -> Board:
    """Parse the bytes of a board file (UTF-8, a byte-order mark allowed); `name` is used in error messages."""
    if len(text) > MAX_FILE_BYTES:
        raise BoardError(f"{name}: the file has more than {MAX_FILE_BYTES:,} bytes; a board file is smaller")
    try:
        decoded = text.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BoardError(f"{name}: not a text file (invalid UTF-8 at byte {exc.start})") from None
    if "\x00" in decoded:
        raise BoardError(f"{name}: not a text file (contains NUL bytes)")
    try:
        data = tomllib.loads(decoded)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        if "(at line" in message:
            what, _, where = message.rpartition(" (at ")
            raise BoardError(f"{name}: {where.rstrip(')')}: invalid TOML: {what}") from None
        raise BoardError(f"{name}: invalid TOML: {message}") from None
    except RecursionError:
        raise BoardError(f"{name}: invalid TOML: arrays or tables nested too deeply") from None
    try:
        return board_from_mapping(data, name, slug)
    except RecursionError:
        raise BoardError(f"{name}: values nested too deeply to be a board") from None


def read_board_bytes(path: Path, name: str) -> bytes:
    """The bytes of a regular file, at most MAX_FILE_BYTES + 1 of them (a FIFO or a device is never read)."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise BoardError(f"{name}: no such file") from None
    except OSError as exc:
        raise BoardError(f"{name}: cannot be read ({exc.strerror})") from None
    if stat.S_ISDIR(mode):
        raise BoardError(f"{name}: is a folder, not a board file")
    if not stat.S_ISREG(mode):
        raise BoardError(f"{name}: not a regular file (a board file is plain text)")
    try:
        with path.open("rb") as fh:
            return fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise BoardError(f"{name}: cannot be read ({exc.strerror})") from None


def load_board(path: str | os.PathLike[str]) -> Board:
    """Read and validate one board file; its slug is the file name without `.toml`."""
    p = Path(path)
    return parse_board(read_board_bytes(p, str(path)), str(path), slug=p.stem)


def board_files(directory: Path) -> dict[str, Path]:
    """The board files of a folder by slug, in name order; file names that are not plain slugs are refused,
    all of them in one BoardError (a line each)."""
    found, problems = scan_board_files(directory)
    if problems:
        raise BoardError("\n".join(problems.values()))
    return found


def scan_board_files(directory: Path) -> tuple[dict[str, Path], dict[Path, str]]:
    """The board files of a folder by slug, in name order, and the problem (one line) of each file whose
    name is not a plain slug."""
    found: dict[str, Path] = {}
    problems: dict[Path, str] = {}
    for path in sorted(directory.glob("*.toml")):
        if SLUG.fullmatch(path.stem):
            found[path.stem] = path
        else:
            shown = path if path.name.isprintable() else f"{path.parent}/{path.name!r}"  # one line, always
            problems[path] = (f"{shown}: the file name must be letters, digits, '-' and '_', at most 80 of them "
                              f"(it becomes the page's address), got {path.stem[:90]!r}")
    return found, problems


def resolve_board(spec: str, folders: list[Path]) -> Board:
    """A board from a file path, else by name from the first of `folders` that has it."""
    path = Path(spec)
    if path.suffix == ".toml" or os.sep in spec or path.exists():
        return load_board(path)
    known: dict[str, Path] = {}
    for folder in reversed(folders):
        if folder.is_dir():
            known.update({p.stem: p for p in sorted(folder.glob("*.toml")) if SLUG.fullmatch(p.stem)})
    if spec in known:
        return load_board(known[spec])
    guess = difflib.get_close_matches(spec, list(known), n=1, cutoff=0.5)
    hint = f" (did you mean '{guess[0]}'?)" if guess else f" (boards: {', '.join(sorted(known))})"
    raise BoardError(f"{spec}: no such board file or board{hint}")
