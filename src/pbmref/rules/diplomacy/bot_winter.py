"""The computer player's retreats and Winter adjustments (DD1, DD11-DD13).

Retreats: each dislodged unit goes where it is worth most (a centre it can
take, then the best outlook), never two to one place; with nowhere to go it
disbands. Builds: the most promising unit type and coast in each free home
centre, best first, as many as the allowance or the supply points allow (in
Dirigible Diplomacy armies and fleets first, then dirigibles with the points
left); an unused build is waived. Removals: the units worth least, fewest
removals first in Dirigible Diplomacy (a dirigible's upkeep is smaller).
"""

from __future__ import annotations

import random

from .adjust import balance, build_problem, build_sites
from .bot_tables import tables
from .bot_values import OUTLOOK, Valuation
from .dirigible import UPKEEP
from .map import GameMap, Loc
from .orders import Build, Disband, Order, Retreat, Waive
from .retreat import options_for
from .state import Position, Unit, UnitType

NOISE = 0.02


def retreat_orders(pos: Position, m: GameMap, power: str, rng: random.Random) -> list[Order]:
    mine = [d.unit for d in pos.dislodged if d.unit.power == power]
    if not mine:
        return []
    v = Valuation(pos, m, power)
    options = options_for(pos, m)
    choices: list[tuple[float, int, Unit, Loc]] = []
    for n, u in enumerate(mine):
        for loc in options.get(u, ()):
            value = v.occupy(loc.prov) + OUTLOOK * v.outlook(u.kind, loc)
            choices.append((value + rng.random() * NOISE, n, u, loc))
    choices.sort(key=lambda c: (-c[0], c[1], c[3]))
    taken: set[str] = set()
    chosen: dict[Unit, Loc] = {}
    for _, _, u, loc in choices:
        if u in chosen or loc.prov in taken:
            continue
        chosen[u] = loc
        taken.add(loc.prov)
    out: list[Order] = []
    for u in mine:
        if u in chosen:
            out.append(Retreat(power, u.kind, u.loc, chosen[u]))
        else:
            out.append(Disband(power, u.kind, u.loc))
    return out


def _unit_worth(v: Valuation, u: Unit) -> float:
    if u.airborne:
        return 0.5 * OUTLOOK * v.outlook(u.kind, u.loc)
    return v.occupy(u.prov) + OUTLOOK * v.outlook(u.kind, u.loc)


def adjustment_orders(pos: Position, m: GameMap, power: str, rng: random.Random) -> list[Order]:
    budget = balance(pos, power)
    if budget == 0:
        return []
    v = Valuation(pos, m, power)
    if budget < 0:
        return _removals(pos, v, power, budget, rng)
    return _builds(pos, m, v, power, budget, rng)


def _removals(pos: Position, v: Valuation, power: str, budget: int,
              rng: random.Random) -> list[Order]:
    units = sorted(pos.units_of(power))
    worth = {u: _unit_worth(v, u) + rng.random() * NOISE for u in units}
    out: list[Order] = []
    def cost(u: Unit, short: int) -> tuple[float, Unit]:
        saves = UPKEEP[u.kind] if pos.dirigible else 1
        return (worth[u] - (0.3 if saves >= short else 0.0), u)

    while budget < 0 and units:
        u = min(units, key=lambda x: cost(x, -budget))
        units.remove(u)
        out.append(Disband(power, u.kind, u.loc))
        budget += UPKEEP[u.kind] if pos.dirigible else 1
    return out


def _builds(pos: Position, m: GameMap, v: Valuation, power: str, budget: int,
            rng: random.Random) -> list[Order]:
    units: list[Unit] = list(pos.units)
    out: list[Order] = []
    surface_cost = UPKEEP[UnitType.ARMY] if pos.dirigible else 1
    used: set[str] = set()
    for _, b in _surface_options(pos, m, v, power, units, rng):
        if budget < surface_cost:
            break
        if b.loc.prov in used:
            continue
        out.append(b)
        used.add(b.loc.prov)
        units.append(Unit(power, b.kind, b.loc))
        budget -= surface_cost
    if not pos.dirigible:
        return out + [Waive(power) for _ in range(budget)]
    out += _air_builds(pos, m, v, power, budget, units, rng)
    return out or [Waive(power)]


def _surface_options(pos: Position, m: GameMap, v: Valuation, power: str, units: list[Unit],
                     rng: random.Random) -> list[tuple[float, Build]]:
    """The armies and fleets the power may build, best first (a first fleet or
    first army valued a little higher), with a little noise."""
    t = tables(m)
    mine = pos.units_of(power)
    fleets = sum(1 for u in mine if u.kind is UnitType.FLEET)
    armies = sum(1 for u in mine if u.kind is UnitType.ARMY)
    options: list[tuple[float, Build]] = []
    for prov in build_sites(pos, m, power):
        for kind in (UnitType.ARMY, UnitType.FLEET):
            locs = t.fleet_locs.get(prov, ()) if kind is UnitType.FLEET else (Loc(prov),)
            for loc in locs:
                b = Build(power, kind, loc)
                if build_problem(pos, m, b, units) is not None:
                    continue
                value = v.outlook(kind, loc, land=kind is UnitType.ARMY)
                first = fleets == 0 if kind is UnitType.FLEET else armies == 0
                options.append((value + (0.2 if first else 0.0) + rng.random() * NOISE, b))
    options.sort(key=lambda o: (-o[0], o[1].loc, o[1].kind))
    return options


def _air_builds(pos: Position, m: GameMap, v: Valuation, power: str, budget: int,
                units: list[Unit], rng: random.Random) -> list[Order]:
    """The dirigibles the rest of the budget buys, best site first (DD13)."""
    air: list[tuple[float, Build]] = []
    for prov in build_sites(pos, m, power):
        b = Build(power, UnitType.DIRIGIBLE, Loc(prov))
        if build_problem(pos, m, b, units) is None:
            air.append((v.outlook(b.kind, b.loc) + rng.random() * NOISE, b))
    air.sort(key=lambda o: (-o[0], o[1].loc))
    out: list[Order] = []
    for _, b in air:
        if budget < UPKEEP[UnitType.DIRIGIBLE]:
            break
        out.append(b)
        units.append(Unit(power, b.kind, b.loc))
        budget -= UPKEEP[UnitType.DIRIGIBLE]
    return out
