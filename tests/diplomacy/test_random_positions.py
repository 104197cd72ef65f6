"""Crowded random positions with random orders (fixed seeds): the engine always
finishes, and the board it returns is a board (one army or fleet and one
dirigible per province at most, nobody lost or doubled)."""

from __future__ import annotations

import random

import pytest

from pbmref.rules.diplomacy import (
    POWERS,
    Convoy,
    Hold,
    Loc,
    Move,
    Order,
    Phase,
    Position,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
    Variant,
    adjudicate_full,
    standard_map,
)
from pbmref.rules.diplomacy.orders import Devastate
from pbmref.rules.diplomacy.state import initial_position


def _random_position(rng: random.Random, air: bool) -> Position:
    m = standard_map()
    provs = [p for p in sorted(m.provinces) if p != "swi"]
    rng.shuffle(provs)
    units: list[Unit] = []
    for p in provs[:34]:
        power = rng.choice(POWERS)
        if m.is_sea(p):
            units.append(Unit(power, UnitType.FLEET, Loc(p)))
        elif m.is_coastal(p) and rng.random() < 0.4:
            coasts = m.coasts(p)
            units.append(Unit(power, UnitType.FLEET, Loc(p, rng.choice(coasts) if coasts else "")))
        else:
            units.append(Unit(power, UnitType.ARMY, Loc(p)))
    if air:
        for p in provs[10:30]:
            units.append(Unit(rng.choice(POWERS), UnitType.DIRIGIBLE, Loc(p)))
    return Position(Phase(1903, "F", "M"), tuple(sorted(units)), initial_position().centers,
                    variant=Variant.DIRIGIBLE if air else Variant.STANDARD)


def _random_orders(rng: random.Random, pos: Position) -> list[Order]:
    m = standard_map()
    orders: list[Order] = []
    moves: list[Move] = []
    for u in pos.units:
        if u.kind is UnitType.DIRIGIBLE:
            near = sorted(m.any_adj[u.prov])
        elif u.kind is UnitType.ARMY:
            near = sorted(m.army_adj[u.prov])
        else:
            near = sorted(x.prov for x in m.fleet_adj[u.loc])
        r = rng.random()
        if r < 0.5 and near:
            dest_p = rng.choice(near)
            if u.kind is UnitType.FLEET:
                dest = rng.choice(m.fleet_dests(u.loc, dest_p))
            else:
                dest = Loc(dest_p)
            mv = Move(u.power, u.kind, u.loc, dest)
            moves.append(mv)
            orders.append(mv)
        elif r < 0.6 and u.kind is UnitType.ARMY and m.is_coastal(u.prov):
            coastal = [p for p in m.provinces if m.is_coastal(p) and p != u.prov]
            mv = Move(u.power, u.kind, u.loc, Loc(rng.choice(coastal)), rng.random() < 0.5)
            moves.append(mv)
            orders.append(mv)
        elif r < 0.65 and u.kind is UnitType.DIRIGIBLE:
            orders.append(Devastate(u.power, u.kind, u.loc))
        else:
            orders.append(Hold(u.power, u.kind, u.loc))
    # supports and convoys for some of the moves
    for i, o in enumerate(orders):
        if not isinstance(o, Hold) or not moves or rng.random() < 0.3:
            continue
        mv = rng.choice(moves)
        if o.kind is UnitType.FLEET and m.is_sea(o.loc.prov) and mv.kind is UnitType.ARMY:
            orders[i] = Convoy(o.power, o.kind, o.loc, mv.loc, mv.dest)
        elif rng.random() < 0.7:
            orders[i] = SupportMove(o.power, o.kind, o.loc, mv.kind, mv.loc, Loc(mv.dest.prov))
        else:
            target = rng.choice(pos.units)
            orders[i] = SupportHold(o.power, o.kind, o.loc, target.kind, target.loc)
    return orders


@pytest.mark.parametrize("seed", range(150))
def test_random_position(seed: int) -> None:
    rng = random.Random(seed)
    pos = _random_position(rng, air=seed % 2 == 1)
    orders = _random_orders(rng, pos)
    adj = adjudicate_full(pos, orders)
    assert len(adj.results) == len(orders)
    after = adj.state.units
    surface = [u.prov for u in after if not u.airborne]
    air = [u.prov for u in after if u.airborne]
    assert len(surface) == len(set(surface))
    assert len(air) == len(set(air))
    lost_air = sum(1 for e in adj.events if e.kind == "disbanded" and (e.unit or "").startswith("D "))
    assert len(after) + len(adj.dislodged) + lost_air == len(pos.units)
    # a move succeeded exactly when its unit stands at the target
    for r in adj.results:
        o = r.order
        if isinstance(o, Move) and r.succeeded:
            assert any(u.power == o.power and u.kind is o.kind and u.loc == o.dest for u in after)
