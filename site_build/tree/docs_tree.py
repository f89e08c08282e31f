"""The generated docs tree written to disk, touching only what changed.

Only files whose content changed are rewritten, and files no longer produced are removed, so a
live-reloading preview does not loop and a deleted board disappears from the site.
"""

from __future__ import annotations

from pathlib import Path


def write_docs(files: dict[str, str | bytes | Path], out_dir: Path) -> list[str]:
    """Make `out_dir` hold exactly `files`, touching only what changed; the changed paths."""
    changed = []
    for rel, content in files.items():
        target = out_dir / rel
        data = content.read_bytes() if isinstance(content, Path) else (
            content.encode() if isinstance(content, str) else content)
        if target.exists() and target.read_bytes() == data:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        changed.append(rel)
    if out_dir.exists():
        for existing in sorted(out_dir.rglob("*"), reverse=True):
            rel = existing.relative_to(out_dir).as_posix()
            if existing.is_file() and rel not in files:
                existing.unlink()
                changed.append(rel)
            elif existing.is_dir() and not any(existing.iterdir()):
                existing.rmdir()
    return changed
