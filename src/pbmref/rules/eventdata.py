"""The event base both air rulesets share, and its plain-data form.

An event is a frozen dataclass with a ``kind`` and the ``move`` it happened
in; ``event_to_dict`` writes it for YAML and the reports, with hexes as the
names the given board prints (any board with a ``name(hex)`` method).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, Protocol

from pbmref.rules.hexgrid import Hex

__all__ = ["Event", "HexNamer", "event_to_dict", "events_to_dicts"]


class HexNamer(Protocol):
    def name(self, hex_: Hex) -> str: ...

    def names(self, hexes: tuple[Hex, ...]) -> list[str]: ...


@dataclass(frozen=True, slots=True)
class Event:
    kind: ClassVar[str] = "event"
    move: int


_AS_IS = (str, int, bool, float, type(None))


def _plain(value: Any, board: HexNamer) -> Any:
    kind = type(value)
    if kind in _AS_IS:
        return value
    if kind is tuple:  # a line of hexes, names, pairs: plain items without a call
        name = board.name
        return [v if type(v) in _AS_IS else name(v) if type(v) is Hex else _plain(v, board)
                for v in value]
    if isinstance(value, Hex):
        return board.name(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return _plain(tuple(value), board)
    return value


# How each event class is written, found once from its annotations: a hex as
# its name, a heading (any enum) as its value, a line of hexes as their names, a
# field annotated as a plain value as it is, a tuple of them as a list and a
# tuple of such rows (votes, counts) as a list of lists (mypy checks the engine,
# and a value that is not plain would fail to be written as YAML), anything
# else through ``_plain``.
_HEX, _ENUM, _HEXES, _VALUES, _ROWS, _OTHER = range(6)
_PLAIN_TYPES = frozenset(_AS_IS)
# (an enum member's ``_value_`` is its value without the ``value`` property's
# lookup; a line of hexes is named by the board at one call)
_WRITE = {None: "{}", _HEX: "name({})", _ENUM: "{}._value_", _HEXES: "names({})",
          _VALUES: "list({})", _ROWS: "[list(row) for row in {}]",
          _OTHER: "_plain({}, board)"}


def _is_row(hint: Any) -> bool:
    """``tuple[str, int]`` and the like: a fixed row of plain values."""
    args = typing.get_args(hint)
    return (typing.get_origin(hint) is tuple and bool(args) and ... not in args
            and all(a in _PLAIN_TYPES for a in args))


def _how(hint: Any) -> int | None:
    if hint is Hex:
        return _HEX
    if isinstance(hint, type) and issubclass(hint, Enum):
        return _ENUM
    if hint == tuple[Hex, ...]:
        return _HEXES
    if typing.get_origin(hint) is tuple and typing.get_args(hint)[1:] == (...,) and \
            typing.get_args(hint)[0] in _PLAIN_TYPES:
        return _VALUES
    if typing.get_origin(hint) is tuple and typing.get_args(hint)[1:] == (...,) and \
            _is_row(typing.get_args(hint)[0]):
        return _ROWS
    if hint in _PLAIN_TYPES or (typing.get_origin(hint) in (typing.Union, types.UnionType)
                                and all(a in _PLAIN_TYPES for a in typing.get_args(hint))):
        return None
    return _OTHER


# a writer takes the event, the board (for ``_plain``) and the board's two namers
ToDict = Callable[[Event, HexNamer, Callable[[Hex], str],
                   Callable[[tuple[Hex, ...]], list[str]]], dict[str, object]]


def _to_dict(kind: type[Event]) -> ToDict:
    """The function that writes events of class ``kind`` as plain data: one dict
    display of its fields, made once from the class's annotations (the way
    ``dataclasses`` makes an ``__init__``; field names are identifiers)."""
    hints = typing.get_type_hints(kind)
    items = [f"'kind': {kind.kind!r}"]
    for f in dataclasses.fields(kind):
        items.append(f"{f.name!r}: " + _WRITE[_how(hints[f.name])].format(f"event.{f.name}"))
    source = ("def to_dict(event, board, name, names):\n"
              f"    return {{{', '.join(items)}}}\n")
    namespace: dict[str, Any] = {"_plain": _plain}
    exec(source, namespace)  # source made above from the class's fields
    made: ToDict = namespace["to_dict"]
    return made


_TO_DICT: dict[type[Event], ToDict] = {}


def _writer(kind: type[Event]) -> ToDict:
    write = _TO_DICT.get(kind)
    if write is None:
        write = _TO_DICT[kind] = _to_dict(kind)
    return write


def event_to_dict(event: Event, board: HexNamer) -> dict[str, object]:
    """The event as plain data (names for hexes and headings)."""
    return _writer(type(event))(event, board, board.name, board.names)


def events_to_dicts(events: Iterable[Event], board: HexNamer) -> list[dict[str, object]]:
    """Every event as ``event_to_dict`` writes it, at one call (a turn of 60
    aircraft has nearly a thousand)."""
    name, names, writers = board.name, board.names, _TO_DICT
    out = []
    for event in events:
        write = writers.get(type(event)) or _writer(type(event))
        out.append(write(event, board, name, names))
    return out
