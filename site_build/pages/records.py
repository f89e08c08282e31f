"""Board records read from the cache into their typed model, a board's title in a page's language, and the record's
schema for the data page."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ...compute.record.schema import BoardRecord
from ..checks import SiteError
from .words import PageWords


def load_record(path: Path) -> BoardRecord:
    """A cached board record, validated against its typed model: what the pages, tables, figures and templates read."""
    try:
        return BoardRecord.model_validate_json(Path(path).read_bytes())
    except ValidationError as exc:
        raise SiteError(f"{path}: not a board record ({exc.errors()[0]['msg']})") from None


def board_title(record: BoardRecord, lang: str) -> str:
    """A board's title in a language: its file's `[translations.LANG]` title, else its own (plain text)."""
    board = record.results.board
    words = (board.translations or {}).get(lang)
    return words.title if words is not None and words.title else board.title


def record_schema() -> dict[str, Any]:
    """The JSON Schema of a board record (published as data/schema.json and described on the data page), each
    description on one line (the models' field docstrings are wrapped)."""
    def one_line(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: " ".join(v.split()) if k == "description" and isinstance(v, str) else one_line(v)
                    for k, v in node.items()}
        return [one_line(v) for v in node] if isinstance(node, list) else node

    return one_line(BoardRecord.model_json_schema(by_alias=True, mode="serialization"))


def part_anchor(name: str) -> str:
    """The id of a part's entry on the data pages: `Results` → results."""
    return name.lower()


def kind_of(spec: dict[str, Any], inner: bool = False, words: PageWords | None = None) -> str:
    """A field's type in words, as Markdown, in the language of `words` (default English): a part of the record
    links to its entry (`part_anchor`); a choice inside a list or map is put in brackets (`inner`)."""
    words = words or PageWords()
    _ = words._
    if "$ref" in spec:
        name = spec["$ref"].rsplit("/", 1)[-1]
        return f"[`{name}`](#{part_anchor(name)})"
    for key in ("anyOf", "oneOf"):
        if key in spec:
            kinds = list(dict.fromkeys(kind_of(option, inner, words) for option in spec[key]))
            options = kinds[0]
            for kind in kinds[1:]:
                options = _("%(kinds)s or %(kind)s", kinds=options, kind=kind)
            return f"({options})" if inner else options
    if "const" in spec:
        return f"`{json.dumps(spec['const'])}`"
    if "enum" in spec:
        return _("one of %(values)s", values=", ".join(f"`{json.dumps(v)}`" for v in spec["enum"]))
    type_name = spec.get("type")
    if type_name == "array":
        if "prefixItems" in spec:
            return "[" + ", ".join(kind_of(item, True, words) for item in spec["prefixItems"]) + "]"
        return _("list of %(kind)s", kind=kind_of(spec.get("items", {}), True, words))
    if type_name == "object":
        return _("map of text → %(kind)s", kind=kind_of(spec.get("additionalProperties", {}), True, words))
    names = {"integer": _("integer"), "number": _("number"), "string": _("text"), "boolean": _("true or false"),
             "null": "null"}
    return names.get(str(type_name), _("any"))


def schema_parts(schema: dict[str, Any], words: PageWords | None = None) -> list[dict[str, Any]]:
    """The record's parts for the data pages: each model with its description, its anchor, and its fields' names,
    types (`kind_of`, in the language of `words`) and descriptions (English: the format's documentation)."""
    words = words or PageWords()
    parts = [{"name": "BoardRecord", **schema}] + [{"name": name, **part} for name, part in
                                                   sorted(schema.get("$defs", {}).items())]
    return [{"name": p["name"], "anchor": part_anchor(p["name"]), "description": p.get("description", ""),
             "fields": [(field, kind_of(spec, words=words), spec.get("description", ""))
                        for field, spec in p.get("properties", {}).items()]}
            for p in parts if p.get("properties")]
