"""The preview of one power's Diplomacy orders, as the acceptance shows it.

``preview(position, power, orders)`` takes the public position of the phase
and this power's own orders, nothing else: the signature holds no other
power's orders, so none can leak into a preview. It lists each order (with
the unit it supports or convoys, as the position shows it), the power's
units left without an order, and warnings where an order is legal but
cannot do what it seems to want:

- a support of the power's own unit that is not ordered that way (a
  support to hold for a unit that moves, a support of a move the unit does
  not make), or of a province with no such unit in it (DD2a: void);
- a convoy of an army that is not there, or of the power's own army that is
  not ordered along it (DD2a: the convoy fails);
- a move into a province where the power's own unit stays (DD2: a unit
  never dislodges one of its own power, so the move fails);
- a Winter that leaves builds unused (DD1, DD11) or removals short (DD3,
  DD11: the referee then chooses what goes).

Foreign units' orders are unknown here, so supports and convoys of foreign
units are never warned about.

>>> from pbmref.rules.diplomacy.state import initial_position
>>> pos = initial_position()
>>> paris = Loc.parse("par")
>>> plan = preview(pos, "FRA", [Move("FRA", UnitType.ARMY, Loc.parse("mar"), paris)])
>>> [(w.kind.value, w.rule, str(w.unit)) for w in plan.warnings]
[('move into own unit', 'DD2', 'A Par')]
>>> [str(u) for u in plan.idle]
['A Par', 'F Bre']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from .adjust import balance, build_problem, build_sites
from .dirigible import UPKEEP
from .legal import is_from_above, movement_problem
from .map import GameMap, Loc
from .orders import (
    Build,
    Convoy,
    Disband,
    Move,
    Order,
    SupportHold,
    SupportMove,
    UnitOrder,
    Waive,
)
from .state import Phase, Position, Unit, UnitType
from .variant import map_of

__all__ = ["OrderLine", "OrderWarning", "OrdersPlan", "WarningKind", "preview"]


class WarningKind(StrEnum):
    SUPPORT_NOT_MATCHED = "support not matched"  # DD2a
    SUPPORT_OF_NOTHING = "support of nothing"  # DD2a
    CONVOY_NOT_USED = "convoy not used"  # DD2a
    MOVE_INTO_OWN = "move into own unit"  # DD2
    BUILDS_UNUSED = "builds unused"  # DD1, DD11
    REMOVALS_SHORT = "removals short"  # DD3, DD11


@dataclass(frozen=True)
class OrderLine:
    """One order, with the unit it names as its target in the position
    (supported, convoyed or moved onto), when there is one."""

    order: Order
    target: Unit | None = None


@dataclass(frozen=True)
class OrderWarning:
    """A legal order that cannot do what it seems to want.

    ``order`` is the order warned about (None for a Winter as a whole);
    ``unit`` the power's own unit it depends on and ``its_order`` that unit's
    order (None: it has none, so it holds); ``count`` the builds or points
    left unused, or the removals (points, DD11) still due; ``choices`` orders
    that would use what is left (``Build A Par``).
    """

    kind: WarningKind
    rule: str
    order: Order | None = None
    unit: Unit | None = None
    its_order: Order | None = None
    count: int = 0
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class OrdersPlan:
    """Everything the acceptance shows of one power's orders for a phase.

    ``idle`` are the power's units with no order: in a movement phase they
    hold, in a retreat phase (dislodged units) they are disbanded (DD3).
    """

    power: str
    phase: Phase
    dirigible: bool
    lines: tuple[OrderLine, ...]
    idle: tuple[Unit, ...] = ()
    warnings: tuple[OrderWarning, ...] = ()
    game_map: GameMap | None = None  # the variant's map (names); None: the standard one


def preview(position: Position, power: str, orders: Sequence[Order]) -> OrdersPlan:
    """The preview of ``power``'s ``orders`` (as the orders layer reads them).

    Orders of any other power are refused (ValueError): a preview is made
    from the power's own orders only.
    """
    foreign = [o for o in orders if o.power != power]
    if foreign:
        raise ValueError(f"a preview of {power}'s orders was given {foreign[0].power}'s "
                         f"order {foreign[0]}")
    m = map_of(position)
    kind = position.phase.kind
    mine = list(orders)
    lines = tuple(OrderLine(o, _target(position, o)) for o in mine)
    if kind == "M":
        ordered = _by_unit(position, mine)
        idle = tuple(u for u in position.units_of(power) if u not in ordered)
        warnings = _movement_warnings(position, power, mine, ordered)
    elif kind == "R":
        named = {(o.loc.prov, o.kind) for o in mine if isinstance(o, UnitOrder)}
        idle = tuple(d.unit for d in position.dislodged if d.unit.power == power
                     and (d.unit.prov, d.unit.kind) not in named)
        warnings = ()
    else:
        idle = ()
        warnings = _adjustment_warnings(position, m, power, mine)
    return OrdersPlan(power, position.phase, position.dirigible, lines, idle, warnings, m)


# ---------------------------------------------------------------------------
# Movement


def _layer_unit(position: Position, prov: str, air: bool) -> Unit | None:
    return position.air_at(prov) if air else position.surface_at(prov)


def _target(position: Position, o: Order) -> Unit | None:
    """The unit an order is about besides its own: the supported or convoyed
    unit, or the unit standing where a move goes (same layer, DD6)."""
    if isinstance(o, (SupportHold, SupportMove)):
        if o.target_kind is not None:
            air = o.target_kind is UnitType.DIRIGIBLE
        else:
            # A dirigible supports the unit below it (DD8) or another dirigible.
            air = o.kind is UnitType.DIRIGIBLE and not is_from_above(o)
        unit = _layer_unit(position, o.target.prov, air)
        if unit is not None and o.target_kind is not None and unit.kind is not o.target_kind:
            return None
        return unit
    if isinstance(o, Convoy):
        unit = position.surface_at(o.target.prov)
        return unit if unit is not None and unit.kind is UnitType.ARMY else None
    if isinstance(o, Move):
        return _layer_unit(position, o.dest.prov, o.kind is UnitType.DIRIGIBLE)
    return None


def _by_unit(position: Position, orders: Sequence[Order]) -> dict[Unit, Order]:
    """Each of the power's units and its order (an order names its unit, DD1)."""
    out: dict[Unit, Order] = {}
    for o in orders:
        if not isinstance(o, UnitOrder):
            continue
        unit = _layer_unit(position, o.loc.prov, o.kind is UnitType.DIRIGIBLE)
        if unit is not None and unit.power == o.power:
            out[unit] = o
    return out


