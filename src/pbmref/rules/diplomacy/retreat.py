"""Retreat phases (DD1, DD3, DD3a, DD9)."""

from __future__ import annotations

from dataclasses import replace

from .events import Event, result_event
from .legal import retreat_problem
from .map import GameMap, Loc
from .movement import retreat_options
from .orders import Disband, Order, OrderResult, Outcome, Reason, Retreat
from .state import DislodgedUnit, Position, Unit


def options_for(pos: Position, m: GameMap) -> dict[Unit, tuple[Loc, ...]]:
    occupied = {u.prov for u in pos.units if not u.airborne}
    return {d.unit: retreat_options(m, d, occupied, pos.standoffs) for d in pos.dislodged}


def _chosen_orders(pos: Position, m: GameMap, orders: list[Order],
                   results: list[OrderResult | None]) -> dict[Unit, int]:
    """The order (its place) that stands for each dislodged unit; an illegal
    order and a second one for a unit fail (in ``results``)."""
    options = options_for(pos, m)
    chosen: dict[Unit, int] = {}
    for i, o in enumerate(orders):
        problem = retreat_problem(pos, o, options)
        if problem is not None:
            results[i] = OrderResult(o, Outcome.FAILS, f"{Reason.ILLEGAL.value}: {problem}")
            continue
        assert isinstance(o, (Retreat, Disband))
        unit = next(
            d.unit for d in pos.dislodged if d.unit.loc == o.loc and d.unit.power == o.power
        )
        if unit in chosen:
            results[i] = OrderResult(
                o, Outcome.FAILS, f"{Reason.ILLEGAL.value}: a second order for the unit"
            )
            continue
        chosen[unit] = i
    return chosen


def run_retreats(
    pos: Position, m: GameMap, orders: list[Order]
) -> tuple[Position, tuple[OrderResult, ...], tuple[Event, ...]]:
    results: list[OrderResult | None] = [None] * len(orders)
    chosen = _chosen_orders(pos, m, orders, results)
    targets: dict[str, int] = {}
    for i in chosen.values():
        o = orders[i]
        if isinstance(o, Retreat):
            targets[o.dest.prov] = targets.get(o.dest.prov, 0) + 1
    new_units = list(pos.units)
    events: list[Event] = []
    for d in pos.dislodged:
        i_opt = chosen.get(d.unit)
        if i_opt is None:
            events.append(
                Event(
                    "disbanded",
                    power=d.unit.power,
                    unit=str(d.unit),
                    reason="no retreat ordered",
                    rule="DD3",
                )
            )
            continue
        o = orders[i_opt]
        if isinstance(o, Retreat):
            if targets[o.dest.prov] > 1:
                results[i_opt] = OrderResult(o, Outcome.FAILS, Reason.BOUNCED.value)
                events.append(
                    Event(
                        "disbanded", power=d.unit.power, unit=str(d.unit), reason="retreats bounced"
                    )
                )
            else:
                results[i_opt] = OrderResult(o, Outcome.SUCCEEDS)
                new_units.append(replace(d.unit, loc=o.dest))
        else:
            results[i_opt] = OrderResult(o, Outcome.SUCCEEDS)
            events.append(
                Event("disbanded", power=d.unit.power, unit=str(d.unit), reason="ordered")
            )
    final = tuple(
        r if r is not None else OrderResult(orders[i], Outcome.FAILS, Reason.ILLEGAL.value)
        for i, r in enumerate(results)
    )
    all_events = tuple(result_event(r) for r in final) + tuple(events)
    new_pos = replace(pos, units=tuple(sorted(new_units)), dislodged=(), standoffs=frozenset())
    return new_pos, final, all_events


def disband_stranded(
    pos: Position, m: GameMap
) -> tuple[Position, tuple[DislodgedUnit, ...], tuple[Event, ...]]:
    """DD1: a dislodged unit with nowhere to go is disbanded at once."""
    options = options_for(pos, m)
    keep = tuple(d for d in pos.dislodged if options[d.unit])
    gone = tuple(d for d in pos.dislodged if not options[d.unit])
    events = tuple(
        Event(
            "disbanded",
            power=d.unit.power,
            unit=str(d.unit),
            reason="no place to retreat",
            rule="DD1",
        )
        for d in gone
    )
    return replace(pos, dislodged=keep), gone, events
