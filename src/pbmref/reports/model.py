"""The data a turn report is rendered from (exactly what the store keeps), and
the pictures drawn of it."""

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


@dataclass(frozen=True)
class Picture:
    """One picture of a turn: the SVG document, what it shows in words (the
    archive's caption), and the part of its file name that tells it from the
    turn's other pictures (``orders`` in ``dip1-S1901M-orders.svg``; empty when
    the turn has one picture)."""

    svg: str
    caption: str
    name: str = ""

    def filename(self, game_id: str, label: str) -> str:
        """The attachment's name: ``dip1-S1901M-orders.svg``, ``zep1-turn-007.svg``.

        >>> Picture("<svg/>", "the board", "after").filename("dip1", "S1901M")
        'dip1-S1901M-after.svg'
        """
        return f"{game_id}-{label}{'-' + self.name if self.name else ''}.svg"
