"""Events: what happened, as data (rendered to text elsewhere)."""

from __future__ import annotations

from dataclasses import dataclass

from .orders import OrderResult, order_key


@dataclass(frozen=True)
class Event:
    """One thing that happened in a phase.

    ``kind`` is one of: ``order`` (an order's result), ``dislodged``,
    ``disbanded``, ``devastated``, ``captured``, ``built``, ``removed``,
    ``winner``.
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

    def to_dict(self) -> dict[str, str]:
        out: dict[str, str] = {"kind": self.kind}
        for name in ("power", "unit", "order", "outcome", "reason", "province", "to", "rule"):
            value = getattr(self, name)
            if value is not None and value != "":
                out[name] = value
        return out


def result_event(r: OrderResult) -> Event:
    return Event(
        kind="order",
        power=r.order.power,
        order=order_key(r.order),
        outcome=r.outcome.value,
        reason=r.reason or None,
    )
