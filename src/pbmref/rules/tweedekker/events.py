"""What happened in a turn, as data: one frozen event per fact, in order.

Reports, the store and the scenario runner read these; none of them
recomputes rules. ``move`` is 1-3 for the three moves (T2) and 0 for the end
of the turn (T3). Every die is an ``DieRolled`` event (V5).

``event_to_dict`` gives the YAML/JSON form, with hexes written as names:

>>> from pbmref.rules.hexgrid import HexBoard
>>> event_to_dict(Repaired(0, "baron", 2, 8), HexBoard(10))
{'kind': 'repaired', 'move': 0, 'pilot': 'baron', 'amount': 2, 'damage': 8}

``event_from_dict`` reads that form back (the class by its ``kind`` in
``EVENT_TYPES``), the hex names through the board:

>>> board = HexBoard(10)
>>> moved = Manoeuvred(2, "baron", "LS", Hex(0, 0), Hex(-1, 0), Heading.NW)
>>> data = event_to_dict(moved, board)
>>> data["from_hex"], data["to_hex"], data["heading"]
('J10', 'I10', 'NW')
>>> event_from_dict(data, EVENT_TYPES, board) == moved
True
>>> bomb = BombDropped(1, "L59", 3, "no airfield", None, ("baron",))
>>> event_from_dict(event_to_dict(bomb, board), EVENT_TYPES, board) == bomb
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pbmref.rules.eventdata import Event, event_from_dict, event_to_dict
from pbmref.rules.hexgrid import Heading, Hex

__all__ = [
    "AcePromoted",
    "AircraftLanded",
    "AirfieldBombed",
    "BombDropped",
    "Burst",
    "Damaged",
    "DieRolled",
    "Drifted",
    "Event",
    "Exploded",
    "GameEnded",
    "Hit",
    "Manoeuvred",
    "MissedOrders",
    "PointsScored",
    "Refilled",
    "Removed",
    "Repaired",
    "ShotDown",
    "TookOff",
    "VoteTally",
    "WindChanged",
    "ZeppelinMoved",
    "EVENT_TYPES",
    "event_from_dict",
    "event_to_dict",
]




@dataclass(frozen=True, slots=True)
class DieRolled(Event):
    """A die the referee rolled (V5): what for, for whom, and the result."""

    kind: ClassVar[str] = "die"
    purpose: str  # "kill roll-off", "wind change", "zeppelin heading"
    who: str
    value: int
    sides: int = 6
    target: str = ""  # what the roll decides about, e.g. the aircraft shot down


@dataclass(frozen=True, slots=True)
class Manoeuvred(Event):
    """An aircraft's move (M2): where it went. ``outcome`` says what followed:
    ``flew``, ``taxied`` (L3), ``landed`` (L4), ``left`` (M4), ``held`` (0),
    ``stayed`` (a landed aircraft), ``skipped`` (ignored after landing)."""

    kind: ClassVar[str] = "manoeuvre"
    pilot: str
    manoeuvre: str  # as ordered, e.g. "LS"; "" when none
    from_hex: Hex
    to_hex: Hex
    heading: Heading
    outcome: str = "flew"
    reason: str = ""  # e.g. "NMR: flies A (N1)"


@dataclass(frozen=True, slots=True)
class TookOff(Event):
    """An aircraft begins its take-off run on a runway (L3)."""

    kind: ClassVar[str] = "takeoff"
    pilot: str
    runway: str


@dataclass(frozen=True, slots=True)
class AircraftLanded(Event):
    """Landed on its airfield's corner hex (L4); refill may follow (L5)."""

    kind: ClassVar[str] = "landed"
    pilot: str
    runway: str
    airfield: Heading


@dataclass(frozen=True, slots=True)
class VoteTally(Event):
    """One half of one move's zeppelin vote (Z7): every vote, the counts, the winner.

    ``half`` is ``"move"`` or ``"fire"``. ``winner`` is None when nobody
    voted or when the most votes tie (``tie`` is then True).
    """

    kind: ClassVar[str] = "vote"
    zeppelin: str
    half: str
    votes: tuple[tuple[str, str], ...]  # (player, choice) in player order
    counts: tuple[tuple[str, int], ...]  # (choice, votes), most first
    winner: str | None
    tie: bool = False


@dataclass(frozen=True, slots=True)
class ZeppelinMoved(Event):
    """A zeppelin's movement (Z10) or drift (W2), with re-entry (Z4)."""

    kind: ClassVar[str] = "zeppelin_move"
    zeppelin: str
    order: str  # manoeuvre, or "drift"
    from_hexes: tuple[Hex, ...]
    to_hexes: tuple[Hex, ...]
    heading: Heading
    reentered: bool = False


