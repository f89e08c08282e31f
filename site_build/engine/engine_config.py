"""The engine's configuration, written whole before the engine runs: the project's mkdocs.yml plus what `chutes` sets.

The project's file says how the site looks (name, theme, palette, extensions); `chutes` adds the folders it
generated (`docs_dir`, the merged theme overrides as `theme.custom_dir`), the navigation (from the records,
then the author's own pages of its `nav:`, `nav.own_nav`), the output folder, the site's address and the Markdown
fence its templates write raw HTML in. The result is a plain YAML file in the cache folder that MkDocs and Zensical
both read as it is: no hooks, nothing passed to the engine in memory.

The project's own settings for `chutes` live in its mkdocs.yml as the `chutes` plugin entry
(`plugins: [search, {chutes: {engine: zensical}}]`): plain `mkdocs build` loads that plugin, which stops at
once with a pointer to `chutes build` (`site_build.engine.guard`), and the written configuration leaves it out.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..fences import FORMAT, RAW_HTML
from ..project import ProjectError

PLUGIN = "chutes"
SUPERFENCES = "pymdownx.superfences"
ENGINES = ("mkdocs", "zensical")
DEFAULT_ENGINE = "mkdocs"
TABS = "navigation.tabs"
DEFAULT_LANGUAGE = "en"
SITE_WORDS = ("site_name", "site_description")
"""What a project's `translations` setting gives in another language."""


@dataclass(frozen=True)
class Tagged:
    """A YAML value with an application tag (`!!python/name:…`, `!ENV`, `!relative`), kept as written."""

    tag: str
    value: Any


class _Loader(yaml.SafeLoader):
    """Safe YAML that keeps the tags MkDocs configurations use instead of acting on them."""


def _tagged(loader: _Loader, suffix: str, node: yaml.Node) -> Tagged:
    if isinstance(node, yaml.ScalarNode):
        value: Any = loader.construct_scalar(node)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        value = loader.construct_mapping(node, deep=True)
    return Tagged(suffix, value)


for _prefix in ("tag:yaml.org,2002:python/", "!"):
    _Loader.add_multi_constructor(_prefix, lambda lo, suffix, node, prefix=_prefix: _tagged(lo, prefix + suffix, node))


class _Dumper(yaml.SafeDumper):
    """Writes the tags back as they were read."""


def _represent_tagged(dumper: _Dumper, data: Tagged) -> yaml.Node:
    if isinstance(data.value, list):
        return dumper.represent_sequence(data.tag, data.value)
    if isinstance(data.value, dict):
        return dumper.represent_mapping(data.tag, data.value)
    return dumper.represent_scalar(data.tag, str(data.value))


_Dumper.add_representer(Tagged, _represent_tagged)


