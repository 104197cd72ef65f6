"""Events: what happened, as data (rendered to text elsewhere).

An ``Event`` writes itself as the plain data a game keeps (``to_dict``) and
``Event.from_dict`` reads that back, so the reports and the board read typed
events, not the stored dicts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .orders import OrderResult, order_key


@dataclass(frozen=True)
class Event:
    """One thing that happened in a phase.

    ``kind`` is one of: ``order`` (an order's result), ``dislodged``,
    ``disbanded``, ``devastated``, ``captured``, ``built``, ``removed``,
    ``winner``; the votes add ``conceded`` and ``draw`` (with the ``powers``
    that concede or share it, and for a draw that failed in a game whose votes
    are open the ``votes``: each power and the draw it stood for, J13).

    >>> e = Event("draw", outcome="passed", powers=("ENG", "FRA"))
    >>> e.to_dict()
    {'kind': 'draw', 'outcome': 'passed', 'powers': ['ENG', 'FRA']}
    >>> Event.from_dict(e.to_dict()) == e
    True
    >>> failed = Event("draw", outcome="failed", votes=(("ENG", ("ENG", "FRA")),))
    >>> failed.to_dict()
    {'kind': 'draw', 'outcome': 'failed', 'votes': {'ENG': ['ENG', 'FRA']}}
    >>> Event.from_dict(failed.to_dict()) == failed
    True
    """

    kind: str
    power: str | None = None
    unit: str | None = None
    order: str | None = None
    outcome: str | None = None
    reason: str | None = None
    province: str | None = None
    to: str | None = None
    rule: str | None = None
    powers: tuple[str, ...] = ()
    votes: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind}
        for name in _TEXT_KEYS:
            value = getattr(self, name)
            if value is not None and value != "":
                out[name] = value
        if self.powers:
            out["powers"] = list(self.powers)
        if self.votes:
            out["votes"] = {power: list(draw) for power, draw in self.votes}
        return out

    @staticmethod
    def from_dict(data: Mapping[str, object]) -> Event:
        """The event a game keeps as ``data`` (``to_dict``'s mirror; other keys are left)."""
        text = {k: str(data[k]) for k in _TEXT_KEYS if data.get(k) not in (None, "")}
        powers = data.get("powers")
        listed = tuple(str(p) for p in powers) if isinstance(powers, list | tuple) else ()
        votes = data.get("votes")
        standing = tuple((str(p), tuple(str(w) for w in d) if isinstance(d, list | tuple) else ())
                         for p, d in votes.items()) if isinstance(votes, Mapping) else ()
        return Event(str(data.get("kind") or ""), **text, powers=listed, votes=standing)


_TEXT_KEYS = ("power", "unit", "order", "outcome", "reason", "province", "to", "rule")


def result_event(r: OrderResult) -> Event:
    return Event(
        kind="order",
        power=r.order.power,
        order=order_key(r.order),
        outcome=r.outcome.value,
        reason=r.reason or None,
    )
