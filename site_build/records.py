"""Board records read from the cache into their typed model, and the record's schema for the data page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..compute.record.schema import BoardRecord
from .checks import SiteError


def load_record(path: Path) -> BoardRecord:
    """A cached board record, validated against its typed model: what the pages, tables, figures and templates read."""
    try:
        return BoardRecord.model_validate_json(Path(path).read_bytes())
    except ValidationError as exc:
        raise SiteError(f"{path}: not a board record ({exc.errors()[0]['msg']})") from None


def record_schema() -> dict[str, Any]:
    """The JSON Schema of a board record (published as data/schema.json and described on the data page)."""
    return BoardRecord.model_json_schema(by_alias=True, mode="serialization")


def schema_parts(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The record's parts for the data page: each model with its description and its fields' descriptions."""
    parts = [{"name": "BoardRecord", **schema}] + [{"name": name, **part} for name, part in
                                                   sorted(schema.get("$defs", {}).items())]
    return [{"name": p["name"], "description": " ".join(p.get("description", "").split()),
             "fields": [(field, " ".join(spec.get("description", "").split()))
                        for field, spec in p.get("properties", {}).items()]}
            for p in parts if p.get("properties")]
