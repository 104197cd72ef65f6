"""The errors of the bottom layer: a file that cannot be used, a bad value, a lock.

``GameFileError`` names the file, the line (when known) and what is wrong,
so a game master can open the file and fix it. ``DataError`` is a bad value
in plain data, located by its key path (which a ``YamlDoc`` turns into a
line). Every error about files pbmref keeps is a ``StoreError``.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["DataError", "GameFileError", "KeyPath", "LockTimeout", "StoreError"]

KeyPath = tuple[str | int, ...]


class StoreError(Exception):
    """Base of every error about the files pbmref keeps."""


class GameFileError(StoreError):
    """A file that cannot be used: file, line and what is wrong."""

    def __init__(
        self,
        file: Path | str,
        message: str,
        *,
        line: int | None = None,
        rule: str = "",
        key_path: KeyPath = (),
    ) -> None:
        self.file = Path(file)
        self.line = line
        self.message = message
        self.rule = rule
        self.key_path = key_path
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.file}, line {self.line}" if self.line else f"{self.file}"
        rule = f" (rule {self.rule})" if self.rule else ""
        return f"{where}: {self.message}{rule}"


class DataError(ValueError):
    """A bad value in plain data, located by its key path (turned into a line)."""

    def __init__(self, path: KeyPath, message: str, rule: str = "") -> None:
        self.path = path
        self.message = message
        self.rule = rule
        where = ".".join(str(p) for p in path) or "(top)"
        super().__init__(f"{where}: {message}")


class LockTimeout(StoreError):
    """Another process holds the lock for longer than we may wait."""
