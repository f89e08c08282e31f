"""Extract the messages again and bring every catalogue up to date with them, with Babel's tools: the wording's
(compute/record/catalogues, from compute/record/words.py, babel.cfg) and the site's (site_build/pages/catalogues,
from the templates and the page code, its babel.cfg). Run from anywhere: `python scripts/catalogues.py`; then
translate what `pybabel update` left empty or fuzzy (tests/test_catalogues.py says which)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CATALOGUES = [  # (mapping file, template, project name)
    ("babel.cfg", "compute/record/catalogues/words.pot", "Chutes and Ladders, exactly"),
    ("site_build/pages/catalogues/babel.cfg", "site_build/pages/catalogues/site.pot",
     "Chutes and Ladders, exactly: the site"),
]


def pybabel(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", *args], cwd=ROOT, check=True)


def main() -> None:
    for mapping, template, project in CATALOGUES:
        pybabel("extract", "-F", mapping, "--no-location", "--no-wrap", f"--project={project}", "-o", template, ".")
        for po in sorted((ROOT / template).parent.glob("*.po")):
            pybabel("update", "-i", template, "-o", str(po.relative_to(ROOT)), "-l", po.stem,
                    "--ignore-pot-creation-date", "--no-wrap")  # a message on one line, as translators keep it


if __name__ == "__main__":
    main()
