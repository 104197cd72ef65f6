"""Fast Play: the classroom dice rules as a second air ruleset (``shared/rules/fastplay.md``).

A pure engine: ``adjudicate_turn(state, orders, dice) -> (state, events)``,
with the board (FP1), the deck (FP4-FP6), the position codec and the order
checks shared with the order reader.
"""

from pbmref.rules.fastplay.board import FastBoard
from pbmref.rules.fastplay.cards import DECK_COUNTS, FULL_DECK, Card, fly
from pbmref.rules.fastplay.engine import GameOverError, adjudicate_turn
from pbmref.rules.fastplay.events import event_to_dict
from pbmref.rules.fastplay.legality import Problem, check_plane_orders
from pbmref.rules.fastplay.orders import CardPlay, Entry, PlaneOrders, TurnOrders
from pbmref.rules.fastplay.position import PositionError, position_from_dict, position_to_dict
from pbmref.rules.fastplay.state import GameState, Plane, PlaneState, Settings, Team

__all__ = [
    "DECK_COUNTS", "FULL_DECK", "Card", "CardPlay", "Entry", "FastBoard", "GameOverError",
    "GameState", "Plane", "PlaneOrders", "PlaneState", "PositionError", "Problem", "Settings",
    "Team", "TurnOrders", "adjudicate_turn", "check_plane_orders", "event_to_dict", "fly",
    "position_from_dict", "position_to_dict",
]
