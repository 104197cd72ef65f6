"""Winter adjustments: builds, disbands, civil disorder (DD1, DD3, DD11-DD13)."""

from __future__ import annotations

from dataclasses import replace

from .dirigible import UPKEEP, supply_points, upkeep
from .events import Event, result_event
from .legal import adjust_kind_problem
from .map import GameMap, Loc, display
from .orders import Build, Disband, Order, OrderResult, Outcome, Reason, Waive
from .state import Position, Unit, UnitType
from .variant import variant_of


def _fail(o: Order, why: str) -> OrderResult:
    return OrderResult(o, Outcome.FAILS, why)


def removal_order(pos: Position, m: GameMap, power: str, units: list[Unit]) -> list[Unit]:
    """Civil-disorder removal order (DD3, 2023 rule; DD11 dirigibles first).

    Farthest from the power's owned centres first (devastated ones count for
    distance); ties: fleets before armies, then by province abbreviation. The
    1971 edition measures from home centres instead."""
    if pos.edition == "1971":
        sources = frozenset(m.home_centers(power))
    else:
        sources = frozenset(pos.centers_of(power))
    dist = m.distances_from(sources) if sources else {}
    far = 10_000

    def key(u: Unit) -> tuple[int, int, int, str]:
        air_first = 0 if u.kind is UnitType.DIRIGIBLE else 1
        return (air_first, -dist.get(u.prov, far), 0 if u.kind is UnitType.FLEET else 1, u.prov)

    return sorted(units, key=key)


def build_sites(pos: Position, m: GameMap, power: str) -> tuple[str, ...]:
    """Where the power may build if the centre is its own and free: its home
    centres (DD1), or in a variant whose ``builds`` is ``owned`` every supply
    centre it owns."""
    if variant_of(pos).builds == "owned":
        return pos.centers_of(power)
    return m.home_centers(power)


def build_problem(pos: Position, m: GameMap, o: Build, units_now: list[Unit]) -> str | None:
    """Why the build ``o`` may not stand (DD1, DD5, DD10, DD12, DD13); None if it may."""
    prov = o.loc.prov
    if prov not in m.provinces:
        return f"unknown province {prov}"
    if o.kind is UnitType.DIRIGIBLE and not pos.dirigible:
        return "there are no dirigibles in standard Diplomacy (DD5)"
    problem = _site_problem(pos, m, o)
    if problem is not None:
        return problem
    if o.kind is UnitType.DIRIGIBLE:
        return _dirigible_build_problem(o, units_now)
    if any(u.prov == prov and not u.airborne for u in units_now):
        return f"{display(prov)} is occupied"
    if o.kind is UnitType.ARMY:
        return "an army is not built on a coast" if o.loc.coast else None
    return _fleet_build_problem(pos, m, o)


def _site_problem(pos: Position, m: GameMap, o: Build) -> str | None:
    """Is the build's province one of the power's build sites, its own and whole?"""
    prov = o.loc.prov
    if prov not in build_sites(pos, m, o.power):
        if prov in m.home_centers(o.power):  # a home centre owned by another
            return f"{o.power} does not own {display(prov)}"
        if variant_of(pos).builds == "owned":
            return f"{display(prov)} is not a supply centre {o.power} owns"
        return f"{display(prov)} is not a home centre of {o.power}"
    if pos.owner(prov) != o.power:
        return f"{o.power} does not own {display(prov)}"
    if prov in pos.devastated:
        return f"{display(prov)} is devastated this year (DD10)"
    return None


def _dirigible_build_problem(o: Build, units_now: list[Unit]) -> str | None:
    if o.loc.coast:
        return "dirigibles ignore coasts"
    if any(u.prov == o.loc.prov and u.airborne for u in units_now):
        return f"a dirigible is already in {display(o.loc.prov)} (DD13)"
    return None


def _fleet_build_problem(pos: Position, m: GameMap, o: Build) -> str | None:
    prov = o.loc.prov
    if m.coasts(prov):
        if o.loc.coast not in m.coasts(prov):
            return f"say which coast of {display(prov)} the fleet is built on"
    elif m.terrain(prov) != "coast" or o.loc.coast:
        return f"a fleet cannot be built in {o.loc}"
    if pos.dirigible and pos.phase.year == 1900 and o.power == "RUS" and o.loc == Loc("stp", "nc"):
        return "Russia may not build a fleet on St Petersburg's north coast in 1900 (DD12)"
    return None


def balance(pos: Position, power: str) -> int:
    """Positive: builds (standard) or spare points (dirigible); negative: must remove."""
    units = pos.units_of(power)
    if pos.dirigible:
        return supply_points(pos, power) - upkeep(units)
    return len(pos.centers_of(power)) - len(units)


def orders_due(pos: Position, power: str) -> bool:
    """DD1: has the power anything to order in the position's phase? Units in a
    movement phase, a dislodged unit in a retreat phase, a build or removal
    due in a Winter phase."""
    if pos.phase.kind == "R":
        return any(d.unit.power == power for d in pos.dislodged)
    if pos.phase.kind == "A":
        return may_adjust(pos, variant_of(pos).map, power)
    return bool(pos.units_of(power))


def may_adjust(pos: Position, m: GameMap, power: str) -> bool:
    """DD1: is a Winter phase needed for this power?"""
    b = balance(pos, power)
    if b < 0:
        return True
    if pos.dirigible:
        if b < min(UPKEEP.values()):
            return False
    elif b == 0:
        return False
    return any(_may_build_at(pos, power, prov, b) for prov in build_sites(pos, m, power))


