"""Dirigible Diplomacy specifics: support from above, devastation, economy.

DD6/DD7: the air layer is adjudicated by the ordinary resolver with only
dirigibles in it. DD8: a dirigible's support of the army or fleet below it is
cut only by a foreign dirigible ordered into its province (whether or not that
move succeeds). DD10: devastation. DD11: supply points and upkeep.
"""

from __future__ import annotations

from .orders import Move, Order, SupportHold, SupportMove
from .resolver import ExternalSupport
from .state import Position, Unit, UnitType

POINTS_PER_CENTER = 5  # DD11
UPKEEP = {UnitType.ARMY: 4, UnitType.FLEET: 4, UnitType.DIRIGIBLE: 3}  # DD11
WIN_DIRIGIBLE = 19  # DD14
WIN_STANDARD = 18  # DD4


def from_above_supports(
    air_units: dict[str, Unit],
    air_orders: dict[str, Order],
    dd8: dict[str, SupportHold | SupportMove],
) -> tuple[ExternalSupport, ...]:
    """DD8 supports with their cut status settled in the air layer."""
    out = []
    for prov, o in dd8.items():
        me = air_units[prov]
        cut = any(
            isinstance(a, Move) and a.dest.prov == prov and air_units[q].power != me.power
            for q, a in air_orders.items()
        )
        dest = o.dest.prov if isinstance(o, SupportMove) else None
        out.append(ExternalSupport(me.power, o.target.prov, dest, not cut, prov))
    return tuple(out)


def supply_points(pos: Position, power: str) -> int:
    """DD11: five points for each owned centre that is not devastated."""
    return POINTS_PER_CENTER * sum(1 for p in pos.centers_of(power) if p not in pos.devastated)


def upkeep(units: list[Unit] | tuple[Unit, ...]) -> int:
    return sum(UPKEEP[u.kind] for u in units)


def scoring_centers(pos: Position, power: str) -> int:
    """Centres that count for victory (DD14: not devastated)."""
    return sum(1 for p in pos.centers_of(power) if p not in pos.devastated)
