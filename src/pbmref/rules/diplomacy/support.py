"""Supports: whether a support is given (not cut)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .orders import SupportMove

if TYPE_CHECKING:
    from .resolver import Resolver


def given(r: Resolver, p: str) -> bool:
    """A support is given unless cut: a foreign unit with a path attacks the
    supporter, except from the province the support goes into, which only
    cuts by dislodging (DATC)."""
    from . import move as move_rules

    o = r.orders[p]
    me = r.units[p]
    for q in r.moves_into.get(p, []):
        attacker = r.units[q]
        if attacker.power == me.power:
            continue
        if isinstance(o, SupportMove) and q == o.dest.prov:
            if r.resolve(q):
                return False
            continue
        if move_rules.path(r, q):
            return False
    return True
