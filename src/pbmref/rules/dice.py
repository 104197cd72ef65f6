"""Recorded dice: every die a referee rolls comes from one seeded generator (V5).

A ``Dice`` wraps its own ``random.Random(seed)`` (never the global one) and
writes down every roll with what it was rolled for: the move, the purpose
and whose die it is (``Roll.key``). Given a ``replay`` (the rolls recorded
by an earlier run of the same turn), each roll takes the recorded die of the
same key, the first one for the first roll of that key and so on, so a turn
re-run after the game master edited an order deals every die again to what
it was rolled for. A recorded die no longer asked for is handed to nobody
(``unused``); a die the record does not hold comes from the seeded generator
(``new_rolls``), which advances with every roll, replayed or not, so such a
die is the one an unedited run would have rolled in its place.

An older record holds the values only (no keys): given plain numbers, the
dice are dealt out in order, as they were before the keys were recorded.

>>> d = Dice(7)
>>> anna = [d.roll("fire", "anna", move=1) for _ in range(3)]
>>> bert = [d.roll("fire", "bert", move=1) for _ in range(2)]
>>> again = Dice(7, replay=d.rolls)  # anna holds fire this time
>>> [again.roll("fire", "bert", move=1) for _ in range(2)] == bert
True
>>> [r.value for r in again.unused()] == anna
True
>>> d.values() == anna + bert
True
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Dice", "Replay", "Roll"]


@dataclass(frozen=True, slots=True)
class Roll:
    """One recorded die: what for, for whom, the result, the number of sides and
    the move (0: before or after the moves); ``replayed`` when it was taken from
    an earlier run's record."""

    purpose: str
    who: str
    value: int
    sides: int = 6
    replayed: bool = False
    move: int = 0

    @property
    def key(self) -> tuple[int, str, str]:
        """What the die was rolled for: move, purpose, whose."""
        return (self.move, self.purpose, self.who)

    def as_record(self) -> list[Any]:
        """The die as one line of a turn's dice record: ``[move, purpose, who,
        value]``, and the sides when the die has other than six.

        >>> Roll("fire", "anna", 4, move=2).as_record()
        [2, 'fire', 'anna', 4]
        """
        return [self.move, self.purpose, self.who, self.value,
                *([self.sides] if self.sides != 6 else [])]

    @classmethod
    def from_record(cls, line: Any) -> Roll:
        """A die read back from ``as_record``'s line; ``ValueError`` says what is
        wrong with one that is not.

        >>> Roll.from_record([2, "fire", "anna", 4])
        Roll(purpose='fire', who='anna', value=4, sides=6, replayed=False, move=2)
        >>> Roll.from_record([2, "fire", "anna", 7])
        Traceback (most recent call last):
        ...
        ValueError: a die of 6 sides cannot show 7
        """
        if not isinstance(line, list | tuple) or len(line) not in (4, 5):
            raise ValueError("a die is [move, purpose, who, value] (and its sides if "
                             f"not 6), not {line!r}")
        move, purpose, who, value, *rest = line
        sides = rest[0] if rest else 6
        for name, number, low in (("move", move, 0), ("sides", sides, 1), ("value", value, 1)):
            if isinstance(number, bool) or not isinstance(number, int) or number < low:
                raise ValueError(f"the {name} of a die is a whole number from {low} up, "
                                 f"not {number!r}")
        if not isinstance(purpose, str) or not purpose:
            raise ValueError(f"a die says what it was rolled for, not {purpose!r}")
        if value > sides:
            raise ValueError(f"a die of {sides} sides cannot show {value}")
        return cls(purpose, "" if who is None else str(who), value, sides, move=move)


Replay = Sequence[Roll] | Sequence[int]  # a keyed record, or an older one of values only


class Dice:
    """The dice of one turn: seeded, recorded, and replayable by key (V5)."""

    def __init__(self, seed: int, replay: Replay | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)
        recorded: list[Roll | int] = list(replay or ())
        # An older record (values only) is dealt out in order, as before.
        self.keyed = all(isinstance(r, Roll) for r in recorded)
        self._record: list[Roll] = [
            r if isinstance(r, Roll) else Roll("", "", r) for r in recorded]
        self._queues: dict[tuple[int, str, str], deque[int]] = {}
        for index, r in enumerate(self._record):
            self._queues.setdefault(r.key, deque()).append(index)
        self._dealt: set[int] = set()
        self.rolls: list[Roll] = []

    def roll(self, purpose: str, who: str = "", sides: int = 6, *, move: int = 0) -> int:
        """Roll one die of ``sides`` sides (1..sides) for ``purpose`` of ``who`` in
        ``move``, and record it."""
        if sides < 1:
            raise ValueError(f"a die needs at least one side, not {sides}")
        # The generator always advances, so a die the record lacks is the one an
        # unedited run would have rolled in its place.
        fresh = self._rng.randint(1, sides)
        index = self._recorded_for((move, purpose, who))
        recorded = self._record[index] if index is not None else None
        if recorded is not None and self.keyed and recorded.sides != sides:
            recorded = None  # rolled to choose among another number of things
        if index is None or recorded is None:
            self.rolls.append(Roll(purpose, who, fresh, sides, move=move))
            return fresh
        self._dealt.add(index)
        value = recorded.value if self.keyed else (recorded.value - 1) % sides + 1
        self.rolls.append(Roll(purpose, who, value, sides, replayed=True, move=move))
        return value

    def _recorded_for(self, key: tuple[int, str, str]) -> int | None:
        """The place in the record of the next die for ``key`` (None: none left);
        in an older record, simply the next die."""
        if not self.keyed:
            index = len(self.rolls)
            return index if index < len(self._record) else None
        queue = self._queues.get(key)
        return queue.popleft() if queue else None

    def values(self) -> list[int]:
        """The values rolled so far, in order."""
        return [r.value for r in self.rolls]

    def unused(self) -> list[Roll]:
        """The recorded dice no roll took (so far), in the record's order: no longer
        needed, handed to nobody."""
        return [r for i, r in enumerate(self._record) if i not in self._dealt]

    def new_rolls(self) -> list[Roll]:
        """The dice of a replay that the record did not hold: rolled from the seeded
        generator (every roll, when there is nothing to replay)."""
        return [r for r in self.rolls if not r.replayed]
