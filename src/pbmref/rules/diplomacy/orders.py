"""Typed orders (one frozen dataclass per order type) and their results."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .map import Loc
from .state import UnitType


@dataclass(frozen=True)
class UnitOrder:
    power: str
    kind: UnitType
    loc: Loc

    def unit_text(self) -> str:
        return f"{self.kind.value} {self.loc}"


@dataclass(frozen=True)
class Hold(UnitOrder):
    def __str__(self) -> str:
        return f"{self.unit_text()} H"


@dataclass(frozen=True)
class Move(UnitOrder):
    dest: Loc
    via_convoy: bool = False

    def __str__(self) -> str:
        tail = " via convoy" if self.via_convoy else ""
        return f"{self.unit_text()} - {self.dest}{tail}"


@dataclass(frozen=True)
class SupportHold(UnitOrder):
    target_kind: UnitType | None
    target: Loc

    def __str__(self) -> str:
        k = f"{self.target_kind.value} " if self.target_kind else ""
        return f"{self.unit_text()} S {k}{self.target}"


@dataclass(frozen=True)
class SupportMove(UnitOrder):
    target_kind: UnitType | None
    target: Loc
    dest: Loc

    def __str__(self) -> str:
        k = f"{self.target_kind.value} " if self.target_kind else ""
        return f"{self.unit_text()} S {k}{self.target} - {self.dest}"


@dataclass(frozen=True)
class Convoy(UnitOrder):
    target: Loc  # where the army starts
    dest: Loc

    def __str__(self) -> str:
        return f"{self.unit_text()} C A {self.target} - {self.dest}"


@dataclass(frozen=True)
class Devastate(UnitOrder):
    """DD10: a dirigible holds and devastates the centre below it."""

    def __str__(self) -> str:
        return f"{self.unit_text()} devastate"


@dataclass(frozen=True)
class Retreat(UnitOrder):
    dest: Loc

    def __str__(self) -> str:
        return f"{self.unit_text()} - {self.dest}"


@dataclass(frozen=True)
class Disband(UnitOrder):
    def __str__(self) -> str:
        return f"Disband {self.unit_text()}"


@dataclass(frozen=True)
class Build(UnitOrder):
    def __str__(self) -> str:
        return f"Build {self.unit_text()}"


@dataclass(frozen=True)
class Waive:
    power: str

    def __str__(self) -> str:
        return "Waive"


Order = (
    Hold | Move | SupportHold | SupportMove | Convoy | Devastate | Retreat | Disband | Build | Waive
)
MOVEMENT_ORDERS = (Hold, Move, SupportHold, SupportMove, Convoy, Devastate)
RETREAT_ORDERS = (Retreat, Disband)
ADJUST_ORDERS = (Build, Disband, Waive)


class Outcome(StrEnum):
    """DD2a: every order either succeeds or fails."""

    SUCCEEDS = "succeeds"
    FAILS = "fails"


class Reason(StrEnum):
    """Why an order failed (or a note on success)."""

    NONE = ""
    BOUNCED = "bounced"
    CUT = "cut"
    DISLODGED = "dislodged"
    VOID = "void"
    ILLEGAL = "illegal"
    NO_CONVOY = "no convoy route"
    OWN_UNIT = "would dislodge own unit"
    NOT_ARRIVED = "army did not arrive"
    DISBANDED = "disbanded"
    TOO_MANY = "beyond the allowance"
    OCCUPIED = "army or fleet in the province"


@dataclass(frozen=True)
class OrderResult:
    order: Order
    outcome: Outcome
    reason: str = ""

    @property
    def succeeded(self) -> bool:
        return self.outcome is Outcome.SUCCEEDS


def order_key(order: Order) -> str:
    """``"FRA A Par - Bur"``: the key a scenario's ``results`` uses."""
    return f"{order.power} {order}"
