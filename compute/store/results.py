"""The results cache: one record file per board, `<slug>-<key prefix>.json`, written atomically with its
checksum; a file is used only if it is whole and unaltered (`files.read_checked`). Beside a record, a marker
(`.<file name>.verified`) holds the checksum it had when it last passed every check of its model: a record
read again with that checksum is the same bytes, checked by the same code (its key names the code)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .files import holds, read_checked, store, write_atomic


@dataclass
class ResultCache:
    """The cache folder: `<slug>-<key prefix>.json` per board."""

    directory: Path
    _unchanged: dict[Path, tuple[int, int, int]] = field(default_factory=dict, init=False, repr=False, compare=False)

    def path(self, slug: str, key: str) -> Path:
        """Where the results for this slug and key live."""
        return self.directory / f"{slug}-{key[:16]}.json"

    def load(self, slug: str, key: str) -> tuple[dict[str, Any] | None, str | None]:
        """The stored record and None, or None and why it cannot be used (None, None: not stored yet)."""
        return read_checked(self.path(slug, key), key)

    def store(self, record: dict[str, Any]) -> Path:
        """Write a record atomically (with its checksum) and remove older files for the same board."""
        path = self.path(record["slug"], record["key"])
        store(path, record)
        for old in self.records():
            if old != path and self.slug_of(old) == record["slug"]:
                _remove(old)
        return path

    def verified(self, path: Path) -> str:
        """The checksum the record at `path` had when it last passed every check of its model ('' if none)."""
        try:
            return _marker(path).read_text()
        except (OSError, UnicodeDecodeError):
            return ""

    def unchanged(self, slug: str, key: str) -> bool:
        """Whether the board's record for `key` is the very bytes that last passed every check of its model (its
        marker's checksum holds for them): up to date without being read as JSON. Once true, true again for this
        cache while the file's size, modification time and inode stay the same."""
        path = self.path(slug, key)
        try:
            stat = path.stat()
        except OSError:
            return False
        seen = (stat.st_size, stat.st_mtime_ns, stat.st_ino)
        if self._unchanged.get(path) == seen:
            return True
        claimed = self.verified(path)
        if not claimed or not holds(path, key, claimed):
            return False
        self._unchanged[path] = seen
        return True

    def mark_verified(self, path: Path, checksum: str) -> None:
        """Note that the record at `path`, with this checksum, passed every check of its model (nothing is noted
        in a folder that cannot be written: the checks are then repeated on the next read)."""
        try:
            write_atomic(_marker(path), checksum.encode())
        except OSError:
            pass

    def records(self) -> list[Path]:
        """The board record files in the folder (temporary files and experiments left out)."""
        if not self.directory.is_dir():
            return []
        return sorted(p for p in self.directory.iterdir() if p.suffix == ".json" and not p.name.startswith(".")
                      and p.is_file() and self.slug_of(p))

    @staticmethod
    def slug_of(path: Path) -> str:
        """The slug a record file belongs to ('' if the name is not `<slug>-<16 hex digits>.json`)."""
        slug, _, key = path.stem.rpartition("-")
        return slug if len(key) == 16 and all(c in "0123456789abcdef" for c in key) else ""

    def prune(self, keep: Iterable[str]) -> list[Path]:
        """Remove the record files of boards not in `keep` (boards deleted from the project); the files removed."""
        wanted = set(keep)
        gone = [p for p in self.records() if self.slug_of(p) not in wanted]
        for path in gone:
            _remove(path)
        return gone


def _marker(path: Path) -> Path:
    return path.with_name(f".{path.name}.verified")


def _remove(path: Path) -> None:
    """A record file and its marker removed."""
    path.unlink(missing_ok=True)
    _marker(path).unlink(missing_ok=True)
