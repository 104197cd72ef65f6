"""A Spring or Fall movement phase: both layers, results, dislodgements (DD1, DD2, DD6-DD10)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from . import convoy as convoy_rules
from .dirigible import from_above_supports
from .events import Event, result_event
from .legal import is_from_above, movement_problem, on_its_coast, unit_for
from .map import GameMap, Loc, display
from .orders import (
    Convoy,
    Devastate,
    Hold,
    Move,
    Order,
    OrderResult,
    Outcome,
    Reason,
    SupportHold,
    SupportMove,
    UnitOrder,
)
from .resolver import Resolver
from .state import DislodgedUnit, Position, Unit, UnitType


@dataclass(frozen=True)
class MovementOutcome:
    position: Position  # units moved; dislodged listed; phase unchanged
    results: tuple[OrderResult, ...]
    events: tuple[Event, ...]
    dislodged: tuple[DislodgedUnit, ...]  # every surface unit dislodged (before disbanding)
    air_dislodged: tuple[Unit, ...]


def _fail(o: Order, reason: str) -> OrderResult:
    return OrderResult(o, Outcome.FAILS, reason)


def _ok(o: Order, reason: str = "") -> OrderResult:
    return OrderResult(o, Outcome.SUCCEEDS, reason)


def retreat_options(
    m: GameMap, d: DislodgedUnit, occupied: set[str], standoffs: frozenset[str]
) -> tuple[Loc, ...]:
    u = d.unit
    if u.kind is UnitType.ARMY:
        cands = [Loc(p) for p in sorted(m.army_adj.get(u.prov, frozenset()))]
    elif u.kind is UnitType.FLEET:
        cands = sorted(m.fleet_adj.get(u.loc, frozenset()))
    else:
        return ()
    out = []
    for loc in cands:
        if loc.prov in occupied or loc.prov in standoffs:
            continue
        if d.attacker_from == loc.prov and not d.via_convoy:
            continue
        out.append(loc)
    return tuple(out)


def run_movement(pos: Position, m: GameMap, orders: list[Order]) -> MovementOutcome:
    results: dict[int, OrderResult] = {}
    surface_units: dict[str, Unit] = {}
    air_units: dict[str, Unit] = {}
    for u in pos.units:
        (air_units if u.airborne else surface_units)[u.prov] = u
    surface_orders: dict[str, Order] = {
        p: Hold(u.power, u.kind, u.loc) for p, u in surface_units.items()
    }
    air_orders: dict[str, Order] = {p: Hold(u.power, u.kind, u.loc) for p, u in air_units.items()}
    given: dict[tuple[str, str], int] = {}  # (layer, prov) -> index of the order used
    dd8: dict[str, SupportHold | SupportMove] = {}
    order_list = list(orders)
    for i, o in enumerate(order_list):
        problem = movement_problem(pos, m, o)
        if problem is not None:
            results[i] = _fail(o, f"{Reason.ILLEGAL.value}: {problem}")
            continue
        assert isinstance(o, UnitOrder)
        o = on_its_coast(pos, o)  # DD2, DATC 6.B.10: the coast of the ordered unit is moot
        layer = "air" if o.kind is UnitType.DIRIGIBLE else "surface"
        key = (layer, o.loc.prov)
        if key in given:
            results[i] = _fail(
                order_list[i], f"{Reason.ILLEGAL.value}: a second order for {o.unit_text()}"
            )
            continue
        given[key] = i
        if layer == "air":
            if isinstance(o, (SupportHold, SupportMove)) and is_from_above(o):
                dd8[o.loc.prov] = o
                air_orders[o.loc.prov] = Hold(o.power, o.kind, o.loc)
            elif isinstance(o, Devastate):
                air_orders[o.loc.prov] = Hold(o.power, o.kind, o.loc)
            else:
                air_orders[o.loc.prov] = o
        else:
            surface_orders[o.loc.prov] = o

    _drop_unconvoyable(m, surface_units, surface_orders, order_list, given, results)
    air = Resolver(m, air_units, air_orders, air=True, edition=pos.edition)
    air.run()
    external = from_above_supports(air_units, air_orders, dd8)
    surf = Resolver(m, surface_units, surface_orders, edition=pos.edition, external=external)
    surf.run()

    # -- where everybody ends up -------------------------------------------------
    new_units: list[Unit] = []
    dislodged: list[DislodgedUnit] = []
    air_lost: list[Unit] = []
    events: list[Event] = []
    for r, units, orders_ in ((surf, surface_units, surface_orders), (air, air_units, air_orders)):
        for p, u in units.items():
            o = orders_[p]
            if isinstance(o, Move) and r.resolve(p):
                new_units.append(replace(u, loc=o.dest))
                continue
            by = r.dislodger(p)
            if by is None:
                new_units.append(u)
            elif u.airborne:
                air_lost.append(u)
            else:
                dislodged.append(DislodgedUnit(u, by, convoy_rules.uses_convoy(r, by)))
    surface_after = {u.prov for u in new_units if not u.airborne}

    # -- standoffs (DD3a: armies and fleets only) -----------------------------------
    standoffs: set[str] = set()
    for d, movers in surf.moves_into.items():
        if d in surface_after:
            continue
        for q in movers:
            if surf.resolve(q) or not _has_path(surf, q):
                continue
            opp = _h2h(surf, q)
            if opp is not None and surf.resolve(opp):
                continue
            standoffs.add(d)

    # -- results -----------------------------------------------------------------
    devastated = set(pos.devastated)
    dislodged_provs = {d.unit.prov for d in dislodged} | {u.prov for u in air_lost}
    for layer, prov in given:
        i = given[(layer, prov)]
        o = order_list[i]
        r = air if layer == "air" else surf
        if isinstance(o, Devastate):
            if prov in dislodged_provs and air_units[prov] in air_lost:
                results[i] = _fail(o, Reason.DISLODGED.value)
            elif prov in surface_after:
                results[i] = _fail(o, Reason.OCCUPIED.value)
            else:
                results[i] = _ok(o)
                devastated.add(prov)
                events.append(
                    Event("devastated", power=o.power, province=display(prov), rule="DD10")
                )
            continue
        if layer == "air" and prov in dd8:
            results[i] = _dd8_result(surf, o, external_given=_ext_given(external, prov))
            continue
        results[i] = _result(r, prov, o)

    for i in range(len(order_list)):
        results.setdefault(i, _fail(order_list[i], Reason.ILLEGAL.value))
    ordered = tuple(results[i] for i in range(len(order_list)))
    all_events = [result_event(x) for x in ordered]
    for dl in dislodged:
        all_events.append(
            Event(
                "dislodged",
                power=dl.unit.power,
                unit=str(dl.unit),
                province=display(dl.attacker_from) if dl.attacker_from else None,
            )
        )
    for u in air_lost:
        all_events.append(Event("dislodged", power=u.power, unit=str(u)))
        all_events.append(
            Event("disbanded", power=u.power, unit=str(u), reason="dislodged dirigible", rule="DD9")
        )
    all_events.extend(events)
    new_pos = replace(
        pos,
        units=tuple(sorted(new_units)),
        dislodged=tuple(dislodged),
        standoffs=frozenset(standoffs),
        devastated=frozenset(devastated),
    )
    return MovementOutcome(new_pos, ordered, tuple(all_events), tuple(dislodged), tuple(air_lost))


def _drop_unconvoyable(
    m: GameMap,
    units: dict[str, Unit],
    orders: dict[str, Order],
    order_list: list[Order],
    given: dict[tuple[str, str], int],
    results: dict[int, OrderResult],
) -> None:
    """An army ordered to a province it cannot reach by land, when no chain of
    fleets at sea on the board could carry it there, was given an illegal
    order: it holds (DATC 6.D.32; compare 6.D.8)."""
    fleets_at_sea = {p for p, u in units.items() if u.kind is UnitType.FLEET and m.is_sea(p)}
    for p, o in list(orders.items()):
        if not isinstance(o, Move) or o.kind is not UnitType.ARMY or m.army_move(p, o.dest.prov):
            continue
        seen = {f for f in m.any_adj[p] if f in fleets_at_sea}
        stack = list(seen)
        ok = False
        while stack:
            f = stack.pop()
            if o.dest.prov in m.any_adj[f]:
                ok = True
                break
            for g in m.any_adj[f]:
                if g in fleets_at_sea and g not in seen:
                    seen.add(g)
                    stack.append(g)
        if ok:
            continue
        orders[p] = Hold(o.power, o.kind, o.loc)
        i = given.pop(("surface", p))
        results[i] = _fail(
            order_list[i], f"{Reason.ILLEGAL.value}: no fleets at sea could convoy it there"
        )


def _has_path(r: Resolver, q: str) -> bool:
    from .move import path

    return path(r, q)


def _h2h(r: Resolver, q: str) -> str | None:
    from .move import head_to_head

    return head_to_head(r, q)


def _ext_given(external: tuple[object, ...], prov: str) -> bool:
    from .resolver import ExternalSupport

    for e in external:
        if isinstance(e, ExternalSupport) and e.key == prov:
            return e.given
    return False


def _own_unit_excluded(r: Resolver, o: SupportMove, power: str) -> bool:
    """Support not counted because it would dislodge a unit of the supporter's power."""
    d = o.dest.prov
    occupant = r.units.get(d)
    if occupant is None or occupant.power != power:
        return False
    occ_order = r.orders[d]
    if isinstance(occ_order, Move) and _h2h(r, o.target.prov) is None and r.resolve(d):
        return False
    mover = r.units.get(o.target.prov)
    return mover is not None and mover.power != power


