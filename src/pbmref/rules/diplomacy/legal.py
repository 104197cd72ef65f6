"""Legality of orders against a position (DD2: an illegal order is not given)."""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar

from . import orders as typed
from .map import GameMap, Loc, display
from .state import Phase, Position, Unit, UnitType

_O = TypeVar("_O", bound=typed.UnitOrder)


def unit_for(pos: Position, o: typed.UnitOrder) -> Unit | None:
    """The unit an order names, when it exists with that power, type and province.

    The coast an order names for its own fleet plays no part (DD2, DATC 3.0
    6.B.10): one fleet stands in a province, so the province names it, and the
    order is carried out from the coast the fleet is really on
    (:func:`on_its_coast`)."""
    for u in pos.units:
        if u.loc.prov == o.loc.prov and (u.kind is UnitType.DIRIGIBLE) == (
            o.kind is UnitType.DIRIGIBLE
        ):
            if u.kind is o.kind and u.power == o.power:
                return u
            return None
    return None


def on_its_coast(pos: Position, o: _O) -> _O:
    """The order from the place its unit really stands (DD2, DATC 6.B.10)."""
    u = unit_for(pos, o)
    if u is None or u.loc == o.loc:
        return o
    return replace(o, loc=u.loc)


def is_from_above(o: typed.SupportHold | typed.SupportMove) -> bool:
    """DD8: a dirigible's support of the army or fleet below it."""
    if o.kind is not UnitType.DIRIGIBLE:
        return False
    if o.target_kind is UnitType.DIRIGIBLE:
        return False
    if o.target_kind in (UnitType.ARMY, UnitType.FLEET):
        return True
    if isinstance(o, typed.SupportHold):
        return o.target.prov == o.loc.prov
    return o.dest.prov == o.loc.prov


def reaches(m: GameMap, kind: UnitType, loc: Loc, prov: str) -> bool:
    """Could a unit at ``loc`` move into ``prov`` (for supports: any coast)."""
    if prov == loc.prov or prov not in m.provinces:
        return False
    if kind is UnitType.ARMY:
        return m.army_move(loc.prov, prov)
    if kind is UnitType.FLEET:
        return m.fleet_reaches(loc, prov)
    return m.adjacent(loc.prov, prov)


def movement_problem(pos: Position, m: GameMap, o: typed.Order) -> str | None:
    """Why the order cannot be given in a movement phase, or None."""
    if not isinstance(o, (typed.Hold, typed.Move, typed.SupportHold, typed.SupportMove,
                          typed.Convoy, typed.Devastate)):
        return "only hold, move, support, convoy and devastate orders are given in a movement phase"
    if o.kind is UnitType.DIRIGIBLE and not pos.dirigible:
        return "there are no dirigibles in standard Diplomacy (DD5)"
    if unit_for(pos, o) is None:
        return f"{o.power} has no {o.unit_text()}"
    o = on_its_coast(pos, o)
    if isinstance(o, typed.Hold):
        return None
    if isinstance(o, typed.Move):
        return _move_problem(m, o)
    if isinstance(o, (typed.SupportHold, typed.SupportMove)):
        return _support_problem(pos, m, o)
    if isinstance(o, typed.Convoy):
        return _convoy_problem(m, o)
    return _devastate_problem(pos, m, o)


def _convoy_problem(m: GameMap, o: typed.Convoy) -> str | None:
    if o.kind is not UnitType.FLEET:
        return "only fleets convoy (DD7: a dirigible never carries an army)"
    if not m.is_sea(o.loc.prov):
        return "only a fleet at sea can convoy"
    for p in (o.target.prov, o.dest.prov):
        if p not in m.provinces or not m.is_coastal(p):
            return f"{display(p)} is not a coastal province an army can be convoyed from or to"
    return None


def _devastate_problem(pos: Position, m: GameMap, o: typed.Devastate) -> str | None:
    """DD10: a dirigible on a supply centre it does not own."""
    if o.kind is not UnitType.DIRIGIBLE:
        return "only a dirigible can devastate"
    if not m.is_supply_center(o.loc.prov):
        return f"there is no supply centre in {display(o.loc.prov)} to devastate"
    if pos.owner(o.loc.prov) == o.power:
        return f"{o.power} owns {display(o.loc.prov)} and may not devastate its own centre (DD10)"
    return None


