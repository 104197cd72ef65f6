"""Simple computer pilots for Fast Play: orders a player could have mailed.

A computer pilot looks at the position at the start of the turn only (as a
player does), tries every legal hand of three cards from its deck (FP4, FP6)
and scores each path: dice it could throw at enemies in its line of fire
(FP7, FP8), minus the dice the enemies, standing where they are now, could
throw back at it; a damaged plane (``leave_hits`` or more, FP13) prefers to
fly off and come back repaired. Ties are broken by the ``rng`` passed in.
Every choice passes ``check_plane_orders`` before it is returned.

>>> import random
>>> from pbmref.rules.fastplay.position import position_from_dict
>>> state = position_from_dict({"aircraft": {
...     "anna": {"team": "Germans", "hex": "E8", "heading": "S"},
...     "bert": {"team": "Allies", "hex": "E2", "heading": "N"}}})
>>> orders = choose_orders(state, "anna", random.Random(1))
>>> check_plane_orders(state, "anna", orders)
[]
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from functools import lru_cache

from pbmref.rules.fastplay.board import FastBoard
from pbmref.rules.fastplay.cards import Card, fly
from pbmref.rules.fastplay.legality import (
    check_plane_orders,
    default_entry,
    may_leave,
    nearest_enemy,
    turn_deck,
)
from pbmref.rules.fastplay.orders import CardPlay, Entry, PlaneOrders
from pbmref.rules.fastplay.state import GameState, Plane, PlaneState
from pbmref.rules.hexgrid import Heading, Hex

__all__ = ["choose_entry", "choose_orders", "orders_entry"]


def _threat(state: GameState, me: Plane, hex_: Hex) -> int:
    """Dice the enemies, where they stand now, would throw at ``hex_``."""
    board = state.board
    total = 0
    for enemy in state.enemies_on_board(me.team):
        if enemy.hex is None or enemy.withdrawing:
            continue
        for d, h in enumerate(board.line(enemy.hex, enemy.heading, state.settings.range), 1):
            if h == hex_:
                total += state.settings.dice_at(d)
                break
    return total


def _chance(state: GameState, me: Plane, hex_: Hex, heading: Heading) -> int:
    """Dice this plane could throw from ``hex_`` facing ``heading``."""
    board = state.board
    enemies = {e.hex for e in state.enemies_on_board(me.team)
               if e.hex is not None and not e.withdrawing and e.duel is None}
    for d, h in enumerate(board.line(hex_, heading, state.settings.range), 1):
        if h in enemies:
            return state.settings.dice_at(d)
    return 0


@lru_cache(maxsize=64)
def _hands(deck: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    """Every hand of three cards the deck allows (FP4, FP6)."""
    counts = Counter(deck)
    cards = sorted(counts, key=lambda c: c.value)
    return tuple(hand for hand in itertools.product(cards, repeat=3)
                 if all(Counter(hand)[c] <= counts[c] for c in set(hand)))


def choose_entry(state: GameState, plane: Plane) -> Entry | None:
    """An edge hex far enough from every enemy (FP14), as near to them as that
    allows, facing the enemy edge; None lets the referee choose."""
    board: FastBoard = state.board
    need = state.settings.entry_distance
    best: tuple[int, int, Hex] | None = None
    for hex_ in board.edge_row(plane.team.north):
        d = nearest_enemy(state, plane.team, hex_)
        if d is None:
            return None
        if d >= need and (best is None or d < best[0]):
            best = (d, hex_.q, hex_)
    if best is None:
        return None
    return Entry(best[2], plane.team.facing)


def choose_orders(state: GameState, pilot: str, rng: random.Random) -> PlaneOrders:
    """Three cards (and an entry when returning) for ``pilot``."""
    plane = state.plane(pilot)
    if plane.state is PlaneState.REMOVED:
        return PlaneOrders()
    entry: Entry | None = None
    if plane.state.returning:
        entry = choose_entry(state, plane)
        if entry is not None:
            start = (entry.hex, entry.heading)
        else:
            hex_, heading, _ = default_entry(state, plane)
            start = (hex_, heading)
    else:
        assert plane.hex is not None
        start = (plane.hex, plane.heading)
    board = state.board
    leave_ok = may_leave(state, plane)
    wants_out = leave_ok and not plane.state.returning
    scored: list[tuple[float, float, tuple[Card, ...]]] = []
    memo: dict[tuple[Hex, Heading], float] = {}

    def value(hex_: Hex, heading: Heading) -> float:
        key = (hex_, heading)
        if key not in memo:
            memo[key] = (_chance(state, plane, hex_, heading)
                         - 0.8 * _threat(state, plane, hex_))
        return memo[key]

    hands = set(_hands(turn_deck(plane)))
    # One step of the search: (hex, heading, score so far, left the board).
    Step = tuple[Hex, Heading, float, bool]
    prefix: dict[tuple[Card, ...], Step] = {(): (start[0], start[1], 0.0, False)}

    def step(cards: tuple[Card, ...]) -> Step:
        if cards in prefix:
            return prefix[cards]
        hex_, heading, score, left = step(cards[:-1])
        if not left:
            n = len(cards) - 1
            path, heading = fly(cards[-1], hex_, heading)
            if not all(board.contains(h) for h in path):
                left = True
                score += (100.0 if wants_out else -5.0) if leave_ok else -1e9
            else:
                if path:
                    hex_ = path[-1]
                score += value(hex_, heading) / (n + 1)  # later: the enemy has moved
                if wants_out:
                    score -= 0.5 * min(hex_.q, board.files - 1 - hex_.q)
        prefix[cards] = (hex_, heading, score, left)
        return prefix[cards]

    for hand in sorted(hands, key=lambda h: tuple(c.value for c in h)):
        hex_, _, score, left = step(hand)
        if score <= -1e8:
            continue
        if not left and not wants_out:
            # Drift toward the enemy: the nearer the better, a little.
            d = nearest_enemy(state, plane.team, hex_)
            if d is not None:
                score -= 0.05 * d
        scored.append((score, rng.random(), hand))
    scored.sort(reverse=True)
    for _, _, hand in scored:
        orders = PlaneOrders(tuple(CardPlay(c) for c in hand), entry)
        if not check_plane_orders(state, pilot, orders):
            return orders
    # Nothing fits (cannot happen on a sane board): send the entry only.
    return PlaneOrders((), entry)


def orders_entry(state: GameState, pilot: str, rng: random.Random) -> dict[str, object]:
    """The orders as the plain orders entry a mail would have produced."""
    orders = choose_orders(state, pilot, rng)
    entry: dict[str, object] = {"plane": [m.format() if m else "" for m in orders.moves]}
    if orders.enter is not None:
        entry["enter"] = f"{state.board.name(orders.enter.hex)} {orders.enter.heading.value}"
    return entry
