"""Checks of a built site before it is published: nothing is fetched from outside it, every internal link
leads somewhere, and no script or event handler is on a page that the templates did not put there."""

from __future__ import annotations

import re
from collections.abc import Set
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

URL_ATTRIBUTES = {"href", "src", "srcset", "poster", "data", "action", "formaction", "xlink:href"}
CSS_URL = re.compile(r"""url\(\s*['"]?([^'")\s]+)""")
LOCAL_HOSTS = {"127.0.0.1", "localhost", "[::1]"}
NAVIGATION_TAGS = {"a", "area"}


class SiteError(ValueError):
    """A site that must not be published (or a template that cannot be rendered); the message is one line."""


INERT_SCRIPT_TYPES = {"application/json", "application/ld+json"}
FORBIDDEN_TAGS = {"iframe", "frame", "object", "embed", "base", "applet"}
SCRIPT_SCHEMES = ("javascript:", "vbscript:", "data:text/html")


class _Page(HTMLParser):
    """One reading of a page for every check: its ids, the URLs it refers to (tag, url, line), and what on it
    can run script (line, what) unless it is one of the theme's own scripts (`allowed`): script elements, event
    handler attributes, script URLs, tags the templates never write."""

    def __init__(self, allowed: list[re.Pattern[str]]) -> None:
        super().__init__(convert_charrefs=True)
        self.allowed = allowed
        self.urls: list[tuple[str, str, int]] = []
        self.ids: set[str] = set()
        self.found: list[tuple[int, str]] = []
        self._script: tuple[int, str] | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line = self.getpos()[0]
        named = dict(attrs)
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append((line, f"<{tag}> has an event handler attribute {name}"))
            if value is None:
                continue
            if name == "id":
                self.ids.add(value)
            elif name in URL_ATTRIBUTES:
                if value.strip().lower().startswith(SCRIPT_SCHEMES):
                    self.found.append((line, f"<{tag}> {name} runs script ({value.strip()[:30]})"))
                parts = [v.strip().split()[0] for v in value.split(",") if v.strip()] if name == "srcset" else [value]
                self.urls += [(tag, url, line) for url in parts]
            elif name == "style":
                self.urls += [(tag, url, line) for url in CSS_URL.findall(value)]
        if tag in FORBIDDEN_TAGS or (tag == "meta" and "http-equiv" in named):
            self.found.append((line, f"<{tag}> is not written by the templates"))
        if tag == "script":
            kind = (named.get("type") or "").lower()
            self._script = (line, "inline") if "src" not in named and kind not in INERT_SCRIPT_TYPES else None
            self._text = []

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._script is not None:
            text = "".join(self._text).strip()
            if not any(p.fullmatch(text) for p in self.allowed):
                self.found.append((self._script[0], f"<script> not written by the templates: {text[:40]!r}"))
            self._script = None


def _parse(path: Path, allowed: list[re.Pattern[str]]) -> _Page:
    parser = _Page(allowed)
    parser.feed(path.read_text(encoding="utf-8"))
    parser.close()
    return parser


def _pages(site_dir: Path, allowed: list[re.Pattern[str]] | None = None) -> dict[Path, _Page]:
    """Every HTML page of the site, read once."""
    return {path: _parse(path, allowed or []) for path in sorted(site_dir.rglob("*.html"))}


OUTSIDE_MARK = "from another site"
"""In each problem of `outside_references`: what the build's message gives the fix for."""


def outside_references(site_dir: Path, allowed_hosts: Set[str] = frozenset()) -> list[str]:
    """Every place where a page or stylesheet would load something from outside the site ('file:line: url').

    A link a reader may follow (<a href>) loads nothing by itself and is allowed; the references page has
    them. Everything a page fetches on its own (scripts, styles, images, fonts, frames, forms) must be local."""
    return _outside_references(site_dir, _pages(site_dir), allowed_hosts)


def _outside_references(site_dir: Path, pages: dict[Path, _Page], allowed_hosts: Set[str]) -> list[str]:
    problems = []
    hosts = LOCAL_HOSTS | set(allowed_hosts)
    for path, page in pages.items():
        for tag, url, line in page.urls:
            if tag in NAVIGATION_TAGS:
                continue
            split = urlsplit(url)
            if split.scheme in ("http", "https") or url.startswith("//"):
                if split.hostname not in {h.strip("[]") for h in hosts}:
                    problems.append(f"{path.relative_to(site_dir)}:{line}: <{tag}> refers to {url}: it would load "
                                    f"{OUTSIDE_MARK}")
    for path in sorted(site_dir.rglob("*.css")):
        for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for url in CSS_URL.findall(text) + re.findall(r"""@import\s+['"]([^'"]+)""", text):
                if urlsplit(url).scheme in ("http", "https") or url.startswith("//"):
                    problems.append(f"{path.relative_to(site_dir)}:{n}: stylesheet refers to {url}: it would load "
                                    f"{OUTSIDE_MARK}")
    return problems


