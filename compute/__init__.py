"""Exact analysis of Chutes and Ladders: boards, turn chains, exact and simulated results.

The compute stage of the project. It never imports the web stack (plotly, jinja2, mkdocs).
"""

__version__ = "0.1.0"
