"""The game master's side finds a game kind's classes by asking the rulesets
(``Ruleset.classroom``), never by naming a game kind: Fast Play has classes
(FP1), the other game kinds none."""

from __future__ import annotations

from typing import Any

import pytest

from pbmref.gm.classroom import classroom
from pbmref.rulesets import RULESETS


def test_only_fast_play_has_classes() -> None:
    has = {name: RULESETS[name].classroom() is not None for name in RULESETS}
    assert has == {"tweedekker": False, "fastplay": True, "diplomacy": False,
                   "dirigible": False}


def test_the_classes_found_without_a_name_are_fast_play_s_two_sides() -> None:
    found = classroom()
    assert (found.ruleset, found.teams) == ("fastplay", ("Germans", "Allies"))  # FP1


def test_a_game_kind_without_classes_is_refused_in_plain_words() -> None:
    with pytest.raises(ValueError, match="^diplomacy has no classes$"):
        classroom("diplomacy")


def test_a_returning_pilot_leaves_one_board_and_joins_another() -> None:
    """FP14: a plane that left (or went down or out) goes to another board
    without its hex and duel; one still flying does not move."""
    found = classroom()
    src: dict[str, Any] = {"turn": 3, "aircraft": {
        "anna": {"team": "Germans", "hex": "C4", "state": "left", "duel": "bert", "kills": 1},
        "bert": {"team": "Allies", "hex": "C5", "state": "flying"}}}
    dst: dict[str, Any] = {"turn": 3, "aircraft": {"carl": {"team": "Allies", "hex": "A1"}}}
    record = found.returning(src, "anna")
    assert record == {"team": "Germans", "state": "left", "kills": 1}
    assert found.returning(src, "bert") is None
    assert found.without_pilot(src, "anna")["aircraft"] == {"bert": src["aircraft"]["bert"]}
    joined: dict[str, Any] = found.with_pilot(dst, "anna", record)
    assert list(joined["aircraft"]) == ["carl", "anna"]
    assert "anna" in src["aircraft"] and "anna" not in dst["aircraft"]  # inputs untouched
