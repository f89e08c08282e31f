"""Where Numba keeps the machine code it compiles: the user's cache folder, never inside the installed package."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from platformdirs import user_cache_dir


@contextmanager
def user_cache() -> Iterator[None]:
    """While functions are wrapped by `numba.njit(cache=True)`, Numba's cache folder is the user's
    (`platformdirs.user_cache_dir("chutes-exact")`, numba/); Numba keeps it beside the source file unless told
    otherwise. Where the code goes is fixed when a function is wrapped, so the setting is put back at once."""
    import numba

    # numba.config's settings are made with globals() at import, so its type stubs do not list them
    saved = numba.config.CACHE_DIR  # type: ignore[attr-defined]
    numba.config.CACHE_DIR = str(Path(user_cache_dir("chutes-exact")) / "numba")  # type: ignore[attr-defined]
    try:
        yield
    finally:
        numba.config.CACHE_DIR = saved  # type: ignore[attr-defined]
