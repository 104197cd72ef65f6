"""A tiny ruleset for store-level tests: each player's score goes up by the
number they order plus one die. Positions: ``{ruleset: fake, turn, score: {player: n}}``;
orders entries: ``{add: 0-9}``."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from pbmref.rulesets import Outcome
from pbmref.store.errors import DataError

REPO = Path(__file__).resolve().parents[2]  # the repository, for games/example


class FakeRuleset:
    name = "fake"

    def check_position(self, data: dict[str, Any]) -> None:
        for key in data:
            if key not in ("ruleset", "turn", "score", "game_over", "winners"):
                raise DataError((key,), f"unknown key {key!r}")
        for player, n in (data.get("score") or {}).items():
            if not isinstance(n, int) or n < 0:
                raise DataError(("score", player), f"a score is a whole number >= 0, not {n!r}")

    def parse_orders(self, position: dict[str, Any], player: str,
                     body_lines: list[tuple[int, str]]) -> dict[str, Any]:
        return {"add": int(body_lines[0][1])}

    def check_orders(self, position: dict[str, Any], player: str, entry: dict[str, Any]) -> None:
        if player not in (position.get("score") or {}):
            raise DataError((), f"{player} has no score in this position")
        add = entry.get("add")
        if not isinstance(add, int) or not 0 <= add <= 9:
            raise DataError(("add",), f"add must be a whole number 0-9, not {add!r}")

    def adjudicate(self, position: dict[str, Any], orders: dict[str, Any], seed: int,
                   replay: list[int] | None = None) -> Outcome:
        rng = random.Random(seed)
        replay = list(replay or [])
        score = dict(position.get("score") or {})
        dice, events = [], []
        for player in sorted(score):
            fresh = rng.randint(1, 6)
            die = replay[len(dice)] if len(dice) < len(replay) else fresh
            dice.append(die)
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
        return Outcome(position=new, events=events, dice=dice, game_over=over, winners=winners)


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
