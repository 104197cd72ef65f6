"""The Fast Play ruleset behind the plain-data interface of ``pbmref.rulesets``.

Positions and orders come in as the scenario schema's plain data; the engine
in ``pbmref.rules.fastplay`` adjudicates, and order lines are read by the
orders layer (``pbmref.orders.fastplay``), imported late because it sits above.

Also here, for the scenario runner and the reports:

- ``run_scenario(data) -> ScenarioResult(position, events, differences)``
  (raises ``ScenarioError`` for a scenario that cannot run, with ``rule`` set
  when its orders are refused);
- ``render_events(events) -> list[str]``: a turn's events as plain text lines.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbmref.expect import compare
from pbmref.rules.fastplay.engine import adjudicate_turn
from pbmref.rules.fastplay.orders import PlaneOrders, TurnOrders
from pbmref.rules.fastplay.position import position_from_dict, position_to_dict
from pbmref.rules.fastplay.state import GameState
from pbmref.rulesets import OrdersEntry
from pbmref.rulesets.air import AirRuleset

__all__ = [
    "RULESET", "FastPlayRuleset", "ScenarioError", "ScenarioResult", "render_events",
    "run_scenario", "turn_orders",
]


def _orders_layer() -> Any:
    return importlib.import_module("pbmref.orders.fastplay")


def turn_orders(state: GameState, orders: Mapping[str, OrdersEntry]) -> TurnOrders:
    """Every player's stored entry as typed orders; a player left out sent no mail."""
    plane: dict[str, PlaneOrders] = {}
    for player, entry in orders.items():
        typed = _orders_layer().entry_to_orders(state, str(player), entry or {})
        if typed is not None:
            plane[str(player)] = typed
    return TurnOrders(plane=plane)


class FastPlayRuleset(AirRuleset):
    name = "fastplay"
    orders_module = "pbmref.orders.fastplay"
    position_from_dict = staticmethod(position_from_dict)
    position_to_dict = staticmethod(position_to_dict)
    turn_orders = staticmethod(turn_orders)
    run_engine = staticmethod(adjudicate_turn)


RULESET = FastPlayRuleset()


# --------------------------------------------------------------------------- scenarios


class ScenarioError(ValueError):
    """A scenario that cannot run; ``rule`` is set when orders were refused."""

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule


@dataclass
class ScenarioResult:
    position: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)
    differences: list[str] = field(default_factory=list)


_SCENARIO_ONLY = ("orders", "expect", "seed", "description", "title")




def run_scenario(data: dict[str, Any]) -> ScenarioResult:
    """Run one Fast Play scenario given as plain data (``shared/spec/scenario.md``).

    With ``expect: {error: RULE}`` the orders must be refused under RULE (no
    differences then); a refusal without it raises ``ScenarioError``.
    """
    from pbmref.orders.errors import OrderMailError
    from pbmref.rules.fastplay.position import PositionError

    expect = dict(data.get("expect") or {})
    expected_error = expect.pop("error", None)
    position = {k: v for k, v in data.items() if k not in _SCENARIO_ONLY}
    try:
        RULESET.check_position(position)
    except PositionError as exc:
        raise ScenarioError(str(exc), exc.rule) from None
    orders = data.get("orders") or {}
    if not isinstance(orders, Mapping):
        raise ScenarioError("orders: expected one entry per player")
    for player, entry in orders.items():
        try:
            RULESET.check_orders(position, str(player), dict(entry or {}))
        except OrderMailError as exc:
            if expected_error is not None:
                if str(expected_error).upper() == exc.rule.upper():
                    return ScenarioResult(position, [{"kind": "refused", "pilot": str(player),
                                                      "rule": exc.rule,
                                                      "message": exc.message}])
                return ScenarioResult(position, [], [
                    f"error: expected a refusal under rule {expected_error}, got: "
                    f"{exc.message} (rule {exc.rule})"])
            raise ScenarioError(f"orders of {player}: {exc.message}", exc.rule) from None
    if expected_error is not None:
        return ScenarioResult(position, [], [
            f"error: expected the orders to be refused under rule {expected_error}, "
            "but they were accepted"])
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ScenarioError(f"seed: expected a whole number, found {seed!r}")
    outcome = RULESET.adjudicate(position, {str(p): dict(e or {}) for p, e in orders.items()},
                                 seed)
    result = dict(outcome.position)
    result["events"] = list(outcome.events)
    return ScenarioResult(outcome.position, list(outcome.events),
                          compare(expect, result))


# --------------------------------------------------------------------------- rendering

_SHOWN_ELSEWHERE = {"fire", "crash", "burn", "critical"}


