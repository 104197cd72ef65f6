"""One air game's turn report read once into typed values: the positions
before and after the turn (the game's ``GameState``) beside the turn's events
(the engine's event classes, as the report carries them). Each air game's
``Turn`` adds how it names its pieces; its report, personal blocks and
pictures draw from it, not from the stored dicts.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Generic, Self, TypeVar

from pbmref.reports.model import TurnReport
from pbmref.rules.eventdata import Event

__all__ = ["AirTurn"]

S = TypeVar("S")
E = TypeVar("E", bound=Event)


@dataclass(frozen=True)
class AirTurn(Generic[S]):
    """A turn report's data, typed: ``before`` the position the turn started
    from, ``after`` the next one, ``events`` what happened, in order."""

    report: TurnReport[Event]
    before: S
    after: S
    events: tuple[Event, ...]

    @classmethod
    def read(cls, report: TurnReport[Event]) -> Self:
        """The report decoded (each game's ``Turn`` says how)."""
        raise NotImplementedError

    @classmethod
    def of(cls, report: TurnReport[Event]) -> Self:
        """``read``, once a report: its pictures, its readers' parts and its text
        for each reader read the turn the last call read, when it was this one."""
        last = _LAST.get(cls)
        if last is None or last.report is not report:
            last = _LAST[cls] = cls.read(report)
        return last  # type: ignore[return-value]  # kept by its own class

    def events_of(self, kind: type[E]) -> Iterator[E]:
        """The turn's events of one class, in order."""
        return (e for e in self.events if isinstance(e, kind))


# the turn last read, by the class that read it (``AirTurn.of``)
_LAST: dict[type, AirTurn[Any]] = {}
