"""The rulesets pbmref referees, behind one interface the store and referee use.

The store keeps positions and orders as plain data (the scenario schema of
``shared/spec/scenario.md``), so it never needs to know a ruleset's types.
Each ruleset module in this package provides a ``RULESET`` object with:

- ``name``: ``"tweedekker"``, ``"fastplay"``, ``"diplomacy"`` or ``"dirigible"``;
- ``check_position(data) -> None``: raises ``PositionError`` (with a key path)
  when a GM-edited position is wrong;
- ``parse_orders(position, player, body_lines) -> OrdersEntry``: reads the
  body of an order mail for one player, validated against the position;
  raises ``pbmref.orders.errors.OrderMailError`` subclasses;
- ``check_orders(position, player, entry) -> None``: validates an orders entry
  as stored (GM edits, scenarios);
- ``adjudicate(position, orders, seed) -> Outcome``: the turn's result.

An ``OrdersEntry`` is the scenario file's per-player orders mapping, e.g.
``{"plane": ["LS f-A", "A", "R"], "zeppelin": ["L", "A d-B", ""], "takeoff": "BETA"}``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Protocol

OrdersEntry = dict[str, Any]


@dataclass(frozen=True)
class Outcome:
    """One adjudicated turn as plain data."""

    position: dict[str, Any]  # the position at the start of the next turn
    events: list[dict[str, Any]] = field(default_factory=list)  # every event, in order
    dice: list[int] = field(default_factory=list)  # every die rolled, in order
    game_over: bool = False
    winners: list[str] = field(default_factory=list)


class Ruleset(Protocol):
    name: str

    def check_position(self, data: dict[str, Any]) -> None: ...

    def parse_orders(
        self, position: dict[str, Any], player: str, body_lines: list[tuple[int, str]]
    ) -> OrdersEntry: ...

    def check_orders(self, position: dict[str, Any], player: str, entry: OrdersEntry) -> None: ...

    def adjudicate(
        self, position: dict[str, Any], orders: dict[str, OrdersEntry], seed: int
    ) -> Outcome: ...


RULESET_MODULES = {
    "tweedekker": "pbmref.rulesets.tweedekker",
    "fastplay": "pbmref.rulesets.fastplay",
    "diplomacy": "pbmref.rulesets.diplomacy",
    "dirigible": "pbmref.rulesets.diplomacy",
}


class UnknownRuleset(KeyError):
    pass


def get_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name``; raises UnknownRuleset."""
    module_name = RULESET_MODULES.get(str(name))
    if module_name is None:
        known = ", ".join(sorted(RULESET_MODULES))
        raise UnknownRuleset(f"unknown ruleset {name!r}; known: {known}")
    module = importlib.import_module(module_name)
    ruleset: Ruleset = module.ruleset_for(name) if hasattr(module, "ruleset_for") else module.RULESET
    return ruleset
