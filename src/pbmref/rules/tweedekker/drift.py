"""Cloud drift (W2): one-hex steps downwind, wrapping to the far end of the line.

>>> from pbmref.rules.hexgrid import Heading, Hex, HexBoard
>>> b = HexBoard(10)
>>> b.name(cloud_step(b.parse("J19"), Heading.N, b))
'J1'
>>> b.name(cloud_step(b.parse("J10"), Heading.N, b))
'J11'
"""

from __future__ import annotations

from pbmref.rules.hexgrid import Heading, Hex, HexBoard

__all__ = ["cloud_step", "drift_cloud"]


def cloud_step(hex_: Hex, wind_to: Heading, board: HexBoard) -> Hex:
    """One cloud hex, one step downwind (W2).

    A hex blown off the board comes back at the far end of its line of
    travel: the last board hex reached going back against the wind from the
    hex it left.
    """
    ahead = hex_.step(wind_to)
    if board.contains(ahead):
        return ahead
    back = wind_to.opposite()
    cur = hex_
    while board.contains(cur.step(back)):
        cur = cur.step(back)
    return cur


def drift_cloud(hexes: tuple[Hex, ...], wind_to: Heading, steps: int,
                board: HexBoard) -> tuple[Hex, ...]:
    """A cloud's hexes after ``steps`` one-hex steps (W2)."""
    for _ in range(steps):
        hexes = tuple(cloud_step(h, wind_to, board) for h in hexes)
    return hexes
