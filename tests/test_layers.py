"""The architecture as contracts (pyproject.toml, [tool.importlinter]), checked by import-linter."""

from __future__ import annotations

import shutil
import subprocess
import sysconfig
from pathlib import Path

from helpers import REPOSITORY


def _lint_imports() -> str:
    found = shutil.which("lint-imports") or str(Path(sysconfig.get_path("scripts")) / "lint-imports")
    assert Path(found).exists(), "import-linter is in the test lock: bash scripts/test installs it"
    return found


def test_the_layers_hold() -> None:
    out = subprocess.run([_lint_imports(), "--config", "pyproject.toml", "--no-cache"], cwd=REPOSITORY,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "8 kept, 0 broken" in out.stdout


def test_a_broken_layer_is_caught(tmp_path: Path) -> None:
    """The contracts really bite: the same configuration with the integer chain above the algorithms (as if
    they took the board's chain again) must fail."""
    config = (REPOSITORY / "pyproject.toml").read_text()
    assert '  "integer",\n' in config
    bad = tmp_path / "pyproject.toml"
    bad.write_text(config.replace('  "integer",\n', "").replace('  "races | ', '  "integer",\n  "races | '))
    out = subprocess.run([_lint_imports(), "--config", str(bad), "--no-cache"], cwd=REPOSITORY,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode != 0
    report = " ".join(out.stdout.split())  # the report wraps its lines
    assert "chutes.compute.solve.exact is not allowed to import chutes.compute.solve.integer" in report
