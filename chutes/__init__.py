"""chutes: the exact analysis of Chutes and Ladders boards, as a Python API, a command line and a static site.

The public Python API is the names of `__all__`, each documented (the modules behind them are private):

>>> import chutes
>>> result = chutes.solve(chutes.Board.load("tiny"))
>>> result.expected_turns, result.first_player_wins
(Exact(53, 6), Exact(30799, 57720))

Every exact value is an `Exact`: a `fractions.Fraction` that prints whole at any length (`str`), and briefly as
its leading digits and its size (`repr`, and in Jupyter), without lifting Python's limit on long integers' text.

The command line (`chutes.cli`) is built on it. The compute stage (`chutes.compute`) and the build stage
(`chutes.site_build`) are the project's own layers. The package also carries the generator's defaults as data:
`templates/` (pages and theme overrides) and `site_src/` (hand-written pages, assets and the bundled boards).
Each public name is imported when first used, so that `import chutes` (and the command line) starts quickly.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from chutes._api.boards import Board
    from chutes._api.exact import Exact
    from chutes._api.play import BestPlay, NamedPlay
    from chutes._api.results import Bounded, GameLength, Race, Result, solve
    from chutes._api.simulation import Simulation, simulate
    from chutes.compute.board.problems import BoardError
    from chutes.compute.solve.simulate import Estimate

__all__ = ["Board", "BoardError", "BestPlay", "Bounded", "Estimate", "Exact", "GameLength", "NamedPlay", "Race",
           "Result", "Simulation", "simulate", "solve"]

_MODULES = {"Board": "chutes._api.boards", "BoardError": "chutes.compute.board.problems",
            "BestPlay": "chutes._api.play", "Exact": "chutes._api.exact", "NamedPlay": "chutes._api.play",
            "Bounded": "chutes._api.results", "Estimate": "chutes.compute.solve.simulate",
            "GameLength": "chutes._api.results", "Race": "chutes._api.results", "Result": "chutes._api.results",
            "Simulation": "chutes._api.simulation", "simulate": "chutes._api.simulation",
            "solve": "chutes._api.results"}
"""Where each public name is defined."""


def __getattr__(name: str) -> Any:
    """A public name, imported from its private module when first asked for."""
    if name not in _MODULES:
        raise AttributeError(f"module 'chutes' has no attribute {name!r}")
    value = getattr(import_module(_MODULES[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
