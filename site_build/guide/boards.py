"""The Board files page: every key a board file accepts, with its type, default, limits, meaning and example, all
read from the board file's schema (`chutes.compute.board.file.BoardFile`): the page documents exactly the keys the
reader accepts, and a key without a meaning or an example stops the build."""

from __future__ import annotations

import types
from dataclasses import dataclass
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from ...compute.board.file import BoardFile
from ..checks import SiteError


@dataclass(frozen=True)
class BoardKey:
    """One key of a board file as the Board files page shows it."""

    name: str
    kind: str
    default: str
    limits: str
    meaning: str
    example: str


def _number(n: int) -> str:
    return f"{n:,}"


def _limits_of(metadata: list[Any], text: bool = False) -> list[str]:
    """The schema's bounds on a value, in words."""
    def bound(name: str) -> Any:  # pydantic's constraints (annotated_types' Ge, Le, MinLen, MaxLen)
        return next((getattr(m, name) for m in metadata if getattr(m, name, None) is not None), None)

    low, high, shortest, longest = bound("ge"), bound("le"), bound("min_length"), bound("max_length")
    out = []
    if low is not None and high is not None:
        out.append(f"{_number(low)} to {_number(high)}")
    elif low is not None:
        out.append(f"at least {_number(low)}")
    elif high is not None:
        out.append(f"at most {_number(high)}")
    if shortest is not None and text:
        out.append("not empty" if shortest == 1 else f"at least {shortest} characters")
    elif shortest is not None and shortest != longest:
        out.append(f"at least {shortest} {'entry' if shortest == 1 else 'entries'}")
    return out


def _inner(annotation: Any) -> tuple[Any, list[Any]]:
    """An annotation without `| None`, and the constraints an `Annotated[...]` puts on it."""
    if get_origin(annotation) in (Union, types.UnionType):
        annotation = next(a for a in get_args(annotation) if a is not type(None))
    if get_origin(annotation) is Annotated:
        base, *extra = get_args(annotation)
        return base, [m for info in extra if isinstance(info, FieldInfo) for m in info.metadata]
    return annotation, []


def _kind(annotation: Any) -> tuple[str, list[str]]:
    """The type of a key in words, and the limits on its entries."""
    base, constraints = _inner(annotation)
    if get_origin(base) is Literal:
        return "one of " + ", ".join(f'`"{word}"`' for word in get_args(base)), []
    if get_origin(base) is dict:  # translations: a table of tables by language code
        keys = " and ".join(f"`{key}`" for key in get_args(base)[1].model_fields)
        return f"table of tables by language code, each with {keys} (text)", []
    if get_origin(base) is list:
        entry, entry_constraints = _inner(get_args(base)[0])
        if get_origin(entry) is list:
            return "list of `[from, to]` pairs of whole numbers", []
        limits = _limits_of(entry_constraints)
        return "list of whole numbers", [f"each {limit}" for limit in limits]
    names = {int: "whole number", str: "text", bool: "`true` or `false`"}
    return names.get(base, str(base)), _limits_of(constraints, text=base is str)


def _default(name: str, field: FieldInfo) -> str:
    if field.default is PydanticUndefined:
        return "required"
    if name == "title":
        return "the file name"
    if field.default is None:
        return "none"
    if isinstance(field.default, bool):
        return f"`{str(field.default).lower()}`"
    if isinstance(field.default, str):
        return f'`"{field.default}"`' if field.default else "empty"
    if isinstance(field.default, (list, dict)):
        return "none" if not field.default else f"`{field.default}`"
    return f"`{field.default}`"


def accepted_keys(schema: type[BoardFile] = BoardFile) -> dict[str, FieldInfo]:
    """Every key a board file accepts, as the board file's schema declares it."""
    return dict(schema.model_fields)


def board_keys(schema: type[BoardFile] = BoardFile) -> list[BoardKey]:
    """Every key of a board file, in the schema's order, with its meaning (the field's description) and example (its
    first example); a key without either is a SiteError."""
    keys = []
    for name, field in accepted_keys(schema).items():
        meaning = " ".join((field.description or "").split())
        if not meaning or not field.examples:
            raise SiteError(f"the board file key {name} needs a description and an example in its schema "
                            f"(compute/board/file.py)")
        kind, limits = _kind(field.annotation)
        keys.append(BoardKey(name=name, kind=kind, default=_default(name, field),
                             limits="; ".join(limits + _limits_of(field.metadata, kind == "text")) or "—",
                             meaning=meaning, example=str(field.examples[0]).strip()))
    return keys
