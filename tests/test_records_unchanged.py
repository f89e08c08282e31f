"""The bundled boards' records are the same, to the byte, as a copy taken before the compute stage was last
reorganised (tests/data/record-digests.json): a move of code changes no result.

The digest is SHA-256 of the record's JSON with sorted keys, without the fields that name the code rather than
the results (`key`, `version`, `checksum`). A change of results on purpose updates the file in the same
commit, with the reason in its message:
`python tests/test_records_unchanged.py .cache/results > tests/data/record-digests.json`.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from helpers import BUNDLED, DATA

CODE_FIELDS = ("key", "version", "checksum")


def digest(record: dict[str, Any]) -> str:
    """SHA-256 of a record's results: its JSON, keys sorted, the code's own fields left out."""
    kept = {k: v for k, v in record.items() if k not in CODE_FIELDS}
    return hashlib.sha256(json.dumps(kept, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def test_every_bundled_record_is_unchanged(bundled_records: list[dict]) -> None:
    expected = json.loads((DATA / "record-digests.json").read_text())
    assert sorted(expected) == sorted(BUNDLED)
    changed = [r["slug"] for r in bundled_records if digest(r) != expected[r["slug"]]]
    assert changed == []


if __name__ == "__main__":
    records = (json.loads(p.read_text()) for p in sorted(Path(sys.argv[1]).glob("*.json")))
    print(json.dumps({r["slug"]: digest(r) for r in records}, indent=1, sort_keys=True))
