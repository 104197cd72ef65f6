"""A tweedekker turn report read once into typed values (``AirTurn``) with
the names of its pilots and zeppelins."""

from __future__ import annotations

from dataclasses import dataclass

from pbmref.reports.model import TurnReport
from pbmref.rules.eventdata import Event
from pbmref.rules.hexgrid import HexBoard
from pbmref.rules.tweedekker.position import position_from_dict
from pbmref.rules.tweedekker.state import Aircraft, GameState
from pbmref.rulesets.air.names import Namer
from pbmref.rulesets.air.turn import AirTurn

__all__ = ["Turn"]


@dataclass(frozen=True)
class Turn(AirTurn[GameState]):
    """A tweedekker turn, typed; ``namer`` names its pilots and zeppelins."""

    namer: Namer

    @classmethod
    def read(cls, report: TurnReport[Event]) -> Turn:
        before = position_from_dict(report.position_before)
        after = position_from_dict(report.position_after)
        namer = Namer([*before.pilots(), *after.pilots()],
                      [z.name for state in (before, after) for z in state.zeppelins],
                      report.names)
        return cls(report, before, after, report.events, namer)

    @property
    def board(self) -> HexBoard:
        return self.before.board

    def plane(self, pilot: str) -> Aircraft | None:
        """The pilot's aircraft after the turn; None: it has none."""
        return next((a for a in self.after.aircraft if a.pilot == pilot), None)

    def plane_before(self, pilot: str) -> Aircraft | None:
        return next((a for a in self.before.aircraft if a.pilot == pilot), None)
