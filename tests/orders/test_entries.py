"""entry_to_orders: orders entries (the scenario schema) checked entry by entry."""

from __future__ import annotations

from typing import Any

import pytest

from pbmref.orders.errors import OrderMailError
from pbmref.rulesets.tweedekker.orders import entry_of, entry_to_orders

from .conftest import load_yaml, position

ENTRIES: list[dict[str, Any]] = load_yaml("entries.yaml")


def _id(case: dict[str, Any]) -> str:
    what = case["error"]["rule"] if "error" in case else "ok"
    return f"{case['player']}-{what}-{case['entry']}"


@pytest.mark.parametrize("case", ENTRIES, ids=[_id(c) for c in ENTRIES])
def test_entry(case: dict[str, Any]) -> None:
    state = position(case.get("position", "zep1"))
    if "ok" in case:
        orders, votes = entry_to_orders(state, case["player"], case["entry"])
        assert len(votes) == 3
        assert entry_of(orders, votes, "zeppelin" in case["ok"]) == case["ok"]
        return
    with pytest.raises(OrderMailError) as info:
        entry_to_orders(state, case["player"], case["entry"])
    want = case["error"]
    matching = [e for e in info.value.errors if e.rule == want["rule"]]
    assert matching, [(e.rule, e.message) for e in info.value.errors]
    err = matching[0]
    assert want["message"] in err.message
    if "line" in want:
        assert err.line_no == want["line"]


def test_no_plane_orders_is_none_and_stay_landed_is_empty() -> None:
    state = position("zep1")
    assert entry_to_orders(state, "baron", {"zeppelin": ["A"]})[0] is None  # N1: NMR
    landed, _ = entry_to_orders(state, "lander", {"plane": []})  # L2a
    assert landed is not None and landed.moves == () and landed.takeoff is None


def test_votes_are_a_three_tuple_with_none_for_no_vote() -> None:
    _, votes = entry_to_orders(position("zep1"), "baron", {"zeppelin": ["L f-B", ""]})
    assert votes[0] is not None and votes[0].format() == "L f-B"
    assert votes[1] is None and votes[2] is None
