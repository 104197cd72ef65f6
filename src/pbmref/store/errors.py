"""What can go wrong with a game folder, in plain words.

Every error the store raises is a ``StoreError``. ``GameFileError`` (from
``pbmref.base``, which reads the files) names the file, the line (when
known) and what is wrong, so a game master can open the file and fix it;
the referee skips that game until it is fixed.
"""

from __future__ import annotations

from pbmref.base.errors import DataError, GameFileError, KeyPath, LockTimeout, StoreError

__all__ = [
    "DataError",
    "GameExists",
    "GameFileError",
    "GameNotFound",
    "InvalidId",
    "KeyPath",
    "LockTimeout",
    "StoreError",
    "TurnError",
]


class InvalidId(StoreError, ValueError):
    """A game or player id that is not a plain short name."""


class GameNotFound(StoreError, KeyError):
    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "game not found"


class GameExists(StoreError):
    pass


class TurnError(StoreError):
    """A turn operation that does not fit the game's history."""
