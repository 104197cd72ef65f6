"""What the computer players know about the board before any game starts.

Built once per map and kept: every place a unit can go next (sorted, so a
seeded game plays the same whatever Python's string hashing), distances for
each kind of unit, the fleet places of each province, and every legal order
of one unit in a movement phase (the computer and the random player both
choose among these). Nothing here looks at whose turn it is.
"""

from __future__ import annotations

import heapq
from collections import deque
from dataclasses import dataclass
from typing import TypeVar

from .legal import movement_problem
from .map import GameMap, Loc
from .orders import (
    Convoy,
    Devastate,
    Hold,
    Move,
    Order,
    SupportHold,
    SupportMove,
)
from .state import Position, Unit, UnitType

FAR = 99  # distance to somewhere a unit can never go
CROSSING = 3  # steps an army's convoy across one sea counts for

_Place = TypeVar("_Place", str, Loc)  # a province, or a fleet's place (province and coast)


@dataclass(frozen=True)
class Tables:
    """Per-map facts, every collection in a fixed order."""

    army_next: dict[str, tuple[str, ...]]
    fleet_next: dict[Loc, tuple[Loc, ...]]
    air_next: dict[str, tuple[str, ...]]
    fleet_locs: dict[str, tuple[Loc, ...]]
    # steps an army needs (a crossing between two coasts of one sea counts 3),
    # an army needs on land alone, a fleet at a place needs, a dirigible
    # needs: start -> province -> steps
    army_dist: dict[str, dict[str, int]]
    land_dist: dict[str, dict[str, int]]
    fleet_dist: dict[Loc, dict[str, int]]
    air_dist: dict[str, dict[str, int]]
    centres: tuple[str, ...]
    seas: frozenset[str]
    coastal: frozenset[str]

    def next_provinces(self, u: Unit) -> tuple[str, ...]:
        """Provinces the unit could move into (any coast), in order."""
        if u.kind is UnitType.ARMY:
            return self.army_next[u.prov]
        if u.kind is UnitType.FLEET:
            return _fleet_provs(self, u.loc)
        return self.air_next[u.prov]

    def dist(self, kind: UnitType, loc: Loc, prov: str) -> int:
        if kind is UnitType.ARMY:
            return self.army_dist[loc.prov].get(prov, FAR)
        if kind is UnitType.FLEET:
            return self.fleet_dist.get(loc, {}).get(prov, FAR)
        return self.air_dist[loc.prov].get(prov, FAR)


_FLEET_PROVS: dict[tuple[int, Loc], tuple[str, ...]] = {}


def _fleet_provs(t: Tables, loc: Loc) -> tuple[str, ...]:
    key = (id(t), loc)
    got = _FLEET_PROVS.get(key)
    if got is None:
        got = tuple(sorted({x.prov for x in t.fleet_next.get(loc, ())}))
        _FLEET_PROVS[key] = got
    return got


_CACHE: dict[int, tuple[GameMap, Tables]] = {}


def tables(m: GameMap) -> Tables:
    """The tables of a map (built on first use)."""
    hit = _CACHE.get(id(m))
    if hit is not None and hit[0] is m:
        return hit[1]
    t = _build(m)
    _CACHE[id(m)] = (m, t)
    return t