def _movement_warnings(position: Position, power: str, orders: Sequence[Order],
                       ordered: dict[Unit, Order]) -> tuple[OrderWarning, ...]:
    out: list[OrderWarning] = []
    for o in orders:
        target = _target(position, o)
        if isinstance(o, (SupportHold, SupportMove)):
            if target is None:
                out.append(OrderWarning(WarningKind.SUPPORT_OF_NOTHING, "DD2a", o))
            elif target.power == power and not _matches(o, ordered.get(target)):
                its = ordered.get(target)
                out.append(OrderWarning(WarningKind.SUPPORT_NOT_MATCHED, "DD2a", o, target, its,
                                        choices=_legal(position, _support_fixes(o, target, its))))
        elif isinstance(o, Convoy):
            if target is None:
                out.append(OrderWarning(WarningKind.CONVOY_NOT_USED, "DD2a", o))
            elif target.power == power and not _moves_to(ordered.get(target), o.dest.prov):
                along = Move(power, target.kind, target.loc, o.dest, via_convoy=True)
                out.append(OrderWarning(WarningKind.CONVOY_NOT_USED, "DD2a", o, target,
                                        ordered.get(target), choices=_legal(position, [along])))
        elif isinstance(o, Move) and target is not None and target.power == power:
            its = ordered.get(target)
            if not isinstance(its, Move):
                out.append(OrderWarning(WarningKind.MOVE_INTO_OWN, "DD2", o, target, its))
    return tuple(out)


