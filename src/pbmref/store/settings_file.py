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
from pbmref.base.yamlfile import load_round_trip, load_text, read_text, stored_yaml
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


# A top-level key and a one-line value, maybe a comment after it: the value plain
# (not a block, flow, anchor, alias, tag or directive) or quoted on the line.
_ONE_LINE = re.compile(r"""(?P<key>[A-Za-z_][A-Za-z0-9_]*):[ ]+"""
                       r"""(?P<value>[^\s#|>\[{&*!%@`'"][^#]*?|'[^'\n]*'|"[^"\\\n]*")"""
                       r"""(?:(?P<gap>[ ]+)(?P<comment>#.*)|[ ]*)""")
# A value written as a plain word: what ruamel.yaml writes without quotes
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_NOT_WORDS = {"y", "n", "yes", "no", "true", "false", "on", "off", "null"}


def _plain(value: Any) -> str | None:
    """``value`` as ruamel.yaml writes it on a line (None: not one of these)."""
    if value is None:
        return "null"
    if isinstance(value, _Moment):
        return str(value)
    if isinstance(value, str) and _WORD.fullmatch(value) and value.lower() not in _NOT_WORDS:
        return value
    return None


def _edited(text: str, old: Any, changes: Mapping[str, object],
            path: Path) -> tuple[str, Any] | None:
    """``text`` (whose data is ``old``) with each top-level value in ``changes``
    changed on its own line, and its data; None when a value is not alone on
    its line or the result does not read back as the old data with the changes."""
    if not isinstance(old, dict):
        return None
    lines = text.splitlines(keepends=True)
    for key, value in changes.items():
        written = _plain(value)
        found = [i for i, line in enumerate(lines) if line.startswith(f"{key}:")]
        if written is None or len(found) != 1:
            return None
        i = found[0]
        line = lines[i]
        body = line.rstrip("\r\n")
        m = _ONE_LINE.fullmatch(body)
        after = lines[i + 1] if i + 1 < len(lines) else ""
        if m is None or m.group("key") != key or after[:1] in (" ", "\t"):
            return None  # not alone on its line, or a value that goes on below
        # as ruamel.yaml writes it: a comment stays in its column, or one space after
        changed = f"{key}: {written}"
        if m.group("comment") is not None:
            column = m.start("comment")
            changed += " " * max(1, column - len(changed)) + m.group("comment")
        lines[i] = changed + line[len(body):]
    edited = "".join(lines)
    new = load_text(edited, path)
    expected = {**old, **{k: load_text(f"{k}: {_plain(v)}", path)[k] for k, v in changes.items()}}
    return (edited, new) if new == expected else None


class SettingsFile:
    """``game.yaml`` of one game, edited in place."""

    def __init__(self, path: Path, game_id: str) -> None:
        self.path = path
        self.game_id = game_id

    def _load(self, text: str | None = None) -> CommentedMap:
        if text is None:
            text = read_text(self.path)
        data = load_round_trip(_yaml(), text, self.path)
        if not isinstance(data, CommentedMap):
            raise GameFileError(self.path, "expected the game's settings as a mapping", line=1)
        return data

    def _text(self, data: CommentedMap) -> str:
        out = io.StringIO()
        _yaml().dump(data, out)
        return out.getvalue()

    def _checked(self, data: Any) -> GameSettings:
        try:
            return settings_from_dict(data, self.game_id)
        except DataError as exc:
            raise GameFileError(self.path, f"the change would break the file: {exc}") from None

    def set(self, changes: Mapping[str, object]) -> tuple[GameSettings, str]:
        """Change top-level values (``deadline``, ``status``); date-times become ISO
        timestamps. Returns the settings as they are now, and the file's text.

        A value on a line of its own (``deadline: 2026-12-01T18:00:00+01:00``,
        maybe a comment after it) is changed on that line, as ruamel.yaml would
        change it, the rest of the file left as it is; the text is kept only
        when it reads back as the old data with the changes. Any other file goes
        through ruamel.yaml's round trip (about fifty times the time: it moved
        the deadline at every turn)."""
        values = {key: _value(value) for key, value in changes.items()}
        doc = stored_yaml(self.path)  # as it is now, parsed once a version
        found = _edited(doc.text, doc.data, values, self.path)
        if found is None:
            data = self._load(doc.text)
            for key, value in values.items():
                data[key] = value
            text = self._text(data)
            found = text, load_text(text, self.path)
        edited, new = found
        settings = self._checked(new)
        replace_file(self.path, edited)
        return settings, edited

    def update(self, change: Callable[[CommentedMap], None]) -> Path:
        """Apply ``change`` to the file's data in place and write it; the old file is
        set aside first. Returns the name it was set aside under."""
        data = self._load()
        change(data)
        text = self._text(data)
        self._checked(load_text(text, self.path))
        old = set_aside(self.path)
        write_new(self.path, text)
        return old
