"""DD1: only powers with something to order are waited for (early adjudication)."""

from __future__ import annotations

import pytest

from pbmref.rulesets import get_ruleset

CENTERS = {"FRA": ["Par", "Mar", "Bre"], "GER": ["Ber", "Kie", "Mun"], "ITA": ["Rom"]}


@pytest.mark.parametrize("phase,units,dislodged,expect", [
    # movement: every power with a unit
    ("S1901M", {"FRA": ["A Par"], "GER": ["A Mun"]}, {}, {"FRA": True, "GER": True,
                                                       "ITA": False}),
    # retreat: only the power with a dislodged unit
    ("F1901R", {"FRA": ["A Bur"], "GER": ["A Ruh"]},
     {"GER": [{"unit": "A Bur", "attacker_from": "Par"}]},
     {"FRA": False, "GER": True, "ITA": False}),
    # winter: Germany has three centres and one unit (builds); France is even
    ("W1901A", {"FRA": ["A Par", "A Mar", "F Bre"], "GER": ["A Ruh"]}, {},
     {"FRA": False, "GER": True, "ITA": True}),
])
def test_needs_orders(phase: str, units: dict, dislodged: dict, expect: dict) -> None:
    position = {"ruleset": "diplomacy", "phase": phase, "units": units,
                "dislodged": dislodged, "centers": CENTERS, "devastated": []}
    ruleset = get_ruleset("diplomacy")
    board = ruleset.decode(position)
    assert {p: ruleset.needs_orders(board, p) for p in expect} == expect
