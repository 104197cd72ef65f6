"""A player giving random legal orders: the yardstick the computer player is
measured against (bench/diplomacy_bot.py), not an opponent for people.

Movement: each unit first draws a kind of order uniformly among the kinds it
has (hold, move, support, convoy, devastate), then one order of that kind
uniformly. Retreats: uniformly among the retreats and disbanding. Winter:
builds in random free home centres (random unit type and coast, within the
allowance or supply points), removals of random units.
"""

from __future__ import annotations

import random

from .adjust import balance, build_problem, build_sites
from .bot_tables import tables, unit_orders
from .dirigible import UPKEEP
from .map import GameMap, Loc
from .orders import Build, Disband, Order, Retreat
from .retreat import options_for
from .state import Position, Unit, UnitType
from .variant import map_of

__all__ = ["random_orders"]

_KIND = {"Hold": "hold", "Move": "move", "Convoy": "convoy", "Devastate": "devastate"}


def random_orders(pos: Position, power: str, rng: random.Random, *,
                  game_map: GameMap | None = None) -> list[Order]:
    """Random legal orders of ``power`` for the phase of ``pos``."""
    m = game_map or map_of(pos)
    if pos.phase.kind == "M":
        out: list[Order] = []
        for u in pos.units_of(power):
            kinds: dict[str, list[Order]] = {}
            for o in unit_orders(pos, m, u):
                kinds.setdefault(_KIND.get(type(o).__name__, "support"), []).append(o)
            group = kinds[rng.choice(sorted(kinds))]
            out.append(rng.choice(group))
        return out
    if pos.phase.kind == "R":
        options = options_for(pos, m)
        out = []
        for d in pos.dislodged:
            u = d.unit
            if u.power != power:
                continue
            choices: list[Order] = [Retreat(power, u.kind, u.loc, x) for x in options[u]]
            choices.append(Disband(power, u.kind, u.loc))
            out.append(rng.choice(choices))
        return out
    return _random_adjustment(pos, m, power, rng)


def _builds_within(pos: Position, m: GameMap, power: str, budget: int,
                   units: list[Unit]) -> list[Build]:
    """Every build the power may make that ``budget`` pays for."""
    t = tables(m)
    kinds = [UnitType.ARMY, UnitType.FLEET]
    if pos.dirigible:
        kinds.append(UnitType.DIRIGIBLE)
    options: list[Build] = []
    for prov in build_sites(pos, m, power):
        for kind in kinds:
            locs = t.fleet_locs.get(prov, ()) if kind is UnitType.FLEET else (Loc(prov),)
            for loc in locs:
                b = Build(power, kind, loc)
                cost = UPKEEP[kind] if pos.dirigible else 1
                if cost <= budget and build_problem(pos, m, b, units) is None:
                    options.append(b)
    return options


def _random_adjustment(pos: Position, m: GameMap, power: str,
                       rng: random.Random) -> list[Order]:
    budget = balance(pos, power)
    out: list[Order] = []
    if budget < 0:
        mine = list(pos.units_of(power))
        rng.shuffle(mine)
        while budget < 0 and mine:
            u = mine.pop()
            out.append(Disband(power, u.kind, u.loc))
            budget += UPKEEP[u.kind] if pos.dirigible else 1
        return out
    units: list[Unit] = list(pos.units)
    while True:
        options = _builds_within(pos, m, power, budget, units)
        if not options:
            return out
        b = rng.choice(options)
        out.append(b)
        units.append(Unit(power, b.kind, b.loc))
        budget -= UPKEEP[b.kind] if pos.dirigible else 1