def _bfs(start: _Place, nxt: dict[_Place, tuple[_Place, ...]]) -> dict[_Place, int]:
    """The fewest steps from ``start`` to every place reachable (breadth first)."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        p = queue.popleft()
        for q in nxt.get(p, ()):
            if q not in dist:
                dist[q] = dist[p] + 1
                queue.append(q)
    return dist


def _build(m: GameMap) -> Tables:
    """Every table of the map: where each unit can go next, then distances."""
    provs = sorted(m.provinces)
    army_next = {p: tuple(sorted(m.army_adj.get(p, frozenset()))) for p in provs}
    fleet_next = {loc: tuple(sorted(v)) for loc, v in sorted(m.fleet_adj.items())}
    air_next = _air_steps(m, provs)
    fleet_locs: dict[str, list[Loc]] = {}
    for loc in sorted(m.fleet_adj):
        fleet_locs.setdefault(loc.prov, []).append(loc)
    seas = frozenset(p for p in provs if m.is_sea(p))
    coastal = frozenset(p for p in provs if m.is_coastal(p))
    crossings = _army_steps(m, provs, army_next, seas, coastal)
    army_dist = {p: {} if p in seas else _army_distances(p, crossings) for p in provs}
    fleet_dist = {loc: _fleet_distances(loc, fleet_next) for loc in fleet_next}
    air_dist = {p: _bfs(p, air_next) for p in provs}
    return Tables(
        army_next=army_next,
        fleet_next=fleet_next,
        air_next=air_next,
        fleet_locs={p: tuple(v) for p, v in fleet_locs.items()},
        army_dist=army_dist,
        land_dist={p: _bfs(p, army_next) for p in provs},
        fleet_dist=fleet_dist,
        air_dist=air_dist,
        centres=tuple(sorted(m.supply_centers())),
        seas=seas,
        coastal=coastal,
    )


def _air_steps(m: GameMap, provs: list[str]) -> dict[str, tuple[str, ...]]:
    """Where a dirigible goes next from each province: anywhere next to it but
    Switzerland, which stays impassable (DD7)."""
    air_next = {p: tuple(sorted(q for q in m.any_adj.get(p, frozenset()) if q != "swi"))
                for p in provs}
    if "swi" in air_next:
        air_next["swi"] = ()
    return air_next


def _army_steps(m: GameMap, provs: list[str], army_next: dict[str, tuple[str, ...]],
                seas: frozenset[str], coastal: frozenset[str]) -> dict[str, list[tuple[str, int]]]:
    """An army's steps with what each costs: a land step 1, a crossing of one
    sea between two of its coasts ``CROSSING``."""
    crossings: dict[str, list[tuple[str, int]]] = {p: [(q, 1) for q in army_next[p]]
                                                   for p in provs}
    for s in sorted(seas):
        shore = sorted(q for q in m.any_adj[s] if q in coastal)
        for a in shore:
            crossings[a].extend((b, CROSSING) for b in shore if b != a and b not in army_next[a])
    return crossings


def _army_distances(p: str, crossings: dict[str, list[tuple[str, int]]]) -> dict[str, int]:
    """The cheapest way of an army from ``p`` to every province (Dijkstra)."""
    best = {p: 0}
    heap = [(0, p)]
    while heap:
        d, q = heapq.heappop(heap)
        if d > best.get(q, FAR):
            continue
        for r, w in crossings[q]:
            if d + w < best.get(r, FAR):
                best[r] = d + w
                heapq.heappush(heap, (d + w, r))
    return best


def _fleet_distances(loc: Loc, fleet_next: dict[Loc, tuple[Loc, ...]]) -> dict[str, int]:
    """The fewest steps of a fleet at ``loc`` to each province (its nearest coast)."""
    seen = _bfs(loc, fleet_next)
    by_prov: dict[str, int] = {}
    for there, steps in seen.items():
        if steps < by_prov.get(there.prov, FAR):
            by_prov[there.prov] = steps
    return by_prov


# ---------------------------------------------------------------------------
# Every legal order of one unit in a movement phase


def move_orders(t: Tables, u: Unit) -> list[Move]:
    """Every move to a neighbouring place (fleets: each coast it can reach)."""
    if u.kind is UnitType.FLEET:
        return [Move(u.power, u.kind, u.loc, d) for d in t.fleet_next.get(u.loc, ())]
    nxt = t.army_next if u.kind is UnitType.ARMY else t.air_next
    return [Move(u.power, u.kind, u.loc, Loc(p)) for p in nxt[u.prov]]


def convoy_routes(t: Tables, army: Unit, fleets_at_sea: dict[str, Unit],
                  longest: int = 4) -> dict[str, tuple[str, ...]]:
    """Coastal provinces an army could be convoyed to through the fleets given
    (province -> the sea provinces of the shortest chain), ones it can walk to left out."""
    if army.kind is not UnitType.ARMY or army.prov not in t.coastal:
        return {}
    out: dict[str, tuple[str, ...]] = {}
    first = [s for s in t.air_next[army.prov] if s in fleets_at_sea]
    queue: deque[tuple[str, tuple[str, ...]]] = deque((s, (s,)) for s in first)
    seen = set(first)
    while queue:
        s, chain = queue.popleft()
        for q in t.air_next[s]:
            if q in t.coastal and q != army.prov and q not in out and \
                    q not in t.army_next[army.prov]:
                out[q] = chain
            if q in fleets_at_sea and q not in seen and len(chain) < longest:
                seen.add(q)
                queue.append((q, chain + (q,)))
    return dict(sorted(out.items()))


def unit_orders(pos: Position, m: GameMap, u: Unit) -> list[Order]:
    """Every legal movement-phase order of ``u`` that makes sense on the board:
    hold, moves (convoyed moves where a chain of fleets at sea could carry the
    army), supports of a neighbour's hold or of its move into a place ``u``
    reaches, convoys along the fleet's sea, devastation and supports from above
    (Dirigible Diplomacy, DD8, DD10)."""
    t = tables(m)
    out: list[Order] = [Hold(u.power, u.kind, u.loc)]
    moves = move_orders(t, u)
    out.extend(moves)
    surface = {v.prov: v for v in pos.units if not v.airborne}
    air = {v.prov: v for v in pos.units if v.airborne}
    if u.kind is UnitType.ARMY:
        at_sea = {p: v for p, v in surface.items() if v.kind is UnitType.FLEET and p in t.seas}
        for dest in convoy_routes(t, u, at_sea):
            out.append(Move(u.power, u.kind, u.loc, Loc(dest), True))
    if u.kind is UnitType.DIRIGIBLE:
        out.extend(_dirigible_orders(pos, m, t, u, surface, air))
        return out
    out.extend(_supports(t, u, surface))
    if u.kind is UnitType.FLEET and u.prov in t.seas:
        out.extend(_convoys(t, u, surface))
    return out


def _dirigible_orders(pos: Position, m: GameMap, t: Tables, u: Unit, surface: dict[str, Unit],
                      air: dict[str, Unit]) -> list[Order]:
    """A dirigible's devastation (DD10), its supports from above of the unit
    below and of a move into its province (DD8), and its supports of a
    neighbouring dirigible's hold or move (DD7)."""
    out: list[Order] = []
    if movement_problem(pos, m, Devastate(u.power, u.kind, u.loc)) is None:
        out.append(Devastate(u.power, u.kind, u.loc))
    below = surface.get(u.prov)
    if below is not None:
        out.append(SupportHold(u.power, u.kind, u.loc, below.kind, below.loc))
    for q in t.air_next[u.prov]:  # DD8: a move into the dirigible's province
        v = surface.get(q)
        if v is not None and u.prov in t.next_provinces(v):
            out.append(SupportMove(u.power, u.kind, u.loc, v.kind, v.loc, Loc(u.prov)))
    for q in t.air_next[u.prov]:  # DD7: dirigible supports dirigible
        v = air.get(q)
        if v is None:
            continue
        out.append(SupportHold(u.power, u.kind, u.loc, v.kind, v.loc))
        for d in t.air_next[q]:
            if d != u.prov and d in t.air_next[u.prov]:
                out.append(SupportMove(u.power, u.kind, u.loc, v.kind, v.loc, Loc(d)))
    return out


