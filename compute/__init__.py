"""Exact analysis of Chutes and Ladders: boards, turn chains, exact and simulated results.

The compute stage of the project. It never imports the web stack (plotly, jinja2, mkdocs).
"""

import functools
import hashlib
from pathlib import Path


@functools.cache
def package_version() -> str:
    """The installed package's version, "0+unknown" in a source tree that was never installed.

    Looked up on first use (`__version__` too): importing importlib.metadata is a noticeable part of a quick
    command's start-up, and `chutes solve` never needs the version."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("chutes-exact")
    except PackageNotFoundError:
        return "0+unknown"


def __getattr__(name: str) -> str:
    """`__version__`, as `package_version` finds it."""
    if name == "__version__":
        return package_version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.cache
def code_hash(folder: Path | None = None) -> str:
    """SHA-256 (64 hex digits) of the compute stage's code: every `*.py` file under `folder` (default: this
    package), by its relative path and its bytes, in path order, and the package version.

    Part of every cache key (`record.key.cache_key`, the experiment sweeps of `experiments.sweeps`), so that
    results made by other code are never reused, whatever the version says. Reads the files only
    (no imports); computed once per process and folder.
    """
    root = Path(__file__).parent if folder is None else Path(folder)
    digest = hashlib.sha256(f"chutes-exact {package_version()}\0".encode())
    for path in sorted(root.rglob("*.py"), key=lambda p: p.relative_to(root).as_posix()):
        data = path.read_bytes()
        digest.update(f"{path.relative_to(root).as_posix()}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()
