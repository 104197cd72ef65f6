"""A tiny ruleset for store-level tests: each player's score goes up by the
number they order plus one die. Positions: ``{ruleset: fake, turn, score: {player: n}}``;
orders entries: ``{add: 0-9}``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbmref.orders.errors import IllegalOrderError
from pbmref.rules.dice import Dice
from pbmref.rules.plaindata import PositionError
from pbmref.rulesets import Outcome, Ruleset, Words
from pbmref.rulesets.base import Opening, ScenarioResult

REPO = Path(__file__).resolve().parents[2]  # the repository, for docs/example-game


class FakeRuleset(Ruleset):
    name = "fake"
    title = "Fake"
    words = Words(noun="turn", keyword="TURN", help="", none_yet="", accepted=(),
                  cleared=(), reminder=())

    def opening(self, players: Any, options: Any, seed: int, position: Any = None) -> Opening:
        return Opening(dict(position), "position given by the game master")

    def decode(self, data: Any) -> dict[str, Any]:
        for key in data:
            if key not in ("ruleset", "turn", "score", "game_over", "winners"):
                raise PositionError((key,), f"unknown key {key!r}")
        for player, n in (data.get("score") or {}).items():
            if not isinstance(n, int) or n < 0:
                raise PositionError(("score", player),
                                    f"a score is a whole number >= 0, not {n!r}")
        return dict(data)

    def encode(self, state: Any) -> dict[str, Any]:
        return dict(state)

    def encode_events(self, events: Any, position: Any) -> list[dict[str, object]]:
        return [dict(e) for e in events]

    def decode_events(self, data: Any, position: Any) -> tuple[dict[str, object], ...]:
        return tuple(dict(e) for e in data)

    def read_orders(self, state: Any, player: str,
                    lines: list[tuple[int, str]]) -> dict[str, Any]:
        return {"add": int(lines[0][1])}

    def order_line(self, state: Any, cleaned: str) -> bool:
        return cleaned.strip().isdigit()

    def decode_orders(self, state: Any, player: str, entry: Any) -> dict[str, Any]:
        """The fake's orders are their entry, checked."""
        if player not in (state.get("score") or {}):
            raise IllegalOrderError(f"{player} has no score in this position")
        add = entry.get("add")
        if not isinstance(add, int) or not 0 <= add <= 9:
            raise IllegalOrderError(f"add must be a whole number 0-9, not {add!r}")
        return dict(entry)

    def encode_orders(self, orders: Any) -> dict[str, Any]:
        return dict(orders)

    def render_report(self, report: Any) -> str:
        return "\n".join([f"{report.title} - turn {report.turn}", *map(str, report.events)]) + "\n"

    def map_reply(self, position: Any, names: Any, title: str) -> str:
        return ""

    def play_scenario(self, data: Any, expect: Any) -> ScenarioResult:
        raise NotImplementedError

    def adjudicate(self, position: Any, orders: Any, seed: int,
                   replay: Any = None, *, state: Any = None) -> Outcome:
        dice = Dice(seed, replay)
        score = dict(position.get("score") or {})
        events = []
        for player in sorted(score):
            die = dice.roll("score", player, move=1)
            add = (orders.get(player) or {}).get("add", 0)
            score[player] += add + die
            events.append({"kind": "scored", "player": player, "add": add, "die": die,
                           "score": score[player]})
        over = any(s >= 100 for s in score.values())
        winners = sorted(p for p, s in score.items() if s >= 100)
        new = {"ruleset": "fake", "turn": position.get("turn", 1) + 1, "score": score}
        if over:
            new["game_over"] = True
            new["winners"] = winners
        return Outcome(position=new, events=tuple(events), game_over=over, winners=winners,
                       rolls=tuple(dice.rolls), unused=tuple(dice.unused()))


FAKE = FakeRuleset()


def load_fake(name: str) -> FakeRuleset:
    return FAKE


def fake_settings(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "title": "Fake game",
        "ruleset": "fake",
        "status": "open",
        "seed": 42,
        "timezone": "Europe/Berlin",
        "deadline": "2026-12-01T18:00:00+01:00",
        "turn_length": "48h",
        "players": {
            "ann": {"name": "Ann", "addresses": ["ann@example.org"]},
            "bob": {"name": "Bob", "addresses": ["Bob@Example.org"]},
        },
    }
    data.update(changes)
    return data


FAKE_POSITION = {"ruleset": "fake", "turn": 1, "score": {"ann": 0, "bob": 0}}
