"""Run a scenario file's turn through the real tweedekker ruleset for reports,
so the report tests render what the referee really produces."""

from __future__ import annotations

from typing import Any

from pbmref.reports.model import TurnReport
from pbmref.rules.eventdata import Event, events_from_dicts
from pbmref.rules.tweedekker.events import EVENT_TYPES
from pbmref.rules.tweedekker.position import position_from_dict
from pbmref.rules.tweedekker.state import GameState
from pbmref.rulesets import get_ruleset

SCENARIO_ONLY = {"ruleset", "seed", "orders", "expect", "description", "report"}


def plain_events(report: TurnReport[Any]) -> list[dict[str, Any]]:
    """A report's events as the store keeps them (the ruleset encodes them), for
    tests that read them as data."""
    return get_ruleset(report.ruleset).encode_events(report.events, report.position_before)


def run_scenario(data: dict[str, Any]) -> TurnReport[Event]:
    """Adjudicate the scenario's turn and wrap everything in a TurnReport."""
    position = {k: v for k, v in data.items() if k not in SCENARIO_ONLY}
    orders = data.get("orders") or {}
    seed = int(data.get("seed", 0))
    ruleset = get_ruleset("tweedekker")
    outcome = ruleset.adjudicate(position, ruleset.decode_turn(ruleset.decode(position), orders),
                                 seed)
    after, events, dice = outcome.position, outcome.events, outcome.dice
    game_over, winners = outcome.game_over, outcome.winners
    meta = data.get("report") or {}
    return TurnReport(
        game_id=str(meta.get("game_id", "test")),
        title=str(meta.get("title", "")),
        ruleset="tweedekker",
        turn=int(data.get("turn", 1)),
        position_before=position,
        position_after=after,
        events=events,
        orders=orders,
        names=dict(meta.get("names") or {}),
        next_deadline=meta.get("next_deadline"),
        timezone=str(meta.get("timezone", "UTC")),
        game_over=game_over,
        winners=list(winners),
        dice=list(dice),
    )


def typed(after: dict[str, Any], events: list[dict[str, Any]],
          before: dict[str, Any] | None = None
          ) -> tuple[GameState, tuple[Event, ...], GameState | None]:
    """A turn's stored data as the typed values the tweedekker pictures draw:
    the position after, the events, the position before."""
    state = position_from_dict(after)
    return (state, events_from_dicts(events, EVENT_TYPES, state.board),
            None if before is None else position_from_dict(before))
