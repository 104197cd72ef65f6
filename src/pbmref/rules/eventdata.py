"""The event base both air rulesets share, and its plain-data form.

An event is a frozen dataclass with a ``kind`` and the ``move`` it happened
in; ``event_to_dict`` writes it for YAML and the reports, with hexes as the
names the given board prints (any board with a ``name(hex)`` method), and
``event_from_dict`` reads that back, the hexes through the board's ``parse``
(the doctests of each game's ``events`` module show the two mirror).
``events_to_dicts`` and ``events_from_dicts`` do the same for a whole turn,
an event of a kind the game does not know kept as an ``UnknownEvent``.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, Protocol

from pbmref.rules.hexgrid import Hex

__all__ = ["Event", "EventBoard", "EventDataError", "HexNamer", "HexParser", "UnknownEvent",
           "event_from_dict", "event_to_dict", "events_from_dicts", "events_to_dicts"]


class HexNamer(Protocol):
    def name(self, hex_: Hex) -> str: ...

    def names(self, hexes: tuple[Hex, ...]) -> list[str]: ...


class HexParser(Protocol):
    def parse(self, text: str) -> Hex: ...


class EventBoard(HexNamer, HexParser, Protocol):
    """A board that names hexes and reads their names back: what a turn's
    events are written and read with."""


class EventDataError(ValueError):
    """An event's plain data that no event class of the game reads."""


@dataclass(frozen=True, slots=True)
class Event:
    kind: ClassVar[str] = "event"
    move: int


@dataclass(frozen=True, slots=True)
class UnknownEvent(Event):
    """An event of a kind this version does not know (a later one wrote it):
    kept with its data as it is (``name`` its kind, ``data`` every other key
    but ``move``), so that a report shows it and writing it gives it back.

    >>> from pbmref.rules.hexgrid import HexBoard
    >>> plain = {"kind": "loop", "move": 2, "pilot": "anna"}
    >>> board = HexBoard(10)
    >>> events_to_dicts(events_from_dicts([plain], {}, board), board) == [plain]
    True
    """

    kind: ClassVar[str] = "unknown"
    name: str
    data: tuple[tuple[str, object], ...]  # every key but kind and move

    def words(self) -> str:
        """``new_kind: detail shown``."""
        return f"{self.name}: " + ", ".join(f"{key} {val}" for key, val in self.data)


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
        if type(event) is UnknownEvent:
            out.append({"kind": event.name, "move": event.move, **dict(event.data)})
            continue
        write = writers.get(type(event)) or _writer(type(event))
        out.append(write(event, board, name, names))
    return out


# How each field is read back: the mirror of ``_WRITE``.
Reader = Callable[[object, HexParser], object]


def _read_plain(value: object, board: HexParser) -> object:
    return value


def _reader(hint: Any) -> Reader:
    """The function that reads one field written as ``_how(hint)`` says."""
    how = _how(hint)
    if how is None:
        return _read_plain
    if how == _HEX:
        return lambda value, board: board.parse(str(value))
    if how == _ENUM:
        return lambda value, board: hint(value)
    if how == _HEXES:
        return lambda value, board: tuple(board.parse(str(v)) for v in _items(value))
    if how == _VALUES:
        return lambda value, board: tuple(_items(value))
    if how == _ROWS:
        return lambda value, board: tuple(tuple(_items(row)) for row in _items(value))
    args = typing.get_args(hint)
    if typing.get_origin(hint) in (typing.Union, types.UnionType) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1:  # ``Hex | None``, ``Heading | None``: None as it is
            inner = _reader(rest[0])
            return lambda value, board: None if value is None else inner(value, board)
    raise TypeError(f"no reader for a field of type {hint!r}")


def _items(value: object) -> list[object]:
    if not isinstance(value, list | tuple):
        raise EventDataError(f"expected a list, got {value!r}")
    return list(value)


FromDict = Callable[[Mapping[str, object], HexParser], Event]
_FROM_DICT: dict[type[Event], FromDict] = {}


def _from_dict(kind: type[Event]) -> FromDict:
    hints = typing.get_type_hints(kind)
    readers = [(f.name, _reader(hints[f.name])) for f in dataclasses.fields(kind)]
    build: Callable[..., Event] = kind  # each field read by its own reader

    def from_dict(data: Mapping[str, object], board: HexParser) -> Event:
        return build(**{name: read(data[name], board) for name, read in readers if name in data})

    return from_dict


def event_from_dict(data: Mapping[str, object], types_: Mapping[str, type[Event]],
                    board: HexParser) -> Event:
    """The event ``event_to_dict`` wrote as ``data``, of the class its ``kind``
    names in ``types_`` (a game's ``EVENT_TYPES``); a field left out takes its
    default. Raises ``EventDataError`` for a kind the game does not know."""
    cls = types_.get(str(data.get("kind")))
    if cls is None:
        raise EventDataError(f"no event of kind {data.get('kind')!r}")
    read = _FROM_DICT.get(cls)
    if read is None:
        read = _FROM_DICT[cls] = _from_dict(cls)
    return read(data, board)



def events_from_dicts(data: Iterable[Mapping[str, object]], types_: Mapping[str, type[Event]],
                      board: HexParser) -> tuple[Event, ...]:
    """A turn's stored events as the game's typed events (``event_from_dict``;
    the mirror of ``events_to_dicts``), one of a kind the game does not know
    as an ``UnknownEvent``."""
    out: list[Event] = []
    for d in data:
        kind = str(d.get("kind"))
        if kind in types_:
            out.append(event_from_dict(d, types_, board))
        else:
            move = d.get("move", 0)
            out.append(UnknownEvent(move if isinstance(move, int) else 0, kind, tuple(
                (k, v) for k, v in d.items() if k not in ("kind", "move"))))
    return tuple(out)