def _event_line(e: Mapping[str, Any]) -> str | None:
    kind = e.get("kind")
    if kind == "die":
        if e.get("purpose") in _SHOWN_ELSEWHERE:
            return None
        sides = e.get("sides", 6)
        die = "die" if sides == 6 else f"d{sides}"
        return f"  {e['purpose']} {die} for {e['who']}: {e['value']}"
    if kind == "nmr":
        return f"{e['pilot']}: no orders ({e['count']} in a row); the referee flies the plane"
    if kind == "burn":
        return f"{e['pilot']} is burning: rolls {e['roll']}, {e['outcome']}"
    if kind == "entered":
        how = "as ordered" if e["chosen_by"] == "orders" else "placed by the referee"
        near = f", nearest enemy {e['distance']} hexes" if e.get("distance") else ""
        new = " (a new pilot)" if e.get("new_pilot") else ""
        return f"{e['pilot']}{new} enters at {e['hex']} facing {e['heading']}, {how}{near}"
    if kind == "duel":
        return f"Duel: {' and '.join(e['pilots'])} fight it out alone"
    if kind == "duel_over":
        who = " and ".join(e["pilots"])
        if e.get("winner"):
            return (f"Duel of {who} over ({e['reason']}): {e['winner']} wins and must fly "
                    "off the board before fighting again")
        return f"Duel of {who} over ({e['reason']})"
    if kind == "manoeuvre":
        card = e.get("card") or "no card"
        note = f" [{e['reason']}]" if e.get("reason") else ""
        if e.get("outcome") == "left":
            return f"{e['pilot']}: {card} from {e['from_hex']}, flies off the board{note}"
        if e.get("outcome") == "stayed":
            return f"{e['pilot']}: {card}, stays at {e['from_hex']} facing {e['heading']}{note}"
        return f"{e['pilot']}: {card} {e['from_hex']} -> {e['to_hex']} {e['heading']}{note}"
    if kind == "held_fire":
        return f"{e['pilot']} holds fire ({e['reason']})"
    if kind == "fire":
        rolls = " ".join(str(r) for r in e.get("rolls", [])) or "-"
        hits = e["hits"]
        dice = f"{e['dice']} {'die' if e['dice'] == 1 else 'dice'}"
        return (f"{e['shooter']} fires at {e['target']} ({e['distance']} hex"
                f"{'es' if e['distance'] != 1 else ''}, {dice}): {rolls} -> "
                f"{hits} hit{'s' if hits != 1 else ''}")
    if kind == "critical":
        extra = f", {e['extra_damage']} extra damage" if e.get("extra_damage") else ""
        return f"  critical hit on {e['target']}: {e['roll']} {e['effect']}{extra}"
    if kind == "card_lost":
        return f"  {e['pilot']} loses the card {e['card']} ({e['cause']})"
    if kind == "damage":
        return f"{e['target']} takes {e['amount']} damage ({e['cause']}), now {e['hits']}"
    if kind == "shot_down":
        fate = ("lands safely and flies again next turn" if e["outcome"] == "down"
                else "is put out of action")
        return f"{e['target']} is shot down: crash roll {e['crash_roll']}, {fate}"
    if kind == "victory":
        return (f"Victory for {e['pilot']} over {e['target']} ({e['damage']} damage this "
                f"turn), {e['victories']} in all")
    if kind == "ace":
        return f"{e['pilot']} is now {'a double ace' if e['title'] == 'double ace' else 'an ace'}" \
               f" with {e['victories']} victories"
    if kind == "removed":
        return f"{e['pilot']} is removed from the game ({e['reason']})"
    if kind == "game_over":
        score = ", ".join(f"{t} {n}" for t, n in e.get("score", []))
        return f"The game is over ({e['reason']}): {' and '.join(e['winners'])} win ({score})"
    if kind == "refused":
        return f"{e.get('pilot', '')}: orders refused: {e.get('message', '')}"
    return None


def render_events(events: Sequence[Mapping[str, Any]]) -> list[str]:
    """A turn's events as plain text lines, grouped by move, every die shown."""
    lines: list[str] = []
    current: int | None = None
    ended = False
    for e in events:
        move = int(e.get("move", 0))
        if move != current:
            if move == 0 and current is not None:
                heading, ended = "End of the turn", True
            elif move == 0:
                heading = "Before the moves"
            else:
                heading = f"Move {move}"
            if not (move == 0 and ended and current == 0):
                lines.append(f"{heading}:")
            current = move
        text = _event_line(e)
        if text is not None:
            lines.append(text if text.startswith("  ") else f"  {text}")
    return lines
