"""Diplomacy and Dirigible Diplomacy behind the plain-data ruleset interface.

Positions are the scenario schema's Diplomacy keys (``phase``, ``units``,
``centers``, ``dislodged``, ``standoffs``, ``devastated``, ``winner``,
``settings``); see ``pbmref.scenario_diplomacy``. A player is a power: the
player id is the power code (``FRA``), or ``position["players"][id]`` names it.
An orders entry is ``{"orders": ["A Par - Bur", ...]}`` (canonical order lines);
a bare list of lines is accepted too.

Also here for the scenario runner: ``run_scenario`` (re-exported).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from pbmref.rulesets import OrdersEntry, Outcome

__all__ = [
    "RULESET", "DiplomacyRuleset", "PositionError", "render_events", "ruleset_for", "run_scenario",
]


class PositionError(ValueError):
    """A wrong position value; ``path`` locates it (first key of the message)."""

    def __init__(self, path: tuple[str | int, ...], message: str, rule: str = "") -> None:
        self.path = path
        self.message = message
        self.rule = rule
        super().__init__(f"{'.'.join(map(str, path))}: {message}")


def _scen() -> Any:
    return importlib.import_module("pbmref.scenario_diplomacy")


def _orders_layer() -> Any:
    return importlib.import_module("pbmref.orders.diplomacy")


def run_scenario(data: dict[str, Any]) -> Any:
    return _scen().run_scenario(data)


def _position(data: dict[str, Any], name: str) -> Any:
    scen = _scen()
    merged = dict(data)
    merged.setdefault("ruleset", name)
    try:
        return scen.position_from_dict(merged)
    except scen.ScenarioError as exc:
        head, _, rest = exc.message.partition(": ")
        path = tuple(head.split(".")) if rest else ()
        raise PositionError(path, rest or exc.message) from None


def _power(position: dict[str, Any], player: str) -> str:
    players = position.get("players") or {}
    power = str(players.get(player, player)).strip().upper()
    from pbmref.rules.diplomacy import POWERS

    if power not in POWERS:
        raise _orders_errors().UnknownPlayerError(
            f"{player} plays no power of this game (powers: {', '.join(POWERS)})")
    return power


def _orders_errors() -> Any:
    return importlib.import_module("pbmref.orders.errors")


def _lines(entry: OrdersEntry | list[str] | None) -> list[str]:
    if entry is None:
        return []
    if isinstance(entry, list):
        return [str(x) for x in entry]
    return [str(x) for x in entry.get("orders") or []]


@dataclass(frozen=True)
class DiplomacyRuleset:
    name: str = "diplomacy"

    def check_position(self, data: dict[str, Any]) -> None:
        _position(data, self.name)

    def parse_orders(
        self, position: dict[str, Any], player: str, body_lines: list[tuple[int, str]]
    ) -> OrdersEntry:
        pos = _position(position, self.name)
        orders = _orders_layer().parse_body(body_lines, _power(position, player), pos)
        return {"orders": [str(o) for o in orders]}

    def needs_orders(self, position: dict[str, Any], player: str) -> bool:
        """Has this player anything to order in the open phase (DD1)? A power with
        no units in a movement phase, no dislodged unit in a retreat phase, or no
        build or removal due in a Winter phase is not waited for."""
        from pbmref.rules.diplomacy.adjust import may_adjust
        from pbmref.rules.diplomacy.map import standard_map

        try:
            pos = _position(position, self.name)
            power = _power(position, player)
        except Exception:  # noqa: BLE001 - unsure: wait for the player, as before
            return True
        kind = pos.phase.kind
        if kind == "R":
            return any(d.unit.power == power for d in pos.dislodged)
        if kind == "A":
            return may_adjust(pos, standard_map(), power)
        return bool(pos.units_of(power))

    def check_orders(self, position: dict[str, Any], player: str, entry: OrdersEntry) -> None:
        pos = _position(position, self.name)
        lines = list(enumerate(_lines(entry), 1))
        _orders_layer().parse_body(lines, _power(position, player), pos)

    def adjudicate(
        self, position: dict[str, Any], orders: dict[str, OrdersEntry], seed: int
    ) -> Outcome:
        from pbmref.rules.diplomacy import adjudicate_full

        pos = _position(position, self.name)
        typed = []
        for player, entry in orders.items():
            power = _power(position, player)
            for parsed, order in _orders_layer().parse_orders(
                list(enumerate(_lines(entry), 1)), power, pos, strict=False
            ):
                del parsed
                typed.append(order)
        adj = adjudicate_full(pos, typed)
        new = _scen().position_to_dict(adj.state)
        for key in ("players",):
            if key in position:
                new[key] = position[key]
        winner = adj.state.winner
        return Outcome(
            position=new,
            events=[e.to_dict() for e in adj.events],
            game_over=winner is not None,
            winners=[winner] if winner else [],
        )


def render_events(events: list[dict[str, Any]]) -> list[str]:
    """A phase's events as plain text lines (English), in order."""
    out: list[str] = []
    for e in events:
        kind = e.get("kind")
        rule = f" ({e['rule']})" if e.get("rule") else ""
        power = e.get("power", "")
        if kind == "order":
            reason = f" ({e['reason']})" if e.get("reason") else ""
            out.append(f"{e.get('order')}: {e.get('outcome')}{reason}")
        elif kind == "dislodged":
            by = f" from {e['province']}" if e.get("province") else ""
            out.append(f"{power} {e.get('unit')} is dislodged{by}")
        elif kind == "disbanded":
            out.append(f"{power} {e.get('unit')} is disbanded: {e.get('reason', '')}{rule}")
        elif kind == "devastated":
            out.append(f"{power} devastates {e.get('province')}{rule}")
        elif kind == "captured":
            frm = f" ({e['reason']})" if e.get("reason") else ""
            out.append(f"{power} takes {e.get('province')}{frm}")
        elif kind == "built":
            out.append(f"{power} builds {e.get('unit')}")
        elif kind == "removed":
            out.append(f"{power} removes {e.get('unit')}: {e.get('reason', '')}{rule}")
        elif kind == "winner":
            out.append(f"{power} wins the game{rule}")
        else:
            out.append(" ".join(f"{k}={v}" for k, v in e.items()))
    return out


def ruleset_for(name: str) -> DiplomacyRuleset:
    return DiplomacyRuleset(name)


RULESET = DiplomacyRuleset()
