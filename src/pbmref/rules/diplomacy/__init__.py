"""Diplomacy and Dirigible Diplomacy adjudication (rules DD1-DD14)."""

from .engine import Adjudication, adjudicate, adjudicate_full
from .map import POWERS, GameMap, Loc, standard_map
from .orders import (
    Build,
    Convoy,
    Devastate,
    Disband,
    Hold,
    Move,
    Order,
    OrderResult,
    Outcome,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
    order_key,
)
from .state import DislodgedUnit, Phase, Position, Unit, UnitType, Variant

__all__ = [
    "POWERS",
    "Adjudication",
    "Build",
    "Convoy",
    "Devastate",
    "Disband",
    "DislodgedUnit",
    "GameMap",
    "Hold",
    "Loc",
    "Move",
    "Order",
    "OrderResult",
    "Outcome",
    "Phase",
    "Position",
    "Retreat",
    "SupportHold",
    "SupportMove",
    "Unit",
    "UnitType",
    "Variant",
    "Waive",
    "adjudicate",
    "adjudicate_full",
    "order_key",
    "standard_map",
]
