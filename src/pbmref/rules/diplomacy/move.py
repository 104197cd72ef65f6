"""Moves: path, attack, defend, prevent strength, and success (DATC section 5)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import convoy as convoy_rules
from .hold import hold_strength
from .orders import Move

if TYPE_CHECKING:
    from .resolver import Resolver


def path(r: Resolver, p: str) -> bool:
    if convoy_rules.uses_convoy(r, p):
        return convoy_rules.route_exists(r, p)
    return True  # legality already checked adjacency


def head_to_head(r: Resolver, p: str) -> str | None:
    """The province of the unit this move meets head to head, if any."""
    o = r.orders[p]
    assert isinstance(o, Move)
    d = o.dest.prov
    other = r.orders.get(d)
    if isinstance(other, Move) and other.dest.prov == p:
        if not convoy_rules.uses_convoy(r, p) and not convoy_rules.uses_convoy(r, d):
            return d
    return None


def _supports(r: Resolver, p: str, exclude_power: str | None = None) -> int:
    return sum(
        1
        for s in r.move_supports.get(p, [])
        if (exclude_power is None or s.power != exclude_power) and r.support_given(s)
    )


def attack_strength(r: Resolver, p: str) -> int:
    if not path(r, p):
        return 0
    o = r.orders[p]
    assert isinstance(o, Move)
    d = o.dest.prov
    occupant = r.units.get(d)
    if occupant is None:
        return 1 + _supports(r, p)
    if isinstance(r.orders[d], Move) and head_to_head(r, p) is None and r.resolve(d):
        return 1 + _supports(r, p)
    if occupant.power == o.power:
        return 0
    return 1 + _supports(r, p, exclude_power=occupant.power)


def defend_strength(r: Resolver, p: str) -> int:
    return 1 + _supports(r, p)


def prevent_strength(r: Resolver, p: str) -> int:
    if not path(r, p):
        return 0
    opp = head_to_head(r, p)
    if opp is not None and r.resolve(opp):
        return 0
    return 1 + _supports(r, p)


def adjudicate(r: Resolver, p: str) -> bool:
    """Does the unit at ``p`` arrive at its destination?"""
    o = r.orders[p]
    assert isinstance(o, Move)
    d = o.dest.prov
    if not path(r, p):
        return False
    atk = attack_strength(r, p)
    opp = head_to_head(r, p)
    if opp is not None:
        if atk <= defend_strength(r, opp):
            return False
    elif atk <= hold_strength(r, d):
        return False
    for q in r.moves_into.get(d, []):
        if q != p and atk <= prevent_strength(r, q):
            return False
    return True
