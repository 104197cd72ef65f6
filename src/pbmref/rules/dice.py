"""Recorded dice: every die a referee rolls comes from one seeded generator (V5).

A ``Dice`` wraps its own ``random.Random(seed)`` (never the global one) and
writes down every roll. Given a ``replay`` list (the values recorded by an
earlier run of the same turn), it hands those values out first, in order, so
a turn re-run after the game master edited an order reuses the dice already
rolled; only rolls beyond the recorded ones are new.

>>> d = Dice(7)
>>> first = [d.roll("test", "baron") for _ in range(3)]
>>> again = Dice(7, replay=first[:2])
>>> [again.roll("test", "baron") for _ in range(3)] == first
True
>>> [r.value for r in d.rolls] == first == d.values()
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["Dice", "Roll"]


@dataclass(frozen=True, slots=True)
class Roll:
    """One recorded die: what for, for whom, the number of sides and the result."""

    purpose: str
    who: str
    value: int
    sides: int = 6
    replayed: bool = False


class Dice:
    """The dice of one turn: seeded, recorded, and replayable (V5)."""

    def __init__(self, seed: int, replay: Iterable[int | Roll] | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)
        self._replay: list[int] = [
            r.value if isinstance(r, Roll) else int(r) for r in (replay or ())
        ]
        self.rolls: list[Roll] = []

    def roll(self, purpose: str, who: str = "", sides: int = 6) -> int:
        """Roll one die of ``sides`` sides (1..sides) and record it."""
        if sides < 1:
            raise ValueError(f"a die needs at least one side, not {sides}")
        # The generator always advances, so the rolls after a replayed list
        # are the same ones an unedited run would have made.
        fresh = self._rng.randint(1, sides)
        index = len(self.rolls)
        if index < len(self._replay):
            value = (self._replay[index] - 1) % sides + 1
            self.rolls.append(Roll(purpose, who, value, sides, replayed=True))
            return value
        self.rolls.append(Roll(purpose, who, fresh, sides))
        return fresh

    def values(self) -> list[int]:
        """The values rolled so far, in order (what a turn record stores)."""
        return [r.value for r in self.rolls]
