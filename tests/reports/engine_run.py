"""Run a scenario file's turn through the real tweedekker engine for reports.

Uses the ruleset interface (``pbmref.rulesets.get_ruleset``) when it is
there, else the engine itself with a small reader for the scenario's order
lines, so the report tests always render what the referee really produces.
"""

from __future__ import annotations

from typing import Any

from pbmref.reports.model import TurnReport

SCENARIO_ONLY = {"ruleset", "seed", "orders", "expect", "description", "report"}


def _move(text: str) -> Any:
    from pbmref.rules.tweedekker.orders import FireDir, Manoeuvre, Move

    aliases = {"LT": "L", "RT": "R", "N": "0", "O": "0"}
    items = text.split()
    manoeuvre = Manoeuvre(aliases.get(items[0].upper(), items[0].upper()))
    fire = tuple(FireDir(i) for i in items[1:] if i != "f-0")
    return Move(manoeuvre, fire, "f-0" in items[1:])


def _vote(text: str) -> Any:
    from pbmref.rules.tweedekker.orders import Manoeuvre, ZeppelinFire, ZeppelinVote

    move = fire = None
    for item in text.split():
        if item.lower().startswith(("f-", "d-")):
            fire = ZeppelinFire(item)
        else:
            move = Manoeuvre({"LT": "L", "RT": "R"}.get(item.upper(), item.upper()))
    return ZeppelinVote(move, fire)


def _engine_outcome(position: dict[str, Any], orders: dict[str, Any], seed: int
                    ) -> tuple[dict[str, Any], list[dict[str, Any]], list[int]]:
    from pbmref.rules.dice import Dice
    from pbmref.rules.tweedekker.engine import adjudicate
    from pbmref.rules.tweedekker.events import event_to_dict
    from pbmref.rules.tweedekker.orders import PlaneOrders, TurnOrders
    from pbmref.rules.tweedekker.position import position_from_dict, position_to_dict
    from pbmref.rules.tweedekker.state import Runway

    state = position_from_dict(position)
    plane = {}
    zeppelin = {}
    for pilot, entry in orders.items():
        if "plane" in entry or "takeoff" in entry or "land" in entry:
            plane[pilot] = PlaneOrders(
                tuple(_move(m) for m in entry.get("plane") or []),
                Runway.parse(entry["takeoff"]) if entry.get("takeoff") else None,
                Runway.parse(entry["land"]) if entry.get("land") else None,
            )
        if "zeppelin" in entry:
            zeppelin[pilot] = tuple(_vote(v) if v.strip() else None for v in entry["zeppelin"])
    dice = Dice(seed)
    after, events = adjudicate(state, TurnOrders(plane, zeppelin), dice)
    return (position_to_dict(after), [event_to_dict(e, state.board) for e in events],
            dice.values())


def run_scenario(data: dict[str, Any]) -> TurnReport:
    """Adjudicate the scenario's turn and wrap everything in a TurnReport."""
    position = {k: v for k, v in data.items() if k not in SCENARIO_ONLY}
    orders = data.get("orders") or {}
    seed = int(data.get("seed", 0))
    try:
        from pbmref.rulesets import get_ruleset

        outcome = get_ruleset("tweedekker").adjudicate(position, orders, seed)
        after, events, dice = outcome.position, outcome.events, outcome.dice
        game_over, winners = outcome.game_over, outcome.winners
    except ImportError:
        after, events, dice = _engine_outcome(position, orders, seed)
        game_over, winners = bool(after.get("game_over")), list(after.get("winners") or [])
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
