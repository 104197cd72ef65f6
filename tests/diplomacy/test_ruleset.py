"""The Ruleset objects of Diplomacy and Dirigible Diplomacy: a short game."""

from __future__ import annotations

from typing import Any

import pytest

from pbmref.orders.errors import OrderMailError
from pbmref.rulesets import get_ruleset
from pbmref.rulesets.base import Outcome, Ruleset


def play(r: Ruleset[Any, Any, Any], pos: dict[str, Any], orders: dict[str, Any], seed: int) -> Outcome:
    """One phase of the orders entries ``orders``, decoded as the store decodes them."""
    return r.adjudicate(pos, r.decode_turn(r.decode(pos), orders), seed)


def test_a_dirigible_year_through_the_interface() -> None:
    r = get_ruleset("dirigible")
    pos = {"phase": "W1900A"}
    out = play(r, pos, {
        "FRA": r.encode_orders(r.read_orders(r.decode(pos), "FRA", [
            (1, "Build A Par"), (2, "Build D Par"), (3, "Build F Bre")])),
        "GER": {"orders": ["Build A Mun", "Build A Ber"]},
    }, 0)
    pos = out.position
    assert pos["phase"] == "S1901M"
    assert pos["units"] == {"FRA": ["A Par", "D Par", "F Bre"], "GER": ["A Ber", "A Mun"]}
    # Spring: France pushes into Burgundy with support from above; the dirigible follows
    out = play(r, pos, {
        "FRA": {"orders": ["A Par - Bur", "D Par - Bur", "F Bre - Mao"]},
        "GER": {"orders": ["A Mun - Bur"]},
    }, 0)
    pos = out.position
    assert pos["phase"] == "F1901M"
    assert pos["units"]["FRA"] == ["A Par", "D Bur", "F Mao"]
    out = play(r, pos, {
        "FRA": {"orders": ["A Par - Bur", "D Bur S A Par - Bur"]},
        "GER": {"orders": ["A Mun - Bur", "A Ber - Kie"]},
    }, 0)
    pos = out.position
    assert pos["units"]["FRA"] == ["A Bur", "D Bur", "F Mao"]
    assert pos["phase"] == "W1901A"
    assert out.game_over is False


def test_illegal_mail_is_refused() -> None:
    r = get_ruleset("diplomacy")
    with pytest.raises(OrderMailError):
        r.read_orders(r.decode({"phase": "S1901M"}), "FRA", [(1, "A Par - Eng")])


def test_position_errors_have_a_path() -> None:
    r = get_ruleset("diplomacy")
    with pytest.raises(ValueError) as info:
        r.decode({"phase": "S1901M", "units": {"FRA": ["A Eng"]}})
    assert getattr(info.value, "path", None) == ("units", "FRA")


def test_retreat_phase_round_trip() -> None:
    r = get_ruleset("diplomacy")
    pos = {"phase": "S1901M", "units": {"FRA": ["A Bur", "A Ruh"], "GER": ["A Mun"]}}
    out = play(r, pos, {"FRA": {"orders": ["A Bur - Mun", "A Ruh S A Bur - Mun"]}}, 0)
    assert out.position["phase"] == "S1901R"
    assert out.position["dislodged"] == {"GER": [{"unit": "A Mun", "attacker_from": "Bur"}]}
    out = play(r, out.position, {"GER": {"orders": ["A Mun - Boh"]}}, 0)
    assert out.position["phase"] == "F1901M"
    assert out.position["units"]["GER"] == ["A Boh"]


def test_render_events() -> None:
    from pbmref.rulesets.diplomacy.report import render_events

    r = get_ruleset("dirigible")
    out = play(r,
        {"phase": "F1901M", "units": {"FRA": ["D Mun", "A Bur", "A Ruh"], "GER": ["A Kie"]},
         "centers": {"GER": ["Mun", "Ber", "Kie"], "FRA": ["Par"]}},
        {"FRA": {"orders": ["D Mun devastate", "A Bur - Bel"]}}, 0)
    lines = render_events(out.events)
    assert "FRA D Mun devastate: succeeds" in lines
    assert "FRA devastates Mun (DD10)" in lines
    assert "FRA takes Bel" in lines
