"""The tutorial notebook (guide/tutorial.ipynb): it runs top to bottom in a fresh kernel without an error, the
outputs stored in it (which the guide's page shows, the build running none of it) are those a fresh run gives, and
the page shows them as the site shows its own: charts drawn by the site's plotly.js, no script from elsewhere."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
from pathlib import Path

import nbformat
import pytest
from helpers import REPOSITORY

from chutes.site_build.checks import SiteError
from chutes.site_build.guide import guide_pages
from chutes.site_build.guide.notebook import notebook_markdown
from chutes.site_build.project import Project

NOTEBOOK = REPOSITORY / "guide" / "tutorial.ipynb"
_spec = importlib.util.spec_from_file_location("tutorial_script", REPOSITORY / "scripts" / "tutorial.py")
assert _spec and _spec.loader
tutorial = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tutorial)


def test_the_tutorial_runs_in_a_fresh_kernel_and_its_stored_outputs_are_fresh() -> None:
    """Any cell's error fails the run (nbclient raises it); outputs that differ from a fresh run's are stale: the
    page would show what the code no longer gives."""
    fresh = tutorial.executed(NOTEBOOK)
    stored = nbformat.read(NOTEBOOK, as_version=4)
    assert [c.source for c in fresh.cells] == [c.source for c in stored.cells]
    assert tutorial.outputs(fresh) == tutorial.outputs(stored), "stale outputs: run python scripts/tutorial.py"
    kinds = {kind for cell in fresh.cells for output in cell.get("outputs", []) for kind in output.get("data", {})}
    assert {"text/html", "image/png", "application/vnd.plotly.v1+json"} <= kinds
    assert not any(o.output_type == "error" for c in fresh.cells for o in c.get("outputs", []))


def test_the_tutorial_is_a_guide_page_with_its_outputs_and_the_notebook_beside_it() -> None:
    pages = guide_pages(Project.at(REPOSITORY))
    page = pages["guide/tutorial.md"]
    assert page.startswith("# Tutorial") and pages["guide/tutorial.ipynb"] == NOTEBOOK.read_text()
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    for cell in notebook.cells:
        assert cell.source.strip() in page
    charts = re.findall(r'<div class="chutes-figure" hidden data-search-exclude data-chart="(chart-tutorial-\d+)">'
                        r"([^<]*)</div>", page)
    assert charts and all(f'<div class="chutes-chart" id="{chart_id}" role="figure"' in page for chart_id, _ in charts)
    for _, text in charts:
        figure = json.loads(text)
        assert figure["data"] and "template" not in figure["layout"]  # the site's own template applies
    assert "<script" not in page and "cdn.plot.ly" not in page and "https://" not in page  # offline
    assert page.count('<img src="data:image/png;base64,') == 3 and "0.507802773460…" in page
    assert "A race of 4 players" in page and "The best play" in page
    assert "```python" not in page  # the cells run in order, in the notebook, not one by one as examples
    assert "(tutorial.md)" in pages["guide/api.md"]
    assert "guide/tutorial.ipynb" in (REPOSITORY / "README.md").read_text()


def test_a_notebook_with_an_error_stored_or_unreadable_stops_the_build(tmp_path: Path) -> None:
    broken = nbformat.read(NOTEBOOK, as_version=4)
    code = next(c for c in broken.cells if c.cell_type == "code")
    code.outputs = [nbformat.v4.new_output("error", ename="NameError", evalue="x", traceback=[])]
    shutil.copytree(REPOSITORY / "guide", tmp_path / "guide")
    nbformat.write(broken, tmp_path / "guide" / "tutorial.ipynb")
    with pytest.raises(SiteError, match=r"tutorial.ipynb: cell \d+ stored an error \(NameError\): run the notebook"):
        notebook_markdown(tmp_path / "guide" / "tutorial.ipynb")
    (tmp_path / "guide" / "tutorial.ipynb").write_text("{not json")
    with pytest.raises(SiteError, match="tutorial.ipynb: not a notebook that can be read"):
        notebook_markdown(tmp_path / "guide" / "tutorial.ipynb")
