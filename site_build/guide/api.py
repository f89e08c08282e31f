"""The Python API page: every name `chutes.__all__` lists, with its signature and docstring, read by griffe from
the package's source (nothing is imported or run), so that the page says what the code says.

The docstrings are read as Google-style: a text, then sections such as `Args:`, `Returns:`, `Raises:` and
`Examples:`; an example (`>>>` lines and their output) becomes a Python block, which the tests run as doctests.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

import griffe

from ..checks import SiteError
from ..project import PACKAGE_DATA

PACKAGE = "chutes"


@dataclass(frozen=True)
class ApiEntry:
    """One documented name: its kind, how it is called, and its docstring as Markdown."""

    name: str
    kind: str
    signature: str
    doc: str
    members: list[ApiEntry] = field(default_factory=list)


def _signature(obj: griffe.Object, name: str) -> str:
    """How `obj` is called or what it is, on one line (`solve(board: str | Board, *, players: int = 2) -> ...`)."""
    if isinstance(obj, griffe.Class):
        init = obj.members.get("__init__")
        params = init.parameters if isinstance(init, griffe.Function) else obj.parameters
        parts = [p for p in _parameters(params) if p not in ("self", "cls")]
        return f"class {name}({', '.join(parts)})" if parts else f"class {name}"
    if isinstance(obj, griffe.Function):
        returns = f" -> {obj.returns}" if obj.returns else ""
        parts = [p for p in _parameters(obj.parameters) if p not in ("self", "cls")]
        return f"{name}({', '.join(parts)}){returns}"
    if isinstance(obj, griffe.Attribute):
        annotation = f": {obj.annotation}" if obj.annotation else ""
        return f"{name}{annotation}"
    return name


def _parameters(params: griffe.Parameters) -> list[str]:
    out: list[str] = []
    keyword_only = False
    for i, p in enumerate(params):
        kind = p.kind
        if p.name.startswith("_"):  # a private field of a dataclass, not for callers
            continue
        if kind is griffe.ParameterKind.var_positional:
            keyword_only = True
            text = f"*{p.name}"
        elif kind is griffe.ParameterKind.var_keyword:
            text = f"**{p.name}"
        else:
            if kind is griffe.ParameterKind.keyword_only and not keyword_only:
                out.append("*")
                keyword_only = True
            text = p.name
        if p.annotation is not None:
            text += f": {p.annotation}"
        if p.default is not None and kind not in (griffe.ParameterKind.var_positional,
                                                  griffe.ParameterKind.var_keyword):
            text += f" = {p.default}" if p.annotation is not None else f"={p.default}"
        out.append(text)
        following = list(params)[i + 1:]
        if kind is griffe.ParameterKind.positional_only and not any(
                q.kind is griffe.ParameterKind.positional_only for q in following):
            out.append("/")
    return out


def _cell(text: object) -> str:
    return " ".join(str(text or "").split()).replace("|", "\\|")


def _examples_fenced(text: str) -> str:
    """A docstring's text with each doctest (a `>>>` line, its `...` lines and its output, up to a blank line) in a
    Python console block, which the Markdown leaves as it is (a bare `>>>` would be read as a quotation)."""
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        if not inside and line.lstrip().startswith(">>>"):
            out.append("```pycon")
            inside = True
        elif inside and not line.strip():
            out.append("```")
            inside = False
        out.append(line)
    if inside:
        out.append("```")
    return "\n".join(out)


def docstring_markdown(docstring: griffe.Docstring | None) -> str:
    """A docstring as Markdown: its text as written, its parameters and raised errors as tables, its examples as
    Python blocks."""
    if docstring is None:
        return ""
    out: list[str] = []
    for section in docstring.parse("google"):
        if isinstance(section, griffe.DocstringSectionText):
            out.append(_examples_fenced(section.value.strip()))
        elif isinstance(section, griffe.DocstringSectionParameters | griffe.DocstringSectionOtherParameters):
            rows = [f"| `{p.name}` | {_cell(p.annotation) and f'`{_cell(p.annotation)}`'} | {_cell(p.description)} |"
                    for p in section.value]
            out.append("| Parameter | Type | Meaning |\n|---|---|---|\n" + "\n".join(rows))
        elif isinstance(section, griffe.DocstringSectionReturns | griffe.DocstringSectionYields):
            out.append("**Returns:** " + " ".join(_cell(r.description) for r in section.value))
        elif isinstance(section, griffe.DocstringSectionRaises):
            rows = [f"| `{_cell(r.annotation)}` | {_cell(r.description)} |" for r in section.value]
            out.append("| Raises | When |\n|---|---|\n" + "\n".join(rows))
        elif isinstance(section, griffe.DocstringSectionExamples):
            for kind, text in section.value:
                if kind is griffe.DocstringSectionKind.examples:
                    out.append(f"```pycon\n{text.strip()}\n```")
                else:
                    out.append(text.strip())
        elif isinstance(section, griffe.DocstringSectionAdmonition):
            title = section.title or section.value.annotation or "Note"
            body = "\n".join("    " + line for line in section.value.description.splitlines())
            out.append(f'!!! note "{_cell(title)}"\n\n{body}')
        else:
            value = section.value
            out.append(_cell(value if isinstance(value, str) else getattr(value, "description", "")))
    return "\n\n".join(part for part in out if part)


def _kind(obj: griffe.Object) -> str:
    return {griffe.Kind.CLASS: "class", griffe.Kind.FUNCTION: "function", griffe.Kind.ATTRIBUTE: "constant",
            griffe.Kind.MODULE: "module"}.get(obj.kind, str(obj.kind.value))


def _entry(name: str, obj: griffe.Object | griffe.Alias) -> ApiEntry:
    target = obj.final_target if isinstance(obj, griffe.Alias) else obj
    members = []
    if isinstance(target, griffe.Class):
        for member_name, member in target.members.items():
            resolved = member.final_target if isinstance(member, griffe.Alias) else member
            if member_name.startswith("_") or resolved.docstring is None:
                continue
            members.append(ApiEntry(member_name, _kind(resolved), _signature(resolved, f"{name}.{member_name}"),
                                    docstring_markdown(resolved.docstring)))
    return ApiEntry(name, _kind(target), _signature(target, name), docstring_markdown(target.docstring), members)


def load(package: str = PACKAGE, search: Path | None = None) -> griffe.Module:
    """The package as griffe reads it from its source (the installed `chutes` by default)."""
    logging.getLogger("griffe").setLevel(logging.ERROR)  # prose docstrings are not all in Google's form
    module = griffe.load(package, search_paths=[str(search or PACKAGE_DATA.parent)], resolve_aliases=True,
                         resolve_external=False)
    if not isinstance(module, griffe.Module):
        raise SiteError(f"{package}: not a package")
    return module


def exported(module: griffe.Module) -> list[str]:
    """The names the package's `__all__` lists, in its order (none without `__all__`)."""
    return [str(getattr(name, "name", name)) for name in (module.exports or [])]


def api_entries(package: str = PACKAGE, search: Path | None = None) -> tuple[str, list[ApiEntry]]:
    """The package's docstring as Markdown, and each name of its `__all__` documented."""
    module = load(package, search)
    entries = []
    for name in exported(module):
        if name not in module.members:
            raise SiteError(f"{package}.__all__ lists {name}, which the package does not define or import")
        try:
            entries.append(_entry(name, module.members[name]))
        except (griffe.AliasResolutionError, griffe.CyclicAliasError) as exc:
            raise SiteError(f"{package}.{name}: cannot be read from the source ({exc})") from None
    return docstring_markdown(module.docstring), entries
