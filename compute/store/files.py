"""Storage of JSON results: deterministic bytes, checksums, atomic writes, and reading back with checks.

Knows nothing of boards or results: what it stores is plain JSON. A writer never leaves half a file (a
temporary file in the same folder, then a rename); a reader gets a stored object only if it is whole,
unaltered (its own checksum matches) and made for the expected key.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from pydantic_core import from_json


def dumps(obj: Any) -> bytes:
    """Deterministic JSON: sorted keys, no spaces, shortest round-trip floats, no NaN.

    Compact, so that the json module's C encoder writes it (an indented dump of the bundled records took
    1.3 s for the checksums alone); the site publishes its own readable copy of each record."""
    return (json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
            + "\n").encode()


def checksum(record: dict[str, Any]) -> str:
    """SHA-256 of a record's content, its own checksum field left out."""
    body = {k: v for k, v in record.items() if k != "checksum"}
    return hashlib.sha256(dumps(body)).hexdigest()


def _checksum_holds(data: bytes, claimed: Any) -> bool:
    """Whether a file's bytes are those `store` wrote for a record with checksum `claimed`: with the checksum
    field taken out they are `dumps` of the rest (sorted keys, no spaces), so they hash to `claimed`. Hashing
    the bytes read spares encoding the record again (0.8 s for the bundled records)."""
    if not isinstance(claimed, str):
        return False
    field = b'"checksum":' + json.dumps(claimed).encode()
    for piece in (field + b",", b"," + field):
        if piece in data:
            return hashlib.sha256(data.replace(piece, b"", 1)).hexdigest() == claimed
    return False


def key_of(basis: dict[str, Any]) -> str:
    """SHA-256 of everything a stored result depends on."""
    return hashlib.sha256(json.dumps(basis, sort_keys=True).encode()).hexdigest()


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that readers see the old file or the new one, never a mix."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            os.fchmod(fh.fileno(), 0o644)
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def store(path: Path, record: dict[str, Any]) -> None:
    """Write a record with its checksum, atomically."""
    write_atomic(path, dumps({**record, "checksum": checksum(record)}))


def holds(path: Path, key: str, claimed: str) -> bool:
    """Whether the file at `path` is the record with checksum `claimed`, made for `key`, byte for byte: its bytes
    hashed, never parsed (parsing the bundled records takes ten times as long)."""
    try:
        data = path.read_bytes()
    except OSError:
        return False
    return _checksum_holds(data, claimed) and b'"key":' + json.dumps(key).encode() in data


def read_checked(path: Path, key: str) -> tuple[dict[str, Any] | None, str | None]:
    """A stored record if it is whole and made for `key`; otherwise None and the reason (None, None: absent).
    Parsed by pydantic-core's JSON reader (in Rust, twice as quick as the json module's on these records; JSON
    nested too deeply is a ValueError there, not a RecursionError)."""
    if not path.exists():
        return None, None
    try:
        data = path.read_bytes()
        record = from_json(data)
    except (OSError, ValueError) as exc:
        return None, f"{path}: unreadable ({type(exc).__name__}: {str(exc).splitlines()[0]})"
    if not isinstance(record, dict) or not _checksum_holds(data, record.get("checksum")):
        return None, f"{path}: checksum does not match its content (truncated or edited)"
    if record.get("key") != key:
        return None, f"{path}: made for other inputs (stale key)"
    return record, None