def _move_problem(m: GameMap, o: typed.Move) -> str | None:
    src, dst = o.loc, o.dest
    if dst.prov not in m.provinces:
        return f"unknown province {dst.prov}"
    if dst.prov == src.prov:
        return "a unit cannot move to the province it is in"
    if o.kind is UnitType.DIRIGIBLE:
        return _dirigible_move_problem(m, o)
    if o.kind is UnitType.FLEET:
        return _fleet_move_problem(m, o)
    return _army_move_problem(m, o)


def _dirigible_move_problem(m: GameMap, o: typed.Move) -> str | None:
    src, dst = o.loc, o.dest
    if o.via_convoy:
        return "dirigibles are never convoyed (DD7)"
    if dst.coast:
        return "dirigibles ignore coasts"
    if not m.adjacent(src.prov, dst.prov):
        return f"{display(dst.prov)} is not next to {display(src.prov)}"
    return None


def _fleet_move_problem(m: GameMap, o: typed.Move) -> str | None:
    src, dst = o.loc, o.dest
    if o.via_convoy:
        return "only armies can be convoyed"
    if not m.fleet_can_stand(dst):
        if m.coasts(dst.prov) and not dst.coast:
            return f"say which coast of {display(dst.prov)} the fleet goes to"
        return f"a fleet cannot go to {dst}"
    if not m.fleet_move(src, dst):
        return f"a fleet at {src} cannot reach {dst}"
    return None


def _army_move_problem(m: GameMap, o: typed.Move) -> str | None:
    src, dst = o.loc, o.dest
    if dst.coast:
        return "an army does not go to a coast"
    if m.is_sea(dst.prov):
        return f"an army cannot go to sea ({display(dst.prov)})"
    if m.army_move(src.prov, dst.prov):
        return None
    if m.is_coastal(src.prov) and m.is_coastal(dst.prov):
        return None  # may be convoyed
    return f"{display(dst.prov)} is not next to {display(src.prov)}"


def _support_problem(pos: Position, m: GameMap,
                     o: typed.SupportHold | typed.SupportMove) -> str | None:
    if o.target.prov not in m.provinces:
        return f"unknown province {o.target.prov}"
    if isinstance(o, typed.SupportMove) and o.dest.prov not in m.provinces:
        return f"unknown province {o.dest.prov}"
    if o.target.prov == o.loc.prov and not is_from_above(o):
        return "a unit cannot support itself"
    if o.kind is UnitType.DIRIGIBLE:
        return _dirigible_support_problem(m, o)
    if o.target_kind is UnitType.DIRIGIBLE:
        return "armies and fleets cannot support dirigibles (DD7)"
    where = o.target.prov if isinstance(o, typed.SupportHold) else o.dest.prov
    if not reaches(m, o.kind, o.loc, where):
        return f"{o.unit_text()} cannot reach {display(where)}, so it cannot support there"
    return None


def _dirigible_support_problem(m: GameMap, o: typed.SupportHold | typed.SupportMove) -> str | None:
    if is_from_above(o):
        # DD8: only the army or fleet below, or one moving into its province
        if isinstance(o, typed.SupportHold):
            if o.target.prov != o.loc.prov:
                return "a dirigible supports only the hold of the army or fleet below it (DD8)"
        elif o.dest.prov != o.loc.prov:
            return "a dirigible supports only a move into its own province (DD8)"
        elif o.target.prov == o.loc.prov:
            return "a unit cannot move to the province it is in"
        return None
    # dirigible supports dirigible (DD7)
    where = o.target.prov if isinstance(o, typed.SupportHold) else o.dest.prov
    if not m.adjacent(o.loc.prov, where):
        return f"the dirigible cannot reach {display(where)}"
    return None


def retreat_problem(pos: Position, o: typed.Order,
                    options: dict[Unit, tuple[Loc, ...]]) -> str | None:
    if not isinstance(o, (typed.Retreat, typed.Disband)):
        return "only retreats and disbands are given in a retreat phase"
    for d in pos.dislodged:
        u = d.unit
        if u.power == o.power and u.kind is o.kind and u.loc == o.loc:
            if isinstance(o, typed.Retreat) and o.dest not in options.get(u, ()):
                return f"{o.unit_text()} cannot retreat to {o.dest}"
            return None
    return f"{o.power} has no dislodged {o.unit_text()}"


def adjust_kind_problem(o: typed.Order) -> str | None:
    if not isinstance(o, (typed.Build, typed.Disband, typed.Waive)):
        return "only builds, disbands and waives are given in an adjustment phase"
    return None


def phase_accepts(phase: Phase) -> str:
    return {"M": "movement", "R": "retreat", "A": "adjustment"}[phase.kind]
