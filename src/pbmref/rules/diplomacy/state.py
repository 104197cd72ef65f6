"""Units, phases and the position (frozen data)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import StrEnum

from .map import POWERS, Loc, display


class UnitType(StrEnum):
    ARMY = "A"
    FLEET = "F"
    DIRIGIBLE = "D"  # DD5


class Variant(StrEnum):
    STANDARD = "diplomacy"
    DIRIGIBLE = "dirigible"


@dataclass(frozen=True, order=True)
class Unit:
    power: str
    kind: UnitType
    loc: Loc

    @property
    def prov(self) -> str:
        return self.loc.prov

    @property
    def airborne(self) -> bool:
        return self.kind is UnitType.DIRIGIBLE

    def __str__(self) -> str:
        return f"{self.kind.value} {self.loc}"


@dataclass(frozen=True)
class DislodgedUnit:
    unit: Unit
    attacker_from: str | None = None
    via_convoy: bool = False


_PHASE_RE = re.compile(r"^([SFW])(\d{4})([MRA])$")


@dataclass(frozen=True, order=True)
class Phase:
    """``S1901M``: season S/F/W, year, kind M(ovement)/R(etreat)/A(djustment) (DD1)."""

    year: int
    season: str
    kind: str

    @staticmethod
    def parse(text: str) -> Phase:
        m = _PHASE_RE.match(text.strip().upper())
        if not m:
            raise ValueError(f"phase {text!r} is not like S1901M, F1901R or W1901A")
        season, year, kind = m.group(1), int(m.group(2)), m.group(3)
        if (season == "W") != (kind == "A"):
            raise ValueError(f"phase {text!r}: adjustments happen in Winter (W...A) only")
        return Phase(year, season, kind)

    def __str__(self) -> str:
        return f"{self.season}{self.year}{self.kind}"


@dataclass(frozen=True)
class Position:
    """Everything the adjudicator needs to know about the board."""

    phase: Phase
    units: tuple[Unit, ...] = ()
    centers: tuple[tuple[str, str], ...] = ()  # (province, power), sorted
    dislodged: tuple[DislodgedUnit, ...] = ()
    standoffs: frozenset[str] = frozenset()
    devastated: frozenset[str] = frozenset()
    variant: Variant = Variant.STANDARD
    edition: str = "2023"
    winner: str | None = None
    powers: tuple[str, ...] = POWERS
    variant_name: str = ""  # the variant's folder; "" for the rules' own (standard, dirigible)

    # -- helpers ---------------------------------------------------------------
    def owner(self, prov: str) -> str | None:
        for p, power in self.centers:
            if p == prov:
                return power
        return None

    def centers_of(self, power: str) -> tuple[str, ...]:
        return tuple(p for p, pw in self.centers if pw == power)

    def units_of(self, power: str) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.power == power)

    def surface_at(self, prov: str) -> Unit | None:
        for u in self.units:
            if u.prov == prov and not u.airborne:
                return u
        return None

    def air_at(self, prov: str) -> Unit | None:
        for u in self.units:
            if u.prov == prov and u.airborne:
                return u
        return None

    def with_centers(self, owners: dict[str, str]) -> Position:
        return replace(self, centers=tuple(sorted(owners.items())))

    @property
    def dirigible(self) -> bool:
        return self.variant is Variant.DIRIGIBLE


def unit_text(u: Unit) -> str:
    return f"{u.kind.value} {u.loc}"


def prov_text(prov: str) -> str:
    return display(prov)


def initial_position(variant: Variant = Variant.STANDARD, edition: str = "2023",
                     name: str = "") -> Position:
    """The opening of the variant ``name`` (default: the rules' own). DD4: the
    standard game opens in Spring 1901 with 22 units; DD12: the dirigible game
    with a Winter 1900 build phase on an empty board. Home centres are owned."""
    from .variant import DEFAULT, load_variant, opening

    spec = load_variant(name or DEFAULT[variant])
    if spec.ruleset != variant.value:
        raise ValueError(f"the variant {spec.name} is played with the {spec.ruleset} rules, "
                         f"not {variant.value}")
    return opening(spec, edition)
