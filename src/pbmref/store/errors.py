"""What can go wrong with a game folder, in plain words.

Every error the store raises is a ``StoreError``. ``GameFileError`` names the
file, the line (when known) and what is wrong, so a game master can open the
file and fix it; the referee skips that game until it is fixed.
"""

from __future__ import annotations

from pathlib import Path

__all__ = [
    "DataError",
    "GameExists",
    "GameFileError",
    "GameNotFound",
    "InvalidId",
    "LockTimeout",
    "StoreError",
    "TurnError",
]

KeyPath = tuple[str | int, ...]


class StoreError(Exception):
    """Base of every error of the game store."""


class GameFileError(StoreError):
    """A game file that cannot be used: file, line and what is wrong."""

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


class InvalidId(StoreError, ValueError):
    """A game or player id that is not a plain short name."""


class GameNotFound(StoreError, KeyError):
    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "game not found"


class GameExists(StoreError):
    pass


class TurnError(StoreError):
    """A turn operation that does not fit the game's history."""


class LockTimeout(StoreError):
    pass
