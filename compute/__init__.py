"""Exact analysis of Chutes and Ladders: boards, turn chains, exact and simulated results.

The compute stage of the project. It never imports the web stack (plotly, jinja2, mkdocs).
"""

import functools
import hashlib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

try:
    __version__ = version("chutes-exact")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"


@functools.cache
def code_hash(folder: Path | None = None) -> str:
    """SHA-256 (64 hex digits) of the compute stage's code: every `*.py` file under `folder` (default: this
    package), by its relative path and its bytes, in path order, and the package version.

    Part of every cache key (`record.build.cache_key`, the experiment sweeps of `experiments.sweeps`), so that
    results made by other code are never reused, whatever the version says. Reads the files only
    (no imports); computed once per process and folder.
    """
    root = Path(__file__).parent if folder is None else Path(folder)
    digest = hashlib.sha256(f"chutes-exact {__version__}\0".encode())
    for path in sorted(root.rglob("*.py"), key=lambda p: p.relative_to(root).as_posix()):
        data = path.read_bytes()
        digest.update(f"{path.relative_to(root).as_posix()}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()
