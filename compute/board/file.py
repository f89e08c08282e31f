"""Board files: TOML read strictly, checked against the file's schema, and made into a `Board`.

Every problem becomes a `BoardError` whose message is one line naming the file, the key or entry, and what
is wrong; a folder of boards is checked whole (`chutes.compute.stage.load_all`), one line per bad file.
"""

from __future__ import annotations

import difflib
import os
import re
import stat
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, get_args, get_origin

from babel import Locale, UnknownLocaleError
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_core import ErrorDetails

from .limits import MAX_DICE, MAX_DIE, MAX_FILE_BYTES, MAX_ROLL_AGAIN_LIMIT, MAX_SQUARES, MAX_WEIGHT, RANGES
from .model import Board, rules_message
from .problems import BoardError

SLUG = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,79}")
"""A board's name (its file name without .toml, at most 80 characters): it becomes a page's address and
part of a cache file's name."""


_Pair = Annotated[list[int], Field(min_length=2, max_length=2)]


class Translation(BaseModel):
    """A board's own words in one language: a board file's `[translations.LANG]` table."""

    model_config = ConfigDict(extra="forbid", strict=True)

    title: str | None = Field(default=None, min_length=1, description="The board's title in this language.")
    source: str | None = Field(default=None, description="Where the layout comes from, in this language.")


