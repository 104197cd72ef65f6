"""The event base both air rulesets share, and its plain-data form.

An event is a frozen dataclass with a ``kind`` and the ``move`` it happened
in; ``event_to_dict`` writes it for YAML and the reports, with hexes as the
names the given board prints (any board with a ``name(hex)`` method).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, Protocol

from pbmref.rules.hexgrid import Hex

__all__ = ["Event", "HexNamer", "event_to_dict"]


class HexNamer(Protocol):
    def name(self, hex_: Hex) -> str: ...


@dataclass(frozen=True, slots=True)
class Event:
    kind: ClassVar[str] = "event"
    move: int


_AS_IS = (str, int, bool, float, type(None))


def _plain(value: Any, board: HexNamer) -> Any:
    kind = type(value)
    if kind in _AS_IS:
        return value
    if isinstance(value, Hex):
        return board.name(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):  # mostly a line of hexes: named here, without a call each
        name = board.name
        return [name(v) if type(v) is Hex else _plain(v, board) for v in value]
    return value


_FIELD_NAMES: dict[type[Event], tuple[str, ...]] = {}  # each event class's, found once


def _field_names(kind: type[Event]) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(kind)
    if names is None:
        names = _FIELD_NAMES[kind] = tuple(f.name for f in dataclasses.fields(kind))
    return names


def event_to_dict(event: Event, board: HexNamer) -> dict[str, Any]:
    """The event as plain data (names for hexes and headings)."""
    out: dict[str, Any] = {"kind": event.kind}
    for name in _field_names(type(event)):
        value = getattr(event, name)
        out[name] = value if type(value) in _AS_IS else _plain(value, board)
    return out
