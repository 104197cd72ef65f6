"""The plain-text lines of a Fast Play turn (for the reports)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pbmref.rules.eventdata import events_from_dicts
from pbmref.rules.fastplay.events import EVENT_TYPES
from pbmref.rules.fastplay.position import position_from_dict
from pbmref.rulesets import get_ruleset
from pbmref.rulesets.air.ruleset import SCENARIO_ONLY
from pbmref.rulesets.base import ScenarioError
from pbmref.rulesets.fastplay.report import render_events

run_scenario = get_ruleset("fastplay").run_scenario

SCENARIOS = Path(__file__).parents[1] / "scenarios" / "fastplay"


def lines_of(name: str) -> list[str]:
    data = yaml.safe_load((SCENARIOS / name).read_text())
    board = position_from_dict(
        {k: v for k, v in data.items() if k not in SCENARIO_ONLY}).board
    return render_events(events_from_dicts(run_scenario(data).events, EVENT_TYPES, board), {}, board)


def test_a_turn_with_dice_reads_move_by_move() -> None:
    lines = lines_of("fp10a_victory_roll_off.yaml")
    assert lines[0] == "Move 1:"
    assert "  anna fires at bert (3 hexes, 3 dice): 2 5 1 -> 1 hit" in lines
    assert "  roll-off die for anna: 4" in lines and "  roll-off die for gus: 4" in lines
    assert "  bert is shot down: crash roll 2, lands safely and flies again next turn" in lines
    assert "  Victory for anna over bert (1 damage this turn), 1 in all" in lines
    assert "Move 2:" in lines and "Move 3:" in lines


def test_entries_duels_criticals_and_the_end() -> None:
    text = "\n".join(lines_of("fp15a_duel.yaml"))
    assert "Before the moves:" in text and "Duel: anna and bert fight it out alone" in text
    assert "anna enters at E10 facing S, as ordered" in text
    text = "\n".join(lines_of("fp12a_critical_gun_card_engine.yaml"))
    assert "critical hit on bert: 3 gun hit" in text
    assert "bert loses the card L (hit)" in text and "card d20 for bert: 5" in text
    text = "\n".join(lines_of("fp11_ace_and_double_ace.yaml"))
    assert "End of the turn:" in text and "gus is now a double ace with 10 victories" in text
    text = "\n".join(lines_of("fp19a_turn_limit.yaml"))
    assert "The game is over (turn limit): Germans win (Germans 3, Allies 1)" in text
    text = "\n".join(lines_of("fp08_dice_by_range.yaml"))
    assert "gus fires at carl (5 hexes, 1 die): 4 -> 1 hit" in text


def test_refused_orders_raise_scenario_error() -> None:
    data = yaml.safe_load((SCENARIOS / "fp13b_leave_refused.yaml").read_text())
    del data["expect"]
    with pytest.raises(ScenarioError) as info:
        run_scenario(data)
    assert info.value.rule == "FP13"
