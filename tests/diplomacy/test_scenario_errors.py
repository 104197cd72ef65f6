"""Broken Diplomacy scenario files are errors of the file (exit status 2 class)."""

from __future__ import annotations

from typing import Any

import pytest

from pbmref.rulesets.base import ScenarioError
from pbmref.rulesets.diplomacy.ruleset import DiplomacyRuleset

run_scenario = DiplomacyRuleset().run_scenario


@pytest.mark.parametrize(("data", "words"), [
    ({"ruleset": "dirigible", "phase": "X1901M"}, "phase"),
    ({"ruleset": "dirigible", "phase": "S1901M", "units": {"XYZ": ["A Par"]}}, "unknown power"),
    ({"ruleset": "dirigible", "phase": "S1901M", "units": {"FRA": ["A Par", "A Par"]}}, "two armies"),
    ({"ruleset": "dirigible", "phase": "S1901M", "units": {"FRA": ["A Eng"]}}, "army cannot stand"),
    ({"ruleset": "dirigible", "phase": "S1901M", "units": {"FRA": ["F Spa"]}}, "which coast"),
    ({"ruleset": "diplomacy", "phase": "S1901M", "units": {"FRA": ["D Par"]}}, "no dirigibles"),
    ({"ruleset": "dirigible", "phase": "S1901M", "units": {"FRA": ["A Par"]},
      "orders": {"FRA": ["A Par -"]}}, "orders.FRA[1]"),
    ({"ruleset": "dirigible", "phase": "S1901M", "units": {"FRA": ["A Par"]},
      "orders": {"FRA": ["A Par - Xyz"]}}, "not a province"),
    ({"ruleset": "dirigible", "phase": "S1901M", "centers": {"FRA": ["Bur"]}}, "not a supply centre"),
    ({"ruleset": "dirigible", "phase": "S1901M",
      "dislodged": {"GER": [{"unit": "A Mun"}]}}, "only in a retreat phase"),
    ({"ruleset": "diplomacy", "settings": {"edition": "1066"}}, "edition"),
    ({"ruleset": "chess"}, "ruleset"),
])
def test_broken_file(data: dict[str, Any], words: str) -> None:
    with pytest.raises(ScenarioError) as info:
        run_scenario(data)
    assert words in str(info.value)


def test_illegal_order_is_not_an_error_of_the_file() -> None:
    r = run_scenario({"ruleset": "diplomacy", "phase": "S1901M", "units": {"FRA": ["A Par"]},
                      "orders": {"FRA": ["A Par - Eng"]}})
    assert r.position["results"] == {"FRA A Par - Eng": "fails"}
    assert any("illegal" in e.get("reason", "") for e in r.events)


def test_differences_are_named() -> None:
    r = run_scenario({"ruleset": "diplomacy", "phase": "S1901M", "units": {"FRA": ["A Par"]},
                      "orders": {"FRA": ["A Par - Bur"]},
                      "expect": {"units": {"FRA": ["A Par"]}, "phase": "S1901R"}})
    assert r.differences == [
        "units.FRA: expected ['A Par'], got ['A Bur']",
        "phase: expected 'S1901R', got 'F1901M'",
    ]
