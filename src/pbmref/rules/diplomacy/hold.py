"""Hold (and every standing order): the unit stays unless dislodged."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .resolver import Resolver


def stays(r: Resolver, p: str) -> bool:
    """Decision of a non-moving unit: True when it is not dislodged."""
    return all(not r.resolve(q) for q in r.moves_into.get(p, []))


def hold_strength(r: Resolver, p: str) -> int:
    """DATC hold strength of province ``p``."""
    if p not in r.units:
        return 0
    from .orders import Move

    if isinstance(r.orders[p], Move):
        return 0 if r.resolve(p) else 1
    return 1 + sum(1 for s in r.hold_supports.get(p, []) if r.support_given(s))
