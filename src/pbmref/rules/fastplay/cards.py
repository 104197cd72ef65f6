"""The manoeuvre deck and what each card does (rules FP4-FP6).

>>> from pbmref.rules.hexgrid import Hex, Heading
>>> fly(Card.AF, Hex(3, -5), Heading.N)
((Hex(q=3, r=-6), Hex(q=3, r=-7)), <Heading.N: 'N'>)
>>> fly(Card.STL, Hex(3, -5), Heading.N)
((), <Heading.NW: 'NW'>)
>>> len(FULL_DECK), DECK_COUNTS[Card.A], DECK_COUNTS[Card.I]
(20, 3, 1)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from enum import Enum

from pbmref.rules.hexgrid import Heading, Hex

__all__ = ["Card", "DECK_COUNTS", "FULL_DECK", "DEFAULT_CARDS", "deck_counts", "fly", "sort_deck"]


class Card(Enum):
    """The ten manoeuvre cards (FP4)."""

    A = "A"  # straight ahead
    L = "L"  # left turn
    R = "R"  # right turn
    LS = "LS"  # left slip
    RS = "RS"  # right slip
    AF = "AF"  # ahead fast
    ST = "ST"  # stall
    STL = "STL"  # stall left
    STR = "STR"  # stall right
    I = "I"  # noqa: E741  Immelman

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: str) -> Card:
        try:
            return cls(text.strip().upper())
        except ValueError:
            raise ValueError(
                f"{text!r} is not a Fast Play card; the cards are "
                + " ".join(c.value for c in cls)
            ) from None


DECK_COUNTS: dict[Card, int] = {
    Card.R: 3, Card.L: 3, Card.A: 3, Card.RS: 3, Card.LS: 3,
    Card.AF: 1, Card.ST: 1, Card.STL: 1, Card.STR: 1, Card.I: 1,
}
_ORDER = {c: i for i, c in enumerate(Card)}


def sort_deck(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards in the deck's canonical order (the order of ``Card``)."""
    return tuple(sorted(cards, key=lambda c: _ORDER[c]))


FULL_DECK: tuple[Card, ...] = sort_deck(c for c, n in DECK_COUNTS.items() for _ in range(n))

# FP17: the cards a plane without orders plays, first that fits.
DEFAULT_CARDS: tuple[Card, ...] = (Card.A, Card.L, Card.R, Card.ST)


def deck_counts(deck: Iterable[Card]) -> Counter[Card]:
    return Counter(deck)


def fly(card: Card, start: Hex, heading: Heading) -> tuple[tuple[Hex, ...], Heading]:
    """The hexes a card passes through (the last is where it ends) and the new heading.

    FP5: A, L, R, LS, RS and I as tweedekker M2; AF two hexes ahead; ST, STL
    and STR stay in the hex (STL/STR turning 60 degrees). An empty path means
    the plane stayed in ``start``.
    """
    if card is Card.A:
        return (start.step(heading),), heading
    if card is Card.L:
        h = heading.left()
        return (start.step(h),), h
    if card is Card.R:
        h = heading.right()
        return (start.step(h),), h
    if card is Card.LS:
        return (start.step(heading.left()),), heading
    if card is Card.RS:
        return (start.step(heading.right()),), heading
    if card is Card.I:
        return (start.step(heading),), heading.opposite()
    if card is Card.AF:
        first = start.step(heading)
        return (first, first.step(heading)), heading
    if card is Card.ST:
        return (), heading
    if card is Card.STL:
        return (), heading.left()
    return (), heading.right()  # STR
