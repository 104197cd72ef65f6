"""Whole games between players that are functions, on the engine alone (no mail).

For measuring the computer player (bench/diplomacy_bot.py) and testing it:
``play(pos, players, rngs, last_year)`` asks each power's player for its
orders in every phase, adjudicates, and goes on until a winner or the end of
``last_year``. A power without a player is in civil disorder (DD3: it gives
no orders). Each phase is returned with the orders given, so a caller can
check them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from .engine import adjudicate_full
from .map import GameMap
from .orders import Order, OrderResult
from .state import Position
from .variant import map_of

Player = Callable[[Position, str, random.Random], list[Order]]


@dataclass(frozen=True)
class Played:
    """One phase: the position before, each power's orders, the results, the position after."""

    before: Position
    orders: dict[str, list[Order]]
    results: tuple[OrderResult, ...]
    after: Position


def play(pos: Position, players: Mapping[str, Player], rngs: Mapping[str, random.Random],
         last_year: int, *, game_map: GameMap | None = None) -> Iterator[Played]:
    """Every phase from ``pos`` to a winner or the last phase of ``last_year``."""
    m = game_map or map_of(pos)
    while pos.winner is None and pos.phase.year <= last_year:
        given: dict[str, list[Order]] = {}
        for power in pos.powers:
            player = players.get(power)
            if player is not None:
                given[power] = player(pos, power, rngs[power])
        adj = adjudicate_full(pos, [o for p in pos.powers for o in given.get(p, [])],
                              game_map=m)
        yield Played(pos, given, adj.results, adj.state)
        pos = adj.state


def seeded_rngs(seed: int, powers: tuple[str, ...]) -> dict[str, random.Random]:
    """One generator per power, each from the game's seed and the power's name."""
    return {p: random.Random(f"{seed}:{p}") for p in powers}
