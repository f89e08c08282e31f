"""Checks of a built site: nothing is fetched from outside it, and every internal link leads somewhere."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import click

URL_ATTRIBUTES = {"href", "src", "srcset", "poster", "data", "action", "formaction", "xlink:href"}
CSS_URL = re.compile(r"""url\(\s*['"]?([^'")\s]+)""")
LOCAL_HOSTS = {"127.0.0.1", "localhost", "[::1]"}


class SiteError(click.ClickException):
    """A built site that must not be published; the message says which file and what is wrong."""


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.urls: list[tuple[str, str, int]] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name == "id":
                self.ids.add(value)
            elif name in URL_ATTRIBUTES:
                parts = [v.strip().split()[0] for v in value.split(",") if v.strip()] if name == "srcset" else [value]
                self.urls += [(tag, url, self.getpos()[0]) for url in parts]
            elif name == "style":
                self.urls += [(tag, url, self.getpos()[0]) for url in CSS_URL.findall(value)]


def _parse(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def outside_references(site_dir: Path, allowed_hosts: set[str] = frozenset()) -> list[str]:
    """Every place where a page or stylesheet refers to a URL outside the site ('file:line: url')."""
    problems = []
    hosts = LOCAL_HOSTS | set(allowed_hosts)
    for path in sorted(site_dir.rglob("*.html")):
        for tag, url, line in _parse(path).urls:
            split = urlsplit(url)
            if split.scheme in ("http", "https") or url.startswith("//"):
                if split.hostname not in {h.strip("[]") for h in hosts}:
                    problems.append(f"{path.relative_to(site_dir)}:{line}: <{tag}> refers to {url}")
    for path in sorted(site_dir.rglob("*.css")):
        for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for url in CSS_URL.findall(text) + re.findall(r"""@import\s+['"]([^'"]+)""", text):
                if urlsplit(url).scheme in ("http", "https") or url.startswith("//"):
                    problems.append(f"{path.relative_to(site_dir)}:{n}: stylesheet refers to {url}")
    return problems


def broken_links(site_dir: Path) -> list[str]:
    """Every internal link or resource of the HTML pages that leads to no file, or to a missing anchor."""
    parsed = {path: _parse(path) for path in sorted(site_dir.rglob("*.html"))}
    problems = []
    for path, links in parsed.items():
        page_url = "/" + path.relative_to(site_dir).as_posix()
        for tag, url, line in links.urls:
            split = urlsplit(url)
            if split.scheme or url.startswith("//") or url.startswith(("mailto:", "javascript:", "data:")):
                continue
            target_url = urlsplit(urljoin(page_url, url))
            target = site_dir / unquote(target_url.path).lstrip("/")
            if target.is_dir() or target_url.path.endswith("/"):
                target = target / "index.html"
            where = f"{path.relative_to(site_dir)}:{line}: <{tag}> {url}"
            if not target.is_file():
                problems.append(f"{where}: no such file")
            elif target_url.fragment and target.suffix == ".html":
                ids = parsed[target].ids if target in parsed else _parse(target).ids
                if unquote(target_url.fragment) not in ids:
                    problems.append(f"{where}: no element with id '{target_url.fragment}'")
    return problems
