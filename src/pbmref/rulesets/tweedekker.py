"""The tweedekker ruleset behind the plain-data interface of ``pbmref.rulesets``.

Positions and orders come in as the scenario schema's plain data; the engine
in ``pbmref.rules.tweedekker`` does the adjudication, and the order lines are
read by the orders layer (``pbmref.orders.tweedekker``), never here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

from pbmref.rules.tweedekker import engine
from pbmref.rules.tweedekker.orders import PlaneOrders, TurnOrders, ZeppelinVote
from pbmref.rules.tweedekker.position import position_from_dict, position_to_dict
from pbmref.rules.tweedekker.state import GameState
from pbmref.rulesets import OrdersEntry
from pbmref.rulesets.air import AirRuleset

__all__ = ["RULESET", "TweedekkerRuleset", "turn_orders"]

EntryToOrders = Callable[
    [GameState, str, Mapping[str, Any]],
    tuple[PlaneOrders | None, tuple[ZeppelinVote | None, ...]],
]


def _orders_layer() -> Any:
    """The orders layer's tweedekker module (imported late: it sits above us)."""
    return importlib.import_module("pbmref.orders.tweedekker")


def turn_orders(state: GameState, orders: Mapping[str, OrdersEntry]) -> TurnOrders:
    """Read every player's stored orders entry into typed orders.

    A player left out sent nothing (an NMR when the aircraft is in the fight,
    N1). Raises the orders layer's ``OrderError`` for an entry a player could
    not have mailed.
    """
    entry_to_orders: EntryToOrders = _orders_layer().entry_to_orders
    plane: dict[str, PlaneOrders] = {}
    zeppelin: dict[str, tuple[ZeppelinVote | None, ...]] = {}
    for player, entry in orders.items():
        mine, votes = entry_to_orders(state, str(player), entry or {})
        if mine is not None:
            plane[str(player)] = mine
        if any(v is not None and not v.empty for v in votes):
            zeppelin[str(player)] = votes
    return TurnOrders(plane=plane, zeppelin=zeppelin)


class TweedekkerRuleset(AirRuleset):
    name = "tweedekker"
    orders_module = "pbmref.orders.tweedekker"
    position_from_dict = staticmethod(position_from_dict)
    position_to_dict = staticmethod(position_to_dict)
    turn_orders = staticmethod(turn_orders)
    run_engine = staticmethod(engine.adjudicate)

    def counts_as_orders(self, position: dict[str, Any], player: str,
                         entry: OrdersEntry) -> bool:
        """Whether ``entry`` spares the player an NMR, for early adjudication and
        reminders (referee.md). Zeppelin votes never count for N1 (N3, Z8): a
        pilot whose aircraft is in the fight has sent orders only with a PLANE
        section (or TAKEOFF/LAND); one out of the fight has only votes to send.
        """
        craft = (position.get("aircraft") or {}).get(player) or {}
        in_fight = str(craft.get("state", "landed")).lower() in ("flying", "landed", "taxiing")
        return not in_fight or any(k in (entry or {}) for k in ("plane", "takeoff", "land"))


RULESET = TweedekkerRuleset()
