"""Changing ``game.yaml`` from a command while keeping the game master's file.

The game master writes ``game.yaml`` by hand, with comments and a layout of
their own; commands (``extend``, ``pause``, ``kick``, an adjudication moving
the deadline) change a few values in it. ``SettingsFile`` reads the file
with ruamel.yaml's round-trip loader, changes only what the command changes
and writes it back, so comments, key order and flow lists survive. Every
change is checked (``settings_from_dict``) before anything is written; a
change to the players sets the old file aside (``game.yaml.replaced-N``) so
the game master can see what a command did.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap

from pbmref.base.errors import DataError, GameFileError
from pbmref.base.files import replace_file, set_aside, write_new
from pbmref.base.yamlfile import load_text
from pbmref.store.settings import GameSettings, settings_from_dict

__all__ = ["SettingsFile"]


class _Moment(str):
    """An ISO date-time written as a plain YAML timestamp (no quotes)."""


def _yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.width = 4096  # never fold a long value (a password hash) onto a new line
    yaml.representer.add_representer(
        _Moment, lambda r, v: r.represent_scalar("tag:yaml.org,2002:timestamp", str(v)))
    yaml.representer.add_representer(
        type(None), lambda r, v: r.represent_scalar("tag:yaml.org,2002:null", "null"))
    return yaml


_ISO_MOMENT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?([+-]\d\d:\d\d|Z)")


def _value(value: Any) -> Any:
    """A date-time (or its ISO text) as a plain timestamp; anything else as it is."""
    if isinstance(value, datetime):
        return _Moment(value.isoformat())
    if isinstance(value, str) and _ISO_MOMENT.fullmatch(value):
        return _Moment(value)
    return value


class SettingsFile:
    """``game.yaml`` of one game, edited in place."""

    def __init__(self, path: Path, game_id: str) -> None:
        self.path = path
        self.game_id = game_id

    def _load(self) -> CommentedMap:
        text = self.path.read_text(encoding="utf-8")
        load_text(text, self.path)  # our own checks first: safe, no duplicate keys
        data = _yaml().load(text)
        if not isinstance(data, CommentedMap):
            raise GameFileError(self.path, "expected the game's settings as a mapping", line=1)
        return data

    def _text(self, data: CommentedMap) -> str:
        out = io.StringIO()
        _yaml().dump(data, out)
        return out.getvalue()

    def _checked(self, text: str) -> GameSettings:
        try:
            return settings_from_dict(load_text(text, self.path), self.game_id)
        except DataError as exc:
            raise GameFileError(self.path, f"the change would break the file: {exc}") from None

    def set(self, changes: Mapping[str, Any]) -> GameSettings:
        """Change top-level values (``deadline``, ``status``); date-times become ISO
        timestamps. Returns the settings as they are now."""
        data = self._load()
        for key, value in changes.items():
            data[key] = _value(value)
        text = self._text(data)
        settings = self._checked(text)
        replace_file(self.path, text)
        return settings

    def update(self, change: Callable[[CommentedMap], None]) -> Path:
        """Apply ``change`` to the file's data in place and write it; the old file is
        set aside first. Returns the name it was set aside under."""
        data = self._load()
        change(data)
        text = self._text(data)
        self._checked(text)
        old = set_aside(self.path)
        write_new(self.path, text)
        return old