class BoardFile(BaseModel):
    """The shape of a board file, checked strictly (no silent conversions): every key it accepts, with its meaning
    and an example (the guide's Board files page is generated from them; `Board` is what a file becomes)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    title: str | None = Field(
        default=None, min_length=1,
        description="The board's name: the title of its page and its entry in the menus. Plain text, shown as typed "
                    '(never read as HTML or Markdown).',
        examples=['title = "Chutes and Ladders (Milton Bradley, 1943)"'])
    squares: int = Field(
        ge=2, le=MAX_SQUARES,
        description='The last square: the first player to reach it wins. Players start off the board, on square 0.',
        examples=['squares = 100'])
    die: int = Field(
        ge=1, le=MAX_DIE,
        description='The faces of the die, 1 to `die`, equally likely unless `weights` says otherwise. With '
                    '`overshoot = "bounce"`, at most one face per square.',
        examples=['die = 6'])
    overshoot: Literal["stay", "bounce", "pass"] = Field(
        default="stay",
        description='What a roll past the last square does: `"stay"` loses the move, `"bounce"` counts back from the '
                    'last square (landing on 2 × last − target), `"pass"` wins (reaching or passing the end).',
        examples=['overshoot = "bounce"'])
    roll_again_on: int | None = Field(
        default=None,
        description='A roll of this number (a face, or a total of the dice) gives another roll in the same turn, '
                    'unless it won; a turn counts once however many rolls it holds. The die must be able to show it, '
                    'and not every roll may be it without a limit.',
        examples=['roll_again_on = 6'])
    roll_again_limit: int | None = Field(
        default=None, ge=0, le=MAX_ROLL_AGAIN_LIMIT,
        description='At most this many extra rolls in one turn (needs `roll_again_on`): a roll of `roll_again_on` '
                    'beyond the limit is not moved, the token goes where `roll_again_penalty` says and the turn '
                    'ends.',
        examples=['roll_again_on = 6\nroll_again_limit = 2'])
    roll_again_penalty: Literal["undo", "start"] | None = Field(
        default=None,
        description='With `roll_again_limit`: where the roll beyond the limit sends the token, back to where the '
                    'turn began (`"undo"`, the default) or to square 0 (`"start"`).',
        examples=['roll_again_on = 6\nroll_again_limit = 2\nroll_again_penalty = "start"'])
    enter_on: list[int] | None = Field(
        default=None, min_length=1,
        description='The rolls that bring a token from square 0 onto the board (a six to enter: `[6]`); any other '
                    'roll leaves it on 0. Each must be a roll the dice can make. Without it every roll enters.',
        examples=['enter_on = [6]'])
    dice: int = Field(
        default=1, ge=1, le=MAX_DICE,
        description='Dice rolled and summed for each roll, each with `die` faces; `roll_again_on` and `enter_on` '
                    'then name totals.',
        examples=['dice = 2\novershoot = "pass"  # with "stay", two dice could never make the 1 that square 99 needs'])
    weights: list[Annotated[int, Field(ge=0, le=MAX_WEIGHT)]] | None = Field(
        default=None,
        description='The relative weight of each face of one die, one whole number per face (a weighted spinner): '
                    'face k comes up with chance weights[k] / sum(weights). At least one weight above 0.',
        examples=['weights = [1, 1, 1, 1, 1, 3]'])
    start: int = Field(
        default=0, ge=0,
        description='The square every player starts on: below the last square, and not the foot of a chute or '
                    'ladder.',
        examples=['start = 1'])
    ladders: list[_Pair] = Field(
        default=[],
        description='The ladders, each `[from, to]` going up: a roll that lands on `from` (not one that passes it) '
                    'moves the token to `to`. A jump starts on a square from 1 to the last but one, no two start on '
                    'one square, and none starts where another ends (jumps do not chain).',
        examples=['ladders = [[1, 38], [4, 14], [9, 31]]'])
    chutes: list[_Pair] | None = Field(
        default=None,
        description='The chutes, each `[from, to]` going down, with the same rules as ladders.',
        examples=['chutes = [[16, 6], [48, 26], [49, 11]]'])
    snakes: list[_Pair] | None = Field(
        default=None,
        description="Another name for `chutes` (give one or the other, not both): the board's page then says snakes.",
        examples=['snakes = [[16, 6], [48, 26], [49, 11]]'])
    source: str = Field(
        default="",
        description="Where the layout comes from, shown on the board's page. Plain text, shown as typed.",
        examples=['source = "Milton Bradley, 1943; the layout as Althoen, King and Schilling give it"'])
    listed: bool = Field(
        default=True,
        description="`false` keeps the board out of the menus, the home page's table and the comparison (a test "
                    'board); its page is still built.',
        examples=['listed = false'])
    choice: Literal["coin"] | None = Field(
        default=None,
        description='`"coin"`: after each roll r the player may move r, or flip a fair coin and move r + 1 (heads) '
                    'or r − 1 (tails); a move of 0 leaves the token where it is. The rolled number itself decides '
                    'rolling again and entering. The board is solved for the player who makes the game shortest on '
                    'average (exact policy iteration, ties towards not flipping); under `roll_again_limit` the choice '
                    'may depend on the rolls so far in the turn and on the square where it began.',
        examples=['choice = "coin"'])
    translations: dict[str, Translation] = Field(
        default={},
        description="The board's own words in other languages: a table for each language, named by its code "
                    "(`es`, `fr`, `de`, `hi`, `ar`, `pt-BR`: a BCP 47 code that Babel knows), with the `title` and "
                    "`source` in that language, each optional (a page in that language shows the board's own where "
                    "one is missing). Plain text, shown as typed. Proper names and the titles of cited works stay "
                    "as published.",
        examples=['[translations.fr]\ntitle = "Le plateau de la famille"\nsource = "dessiné par les enfants"'])

KNOWN_KEYS = tuple(BoardFile.model_fields)


def _loc(loc: tuple[Any, ...]) -> str:
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += ("." if text else "") + str(part)
    return text or "(top level)"


def _pydantic_problem(error: ErrorDetails, data: Mapping[str, Any]) -> str:
    """One readable sentence for a schema error of a known key."""
    kind = error["type"]
    loc = tuple(error["loc"])
    if kind != "extra_forbidden":  # pydantic adds the union member tried, e.g. "list[int]", to the location
        loc = tuple(p for p in loc if not (isinstance(p, str) and "[" in p))
    key = _loc(loc)
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
        return f"{key}: must be one of {_choices(str(loc[0]))}, got {shown}"
    if kind == "too_short" and loc and loc[0] == "enter_on":
        return "enter_on: lists no roll (list the rolls that bring a token onto the board, or leave the key out)"
    if kind == "string_too_short" and loc and loc[0] == "title":
        return "title: is empty (give the board a name, or leave the key out to use the file name)"
    if kind == "string_too_short" and loc and loc[0] == "translations":
        return f"{key}: is empty (leave the key out to show the board's own title)"
    if kind in ("dict_type", "model_type"):
        return f"{key}: expected a table, got {shown}"
    allowed = RANGES.get(str(loc[0])) if loc else None
    if kind in ("greater_than_equal", "less_than_equal") and allowed:
        return f"{key}: {shown} is out of range ({allowed})"
    return f"{key}: {error['msg'].lower()}, got {shown}"



def _unknown_keys(names: list[str]) -> list[str]:
    """One problem for each unknown key close to a known one (naming it), and one for all the others, which
    lists the known keys once."""
    guesses = {name: difflib.get_close_matches(name, KNOWN_KEYS, n=1, cutoff=0.6) for name in names}
    problems = [f"unknown key '{name}' (did you mean '{guess[0]}'?)" for name, guess in guesses.items() if guess]
    others = [f"'{name}'" for name, guess in guesses.items() if not guess]
    if others:
        problems.append(f"unknown key{'s' if len(others) > 1 else ''} {', '.join(others)} "
                        f"(known keys: {', '.join(KNOWN_KEYS)})")
    return problems


def _unknown_word(loc: tuple[Any, ...]) -> str:
    """The problem of an unknown key in a language's table of `translations`."""
    name = str(loc[-1])
    guess = difflib.get_close_matches(name, list(Translation.model_fields), n=1, cutoff=0.6)
    hint = f"did you mean '{guess[0]}'?" if guess else f"known keys: {', '.join(Translation.model_fields)}"
    return f"{_loc(loc[:-1])}: unknown key '{name}' ({hint})"


