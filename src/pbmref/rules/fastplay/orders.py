"""Typed orders for one Fast Play turn, as the engine consumes them.

The order mail is read into these by ``pbmref.rulesets.fastplay.orders``; each value
formats back to what a player would mail:

>>> CardPlay(Card.LS, hold_fire=True).format()
'LS f-0'
>>> PlaneOrders((CardPlay(Card.A), None, CardPlay(Card.R))).format_lines()
('1: A', '3: R')
>>> Burn.parse("card").format()
'BURN CARD'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from pbmref.rules.fastplay.cards import Card
from pbmref.rules.hexgrid import Heading, Hex

__all__ = ["Burn", "CardPlay", "Entry", "PlaneOrders", "TurnOrders"]


@dataclass(frozen=True, slots=True)
class CardPlay:
    """One move: the card played, and ``f-0`` (hold fire, FP7) or not."""

    card: Card
    hold_fire: bool = False

    def format(self) -> str:
        return f"{self.card.value} f-0" if self.hold_fire else self.card.value


@dataclass(frozen=True, slots=True)
class Entry:
    """``ENTER <hex> <heading>`` for a returning plane (FP14)."""

    hex: Hex
    heading: Heading


class Burn(Enum):
    """``BURN CARD`` or ``BURN DAMAGE``: what a burning plane gives up when its
    fire roll is 5 or 6 (FP12); without the order, the damage point."""

    CARD = "CARD"
    DAMAGE = "DAMAGE"

    @classmethod
    def parse(cls, text: str) -> Burn:
        word = text.strip().upper()
        for choice in cls:
            if choice.value == word:
                return choice
        raise ValueError(f"{text!r} is not a choice for a burning plane: CARD or DAMAGE")

    def format(self) -> str:
        return f"BURN {self.value}"


@dataclass(frozen=True, slots=True)
class PlaneOrders:
    """A player's orders for one turn: up to three moves (``None`` where no
    card was given, FP17), an entry (FP14), a duel challenge (FP15) and what
    a burning plane gives up (FP12)."""

    moves: tuple[CardPlay | None, ...] = ()
    enter: Entry | None = None
    duel: str | None = None
    burn: Burn | None = None

    def move(self, n: int) -> CardPlay | None:
        """The play for move ``n`` (1-3), or None."""
        return self.moves[n - 1] if 0 < n <= len(self.moves) else None

    def format_lines(self) -> tuple[str, ...]:
        return tuple(f"{n}: {m.format()}" for n, m in enumerate(self.moves, 1) if m is not None)


@dataclass(frozen=True)
class TurnOrders:
    """Everyone's orders; a player absent from ``plane`` sent no mail (an NMR)."""

    plane: Mapping[str, PlaneOrders] = field(default_factory=dict)
