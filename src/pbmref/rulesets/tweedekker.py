"""The tweedekker ruleset behind the plain-data interface of ``pbmref.rulesets``.

Positions and orders come in as the scenario schema's plain data; the engine
in ``pbmref.rules.tweedekker`` does the adjudication, and the order lines are
read by the orders layer (``pbmref.orders.tweedekker``), never here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pbmref.rules.dice import Dice
from pbmref.rules.tweedekker import engine
from pbmref.rules.tweedekker.events import event_to_dict
from pbmref.rules.tweedekker.orders import PlaneOrders, TurnOrders, ZeppelinVote
from pbmref.rules.tweedekker.position import position_from_dict, position_to_dict
from pbmref.rules.tweedekker.state import GameState
from pbmref.rulesets import OrdersEntry, Outcome

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


@dataclass(frozen=True)
class TweedekkerRuleset:
    name: str = "tweedekker"

    def check_position(self, data: dict[str, Any]) -> None:
        """Raise ``PositionError`` (with the key path) for a wrong position."""
        position_from_dict(data)

    def parse_orders(
        self, position: dict[str, Any], player: str, body_lines: list[tuple[int, str]]
    ) -> OrdersEntry:
        """Read one player's order-mail body into an orders entry (orders layer)."""
        state = position_from_dict(position)
        result: OrdersEntry = _orders_layer().parse_body(state, player, body_lines)
        return result

    def check_orders(self, position: dict[str, Any], player: str, entry: OrdersEntry) -> None:
        """Raise the orders layer's ``OrderError`` when the entry is not allowed."""
        state = position_from_dict(position)
        _orders_layer().entry_to_orders(state, player, entry or {})

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

    def adjudicate(
        self,
        position: dict[str, Any],
        orders: dict[str, OrdersEntry],
        seed: int,
        replay: list[int] | None = None,
    ) -> Outcome:
        """One turn. ``replay``: dice recorded by an earlier run of it (V5)."""
        state = position_from_dict(position)
        dice = Dice(seed, replay=replay)
        new_state, events = engine.adjudicate(state, turn_orders(state, orders), dice)
        board = state.board
        return Outcome(
            position=position_to_dict(new_state),
            events=[event_to_dict(e, board) for e in events],
            dice=dice.values(),
            game_over=new_state.game_over,
            winners=list(new_state.winners),
        )


RULESET = TweedekkerRuleset()
