"""Convoys: routes, intent and the fleets' decisions."""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from .orders import Move
from .state import UnitType

if TYPE_CHECKING:
    from .map import GameMap
    from .resolver import Resolver


def fleet_stays(r: Resolver, p: str) -> bool:
    """A convoying fleet's decision: it is not dislodged."""
    return all(not r.resolve(q) for q in r.moves_into.get(p, []))


def sea_path_through(m: GameMap, start: str, end: str, via: str) -> bool:
    """Could a chain of fleets in sea provinces through ``via`` link start and end?"""

    def reach(src_land: str | None, src_sea: str | None) -> set[str]:
        seen: set[str] = set()
        queue: deque[str] = deque()
        if src_land is not None:
            for s in m.any_adj[src_land]:
                if m.is_sea(s):
                    seen.add(s)
                    queue.append(s)
        if src_sea is not None:
            seen.add(src_sea)
            queue.append(src_sea)
        while queue:
            s = queue.popleft()
            for t in m.any_adj[s]:
                if m.is_sea(t) and t not in seen:
                    seen.add(t)
                    queue.append(t)
        return seen

    if not m.is_sea(via):
        return False
    from_start = reach(start, None)
    if via not in from_start:
        return False
    from_via = reach(None, via)
    return any(end in m.any_adj[s] for s in from_via)


def needed_on_a_route(m: GameMap, start: str, end: str, via: str) -> bool:
    """Is ``via`` on a sea route from ``start`` to ``end`` that no fleet could
    shorten: a chain of sea provinces in which no province borders one further
    on than the next (nor ``start`` one past the first, nor ``end`` one before
    the last)? In Mar - Lyo - Wes - Spa the Western Mediterranean is not needed,
    since the Gulf of Lyon borders Spain (DATC 3.0 6.G.19).

    >>> from pbmref.rules.diplomacy.map import standard_map
    >>> needed_on_a_route(standard_map(), "mar", "spa", "wes")
    False
    >>> needed_on_a_route(standard_map(), "lon", "bre", "eng")
    True
    """
    if not m.is_sea(via):
        return False

    def extend(path: list[str], found_via: bool) -> bool:
        last = path[-1]
        if end in m.any_adj[last] and len(path) > 1:
            return found_via  # a route may go no further than its first landing
        for s in sorted(m.any_adj[last]):
            if not m.is_sea(s) or s in path:
                continue
            if any(s in m.any_adj[q] for q in path[:-1]):
                continue  # an earlier province borders it: a shortcut
            if extend([*path, s], found_via or s == via):
                return True
        return False

    return extend([start], False)


def route_exists(r: Resolver, p: str) -> bool:
    """Is there a chain of undislodged fleets convoying the army at ``p``?"""
    if p in r.szykman:
        return False
    o = r.orders[p]
    assert isinstance(o, Move)
    fleets = r.convoys.get(p, [])
    if not fleets:
        return False
    dest = o.dest.prov
    m = r.map
    fleet_set = set(fleets)
    seen: set[str] = set()
    queue: deque[str] = deque()
    for f in fleets:
        if f in m.any_adj[p] and r.resolve(f):
            seen.add(f)
            queue.append(f)
    while queue:
        f = queue.popleft()
        if dest in m.any_adj[f]:
            return True
        for g in m.any_adj[f]:
            if g in fleet_set and g not in seen and r.resolve(g):
                seen.add(g)
                queue.append(g)
    return False


def has_intent(r: Resolver, p: str) -> bool:
    """2000/2023 rule (DD2): an army adjacent to its target goes by convoy when a
    fleet of its own power is ordered (legally) to convoy it; under the 2023
    rules that fleet must be needed on a route (``needed_on_a_route``: a fleet
    that could be left out of every route shows no intent, DATC 3.0 6.G.19,
    and the army moves over land). That settles the
    route for the whole phase: when the convoy then fails (the fleet is
    dislodged, or the Szykman rule breaks a paradox), the army does not fall
    back on the land route; it stays (DATC 3.0 6.G.11)."""
    o = r.orders[p]
    assert isinstance(o, Move)
    on_route = needed_on_a_route if r.edition == "2023" else sea_path_through
    for f in r.convoys.get(p, []):
        if r.units[f].power == o.power and on_route(r.map, p, o.dest.prov, f):
            return True
    return False


def uses_convoy(r: Resolver, p: str) -> bool:
    """Does the army at ``p`` travel by convoy (rather than over land)?

    Under the 1971 rules an army with a working convoy route takes it, and one
    whose route the Szykman rule takes away moves over land; under the 2000 and
    2023 rules the intent decides (:func:`has_intent`), whatever becomes of the
    route (DD2)."""
    o = r.orders[p]
    if r.air or not isinstance(o, Move) or o.kind is not UnitType.ARMY:
        return False
    if not r.map.army_move(p, o.dest.prov) or o.via_convoy:
        return True
    if r.edition == "1971":
        return bool(r.convoys.get(p)) and route_exists(r, p)
    return has_intent(r, p)