def _supports(t: Tables, u: Unit, surface: dict[str, Unit]) -> list[Order]:
    """An army's or fleet's supports: of a neighbour's hold, and of a move into
    a place it reaches itself."""
    out: list[Order] = []
    mine = t.next_provinces(u)
    for q in mine:
        v = surface.get(q)
        if v is None:
            continue
        out.append(SupportHold(u.power, u.kind, u.loc, v.kind, v.loc))
    for q in sorted({x for p in mine for x in t.air_next[p]}):
        v = surface.get(q)
        if v is None or v.prov == u.prov:
            continue
        for d in t.next_provinces(v):
            if d != u.prov and d in mine:
                out.append(SupportMove(u.power, u.kind, u.loc, v.kind, v.loc, Loc(d)))
    return out


def _convoys(t: Tables, u: Unit, surface: dict[str, Unit]) -> list[Order]:
    """A fleet at sea's convoys of an army on one of its shores to another."""
    out: list[Order] = []
    shore = [p for p in t.air_next[u.prov] if p in t.coastal]
    for a in shore:
        v = surface.get(a)
        if v is None or v.kind is not UnitType.ARMY:
            continue
        for d in shore:
            if d != a:
                out.append(Convoy(u.power, u.kind, u.loc, v.loc, Loc(d)))
    return out
