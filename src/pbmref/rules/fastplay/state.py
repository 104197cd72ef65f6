"""The position of a Fast Play game: settings, planes, the game score (FP1-FP19).

Everything is a frozen value; the engine returns a new ``GameState`` each turn.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from pbmref.rules.fastplay.board import FastBoard
from pbmref.rules.fastplay.cards import FULL_DECK, Card
from pbmref.rules.hexgrid import Heading, Hex

__all__ = ["GameState", "Plane", "PlaneState", "Settings", "Team"]


class Team(Enum):
    """The two sides (FP1)."""

    GERMANS = "Germans"
    ALLIES = "Allies"

    @property
    def other(self) -> Team:
        return Team.ALLIES if self is Team.GERMANS else Team.GERMANS

    @property
    def north(self) -> bool:
        """The Germans' edge is the north edge, the Allies' the south (FP1)."""
        return self is Team.GERMANS

    @property
    def facing(self) -> Heading:
        """The heading toward the enemy edge (FP2)."""
        return Heading.S if self is Team.GERMANS else Heading.N

    @classmethod
    def parse(cls, text: str) -> Team:
        word = text.strip().lower()
        for t in cls:
            if t.value.lower() == word or t.value.lower().rstrip("s") == word:
                return t
        raise ValueError(f"{text!r} is not a side; the sides are Germans and Allies")


class PlaneState(Enum):
    """Where a plane stands in the fight (FP18)."""

    FLYING = "flying"
    LEFT = "left"  # flew off (FP13), returns next turn
    DOWN = "down"  # shot down, crash landing survived (FP9), returns next turn
    OUT = "out"  # put out of action (FP9): a new pilot returns next turn
    REMOVED = "removed"  # removed for NMR (FP17)

    @property
    def returning(self) -> bool:
        return self in (PlaneState.LEFT, PlaneState.DOWN, PlaneState.OUT)


@dataclass(frozen=True, slots=True)
class Settings:
    """Game settings and their defaults (the rulebook's settings table)."""

    files: int = 10  # FP1
    ranks: int = 10  # FP1
    range: int = 5  # FP7
    hits_to_down: int = 6  # FP9
    ace_victories: int = 5  # FP11
    leave_hits: int = 4  # FP13
    entry_distance: int = 6  # FP14
    critical_hits: bool = False  # FP6, FP12
    nmr_limit: int = 3  # FP17
    turns: int = 0  # FP19, 0 = no limit

    @property
    def double_ace_victories(self) -> int:
        """FP11: 10 with the default 5 (twice an ace's count)."""
        return 2 * self.ace_victories

    def dice_at(self, distance: int) -> int:
        """FP8: 5 dice at range 1 down to 1 at range 5 (``range`` - distance + 1)."""
        if distance < 1 or distance > self.range:
            return 0
        return self.range - distance + 1


@dataclass(frozen=True, slots=True)
class Plane:
    """One player's plane and current pilot. ``pilot`` is the player id."""

    pilot: str
    team: Team
    state: PlaneState = PlaneState.FLYING
    hex: Hex | None = None  # None when out of the fight (FP18)
    heading: Heading = Heading.N
    hits: int = 0  # damage points taken (FP9)
    kills: int = 0  # the current pilot's victories, carried across games (FP16)
    score: int = 0  # this player's victories in this game, whatever pilot (FP19)
    ace: bool = False  # FP11
    double_ace: bool = False  # FP11
    nmr: int = 0  # NMR turns in a row (FP17)
    deck: tuple[Card, ...] = FULL_DECK  # cards left (FP6)
    duel: str | None = None  # partner of a duel in progress (FP15)
    withdrawing: bool = False  # a duel winner until it has left the board (FP15)
    gun_hits: int = 0  # critical "gun hit": dice fewer this sortie (FP12)
    burning: bool = False  # critical "fire" (FP12)

    @property
    def on_board(self) -> bool:
        return self.state is PlaneState.FLYING and self.hex is not None

    def but(self, **changes: object) -> Plane:
        return replace(self, **changes)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class GameState:
    """The whole position at the start of ``turn``."""

    turn: int = 1
    settings: Settings = Settings()
    planes: tuple[Plane, ...] = ()
    score: tuple[tuple[Team, int], ...] = ((Team.GERMANS, 0), (Team.ALLIES, 0))
    game_over: bool = False
    winners: tuple[str, ...] = ()

    @property
    def board(self) -> FastBoard:
        return FastBoard(self.settings.files, self.settings.ranks)

    def plane(self, pilot: str) -> Plane:
        for p in self.planes:
            if p.pilot == pilot:
                return p
        raise KeyError(pilot)

    def enemies_on_board(self, team: Team) -> tuple[Plane, ...]:
        return tuple(p for p in self.planes if p.team is not team and p.on_board)

    def but(self, **changes: object) -> GameState:
        return replace(self, **changes)  # type: ignore[arg-type]