def _support_fixes(o: SupportHold | SupportMove, target: Unit,
                   its: Order | None) -> list[Order]:
    """Orders that would make a support and its unit agree: the unit doing what
    is supported, or the support following what the unit does."""
    out: list[Order] = []
    if isinstance(o, SupportMove):
        out.append(Move(target.power, target.kind, target.loc, o.dest))
    if isinstance(its, Move):
        out.append(SupportMove(o.power, o.kind, o.loc, target.kind, target.loc, its.dest))
    elif isinstance(o, SupportMove):
        out.append(SupportHold(o.power, o.kind, o.loc, target.kind, target.loc))
    return out


def _legal(position: Position, orders: Sequence[Order]) -> tuple[str, ...]:
    m = map_of(position)
    return tuple(str(o) for o in orders if movement_problem(position, m, o) is None)


def _moves_to(order: Order | None, prov: str) -> bool:
    return isinstance(order, Move) and order.dest.prov == prov


def _matches(support: SupportHold | SupportMove, order: Order | None) -> bool:
    """Is the supported unit ordered the way the support expects?"""
    if isinstance(support, SupportMove):
        return _moves_to(order, support.dest.prov)
    return not isinstance(order, Move)  # a support to hold helps a unit that stays


# ---------------------------------------------------------------------------
# Adjustments


def _adjustment_warnings(position: Position, m: GameMap, power: str,
                         orders: Sequence[Order]) -> tuple[OrderWarning, ...]:
    budget = balance(position, power)
    dirigible = position.dirigible
    rule_builds = "DD11" if dirigible else "DD1"
    if budget < 0:
        return _removal_warnings(dirigible, budget, orders)
    if budget == 0 or any(isinstance(o, Waive) for o in orders):
        return ()
    builds = [o for o in orders if isinstance(o, Build)]
    left = budget - sum(UPKEEP[o.kind] if dirigible else 1 for o in builds)
    units = list(position.units) + [Unit(power, o.kind, o.loc) for o in builds]
    choices = tuple(_possible_builds(position, m, power, units, left))
    if left > 0 and choices:
        return (OrderWarning(WarningKind.BUILDS_UNUSED, rule_builds, count=left,
                             choices=choices),)
    return ()


def _removal_warnings(dirigible: bool, budget: int,
                      orders: Sequence[Order]) -> tuple[OrderWarning, ...]:
    """Too few removals for a power over its budget (DD3, DD11)."""
    freed = sum(UPKEEP[o.kind] if dirigible else 1 for o in orders if isinstance(o, Disband))
    if freed < -budget:
        return (OrderWarning(WarningKind.REMOVALS_SHORT, "DD11" if dirigible else "DD3",
                             count=-budget - freed),)
    return ()


def _possible_builds(position: Position, m: GameMap, power: str, units: list[Unit],
                     left: int) -> list[str]:
    """Builds that would still be allowed and fit in what is left (DD11, DD13)."""
    kinds = [UnitType.ARMY, UnitType.FLEET]
    if position.dirigible:
        kinds.append(UnitType.DIRIGIBLE)
    out: list[str] = []
    for prov in build_sites(position, m, power):
        for kind in kinds:
            if (UPKEEP[kind] if position.dirigible else 1) > left:
                continue
            places = [Loc(prov, c) for c in m.coasts(prov)] if kind is UnitType.FLEET \
                and m.coasts(prov) else [Loc(prov)]
            for loc in places:
                build = Build(power, kind, loc)
                if build_problem(position, m, build, units) is None:
                    out.append(str(build))
    return out

