"""Typed orders for one tweedekker turn, as the engine consumes them.

These are values only: the order mail is read into them by ``pbmref.orders``,
and the legality checks against a position (M3, F1, F2, L3, Z9, Z14 ...) live
there too. Each value formats back to the line a player would mail:

>>> Move(Manoeuvre.LS, (FireDir.A, FireDir.R)).format()
'LS f-A f-R'
>>> ZeppelinVote(Manoeuvre.A, ZeppelinFire.BOMB).format()
'A d-B'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from pbmref.rules.tweedekker.state import Runway

__all__ = [
    "FireDir",
    "Manoeuvre",
    "Move",
    "PlaneOrders",
    "TurnOrders",
    "ZeppelinFire",
    "ZeppelinVote",
]


class Manoeuvre(Enum):
    """The manoeuvres of rule M2 (also the zeppelin's movement votes, Z7)."""

    A = "A"  # ahead
    L = "L"  # left turn
    R = "R"  # right turn
    LS = "LS"  # left slip, "hard left"
    RS = "RS"  # right slip, "hard right"
    ZERO = "0"  # no move
    I = "I"  # noqa: E741  Immelman, aces only (V4)

    def __str__(self) -> str:
        return self.value


class FireDir(Enum):
    """Burst directions relative to the heading (F2, F3)."""

    A = "f-A"  # ahead
    L = "f-L"  # ahead-left
    R = "f-R"  # ahead-right
    B = "f-B"  # backward (rear gunner, or a zeppelin's tail)

    @property
    def turn(self) -> int:
        """Sixths of a turn from the heading to the line of fire."""
        return {"f-A": 0, "f-L": -1, "f-R": 1, "f-B": 3}[self.value]

    def __str__(self) -> str:
        return self.value


class ZeppelinFire(Enum):
    """A zeppelin fire vote (Z7): a direction, hold fire, or drop a bomb (Z14)."""

    A = "f-A"
    L = "f-L"
    R = "f-R"
    B = "f-B"
    HOLD = "f-0"
    BOMB = "d-B"

    @property
    def direction(self) -> FireDir | None:
        if self in (ZeppelinFire.HOLD, ZeppelinFire.BOMB):
            return None
        return FireDir(self.value)

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Move:
    """One move of an aircraft: a manoeuvre and zero or more bursts (F2)."""

    manoeuvre: Manoeuvre
    fire: tuple[FireDir, ...] = ()
    hold_fire: bool = False  # ``f-0`` written explicitly

    def format(self) -> str:
        items = [self.manoeuvre.value, *(f.value for f in self.fire)]
        if self.hold_fire:
            items.append("f-0")
        return " ".join(items)


@dataclass(frozen=True, slots=True)
class PlaneOrders:
    """A player's orders for their own aircraft for one turn.

    ``moves`` holds up to three moves; missing ones are flown ``A`` with no
    fire (N1). An empty ``PLANE`` section for a landed aircraft means: stay
    landed (L2a).
    """

    moves: tuple[Move, ...] = ()
    takeoff: Runway | None = None  # L3
    land: Runway | None = None  # L4

    def format_lines(self) -> tuple[str, ...]:
        lines = [f"{n}: {m.format()}" for n, m in enumerate(self.moves, 1)]
        if self.takeoff:
            lines.append(f"TAKEOFF {self.takeoff.value}")
        if self.land:
            lines.append(f"LAND {self.land.value}")
        return tuple(lines)


@dataclass(frozen=True, slots=True)
class ZeppelinVote:
    """One player's vote for one move of the controlled zeppelin (Z7)."""

    move: Manoeuvre | None = None
    fire: ZeppelinFire | None = None

    @property
    def empty(self) -> bool:
        return self.move is None and self.fire is None

    def format(self) -> str:
        return " ".join(x.value for x in (self.move, self.fire) if x is not None)


@dataclass(frozen=True)
class TurnOrders:
    """All players' orders for one turn.

    ``plane[pilot]`` is absent for a player who sent nothing for their
    aircraft (an NMR when it is in the fight, N1). ``zeppelin[pilot]`` holds
    three votes, ``None``/empty for a move without a vote (Z8).
    """

    plane: Mapping[str, PlaneOrders] = field(default_factory=dict)
    zeppelin: Mapping[str, tuple[ZeppelinVote | None, ...]] = field(default_factory=dict)