def _may_build_at(pos: Position, power: str, prov: str, b: int) -> bool:
    """Could the power build something at ``prov`` with ``b`` to spend: its own
    centre, not devastated, with room for an army or fleet (if it can pay for
    one) or a dirigible?"""
    if pos.owner(prov) != power or prov in pos.devastated:
        return False
    surface = any(u.prov == prov and not u.airborne for u in pos.units)
    air = any(u.prov == prov and u.airborne for u in pos.units)
    if not surface and (not pos.dirigible or b >= UPKEEP[UnitType.ARMY]):
        return True
    return pos.dirigible and not air


def run_adjustments(
    pos: Position, m: GameMap, orders: list[Order]
) -> tuple[Position, tuple[OrderResult, ...], tuple[Event, ...]]:
    """A Winter phase: each power's builds, waives and removals in the order
    given, against its budget (DD1, DD11); a power still over its budget loses
    units in the civil-disorder order (DD3, DD11)."""
    results: list[OrderResult | None] = [None] * len(orders)
    units = list(pos.units)
    events: list[Event] = []
    by_power: dict[str, list[int]] = {}
    for i, o in enumerate(orders):
        problem = adjust_kind_problem(o)
        if problem is not None:
            results[i] = _fail(o, f"{Reason.ILLEGAL.value}: {problem}")
            continue
        by_power.setdefault(o.power, []).append(i)
    for power in pos.powers:
        budget = _budget(pos, power, [u for u in units if u.power == power])
        for i in by_power.get(power, []):
            o = orders[i]
            if isinstance(o, Waive):
                results[i], budget = _waive(pos, o, budget)
            elif isinstance(o, Build):
                results[i], budget = _build(pos, m, o, budget, units, events)
            elif isinstance(o, Disband):
                results[i], budget = _disband(pos, o, budget, units, events)
        if budget < 0:
            _civil_disorder(pos, m, power, budget, units, events)
    final = tuple(
        r if r is not None else _fail(orders[i], Reason.ILLEGAL.value)
        for i, r in enumerate(results)
    )
    new_pos = replace(pos, units=tuple(sorted(units)))
    return new_pos, final, tuple(result_event(r) for r in final) + tuple(events)


def _budget(pos: Position, power: str, mine: list[Unit]) -> int:
    """What the power may build (positive) or must remove (negative): in
    supply points over upkeep (DD11), or in centres over units."""
    if pos.dirigible:
        points = supply_points(pos, power)
        cost = upkeep(mine)
        return points - cost
    points = len(pos.centers_of(power))
    return points - len(mine)


def _waive(pos: Position, o: Waive, budget: int) -> tuple[OrderResult, int]:
    """A build given up; in the plain game it uses up one build."""
    if budget > 0:
        return OrderResult(o, Outcome.SUCCEEDS), budget if pos.dirigible else budget - 1
    return _fail(o, "nothing to waive"), budget


def _build(
    pos: Position, m: GameMap, o: Build, budget: int, units: list[Unit], events: list[Event]
) -> tuple[OrderResult, int]:
    """A build, when the budget allows one, the place is right (``build_problem``)
    and its upkeep fits (DD11); the new unit joins ``units``."""
    if budget <= 0:
        return _fail(o, f"{Reason.TOO_MANY.value}: no build allowed"), budget
    problem = build_problem(pos, m, o, units)
    if problem is not None:
        return _fail(o, f"{Reason.ILLEGAL.value}: {problem}"), budget
    need = UPKEEP[o.kind] if pos.dirigible else 1
    if need > budget:
        return _fail(o, f"{Reason.TOO_MANY.value}: its upkeep does not fit (DD11)"), budget
    new = Unit(o.power, o.kind, o.loc)
    units.append(new)
    events.append(Event("built", power=o.power, unit=str(new)))
    return OrderResult(o, Outcome.SUCCEEDS), budget - need


def _disband(
    pos: Position, o: Disband, budget: int, units: list[Unit], events: list[Event]
) -> tuple[OrderResult, int]:
    """A removal of an own unit, when the power must remove one."""
    power = o.power
    target = next(
        (u for u in units if u.power == power and u.kind is o.kind and u.loc == o.loc),
        None,
    )
    if target is None:
        return _fail(o, f"{Reason.ILLEGAL.value}: {power} has no {o.unit_text()}"), budget
    if budget >= 0:
        return _fail(o, f"{Reason.TOO_MANY.value}: no removal needed"), budget
    units.remove(target)
    events.append(Event("removed", power=power, unit=str(target), reason="ordered"))
    return OrderResult(o, Outcome.SUCCEEDS), budget + (UPKEEP[target.kind] if pos.dirigible else 1)


def _civil_disorder(
    pos: Position, m: GameMap, power: str, budget: int, units: list[Unit], events: list[Event]
) -> None:
    """Units the power failed to remove, removed for it (DD3; DD11 in Dirigible)."""
    mine = [u for u in units if u.power == power]
    for u in removal_order(pos, m, power, mine):
        if budget >= 0:
            break
        units.remove(u)
        budget += UPKEEP[u.kind] if pos.dirigible else 1
        events.append(
            Event(
                "removed",
                power=power,
                unit=str(u),
                reason="civil disorder",
                rule="DD11" if pos.dirigible else "DD3",
            )
        )
