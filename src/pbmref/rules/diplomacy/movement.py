"""A Spring or Fall movement phase: both layers, results, dislodgements (DD1, DD2, DD6-DD10)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

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
from .resolver import ExternalSupport, Resolver
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


@dataclass
class _Book:
    """The orders of one movement phase sorted into the two layers (DD2, DD6):
    each unit's order (a hold for a unit without one), which order of the list
    each unit took, the supports from above (DD8) and the results known before
    adjudication (illegal and second orders)."""

    surface_units: dict[str, Unit]
    air_units: dict[str, Unit]
    surface_orders: dict[str, Order]
    air_orders: dict[str, Order]
    given: dict[tuple[str, str], int] = field(default_factory=dict)  # (layer, prov) -> index
    dd8: dict[str, SupportHold | SupportMove] = field(default_factory=dict)
    results: dict[int, OrderResult] = field(default_factory=dict)


@dataclass(frozen=True)
class _Ends:
    """Where the units of both layers end the phase."""

    units: list[Unit]
    dislodged: list[DislodgedUnit]
    air_lost: list[Unit]


def run_movement(pos: Position, m: GameMap, orders: list[Order]) -> MovementOutcome:
    """One movement phase: the orders sorted into the layers, the air layer
    resolved, then the surface layer with the supports from above (DD8); then
    where everybody ends up, the standoffs and every order's result."""
    order_list = list(orders)
    book = _book(pos, m, order_list)
    _drop_unconvoyable(m, book.surface_units, book.surface_orders, order_list, book.given,
                       book.results)
    air = Resolver(m, book.air_units, book.air_orders, air=True, edition=pos.edition)
    air.run()
    external = from_above_supports(book.air_units, book.air_orders, book.dd8)
    surf = Resolver(m, book.surface_units, book.surface_orders, edition=pos.edition,
                    external=external)
    surf.run()
    ends = _where_units_end(book, surf, air)
    surface_after = {u.prov for u in ends.units if not u.airborne}
    standoffs = _standoffs(surf, surface_after)
    devastated = set(pos.devastated)
    events = _order_results(book, order_list, surf, air, external, ends, surface_after,
                            devastated)
    results = book.results
    for i in range(len(order_list)):
        results.setdefault(i, _fail(order_list[i], Reason.ILLEGAL.value))
    ordered = tuple(results[i] for i in range(len(order_list)))
    all_events = [result_event(x) for x in ordered]
    all_events.extend(_dislodgement_events(ends))
    all_events.extend(events)
    new_pos = replace(
        pos,
        units=tuple(sorted(ends.units)),
        dislodged=tuple(ends.dislodged),
        standoffs=frozenset(standoffs),
        devastated=frozenset(devastated),
    )
    return MovementOutcome(new_pos, ordered, tuple(all_events), tuple(ends.dislodged),
                           tuple(ends.air_lost))


def _book(pos: Position, m: GameMap, order_list: list[Order]) -> _Book:
    """Every order checked and put in its layer; the first order of a unit counts,
    a second one is illegal; a support from above (DD8) and a devastation
    (DD10) hold in the air layer."""
    surface_units: dict[str, Unit] = {}
    air_units: dict[str, Unit] = {}
    for u in pos.units:
        (air_units if u.airborne else surface_units)[u.prov] = u
    book = _Book(
        surface_units,
        air_units,
        {p: Hold(u.power, u.kind, u.loc) for p, u in surface_units.items()},
        {p: Hold(u.power, u.kind, u.loc) for p, u in air_units.items()},
    )
    for i, o in enumerate(order_list):
        problem = movement_problem(pos, m, o)
        if problem is not None:
            book.results[i] = _fail(o, f"{Reason.ILLEGAL.value}: {problem}")
            continue
        assert isinstance(o, UnitOrder)
        o = on_its_coast(pos, o)  # DD2, DATC 6.B.10: the coast of the ordered unit is moot
        layer = "air" if o.kind is UnitType.DIRIGIBLE else "surface"
        key = (layer, o.loc.prov)
        if key in book.given:
            book.results[i] = _fail(
                order_list[i], f"{Reason.ILLEGAL.value}: a second order for {o.unit_text()}"
            )
            continue
        book.given[key] = i
        if layer == "surface":
            book.surface_orders[o.loc.prov] = o
        elif isinstance(o, (SupportHold, SupportMove)) and is_from_above(o):
            book.dd8[o.loc.prov] = o
            book.air_orders[o.loc.prov] = Hold(o.power, o.kind, o.loc)
        elif isinstance(o, Devastate):
            book.air_orders[o.loc.prov] = Hold(o.power, o.kind, o.loc)
        else:
            book.air_orders[o.loc.prov] = o
    return book