def broken_links(site_dir: Path, base_path: str = "/") -> list[str]:
    """Every internal link or resource of the HTML pages that leads to no file, or to a missing anchor.

    `base_path` is the path the site is published under (from its address): absolute links start with it."""
    return _broken_links(site_dir, _pages(site_dir), base_path)


def _broken_links(site_dir: Path, parsed: dict[Path, _Page], base_path: str) -> list[str]:
    base = "/" + base_path.strip("/") + "/" if base_path.strip("/") else "/"
    problems = []
    for path, links in parsed.items():
        page_url = "/" + path.relative_to(site_dir).as_posix()
        for tag, url, line in links.urls:
            split = urlsplit(url)
            if split.scheme or url.startswith("//") or url.startswith(("mailto:", "javascript:", "data:")):
                continue
            target_url = urlsplit(urljoin(base + page_url.lstrip("/"), url))
            if not target_url.path.startswith(base):
                problems.append(f"{path.relative_to(site_dir)}:{line}: <{tag}> {url}: outside the site's address")
                continue
            target = site_dir / unquote(target_url.path[len(base):])
            if target.is_dir() or target_url.path.endswith("/"):
                target = target / "index.html"
            where = f"{path.relative_to(site_dir)}:{line}: <{tag}> {url}"
            if not target.is_file():
                problems.append(f"{where}: no such file")
            elif target_url.fragment and target.suffix == ".html":
                ids = parsed[target].ids if target in parsed else _parse(target, []).ids
                if unquote(target_url.fragment) not in ids:
                    problems.append(f"{where}: no element with id '{target_url.fragment}'")
    return problems


def theme_scripts(template_dirs: list[Path]) -> list[re.Pattern[str]]:
    """The inline scripts that the theme's templates write, as patterns (a Jinja expression matches any
    text without quotes or tags): only these may appear on a published page."""
    patterns = []
    for folder in template_dirs:
        for path in sorted(folder.rglob("*.html")):
            for body in re.findall(r"<script>(.*?)</script>", path.read_text(encoding="utf-8"), re.S):
                parts = re.split(r"\{\{.*?\}\}|\{%.*?%\}", body.strip())
                patterns.append(re.compile("[^\"<]*".join(re.escape(part) for part in parts)))
    return patterns


def unsafe_markup(site_dir: Path, theme_dirs: list[Path]) -> list[str]:
    """Every script, event handler or script URL on a page that the theme's templates (`theme_dirs`, MkDocs
    Material's own included) did not write: board text that got through as markup stops the build."""
    return _unsafe_markup(site_dir, _pages(site_dir, theme_scripts(theme_dirs)))


def _unsafe_markup(site_dir: Path, pages: dict[Path, _Page]) -> list[str]:
    return [f"{path.relative_to(site_dir)}:{line}: {what}" for path, page in pages.items() for line, what in page.found]


def what_is_checked() -> list[str]:
    """What `site_problems` checks on every built page and stylesheet, in words (Markdown) from the constants it
    uses: the guide's Customising page gives these."""
    def code(names: Set[str] | tuple[str, ...]) -> str:
        return ", ".join(f"`{name}`" for name in sorted(names))

    return [
        f"**Nothing is loaded from another site.** An address of another host (`http://`, `https://` or `//`) in "
        f"an attribute {code(URL_ATTRIBUTES)} of any tag but {code(NAVIGATION_TAGS)}, in a `style` attribute's "
        f"`url(...)`, or in a stylesheet's `url(...)` or `@import`, stops the build. A link a reader follows "
        f"(`<a href>`, `<area href>`) may lead anywhere; the site's own host and {code(LOCAL_HOSTS)} are not "
        "another site. An image, script, style or font from elsewhere goes into `site_src/assets/` instead.",
        "**Every internal link leads somewhere.** Each address of the site's own (a link or a resource) names a "
        "file the site has, within the site's address (`--site-url`), and an address ending `#ID` an element with "
        "that id.",
        f"**No script the theme did not write.** An inline `<script>` (without `src`, and not of a type "
        f"{code(INERT_SCRIPT_TYPES)}, which hold data) whose text is not one of the theme's own, an event-handler "
        f"attribute "
        f"(`on...`), an address starting {code(SCRIPT_SCHEMES)}, a tag {code(FORBIDDEN_TAGS)} or a "
        "`<meta http-equiv>` stops the build: board text that got through as markup never runs.",
    ]


def site_problems(site_dir: Path, theme_dirs: list[Path], site_url: str) -> list[str]:
    """Everything that stops a built site published at `site_url` from being published (empty: publish it).
    Each page is read once for all three checks."""
    address = urlsplit(site_url)
    pages = _pages(site_dir, theme_scripts(theme_dirs))
    return (_outside_references(site_dir, pages, {address.hostname or ""})
            + _broken_links(site_dir, pages, address.path or "/") + _unsafe_markup(site_dir, pages))
