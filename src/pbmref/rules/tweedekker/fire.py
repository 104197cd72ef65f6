"""Lines of fire (F3-F6, Z11, Z13): which hexes a burst reaches and why it stops.

>>> from pbmref.rules.hexgrid import Heading, Hex, HexBoard
>>> trace_line(Hex(0, 0), Heading.N, 4, HexBoard(10), frozenset({Hex(0, -3)}), frozenset())
LineOfFire(hexes=(Hex(q=0, r=-1), Hex(q=0, r=-2)), stopped_by='cloud')
>>> trace_line(Hex(0, 0), Heading.N, 4, HexBoard(10), frozenset(), frozenset({Hex(0, -2)}))
LineOfFire(hexes=(Hex(q=0, r=-1), Hex(q=0, r=-2)), stopped_by='zeppelin')
>>> burst_damage(1, 4, 0), burst_damage(4, 4, 1)
(4, 2)
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from pbmref.rules.hexgrid import Heading, Hex, HexBoard

__all__ = ["LineOfFire", "burst_damage", "trace_line"]


@dataclass(frozen=True, slots=True)
class LineOfFire:
    """The hexes a burst reached, nearest first, and why it stopped there."""

    hexes: tuple[Hex, ...]
    stopped_by: str  # "range", "cloud", "zeppelin", "edge"


def trace_line(
    start: Hex,
    direction: Heading,
    reach: int,
    board: HexBoard,
    clouds: AbstractSet[Hex],
    zeppelin_hexes: AbstractSet[Hex],
) -> LineOfFire:
    """Follow a straight line from ``start`` (F3).

    The firing hex itself is not on the line (F6). The line stops before the
    first cloud hex of either kind (F4), and at the first zeppelin hex, which
    is the last hex it reaches (F5). ``zeppelin_hexes`` holds only on-board
    hexes of zeppelins that can block (Z4), not the shooter's own.
    """
    hexes: list[Hex] = []
    for k in range(1, reach + 1):
        h = start.step(direction, k)
        if not board.contains(h):
            # The board is convex: a line that leaves it never comes back.
            return LineOfFire(tuple(hexes), "edge")
        if h in clouds:
            return LineOfFire(tuple(hexes), "cloud")
        hexes.append(h)
        if h in zeppelin_hexes:
            return LineOfFire(tuple(hexes), "zeppelin")
    return LineOfFire(tuple(hexes), "range")


def burst_damage(distance: int, reach: int, bonus: int) -> int:
    """Damage at ``distance`` (F3): 4, 3, 2, 1 over a range of 4, plus an ace's bonus."""
    return max(0, reach + 1 - distance) + bonus
