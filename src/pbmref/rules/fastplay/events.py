"""What happened in a Fast Play turn, as data: one frozen event per fact, in order.

``move`` is 1-3 for the three moves (FP3) and 0 for the start or end of the
turn. Every die is a ``DieRolled`` event, in the order rolled.
``event_to_dict`` gives the YAML/JSON form with hexes written as names:

>>> from pbmref.rules.fastplay.board import FastBoard
>>> event_to_dict(Victory(2, "anna", "bert", 3, 4), FastBoard())
{'kind': 'victory', 'move': 2, 'pilot': 'anna', 'target': 'bert', 'damage': 3, 'victories': 4}

``event_from_dict`` reads that form back (the class by its ``kind`` in
``EVENT_TYPES``), the hex names through the board; a hex off the board is None:

>>> board = FastBoard()
>>> left = Manoeuvred(3, "anna", "F", board.hex_at(0, 1), None, Heading.N)
>>> data = event_to_dict(left, board)
>>> data["from_hex"], data["to_hex"]
('A1', None)
>>> event_from_dict(data, EVENT_TYPES, board) == left
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pbmref.rules.eventdata import Event, event_from_dict, event_to_dict
from pbmref.rules.hexgrid import Heading, Hex

__all__ = [
    "AcePromoted", "BurnChecked", "CardLost", "CriticalHit", "Damaged", "DieRolled",
    "DuelBegan", "DuelEnded", "Entered", "Event", "Fired", "GameEnded", "HeldFire",
    "Manoeuvred", "MissedOrders", "Removed", "ShotDown", "Victory", "event_from_dict",
    "event_to_dict",
    "EVENT_TYPES",
]




@dataclass(frozen=True, slots=True)
class DieRolled(Event):
    """One die (purpose ``fire``, ``target``, ``crash``, ``roll-off``, ``card``,
    ``critical``, ``extra damage``, ``burn``), for whom, and the result."""

    kind: ClassVar[str] = "die"
    purpose: str
    who: str
    value: int
    sides: int = 6


@dataclass(frozen=True, slots=True)
class MissedOrders(Event):
    """No mail at all from a pilot (FP17): ``count`` NMR turns in a row."""

    kind: ClassVar[str] = "nmr"
    pilot: str
    count: int


@dataclass(frozen=True, slots=True)
class BurnChecked(Event):
    """A burning plane's roll at the start of a turn (FP12): ``out``,
    ``burns``, ``burns, damage`` or ``burns, card``."""

    kind: ClassVar[str] = "burn"
    pilot: str
    roll: int
    outcome: str


@dataclass(frozen=True, slots=True)
class Entered(Event):
    """A plane returning to the board (FP14); ``chosen_by`` is ``orders`` or
    ``referee`` (no entry named); ``new_pilot`` after a pilot was put out."""

    kind: ClassVar[str] = "entered"
    pilot: str
    hex: Hex
    heading: Heading
    chosen_by: str
    distance: int  # to the nearest enemy on the board, 0 when there is none
    new_pilot: bool = False


@dataclass(frozen=True, slots=True)
class DuelBegan(Event):
    kind: ClassVar[str] = "duel"
    pilots: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DuelEnded(Event):
    """A duel over (FP15); ``winner`` stays out of the fight until it leaves."""

    kind: ClassVar[str] = "duel_over"
    pilots: tuple[str, ...]
    winner: str | None
    reason: str  # "shot down", "left the board", "removed"


@dataclass(frozen=True, slots=True)
class Manoeuvred(Event):
    """A plane's move: the card, from where to where; ``outcome`` ``flew``,
    ``stayed`` (ST/STL/STR) or ``left`` (flew off the board, FP13)."""

    kind: ClassVar[str] = "manoeuvre"
    pilot: str
    card: str
    from_hex: Hex
    to_hex: Hex | None  # None when it left the board
    heading: Heading
    outcome: str = "flew"
    reason: str = ""  # e.g. "no card given: A (FP17)"


@dataclass(frozen=True, slots=True)
class HeldFire(Event):
    kind: ClassVar[str] = "held_fire"
    pilot: str
    reason: str  # "f-0", "duel won (FP15)", "no target"


@dataclass(frozen=True, slots=True)
class Fired(Event):
    """One plane's shooting in one move (FP7, FP8): the dice and the hits."""

    kind: ClassVar[str] = "fire"
    shooter: str
    target: str
    distance: int
    dice: int
    rolls: tuple[int, ...]
    hits: int


@dataclass(frozen=True, slots=True)
class CriticalHit(Event):
    """A 6 read on the critical table (FP12): ``roll`` 1-6 and what it did."""

    kind: ClassVar[str] = "critical"
    shooter: str
    target: str
    roll: int
    effect: str  # "pilot wounded", "pilot hit", "gun hit", "engine hit", "fire", "explosion"
    extra_damage: int = 0


@dataclass(frozen=True, slots=True)
class CardLost(Event):
    kind: ClassVar[str] = "card_lost"
    pilot: str
    card: str
    cause: str  # "hit", "pilot hit", "engine hit", "fire"


@dataclass(frozen=True, slots=True)
class Damaged(Event):
    """Damage applied at the end of a move's shooting; ``hits`` is the new total."""

    kind: ClassVar[str] = "damage"
    target: str
    amount: int
    hits: int
    cause: str  # "gunfire", "fire"


@dataclass(frozen=True, slots=True)
class ShotDown(Event):
    """A plane shot down (FP9): the crash roll and ``down`` or ``out``."""

    kind: ClassVar[str] = "shot_down"
    target: str
    credited_to: str | None
    crash_roll: int
    outcome: str


@dataclass(frozen=True, slots=True)
class Victory(Event):
    """A victory credited (FP10): the damage done in the turn, the new total."""

    kind: ClassVar[str] = "victory"
    pilot: str
    target: str
    damage: int
    victories: int


@dataclass(frozen=True, slots=True)
class AcePromoted(Event):
    kind: ClassVar[str] = "ace"
    pilot: str
    victories: int
    title: str  # "ace", "double ace"


@dataclass(frozen=True, slots=True)
class Removed(Event):
    kind: ClassVar[str] = "removed"
    pilot: str
    reason: str  # "NMR"


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    kind: ClassVar[str] = "game_over"
    winners: tuple[str, ...]
    reason: str  # "turn limit", "no planes left"
    score: tuple[tuple[str, int], ...]






EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        DieRolled, MissedOrders, BurnChecked, Entered, DuelBegan, DuelEnded, Manoeuvred,
        HeldFire, Fired, CriticalHit, CardLost, Damaged, ShotDown, Victory, AcePromoted,
        Removed, GameEnded,
    )
}
