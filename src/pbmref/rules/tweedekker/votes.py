"""Counting the players' votes for the controlled zeppelin (Z7-Z9).

>>> tally([("a", "L"), ("b", "A"), ("c", "L")], ("A", "L"))
Tally(votes=(('a', 'L'), ('b', 'A'), ('c', 'L')), counts=(('L', 2), ('A', 1)), winner='L', tie=False)
>>> tally([("a", "L"), ("b", "A")], ("A", "L")).winner is None
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["Tally", "tally"]


@dataclass(frozen=True, slots=True)
class Tally:
    votes: tuple[tuple[str, str], ...]  # (player, choice), in player order
    counts: tuple[tuple[str, int], ...]  # (choice, votes), most first
    winner: str | None  # None: no votes, or a tie for the most (Z7)
    tie: bool


def tally(votes: Iterable[tuple[str, str]], order: Sequence[str]) -> Tally:
    """Count one half (movement or fire) of one move's votes (Z7).

    The choice with the most votes wins without needing a majority; two or
    more tied for the most means nothing happens (``winner`` None, ``tie``).
    ``order`` fixes the listing order of choices with equal counts.
    """
    listed = tuple(sorted(votes, key=lambda v: v[0]))
    counter = Counter(choice for _, choice in listed)
    rank = {c: i for i, c in enumerate(order)}
    counts = tuple(sorted(counter.items(), key=lambda kv: (-kv[1], rank.get(kv[0], len(rank)))))
    if not counts:
        return Tally(listed, counts, None, False)
    top = counts[0][1]
    leaders = [c for c, n in counts if n == top]
    if len(leaders) > 1:
        return Tally(listed, counts, None, True)
    return Tally(listed, counts, leaders[0], False)
