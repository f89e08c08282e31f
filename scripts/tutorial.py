"""Run the tutorial notebook (guide/tutorial.ipynb) top to bottom in a fresh kernel and store its outputs in it,
which the guide's tutorial page shows (the build runs none of it; tests/test_tutorial.py checks that the stored
outputs are those a fresh run gives). Run it after changing the notebook or what it shows:

    python scripts/tutorial.py
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import nbclient
import nbformat

NOTEBOOK = Path(__file__).resolve().parent.parent / "guide" / "tutorial.ipynb"
RENDERER = {"PLOTLY_RENDERER": "plotly_mimetype"}
"""Plotly's figures as their JSON alone (the page draws them with the site's plotly.js), not with plotly.js inside."""


def executed(path: Path = NOTEBOOK, timeout: int = 600) -> nbformat.NotebookNode:
    """The notebook run in a fresh kernel, in an empty folder (no project of this repository is found there); any
    cell's error raises `nbclient.exceptions.CellExecutionError`."""
    notebook = nbformat.read(path, as_version=4)
    saved = {name: os.environ.get(name) for name in RENDERER}
    os.environ.update(RENDERER)  # the kernel inherits this process's environment
    try:
        with tempfile.TemporaryDirectory() as folder:
            client = nbclient.NotebookClient(notebook, timeout=timeout, kernel_name="python3", record_timing=False,
                                             resources={"metadata": {"path": folder}})
            client.execute()
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    return notebook


def outputs(notebook: nbformat.NotebookNode) -> list[Any]:
    """What a run of the notebook gives, cell by cell, without what differs between runs (execution counts)."""
    return [[{k: v for k, v in output.items() if k != "execution_count"} for output in cell.get("outputs", [])]
            for cell in notebook.cells]


def main() -> int:
    nbformat.write(executed(), NOTEBOOK)
    print(f"{NOTEBOOK}: run, and its outputs stored")
    return 0


if __name__ == "__main__":
    sys.exit(main())
