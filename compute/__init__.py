"""Exact analysis of Chutes and Ladders: boards, turn chains, exact and simulated results.

The compute stage of the project. It never imports the web stack (plotly, jinja2, mkdocs).
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("chutes-exact")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"
