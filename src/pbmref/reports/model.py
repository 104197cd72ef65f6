"""The data a turn report is rendered from: exactly what the store keeps."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class TurnReport:
    """One adjudicated turn of one game, as plain data.

    ``position_before`` is the position at the start of ``turn`` and
    ``position_after`` the one at the start of the next turn (scenario schema);
    ``events`` are the engine's events as dicts (``event_to_dict``);
    ``orders`` maps player id to the orders entry they gave this turn
    (secret until now, shown in the report); ``names`` maps player id to the
    pilot's display name.
    """

    game_id: str
    title: str
    ruleset: str
    turn: int
    position_before: dict[str, Any]
    position_after: dict[str, Any]
    events: list[dict[str, Any]]
    orders: dict[str, dict[str, Any]] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    next_deadline: datetime | None = None  # aware; shown in the game's time zone
    timezone: str = "UTC"
    game_over: bool = False
    winners: list[str] = field(default_factory=list)
    dice: list[int] = field(default_factory=list)
