"""Scenario files (issue 18): ``expect.dislodged`` in the position's own form or as
bare units, and the printed result writing ``dislodged`` in the position's form,
so that a printed result runs again as the retreat position it describes."""

from __future__ import annotations

from typing import Any

import pytest

from pbmref.rulesets import get_ruleset

ATTACK: dict[str, Any] = {
    "ruleset": "diplomacy", "phase": "S1901M",
    "units": {"FRA": ["A Bur", "A Ruh"], "GER": ["A Mun"]},
    "orders": {"FRA": ["A Bur - Mun", "A Ruh S A Bur - Mun"], "GER": ["A Mun H"]},
}


@pytest.mark.parametrize("dislodged,differences", [
    ({"GER": ["A Mun"]}, []),
    ({"GER": [{"unit": "A Mun", "attacker_from": "Bur"}]}, []),
    ({"GER": [{"unit": "a mun", "attacker_from": "bur"}]}, []),
    ({"GER": [{"unit": "A Mun", "attacker_from": "Ruh"}]},
     ["dislodged.GER.A Mun.attacker_from: expected 'Ruh', got 'Bur'"]),
    ({"GER": ["A Ber"]}, ["dislodged.GER: expected ['A Ber'], got ['A Mun']"]),
    ({}, []),
])
def test_expect_dislodged_in_either_form(dislodged: Any, differences: list[str]) -> None:
    result = get_ruleset("diplomacy").run_scenario({**ATTACK, "expect": {
        "dislodged": dislodged}})
    assert result.differences == differences


def test_the_printed_result_runs_again_as_the_retreat_position() -> None:
    rules = get_ruleset("diplomacy")
    printed = rules.run_scenario(ATTACK).position
    assert printed["phase"] == "S1901R"
    assert printed["dislodged"] == {"GER": [{"unit": "A Mun", "attacker_from": "Bur"}]}
    # run again as a position: the attacker's province is closed to the retreat
    again = rules.run_scenario({**printed, "orders": {"GER": ["A Mun - Bur"]},
                                "expect": {"results": {"GER A Mun - Bur": "fails"}}})
    assert again.differences == []
    retreat = rules.run_scenario({**printed, "orders": {"GER": ["A Mun - Boh"]},
                                  "expect": {"units": {"GER": ["A Boh"]}, "phase": "F1901M"}})
    assert retreat.differences == []


def test_a_dislodged_dirigible_is_listed_in_the_same_form() -> None:
    result = get_ruleset("dirigible").run_scenario({
        "ruleset": "dirigible", "phase": "S1901M",
        "units": {"FRA": ["D Bur"], "GER": ["D Ruh", "D Mun"]},
        "orders": {"FRA": ["D Bur H"], "GER": ["D Ruh - Bur", "D Mun S D Ruh - Bur"]},
        "expect": {"dislodged": {"FRA": [{"unit": "D Bur"}]}}})
    assert result.differences == []
    assert result.position["dislodged"] == {"FRA": [{"unit": "D Bur"}]}
