"""Typed orders (one frozen dataclass per order type) and their results.

Each order writes itself as its canonical line (``str``: ``A Par - Bur``,
``F Nth C A Lon - Bel``, ``Build A Par``) and ``parse_order`` reads that line
back (``parse_key`` the ``FRA A Par - Bur`` of an event), so a stored line
and a typed order mirror each other. The players' own lines, in all their
spellings, are read by ``pbmref.rulesets.diplomacy.orders``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from .map import GameMap, Loc
from .state import Unit, UnitType


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


def parse_loc(m: GameMap, text: str) -> Loc:
    """A place of map ``m`` as a line writes it (``Par``, ``StP/sc``, ``spa (sc)``);
    raises ValueError for a name the map does not know."""
    raw = text.strip().lower().replace("(", "/").replace(")", "").replace(" ", "")
    prov, _, coast = raw.partition("/")
    found = m.lookup(prov)
    if found is None:
        raise ValueError(f"{text!r} is not a province of the board")
    return Loc(found, coast)


def parse_unit(m: GameMap, power: str, text: str) -> Unit:
    """A unit as ``str(unit)`` writes it (``A Par``, ``F StP/sc``), of ``power``."""
    kind, _, where = text.strip().partition(" ")
    try:
        unit_type = UnitType(kind.upper())
    except ValueError:
        raise ValueError(f"{text!r} is not a unit like 'A Par'") from None
    return Unit(power.upper(), unit_type, parse_loc(m, where))


def _words(text: str) -> list[str]:
    """The words of an order line, a ``-`` one word, a coast kept with its province."""
    t = " ".join(text.replace("(", "/").replace(")", " ").replace("-", " - ").split())
    return t.replace(" /", "/").replace("/ ", "/").split()


def parse_order(m: GameMap, power: str, text: str, *, retreat: bool = False) -> Order:
    """The order of ``power`` that ``str`` writes as ``text`` (its mirror; a move
    of a retreat phase is a ``Retreat``). Keywords in any case, long forms
    (``holds``, ``supports``, ``convoys``) too; raises ValueError.

    >>> from pbmref.rules.diplomacy.variant import load_variant
    >>> m = load_variant("standard").map
    >>> for line in ("A Par - Bur", "F Nth C A Lon - Bel", "A Mun S F Kie - Ber",
    ...              "Build F StP/sc", "A Par H", "Waive", "A Par - Bur via convoy"):
    ...     assert str(parse_order(m, "FRA", line)) == line, line
    >>> parse_order(m, "FRA", "A Par - Bur", retreat=True)
    Retreat(power='FRA', kind=<UnitType.ARMY: 'A'>, loc=Loc(prov='par', coast=''), dest=Loc(prov='bur', coast=''))
    """
    w = _words(text)
    low = [x.lower() for x in w]
    if low == ["waive"]:
        return Waive(power)
    if len(w) == 3 and low[0] in ("build", "disband"):
        unit = parse_unit(m, power, f"{w[1]} {w[2]}")
        return (Build if low[0] == "build" else Disband)(power, unit.kind, unit.loc)
    if len(w) < 3 or w[0].upper() not in ("A", "F", "D"):
        raise ValueError(f"cannot read the order {text!r}")
    kind, at, rest, verb = UnitType(w[0].upper()), parse_loc(m, w[1]), w[3:], low[2]
    if not rest and verb in ("h", "hold", "holds", "devastate", "devastates"):
        return (Hold if verb.startswith("h") else Devastate)(power, kind, at)
    if verb == "-" and len(rest) in (1, 3) and (len(rest) == 1 or low[4:] == ["via", "convoy"]):
        dest = parse_loc(m, rest[0])
        if retreat:
            return Retreat(power, kind, at, dest)
        return Move(power, kind, at, dest, via_convoy=len(rest) == 3)
    read = (_convoy_of if verb in ("c", "convoy", "convoys") else
            _support_of if verb in ("s", "support", "supports") else None)
    order = read(m, power, kind, at, rest) if read else None
    if order is None:
        raise ValueError(f"cannot read the order {text!r}")
    return order


def _convoy_of(m: GameMap, power: str, kind: UnitType, at: Loc, rest: list[str]) -> Order | None:
    """A convoy order's rest (``A Lon - Bel``) read, or None."""
    if rest[:1] and rest[0].upper() == "A":
        rest = rest[1:]
    if len(rest) == 3 and rest[1] == "-":
        return Convoy(power, kind, at, parse_loc(m, rest[0]), parse_loc(m, rest[2]))
    return None


def _support_of(m: GameMap, power: str, kind: UnitType, at: Loc,
                rest: list[str]) -> Order | None:
    """A support order's rest (``F Kie - Ber``, ``A Par``) read, or None."""
    target_kind = None
    if len(rest) in (2, 4) and rest[0].upper() in ("A", "F", "D"):
        target_kind, rest = UnitType(rest[0].upper()), rest[1:]
    if len(rest) == 1:
        return SupportHold(power, kind, at, target_kind, parse_loc(m, rest[0]))
    if len(rest) == 3 and rest[1] == "-":
        return SupportMove(power, kind, at, target_kind, parse_loc(m, rest[0]),
                           parse_loc(m, rest[2]))
    return None


def parse_key(m: GameMap, powers: Sequence[str], power: str, key: str, *,
              retreat: bool = False) -> Order:
    """The order of an ``order_key`` (``FRA A Par - Bur``; its mirror): the power
    in front when it is one of ``powers``, else ``power``.

    >>> from pbmref.rules.diplomacy.variant import load_variant
    >>> spec = load_variant("standard")
    >>> order_key(parse_key(spec.map, spec.powers, "", "FRA A Par - Bur"))
    'FRA A Par - Bur'
    """
    first, _, body = key.strip().partition(" ")
    if first.upper() in powers:
        return parse_order(m, first.upper(), body, retreat=retreat)
    return parse_order(m, power, key, retreat=retreat)