@dataclass(frozen=True, slots=True)
class Burst(Event):
    """One burst (F3-F6): from where, in which direction, the hexes its line
    reached, and why it stopped (``range``, ``cloud``, ``zeppelin``, ``edge``)."""

    kind: ClassVar[str] = "burst"
    shooter: str  # pilot id or zeppelin name
    direction: str  # "f-A" ...
    from_hex: Hex
    line: tuple[Hex, ...]
    stopped_by: str = "range"
    targets: tuple[str, ...] = ()  # who was hit, nearest first


@dataclass(frozen=True, slots=True)
class Hit(Event):
    """Damage one burst did to one target (F3); ``distance`` from the shooter."""

    kind: ClassVar[str] = "hit"
    shooter: str
    target: str
    damage: int
    distance: int


@dataclass(frozen=True, slots=True)
class Damaged(Event):
    """Damage applied in step 3 of a move (T2) from one cause:
    ``gunfire``, ``storm`` (C2), ``bomb`` (Z15) or ``explosion`` (Z12)."""

    kind: ClassVar[str] = "damage"
    target: str
    amount: int
    cause: str
    remaining: int


@dataclass(frozen=True, slots=True)
class PointsScored(Event):
    """Victory points (V1, V2, Z5) and why: ``damage``, ``kill``,
    ``zeppelin first hit``, ``zeppelin destroyed``."""

    kind: ClassVar[str] = "points"
    pilot: str
    points: int
    reason: str
    target: str = ""


@dataclass(frozen=True, slots=True)
class ShotDown(Event):
    """An aircraft or zeppelin destroyed (V2, Z5); ``credited_to`` has the kill."""

    kind: ClassVar[str] = "destroyed"
    target: str
    credited_to: str | None
    reason: str  # "gunfire", "storm", "explosion", "bomb"


@dataclass(frozen=True, slots=True)
class Exploded(Event):
    """A destroyed zeppelin's explosion (Z12) at the end of the move."""

    kind: ClassVar[str] = "explosion"
    zeppelin: str
    hexes: tuple[Hex, ...]
    damage: tuple[tuple[str, int, int], ...]  # (pilot, distance, damage)


@dataclass(frozen=True, slots=True)
class BombDropped(Event):
    """A bomb vote won (Z14). ``outcome``: ``aircraft hit`` (Z15),
    ``airfield disabled`` (Z16), ``no airfield`` or ``not ready`` (Z14)."""

    kind: ClassVar[str] = "bomb"
    zeppelin: str
    votes: int
    outcome: str
    airfield: Heading | None = None
    targets: tuple[str, ...] = ()
    ready_turn: int = 0  # when the next bomb is ready (Z17)


@dataclass(frozen=True, slots=True)
class AirfieldBombed(Event):
    kind: ClassVar[str] = "airfield_disabled"
    airfield: Heading
    turns: int


@dataclass(frozen=True, slots=True)
class Drifted(Event):
    """A cloud hex drifting with the wind (W2); zeppelins use ZeppelinMoved."""

    kind: ClassVar[str] = "drift"
    cloud: int  # index in the clouds list
    from_hexes: tuple[Hex, ...]
    to_hexes: tuple[Hex, ...]


@dataclass(frozen=True, slots=True)
class Repaired(Event):
    kind: ClassVar[str] = "repaired"
    pilot: str
    amount: int
    damage: int  # damage points after repair (L6)


@dataclass(frozen=True, slots=True)
class Refilled(Event):
    kind: ClassVar[str] = "refilled"
    pilot: str
    ammo: int  # L5


@dataclass(frozen=True, slots=True)
class MissedOrders(Event):
    """No valid orders for an aircraft in the fight (N1): ``count`` in a row."""

    kind: ClassVar[str] = "nmr"
    pilot: str
    count: int


@dataclass(frozen=True, slots=True)
class Removed(Event):
    kind: ClassVar[str] = "removed"
    pilot: str
    reason: str  # "NMR" (N2)


@dataclass(frozen=True, slots=True)
class AcePromoted(Event):
    kind: ClassVar[str] = "ace"
    pilot: str
    dealt: int


@dataclass(frozen=True, slots=True)
class WindChanged(Event):
    kind: ClassVar[str] = "wind"
    before: Heading
    after: Heading
    roll: int


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    kind: ClassVar[str] = "game_over"
    winners: tuple[str, ...]
    reason: str  # "last aircraft", "no aircraft left", "turn limit"






EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        DieRolled, Manoeuvred, TookOff, AircraftLanded, VoteTally, ZeppelinMoved, Burst,
        Hit, Damaged, PointsScored, ShotDown, Exploded, BombDropped, AirfieldBombed,
        Drifted, Repaired, Refilled, MissedOrders, Removed, AcePromoted, WindChanged,
        GameEnded,
    )
}

