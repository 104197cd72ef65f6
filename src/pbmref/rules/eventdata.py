"""The event base both air rulesets share, and its plain-data form.

An event is a frozen dataclass with a ``kind`` and the ``move`` it happened
in; ``event_to_dict`` writes it for YAML and the reports, with hexes as the
names the given board prints (any board with a ``name(hex)`` method).
"""

from __future__ import annotations

import dataclasses
import functools
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


def _plain(value: Any, board: HexNamer) -> Any:
    if isinstance(value, Hex):
        return board.name(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [_plain(v, board) for v in value]
    return value


@functools.cache
def _field_names(kind: type[Event]) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(kind))


def event_to_dict(event: Event, board: HexNamer) -> dict[str, Any]:
    """The event as plain data (names for hexes and headings)."""
    out: dict[str, Any] = {"kind": event.kind}
    for name in _field_names(type(event)):
        value = getattr(event, name)
        out[name] = value if isinstance(value, (str, int)) and not isinstance(
            value, Enum) else _plain(value, board)
    return out
