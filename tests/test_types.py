"""The type checker reads the record's model by its fields: a page module that reads a field the record does not
have fails type checking (scripts/test runs mypy on the whole package; here, only that it bites)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from helpers import REPOSITORY

READER = '''from chutes.compute.record.schema import BoardRecord, Exact


def expected(record: BoardRecord) -> Exact:
    return record.results.{field}
'''


def test_a_renamed_record_field_fails_type_checking(tmp_path: Path) -> None:
    """Two readers of a record, checked in one run with the project's configuration: the one that reads a field
    under a name the model does not have is an error, the one that reads the real field passes."""
    (tmp_path / "renamed_field.py").write_text(READER.format(field="expected_turnz"))
    (tmp_path / "real_field.py").write_text(READER.format(field="expected_turns"))
    out = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(REPOSITORY / "pyproject.toml"),
                          "--cache-dir", str(tmp_path / "cache"), "--no-error-summary",
                          str(tmp_path / "renamed_field.py"), str(tmp_path / "real_field.py")],
                         cwd=REPOSITORY, capture_output=True, text=True, timeout=300)
    assert out.returncode == 1, out.stdout + out.stderr
    errors = [line for line in out.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1, out.stdout
    assert "renamed_field.py:5: error:" in errors[0]
    assert '"Results" has no attribute "expected_turnz"' in errors[0]
    assert errors[0].endswith("[attr-defined]")
