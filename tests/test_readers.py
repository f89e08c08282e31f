"""What readers see first: the boards they play listed, a test board kept out of the way, honest checks."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from chutes.compute.record.schema import BoardRecord
from chutes.site_build.checks import SiteError
from chutes.site_build.tree import render


def test_a_test_board_is_built_but_kept_out_of_menu_home_comparison_and_search(built_site: Path) -> None:
    tiny = "A 10-square test board"
    assert (built_site / "boards" / "tiny" / "index.html").is_file(), "its page is still built"
    for page in ("index.html", "compare/index.html", "boards/classic/index.html"):
        assert tiny not in (built_site / page).read_text(), page
    found = json.loads((built_site / "search" / "search_index.json").read_text())["docs"]
    assert not [d for d in found if d["location"].startswith("boards/tiny/")], "search does not offer it"
    assert tiny in (built_site / "data" / "index.html").read_text(), "its data stay downloadable"


def test_the_build_refuses_to_publish_a_simulation_that_disagrees(bundled_records: list[dict]) -> None:
    records = copy.deepcopy(bundled_records)
    row = records[0]["checks"]["first_player_wins"]
    row.update(agrees=False, standard_errors_apart=5.2)
    with pytest.raises(SiteError, match="5.2 standard errors from the exact value"):
        render.render_pages([BoardRecord.model_validate(r) for r in records])


def test_every_bundled_simulation_agrees_by_the_published_criterion(bundled_records: list[dict]) -> None:
    for record in bundled_records:
        checks = record["checks"]
        for name in ("expected_turns", "first_player_wins"):
            assert checks[name]["standard_errors_apart"] <= checks["criterion"] == 4, (record["slug"], name)
