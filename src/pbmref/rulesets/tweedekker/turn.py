"""One tweedekker turn report read once into typed values: the positions
before and after the turn (``GameState``), the turn's events (the engine's
event classes) and the names of its pilots; the report, the personal blocks
and the pictures draw from this, not from the stored dicts.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TypeVar

from pbmref.reports.model import TurnReport
from pbmref.rules.eventdata import Event
from pbmref.rules.hexgrid import HexBoard
from pbmref.rules.tweedekker.events import EVENT_TYPES
from pbmref.rules.tweedekker.position import position_from_dict
from pbmref.rules.tweedekker.state import Aircraft, GameState
from pbmref.rulesets.air.names import Namer
from pbmref.rulesets.air.report import read_events

__all__ = ["Turn"]

E = TypeVar("E", bound=Event)


@dataclass(frozen=True)
class Turn:
    """A turn report's data, typed: ``before`` the position the turn started
    from, ``after`` the next one, ``events`` what happened, in order."""

    report: TurnReport
    before: GameState
    after: GameState
    events: tuple[Event, ...]
    namer: Namer

    @classmethod
    def read(cls, report: TurnReport) -> Turn:
        before = position_from_dict(report.position_before)
        after = position_from_dict(report.position_after)
        namer = Namer([*before.pilots(), *after.pilots()],
                      [z.name for state in (before, after) for z in state.zeppelins],
                      report.names)
        return cls(report, before, after,
                   read_events(report.events, EVENT_TYPES, before.board), namer)

    @classmethod
    def of(cls, report: TurnReport) -> Turn:
        """``read``, once a report: its pictures, its reader's parts and its text
        for each reader read the turn the last call read, when it was this one."""
        last = _LAST.get("turn")
        if last is None or last.report is not report:
            last = _LAST["turn"] = cls.read(report)
        return last

    @property
    def board(self) -> HexBoard:
        return self.before.board

    def events_of(self, kind: type[E]) -> Iterator[E]:
        """The turn's events of one class, in order."""
        return (e for e in self.events if isinstance(e, kind))

    def plane(self, pilot: str) -> Aircraft | None:
        """The pilot's aircraft after the turn; None: it has none."""
        return _plane(self.after, pilot)

    def plane_before(self, pilot: str) -> Aircraft | None:
        return _plane(self.before, pilot)


# the turn last read (``Turn.of``)
_LAST: dict[str, Turn] = {}


def _plane(state: GameState, pilot: str) -> Aircraft | None:
    try:
        return state.plane(pilot)
    except KeyError:
        return None
