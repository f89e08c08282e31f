"""The tutorial page: the guide's notebook (guide/tutorial.ipynb) written as Markdown with the outputs stored in it,
so that both engines publish it as a page (no engine plugin) and a build runs none of it (the tests run the notebook
in a fresh kernel and check that its stored outputs are the ones it gives).

Markdown cells are copied as they are; a code cell becomes a Python block (marked `py`: its cells run in order,
in the notebook, not one by one as the guide's `python` examples do), and each output the richest form the page can
show: a plotly figure as the site's own chart (drawn by the site's plotly.js, with the site's template), HTML or an
image as raw HTML, text as a text block.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import nbformat

from ..checks import SiteError
from ..pages.figures import to_json

PLOTLY = "application/vnd.plotly.v1+json"
IMAGES = ("image/png", "image/jpeg")


def notebook_markdown(path: Path, chart_prefix: str = "tutorial") -> str:
    """The notebook at `path` as a Markdown page (its charts' ids start with `chart_prefix`); a SiteError if it
    cannot be read or holds an error's output (run it again: its outputs are stale)."""
    try:
        notebook = nbformat.read(path, as_version=4)
    except (OSError, ValueError, nbformat.ValidationError) as exc:
        raise SiteError(f"{path}: not a notebook that can be read ({' '.join(str(exc).split())[:200]})") from None
    parts: list[str] = []
    charts = 0
    for number, cell in enumerate(notebook.cells, start=1):
        if cell.cell_type == "markdown":
            parts.append(cell.source.strip())
        elif cell.cell_type == "code":  # the code and its outputs: on the page, not in the search index
            shown = [f"```py\n{cell.source.strip()}\n```"]
            for output in cell.get("outputs", []):
                if output.output_type == "error":
                    raise SiteError(f"{path}: cell {number} stored an error ({output.ename}): run the notebook again")
                if output.output_type == "stream":
                    shown.append(_text(output.text))
                elif output.output_type in ("execute_result", "display_data"):
                    charts += PLOTLY in output.data
                    shown.append(_shown(output.data, output.get("metadata", {}), f"{chart_prefix}-{charts}"))
            parts.append("<div data-search-exclude markdown>\n\n" + "\n\n".join(p for p in shown if p) + "\n\n</div>")
    return "\n\n".join(part for part in parts if part) + "\n"


def _label(layout: dict[str, Any]) -> str:
    """What a chart shows, in words for its label: its title, else its axes' titles."""
    def title(part: Any) -> str:
        text = part.get("title", "") if isinstance(part, dict) else ""
        return str(text.get("text", "") if isinstance(text, dict) else text)

    if title(layout):
        return title(layout)
    x, y = title(layout.get("xaxis")), title(layout.get("yaxis"))
    return f"A chart of {y} by {x}" if x and y else "A chart"


def _text(text: str) -> str:
    text = text.rstrip("\n")
    fence = "````" if "```" in text else "```"
    return f"{fence}text\n{text}\n{fence}" if text else ""


def _shown(data: dict[str, Any], metadata: dict[str, Any], chart_id: str) -> str:
    """One output in the richest form a page shows; raw HTML in a block of its own, which Markdown leaves alone."""
    if PLOTLY in data:
        figure = {"data": data[PLOTLY].get("data", []),
                  "layout": {k: v for k, v in data[PLOTLY].get("layout", {}).items() if k != "template"}}
        label = html.escape(_label(figure["layout"]))
        return (f'<div class="chutes-chart" id="chart-{chart_id}" role="figure" aria-label="{label}"></div>\n'
                f'<div class="chutes-figure" hidden data-search-exclude data-chart="chart-{chart_id}">'
                f"{to_json(figure)}</div>")
    if "text/html" in data:
        return f'<div class="notebook-output">{" ".join(str(data["text/html"]).splitlines())}</div>'
    for kind in IMAGES:
        if kind in data:
            image = "".join(str(data[kind]).split())
            alt = html.escape(str(metadata.get(kind, {}).get("alt", "")))  # the object's own words for its image
            return f'<div class="notebook-output"><img src="data:{kind};base64,{image}" alt="{alt}"></div>'
    return _text(str(data.get("text/plain", "")))
