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
                     "(a tab of its own, from the project's guide/ folder); a `chutes new` project leaves it out"}
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
            return dict(options)
    return {}


def engine_setting(config: dict[str, Any], path: Path) -> str:
    """The engine the project asks for (`plugins: - chutes: {engine: ...}`), else the default."""
    return str(chutes_settings(config, path).get("engine", DEFAULT_ENGINE))


def guide_setting(config: dict[str, Any], path: Path) -> bool:
    """Whether the site carries the generator's guide (`plugins: - chutes: {guide: true}`; default: no)."""
    return bool(chutes_settings(config, path).get("guide", False))


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
    out["plugins"] = [entry for entry in plugin_entries(config) if _entry_name(entry) != PLUGIN]
    out["markdown_extensions"] = _with_raw_html_fence(config.get("markdown_extensions"))
    out.pop("hooks", None)
    return out


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
