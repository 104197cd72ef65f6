"""Zeppelin movement: voted manoeuvres (Z10), drift steps (W2) and the edge (Z4).

Each function takes and returns plain values; the engine turns them into
events. A two-hex zeppelin's tail is always the hex directly behind its nose
(Z1), also while a hex hangs off the board.
"""

from __future__ import annotations

from dataclasses import replace

from pbmref.rules.dice import Dice
from pbmref.rules.hexgrid import Heading, Hex, HexBoard
from pbmref.rules.tweedekker.movement import manoeuvre
from pbmref.rules.tweedekker.orders import Manoeuvre
from pbmref.rules.tweedekker.state import GameState, Zeppelin

__all__ = [
    "drift_step",
    "edge_rule",
    "move_zeppelin",
    "place_controlled_zeppelin",
    "zeppelin_hexes",
]


def zeppelin_hexes(nose: Hex, heading: Heading, length: int) -> tuple[Hex, ...]:
    """The hexes of a zeppelin of ``length`` 1 or 2 with its nose on ``nose`` (Z1)."""
    if length == 1:
        return (nose,)
    return (nose, nose.step(heading.opposite()))


def edge_rule(
    before: tuple[Hex, ...], after: tuple[Hex, ...], heading: Heading, board: HexBoard
) -> tuple[tuple[Hex, ...], bool]:
    """Apply rule Z4 to one step of a zeppelin from ``before`` to ``after``.

    Returns the hexes it ends on and whether it re-entered. While a hex is
    still on the board nothing happens (a hex hanging off stays off). When the
    step takes the last hex off, the whole zeppelin is moved back along the
    direction that hex was travelling by the largest number of hexes that puts
    it wholly on the board.
    """
    if any(board.contains(h) for h in after):
        return after, False
    leaving = [i for i, h in enumerate(before) if board.contains(h)]
    # Ruling (Z4): the hex "that left last" is the one that was still on the
    # board before this step; when both leave in the same step they travel the
    # same way (A, slips, drift), and the nose is taken.
    index = leaving[0] if leaving else 0
    direction = before[index].direction_to(after[index]) or heading
    longest = 2 * board.radius + len(after) + 2
    for k in range(longest, 0, -1):
        shifted = tuple(h.step(direction, -k) for h in after)
        if all(board.contains(h) for h in shifted):
            return shifted, True
    # Ruling (Z4, as the rulebook settles it): no shift puts the whole
    # zeppelin on the board (sliding along an edge near a corner); take the
    # largest shift that brings the hex that left last back on, the other hex
    # staying off until it moves back on. It never appears in two pieces.
    for k in range(longest, 0, -1):
        shifted = tuple(h.step(direction, -k) for h in after)
        if board.contains(shifted[index]):
            return shifted, True
    return before, False  # unreachable on a real board: stay put


def move_zeppelin(
    zeppelin: Zeppelin, order: Manoeuvre, board: HexBoard
) -> tuple[tuple[Hex, ...], Heading, bool]:
    """A voted manoeuvre (Z10), then the edge rule (Z4): (hexes, heading, re-entered).

    Ruling (Z10, the seed's table is missing): the nose moves as an aircraft
    would (M2) and the tail takes the hex directly behind the nose's new hex.
    A zeppelin has no Immelman (Z10): ``I`` is treated as ``0``.
    """
    if order is Manoeuvre.I or order is Manoeuvre.ZERO:
        return zeppelin.hexes, zeppelin.heading, False
    nose, heading = manoeuvre(zeppelin.nose, zeppelin.heading, order)
    after = zeppelin_hexes(nose, heading, len(zeppelin.hexes))
    hexes, reentered = edge_rule(zeppelin.hexes, after, heading, board)
    return hexes, heading, reentered


def drift_step(
    zeppelin: Zeppelin, wind_to: Heading, board: HexBoard
) -> tuple[tuple[Hex, ...], bool]:
    """One one-hex drift step downwind (W2, Z3), keeping the heading, with Z4."""
    after = tuple(h.step(wind_to) for h in zeppelin.hexes)
    return edge_rule(zeppelin.hexes, after, zeppelin.heading, board)


HEADING_BY_ROLL: tuple[Heading, ...] = tuple(Heading)  # 1 = N, 2 = NE ... 6 = NW


def place_controlled_zeppelin(
    state: GameState, dice: Dice, length: int, name: str = "Z"
) -> GameState:
    """Put the one controlled zeppelin of a new game on the board (Z6).

    Its nose stands on the centre hex; its heading is a die rolled from the
    game's dice (1 N, 2 NE, 3 SE, 4 S, 5 SW, 6 NW), recorded in ``dice.rolls``
    (V5). It replaces any zeppelins of the position: a controlled game has
    exactly one.
    """
    if length not in (1, 2):
        raise ValueError(f"a zeppelin is one or two hexes long, not {length} (Z1)")
    roll = dice.roll("zeppelin heading", name)
    heading = HEADING_BY_ROLL[roll - 1]
    pool = (
        state.settings.zeppelin_damage_points_2
        if length == 2
        else state.settings.zeppelin_damage_points_1
    )
    zeppelin = Zeppelin(
        name=name,
        hexes=zeppelin_hexes(state.board.centre, heading, length),
        heading=heading,
        damage=pool,
        controlled=True,
        bomb_ready_turn=state.turn,
    )
    return replace(state, zeppelins=(zeppelin,))
