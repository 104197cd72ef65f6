"""A Fast Play turn report read once into typed values (``AirTurn``) with the
players' names and the planes' map letters."""

from __future__ import annotations

from dataclasses import dataclass

from pbmref.reports.model import TurnReport
from pbmref.rules.eventdata import Event
from pbmref.rules.fastplay.board import FastBoard
from pbmref.rules.fastplay.cards import FULL_DECK
from pbmref.rules.fastplay.position import position_from_dict
from pbmref.rules.fastplay.state import GameState, Plane, Team
from pbmref.rulesets.air.names import pilot_letters
from pbmref.rulesets.air.turn import AirTurn

__all__ = ["DECK_SIZE", "FastTurn", "letters_of"]

DECK_SIZE = len(FULL_DECK)  # FP4: a full deck


def letters_of(*states: GameState) -> dict[str, str]:
    """One map letter per pilot, upper case for Germans, lower for Allies (FP1)."""
    planes: dict[str, Plane] = {}
    for state in states:
        planes.update((p.pilot, p) for p in state.planes)
    letters = pilot_letters(planes)
    return {p: (letters[p] if plane.team is Team.GERMANS else letters[p].lower())
            for p, plane in planes.items()}


@dataclass(frozen=True)
class FastTurn(AirTurn[GameState]):
    """A Fast Play turn, typed; ``letters`` the planes' map letters."""

    letters: dict[str, str]

    @classmethod
    def read(cls, report: TurnReport[Event]) -> FastTurn:
        before = position_from_dict(report.position_before)
        after = position_from_dict(report.position_after)
        return cls(report, before, after, report.events, letters_of(before, after))

    @property
    def board(self) -> FastBoard:
        return self.before.board

    def name(self, who: str) -> str:
        """A player's display name, else their id."""
        return self.report.names.get(who) or who

    def plane(self, pilot: str) -> Plane | None:
        """The pilot's plane after the turn; None: it has none."""
        return next((p for p in self.after.planes if p.pilot == pilot), None)

    def plane_before(self, pilot: str) -> Plane | None:
        return next((p for p in self.before.planes if p.pilot == pilot), None)
