"""What the two air rulesets share behind the plain-data interface.

Each air ruleset names its position codec, its orders-layer module (imported
late: it sits above the rules), its engine and how stored entries become
typed orders; reading, checking and adjudicating then go the same way.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from pbmref.rules.dice import Dice
from pbmref.rules.eventdata import Event, event_to_dict
from pbmref.rulesets import OrdersEntry, Outcome

__all__ = ["AirRuleset"]


class AirRuleset:
    """The plain-data Ruleset of an air game; subclasses fill in the parts."""

    name: ClassVar[str]
    orders_module: ClassVar[str]  # e.g. "pbmref.orders.tweedekker"

    # The parts, as static functions of the subclass.
    position_from_dict: Callable[[Mapping[str, Any]], Any]
    position_to_dict: Callable[[Any], dict[str, Any]]
    turn_orders: Callable[[Any, Mapping[str, OrdersEntry]], Any]
    run_engine: Callable[[Any, Any, Dice], tuple[Any, tuple[Event, ...]]]

    def orders_layer(self) -> Any:
        return importlib.import_module(self.orders_module)

    def check_position(self, data: dict[str, Any]) -> None:
        """Raise ``PositionError`` (with the key path) for a wrong position."""
        type(self).position_from_dict(data)

    def parse_orders(
        self, position: dict[str, Any], player: str, body_lines: list[tuple[int, str]]
    ) -> OrdersEntry:
        """Read one player's order-mail body into an orders entry (orders layer)."""
        state = type(self).position_from_dict(position)
        result: OrdersEntry = self.orders_layer().parse_body(state, player, body_lines)
        return result

    def check_orders(self, position: dict[str, Any], player: str, entry: OrdersEntry) -> None:
        """Raise the orders layer's ``OrderError`` when the entry is not allowed."""
        state = type(self).position_from_dict(position)
        self.orders_layer().entry_to_orders(state, player, entry or {})

    def adjudicate(
        self,
        position: dict[str, Any],
        orders: dict[str, OrdersEntry],
        seed: int,
        replay: list[int] | None = None,
    ) -> Outcome:
        """One turn. ``replay``: dice recorded by an earlier run of it (V5)."""
        cls = type(self)
        state = cls.position_from_dict(position)
        dice = Dice(seed, replay=replay)
        new_state, events = cls.run_engine(state, cls.turn_orders(state, orders), dice)
        board = state.board
        return Outcome(
            position=cls.position_to_dict(new_state),
            events=[event_to_dict(e, board) for e in events],
            dice=dice.values(),
            game_over=new_state.game_over,
            winners=list(new_state.winners),
        )