def read_config(path: Path) -> dict[str, Any]:
    """The project's mkdocs.yml as data; a file that cannot be read or parsed is one line naming it."""
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)  # noqa: S506 (a safe loader)
    except OSError as exc:
        raise ProjectError(f"{path}: cannot read it ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise ProjectError(f"{path}: not UTF-8 text") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}" if mark is not None else ""
        raise ProjectError(f"{path}{where}: not valid YAML ({getattr(exc, 'problem', None) or exc})") from None
    if not isinstance(data, dict):
        raise ProjectError(f"{path}: expected a mapping of settings (site_name: ..., theme: ...)")
    return data


def plugin_entries(config: dict[str, Any]) -> list[Any]:
    """The `plugins` setting as a list of entries (MkDocs also accepts a mapping of name → options)."""
    plugins = config.get("plugins", [])
    if isinstance(plugins, dict):
        return [{name: options} for name, options in plugins.items()]
    return list(plugins or [])


def _entry_name(entry: Any) -> str:
    return entry if isinstance(entry, str) else next(iter(entry), "") if isinstance(entry, dict) else ""


SETTINGS = {"engine": "the engine that turns the pages into HTML: mkdocs (the default) or zensical",
            "guide": "true only in this repository's own project: the reference site carries the generator's guide "
                     "(a tab of its own, from the project's guide/ folder); a `chutes new` project leaves it out",
            "languages": "the languages the reader pages are published in, as ISO 639 codes (`[en, fr, hi]`; the "
                         "default is `[en]`): the first at the site's root, each other in its own folder (/fr/), "
                         "joined by a language selector; each needs the site's and the wording's catalogues",
            "translations": "the site's own name and description in the other languages: `{fr: {site_name: ..., "
                            "site_description: ...}}` (each language of `languages`; a missing one stays as "
                            "mkdocs.yml says)"}
"""The settings a project's mkdocs.yml may give under its `chutes` plugin entry, with what each does."""


def chutes_settings(config: dict[str, Any], path: Path) -> dict[str, Any]:
    """The project's `chutes` settings (`plugins: - chutes: {engine: ..., guide: ...}`), checked; {} without any."""
    for entry in plugin_entries(config):
        if _entry_name(entry) == PLUGIN and isinstance(entry, dict):
            options = entry[PLUGIN] or {}
            unknown = sorted(set(options) - set(SETTINGS)) if isinstance(options, dict) else ["(not a mapping)"]
            if unknown:
                raise ProjectError(f"{path}: plugins → chutes: unknown setting {unknown[0]} "
                                   f"(known: {', '.join(SETTINGS)})")
            engine = options.get("engine", DEFAULT_ENGINE)
            if engine not in ENGINES:
                raise ProjectError(f"{path}: plugins → chutes → engine: expected one of {', '.join(ENGINES)}, "
                                   f"got {engine!r}")
            if not isinstance(options.get("guide", False), bool):
                raise ProjectError(f"{path}: plugins → chutes → guide: expected true or false, "
                                   f"got {options['guide']!r}")
            _check_languages(options, path)
            return dict(options)
    return {}


def _check_languages(options: dict[str, Any], path: Path) -> None:
    """The `languages` and `translations` settings checked, a line naming the setting and what is wrong."""
    from ..pages.language import languages

    where = f"{path}: plugins → chutes → languages"
    chosen = options.get("languages", [DEFAULT_LANGUAGE])
    if not isinstance(chosen, list) or not chosen or not all(isinstance(c, str) for c in chosen):
        raise ProjectError(f"{where}: expected a list of language codes such as [en, fr], got {chosen!r}")
    known = languages()
    for code in chosen:
        if code not in known:
            raise ProjectError(f"{where}: no catalogue for {code!r} (the languages with one: {', '.join(known)})")
        if chosen.count(code) > 1:
            raise ProjectError(f"{where}: {code!r} is listed twice")
    translations = options.get("translations", {})
    if not isinstance(translations, dict):
        raise ProjectError(f"{path}: plugins → chutes → translations: expected a mapping of language → "
                           f"{{site_name: ..., site_description: ...}}, got {translations!r}")
    for code, words in translations.items():
        key = f"{path}: plugins → chutes → translations → {code}"
        if code not in chosen[1:]:
            raise ProjectError(f"{key}: not one of the site's other languages ({', '.join(chosen[1:]) or 'none'})")
        if not isinstance(words, dict) or not set(words) <= set(SITE_WORDS) or \
                not all(isinstance(v, str) for v in words.values()):
            raise ProjectError(f"{key}: expected text for {' and '.join(SITE_WORDS)} only, got {words!r}")


def languages_setting(config: dict[str, Any], path: Path) -> list[str]:
    """The languages the project publishes (`plugins: - chutes: {languages: [en, fr]}`), the first at the root."""
    return list(chutes_settings(config, path).get("languages", [DEFAULT_LANGUAGE]))


def site_words(config: dict[str, Any], path: Path, code: str) -> dict[str, str]:
    """The site's own name and description in a language (`translations`), where the project gives them."""
    return dict(chutes_settings(config, path).get("translations", {}).get(code, {}))


def engine_setting(config: dict[str, Any], path: Path) -> str:
    """The engine the project asks for (`plugins: - chutes: {engine: ...}`), else the default."""
    return str(chutes_settings(config, path).get("engine", DEFAULT_ENGINE))


def guide_setting(config: dict[str, Any], path: Path) -> bool:
    """Whether the site carries the generator's guide (`plugins: - chutes: {guide: true}`; default: no)."""
    return bool(chutes_settings(config, path).get("guide", False))


@dataclass(frozen=True)
class Alternate:
    """A language of the site as another language's build names it: the theme's selector
    (templates/theme/partials/alternate.html) leads from a page to the same page there, or to its home page
    where it has no such page (`missing`)."""

    code: str
    name: str
    """The language's name in itself ("Français")."""
    link: str
    """Its home page's address from the site's host ("/fr/"): Material's script reads the language's sitemap there,
    which must be the page's own origin."""
    folder: str
    """Its folder from this build's root ("", "fr/", "../", "../de/")."""
    missing: tuple[str, ...] = ()
    """The addresses of this build's pages that it does not have (the generator's guide, in English only)."""


@dataclass(frozen=True)
class EngineInputs:
    """Everything `chutes` sets in the engine's configuration."""

    docs_dir: Path
    theme_dir: Path
    site_dir: Path
    site_url: str
    nav: list[Any]
    tabs: bool = False
    """The navigation's top-level sections as tabs (the guide's "Make your own" beside the results)."""
    language: str = DEFAULT_LANGUAGE
    """The language of this build (`theme.language`, which also sets the direction: right to left for Arabic)."""
    alternates: tuple[Alternate, ...] = ()
    """Every language of the site, for the language selector and the pages' `hreflang` links (`extra.alternate`);
    empty for a site in one language."""
    shared_root: str | None = None
    """In a language other than the first: the site's path ("/", "/chutes/"), where the scripts, styles and
    downloads every language shares are."""
    words: tuple[tuple[str, str], ...] = ()
    """The site's name and description in this language (`site_words`), where the project gives them."""
    theme_words: tuple[tuple[str, str], ...] = ()
    """What the theme's own template says, in this language (`extra.chutes.words`: `pages.theme_words`)."""
    permalink_title: str = "Permanent link"
    """The title of a heading's permanent link in this language (`pages.theme_words.permalink_title`)."""
    palette_words: tuple[tuple[str, str], ...] = ()
    """The palette toggles' names in this language, by their English name (`pages.theme_words.palette_words`)."""


def _beside(path: Path, base: Path) -> str:
    """`path` relative to the configuration's folder when it is inside it (Zensical takes docs_dir and
    site_dir only so; MkDocs reads both forms), else absolute."""
    return path.relative_to(base).as_posix() if base in path.parents else str(path)


def _with_raw_html_fence(extensions: Any) -> list[Any]:
    """The Markdown extensions with pymdownx.superfences' fence for the templates' raw HTML (`site_build.fences`)
    added to its custom fences, unless the project's file names a fence of that name itself."""
    entries = [{name: options} for name, options in extensions.items()] if isinstance(extensions, dict) \
        else list(extensions or [])
    fence = {"name": RAW_HTML, "class": RAW_HTML, "format": Tagged(f"tag:yaml.org,2002:python/name:{FORMAT}", "")}
    for i, entry in enumerate(entries):
        if _entry_name(entry) == SUPERFENCES:
            options = dict(entry[SUPERFENCES] or {}) if isinstance(entry, dict) else {}
            fences = list(options.get("custom_fences") or [])
            if not any(isinstance(f, dict) and f.get("name") == RAW_HTML for f in fences):
                options["custom_fences"] = [*fences, fence]
            entries[i] = {SUPERFENCES: options}
            return entries
    return [*entries, {SUPERFENCES: {"custom_fences": [fence]}}]


def _with_permalink_title(entries: list[Any], title: str) -> list[Any]:
    """The `toc` extension's permanent links titled in the build's language, unless the project titles them."""
    out = []
    for entry in entries:
        if _entry_name(entry) == "toc" and isinstance(entry, dict) and isinstance(entry["toc"], dict) \
                and entry["toc"].get("permalink") and "permalink_title" not in entry["toc"]:
            entry = {"toc": {**entry["toc"], "permalink_title": title}}
        out.append(entry)
    return out


def engine_config(config: dict[str, Any], inputs: EngineInputs, base: Path) -> dict[str, Any]:
    """The project's configuration completed for the engine, to be written into the folder `base` (the
    `chutes` plugin left out, the fence of the templates' raw HTML added)."""
    out = dict(config)
    theme = out.get("theme") or {}
    out["theme"] = {**({"name": theme} if isinstance(theme, str) else theme),
                    "custom_dir": _beside(inputs.theme_dir, base)}
    features = list(out["theme"].get("features") or [])
    if inputs.tabs and TABS not in features:
        out["theme"]["features"] = [*features, TABS]
    out.update(docs_dir=_beside(inputs.docs_dir, base), site_dir=_beside(inputs.site_dir, base),
               site_url=inputs.site_url, nav=inputs.nav)
    out["theme"]["language"] = inputs.language
    _translate_palette(out["theme"], dict(inputs.palette_words))
    out.update(dict(inputs.words))
    extra = dict(out.get("extra") or {})
    extra["chutes"] = {**(extra.get("chutes") or {}), "words": dict(inputs.theme_words)}
    out["extra"] = extra
    if inputs.alternates:
        extra["alternate"] = [{"name": alt.name, "link": alt.link, "lang": alt.code, "folder": alt.folder,
                               "missing": list(alt.missing)} for alt in inputs.alternates]
    if inputs.shared_root is not None:
        _shared_from(out, inputs.shared_root)
    out["plugins"] = [_searching_in(entry, inputs.language) for entry in plugin_entries(config)
                      if _entry_name(entry) != PLUGIN]
    out["markdown_extensions"] = _with_permalink_title(_with_raw_html_fence(config.get("markdown_extensions")),
                                                       inputs.permalink_title)
    out.pop("hooks", None)
    return out


def _translate_palette(theme: dict[str, Any], names: dict[str, str]) -> None:
    """Each palette toggle whose name is one of Material's English names (`names`) given that name in the
    build's language; a name of the project's own stays as written."""
    palette = theme.get("palette")
    if isinstance(palette, list):
        theme["palette"] = [
            {**entry, "toggle": {**entry["toggle"], "name": names.get(entry["toggle"].get("name"),
                                                                     entry["toggle"].get("name"))}}
            if isinstance(entry, dict) and isinstance(entry.get("toggle"), dict) else entry for entry in palette]


SEARCH = ("search", "material/search")
SEARCH_LANGUAGES = {"hi": "en"}
"""The search's language where it is not the page's: for Hindi, Material's search loads a word segmenter written for
Thai (wordcut.js, 0.68 MB on every first visit), though Hindi words are apart already; split at spaces as in
English, the index finds the same words (without Hindi stemming)."""


def _searching_in(entry: Any, code: str) -> Any:
    """The search plugin's entry with its `lang` set to the build's language (other than English; `SEARCH_LANGUAGES`
    where the page's would not do) unless the project sets one: Material takes it from its own words for the
    language, which name none for Arabic, and lunr's English pipeline then trims every Arabic word away."""
    name = _entry_name(entry)
    if name not in SEARCH or code == DEFAULT_LANGUAGE:
        return entry
    options = dict(entry[name] or {}) if isinstance(entry, dict) else {}
    return {name: {"lang": [SEARCH_LANGUAGES.get(code, code)], **options}}


SHARED_ASSETS = ("assets/javascripts/", "assets/stylesheets/")


def _shared_from(out: dict[str, Any], root: str) -> None:
    """A build in another language than the first reads the scripts and styles every language shares from the
    site's root (`root`, its path): `extra_javascript` and `extra_css` entries in their folders are given from
    there, the theme is told where (`extra.chutes.shared`), and Markdown links from the site's root (to the
    downloads) are expected."""
    def moved(entry: Any) -> Any:
        if isinstance(entry, str) and entry.startswith(SHARED_ASSETS):
            return root + entry
        if isinstance(entry, dict) and str(entry.get("path", "")).startswith(SHARED_ASSETS):
            return {**entry, "path": root + entry["path"]}
        return entry

    for key in ("extra_javascript", "extra_css"):
        if out.get(key):
            out[key] = [moved(entry) for entry in out[key]]
    extra = dict(out.get("extra") or {})
    extra["chutes"] = {**(extra.get("chutes") or {}), "shared": root}
    out["extra"] = extra
    validation = dict(out.get("validation") or {})
    links = dict(validation.get("links") or {})
    links["absolute_links"] = "info"  # the downloads, from the site's root: the build's own checks follow them
    validation["links"] = links
    out["validation"] = validation


def custom_theme_dir(config: dict[str, Any], root: Path) -> Path | None:
    """The project's own `theme.custom_dir`, if its mkdocs.yml names one (relative to the project)."""
    theme = config.get("theme")
    folder = theme.get("custom_dir") if isinstance(theme, dict) else None
    return (root / folder).resolve() if isinstance(folder, str) and folder else None


def write_config(config: dict[str, Any], path: Path) -> bool:
    """Write the engine's configuration if it changed (a preview reloads on a change); whether it did."""
    text = "# Written by chutes from the project's mkdocs.yml: edit that file, not this one.\n" + yaml.dump(
        config, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1000)
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return True
