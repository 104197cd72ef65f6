"""Moving one aircraft one move (rule M2): where it ends and which way it faces.

>>> from pbmref.rules.hexgrid import Heading, Hex
>>> manoeuvre(Hex(0, 0), Heading.N, Manoeuvre.LS)
(Hex(q=-1, r=0), <Heading.N: 'N'>)
>>> manoeuvre(Hex(0, 0), Heading.N, Manoeuvre.L)
(Hex(q=-1, r=0), <Heading.NW: 'NW'>)
>>> manoeuvre(Hex(0, 0), Heading.N, Manoeuvre.I)
(Hex(q=0, r=-1), <Heading.S: 'S'>)
"""

from __future__ import annotations

from pbmref.rules.hexgrid import Heading, Hex
from pbmref.rules.tweedekker.orders import Manoeuvre

__all__ = ["manoeuvre"]


def manoeuvre(hex_: Hex, heading: Heading, order: Manoeuvre) -> tuple[Hex, Heading]:
    """The hex and heading after one manoeuvre (M2), on or off the board."""
    if order is Manoeuvre.A:
        return hex_.step(heading), heading
    if order is Manoeuvre.L:
        new = heading.left()
        return hex_.step(new), new
    if order is Manoeuvre.R:
        new = heading.right()
        return hex_.step(new), new
    if order is Manoeuvre.LS:
        # Ruling (M2): a slip moves into the neighbour 60 degrees to the side
        # and keeps the heading, so L and LS end in the same hex.
        return hex_.step(heading.left()), heading
    if order is Manoeuvre.RS:
        return hex_.step(heading.right()), heading
    if order is Manoeuvre.I:
        return hex_.step(heading), heading.opposite()
    return hex_, heading  # 0: no move
