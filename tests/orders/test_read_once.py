"""An orders entry is read against a position once, for several games in turn
(a deadline checks every entry in force, then plays them)."""

from __future__ import annotations

from pathlib import Path

import yaml

from pbmref.rulesets.tweedekker.ruleset import TweedekkerRuleset

POSITION = Path(__file__).resolve().parents[2] / "docs/example-game/turns/001/position.yaml"


def test_entries_are_read_once_a_state_with_several_games_in_turn(monkeypatch):
    ruleset = TweedekkerRuleset()
    data = yaml.safe_load(POSITION.read_text())
    states = [ruleset.decode(data) for _ in range(3)]  # three games' positions
    reads = []
    read_entry = ruleset.read_entry
    monkeypatch.setattr(ruleset, "read_entry", lambda *a: reads.append(a) or read_entry(*a))
    entry = {"takeoff": "ALPHA"}
    for _ in range(2):
        for state in states:
            ruleset.check_orders(state, "baron", entry)
    assert len(reads) == len(states)
    ruleset.check_orders(states[0], "baron", {"takeoff": "BETA"})  # another entry: read
    assert len(reads) == len(states) + 1