def _dd8_result(surf: Resolver, o: Order, external_given: bool) -> OrderResult:
    assert isinstance(o, (SupportHold, SupportMove))
    target = surf.orders.get(o.target.prov)
    if isinstance(o, SupportMove):
        if not (isinstance(target, Move) and target.dest.prov == o.dest.prov):
            return _fail(o, Reason.VOID.value)
    elif target is None or isinstance(target, Move):
        return _fail(o, Reason.VOID.value)
    if not external_given:
        return _fail(o, Reason.CUT.value)
    if isinstance(o, SupportMove) and _own_unit_excluded(surf, o, o.power):
        return _fail(o, Reason.OWN_UNIT.value)
    return _ok(o)


def _result(r: Resolver, p: str, o: Order) -> OrderResult:
    if isinstance(o, Move):
        if r.resolve(p):
            return _ok(o)
        if convoy_rules.uses_convoy(r, p) and not convoy_rules.route_exists(r, p):
            return _fail(o, Reason.NO_CONVOY.value)
        return _fail(o, Reason.BOUNCED.value)
    if isinstance(o, (SupportHold, SupportMove)):
        if not r.resolve(p):
            return _fail(o, Reason.CUT.value)
        if p in r.void:
            return _fail(o, Reason.VOID.value)
        if isinstance(o, SupportMove) and _own_unit_excluded(r, o, o.power):
            return _fail(o, Reason.OWN_UNIT.value)
        return _ok(o)
    if isinstance(o, Convoy):
        if p in r.void:
            return _fail(o, Reason.VOID.value)
        if r.dislodger(p) is not None:
            return _fail(o, Reason.DISLODGED.value)
        army = o.target.prov
        if r.resolve(army) and convoy_rules.uses_convoy(r, army):
            return _ok(o)
        return _fail(o, Reason.NOT_ARRIVED.value)
    # hold
    if r.dislodger(p) is not None:
        return _fail(o, Reason.DISLODGED.value)
    return _ok(o)


__all__ = ["MovementOutcome", "retreat_options", "run_movement", "unit_for"]