def _where_units_end(book: _Book, surf: Resolver, air: Resolver) -> _Ends:
    """Each unit where its move took it or where it stood; a dislodged army or
    fleet waits to retreat, a dislodged dirigible is lost (DD9)."""
    ends = _Ends([], [], [])
    for r, units, orders_ in ((surf, book.surface_units, book.surface_orders),
                              (air, book.air_units, book.air_orders)):
        for p, u in units.items():
            o = orders_[p]
            if isinstance(o, Move) and r.resolve(p):
                ends.units.append(replace(u, loc=o.dest))
                continue
            by = r.dislodger(p)
            if by is None:
                ends.units.append(u)
            elif u.airborne:
                ends.air_lost.append(u)
            else:
                ends.dislodged.append(DislodgedUnit(u, by, convoy_rules.uses_convoy(r, by)))
    return ends


def _standoffs(surf: Resolver, surface_after: set[str]) -> set[str]:
    """Provinces left empty by a bounce (DD3a: armies and fleets only)."""
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
    return standoffs


def _order_results(
    book: _Book,
    order_list: list[Order],
    surf: Resolver,
    air: Resolver,
    external: tuple[ExternalSupport, ...],
    ends: _Ends,
    surface_after: set[str],
    devastated: set[str],
) -> list[Event]:
    """The result of every order a unit took (into ``book.results``); the
    centres devastated (DD10) added to ``devastated``, with their events."""
    events: list[Event] = []
    dislodged_provs = {d.unit.prov for d in ends.dislodged} | {u.prov for u in ends.air_lost}
    for layer, prov in book.given:
        i = book.given[(layer, prov)]
        o = order_list[i]
        r = air if layer == "air" else surf
        if isinstance(o, Devastate):
            if prov in dislodged_provs and book.air_units[prov] in ends.air_lost:
                book.results[i] = _fail(o, Reason.DISLODGED.value)
            elif prov in surface_after:
                book.results[i] = _fail(o, Reason.OCCUPIED.value)
            else:
                book.results[i] = _ok(o)
                devastated.add(prov)
                events.append(
                    Event("devastated", power=o.power, province=display(prov), rule="DD10")
                )
            continue
        if layer == "air" and prov in book.dd8:
            book.results[i] = _dd8_result(surf, o, external_given=_ext_given(external, prov))
            continue
        book.results[i] = _result(r, prov, o)
    return events


def _dislodgement_events(ends: _Ends) -> list[Event]:
    """Every unit dislodged, and every dirigible disbanded for it (DD9)."""
    out: list[Event] = []
    for dl in ends.dislodged:
        out.append(
            Event(
                "dislodged",
                power=dl.unit.power,
                unit=str(dl.unit),
                province=display(dl.attacker_from) if dl.attacker_from else None,
            )
        )
    for u in ends.air_lost:
        out.append(Event("dislodged", power=u.power, unit=str(u)))
        out.append(
            Event("disbanded", power=u.power, unit=str(u), reason="dislodged dirigible", rule="DD9")
        )
    return out


def _fleet_chain(m: GameMap, fleets_at_sea: set[str], start: str, dest: str) -> bool:
    """Is there a chain of fleets at sea from next to ``start`` to next to ``dest``?"""
    seen = {f for f in m.any_adj[start] if f in fleets_at_sea}
    stack = list(seen)
    while stack:
        f = stack.pop()
        if dest in m.any_adj[f]:
            return True
        for g in m.any_adj[f]:
            if g in fleets_at_sea and g not in seen:
                seen.add(g)
                stack.append(g)
    return False


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
        if _fleet_chain(m, fleets_at_sea, p, o.dest.prov):
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


def _convoy_result(r: Resolver, p: str, o: Convoy) -> OrderResult:
    """A convoy succeeds when the army it carries arrives by convoy."""
    if p in r.void:
        return _fail(o, Reason.VOID.value)
    if r.dislodger(p) is not None:
        return _fail(o, Reason.DISLODGED.value)
    army = o.target.prov
    if r.resolve(army) and convoy_rules.uses_convoy(r, army):
        return _ok(o)
    return _fail(o, Reason.NOT_ARRIVED.value)


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
        return _convoy_result(r, p, o)
    # hold
    if r.dislodger(p) is not None:
        return _fail(o, Reason.DISLODGED.value)
    return _ok(o)


__all__ = ["MovementOutcome", "retreat_options", "run_movement", "unit_for"]