def _language_problem(code: str) -> str | None:
    """What is wrong with a language code of `translations` (None: nothing): it must be a BCP 47 code of a language
    Babel has data for, written as Babel writes it (`fr`, `pt-BR`), so that a site's languages find it."""
    shown = code if code.isprintable() else repr(code)  # the message stays one line
    try:
        written = str(Locale.parse(code, sep="-")).replace("_", "-")
    except (UnknownLocaleError, ValueError, TypeError):
        return f"translations.{shown}: not a language code (a BCP 47 code that Babel knows, as fr, hi or pt-BR)"
    return None if written == code else f"translations.{shown}: write the language code as {written}"


def _choices(key: str) -> str:
    """The words a key of the schema allows, each quoted: '"undo", "start"'."""
    annotation = BoardFile.model_fields[key].annotation
    literal = next(a for a in (annotation, *get_args(annotation)) if get_origin(a) is Literal)
    return ", ".join(f'"{word}"' for word in get_args(literal))


def board_from_mapping(data: Mapping[str, Any], name: str, slug: str = "") -> Board:
    """Validate a parsed board description; `name` prefixes every error message, which lists every problem.

    A missing title defaults to the slug (the file name), a missing source to none."""
    if not isinstance(data, Mapping):
        raise BoardError(f"{name}: a board is a table of keys, got {type(data).__name__}")
    try:
        parsed = BoardFile.model_validate(dict(data))
    except ValidationError as exc:
        errors = exc.errors()
        unknown = _unknown_keys([str(e["loc"][0]) for e in errors
                                 if e["type"] == "extra_forbidden" and len(e["loc"]) == 1])
        unknown += [_unknown_word(e["loc"]) for e in errors if e["type"] == "extra_forbidden" and len(e["loc"]) > 1]
        known = [_pydantic_problem(e, data) for e in errors if e["type"] != "extra_forbidden"]
        raise BoardError(f"{name}: " + "; ".join(unknown + known)) from None
    codes = [problem for problem in map(_language_problem, parsed.translations) if problem]
    if codes:
        raise BoardError(f"{name}: " + "; ".join(codes))
    if parsed.chutes is not None and parsed.snakes is not None:
        raise BoardError(f"{name}: snakes: give chutes or snakes (two names for the same thing), not both")
    chute_word: Literal["chutes", "snakes"] = "snakes" if parsed.snakes is not None else "chutes"
    chutes = parsed.snakes if parsed.snakes is not None else (parsed.chutes or [])
    try:
        return Board(title=parsed.title or slug or Path(name).stem, squares=parsed.squares, die=parsed.die,
                     overshoot=parsed.overshoot, ladders=tuple((a, b) for a, b in parsed.ladders),
                     chutes=tuple((a, b) for a, b in chutes), roll_again_on=parsed.roll_again_on,
                     start=parsed.start, source=parsed.source, slug=slug, chute_word=chute_word,
                     listed=parsed.listed, roll_again_limit=parsed.roll_again_limit,
                     roll_again_penalty=parsed.roll_again_penalty, dice=parsed.dice,
                     enter_on=None if parsed.enter_on is None else tuple(sorted(parsed.enter_on)),
                     weights=None if parsed.weights is None else tuple(parsed.weights), choice=parsed.choice,
                     translations=tuple((code, (words.title, words.source))
                                        for code, words in sorted(parsed.translations.items())))
    except ValidationError as exc:
        raise BoardError(f"{name}: {rules_message(exc)}") from None


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
