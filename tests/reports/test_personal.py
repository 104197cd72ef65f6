"""Each recipient's copy of a report opens with their own block (issue 17).

For every pilot of every golden turn, tweedekker and Fast Play, the block
holds the pilot's true numbers, read here straight from the engine's events
and the position after the turn: damage points and rounds (or hits of six),
every hit taken and scored with its amount, the dice of every shot, the
victory points, the NMR warning. Observers get the turn at a glance instead.
A golden file keeps one whole personal copy.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pbmref.reports.model import TurnReport
from pbmref.rulesets import get_ruleset
from pbmref.rulesets.tweedekker.report import render_report

from .engine_run import plain_events, run_scenario
from .test_fastplay_reports import fastplay_report
from .test_text_report import assert_fits, check_golden

HERE = Path(__file__).parent
SCENARIOS = sorted((HERE / "scenarios").glob("*.yaml"))
FASTPLAY = sorted((HERE / "fastplay").glob("*.yaml"))


def block(text: str) -> str:
    """The personal block: from its title to the next section."""
    start = text.index("\nFOR ")
    return " ".join(text[start:text.index("\n\n", text.index("\n\n", start + 1) + 1)].split())


def tw_cases() -> list[tuple[TurnReport, str]]:
    out = []
    for path in SCENARIOS:
        report = run_scenario(yaml.safe_load(path.read_text(encoding="utf-8")))
        out += [(report, p) for p in report.position_after["aircraft"]]
    return out


def name(report: TurnReport, who: str) -> str:
    if who in (report.position_after.get("zeppelins") or {}):
        return f"zeppelin {who}"
    return report.names.get(who) or who


@pytest.mark.parametrize("report, pilot", tw_cases(),
                         ids=[f"{r.game_id}-{p}" for r, p in tw_cases()])
def test_tweedekker_block_holds_the_pilots_true_numbers(report: TurnReport, pilot: str) -> None:
    text = render_report(report, [pilot])
    assert_fits(text)
    mine = block(text)
    assert mine.startswith(f"FOR {name(report, pilot).upper()}")
    after = report.position_after["aircraft"][pilot]
    flew = report.position_before["aircraft"][pilot].get("state", "landed") in (
        "flying", "landed", "taxiing")
    if flew:
        assert f"Damage points: {after['damage']} of 12" in mine
        assert f"Rounds: {after['ammo']} of 16" in mine
        assert str(after["hex"]) in mine or after["state"] not in ("flying", "landed")
    for e in plain_events(report):
        if e["kind"] == "hit" and e["target"] == pilot:
            assert f"{name(report, e['shooter'])} for {e['damage']} in move {e['move']}" in mine
        if e["kind"] == "hit" and e["shooter"] == pilot:
            assert f"{name(report, e['target'])} for {e['damage']} in move {e['move']}" in mine
        if e["kind"] == "nmr" and e["pilot"] == pilot:
            assert f"That is {e['count']} in a row" in mine
        if e["kind"] == "destroyed" and e.get("credited_to") == pilot:
            assert f"Kill: {name(report, e['target'])}" in mine
    gained = sum(e["points"] for e in plain_events(report)
                 if e["kind"] == "points" and e["pilot"] == pilot)
    vp = after.get("vp", 0)
    assert (f"+{gained} this turn, {vp} in all" if gained else f"Victory points: {vp}") in mine
    assert "Orders for turn" in mine or "The game is over" in mine


@pytest.mark.parametrize("path", FASTPLAY, ids=[p.stem for p in FASTPLAY])
def test_fastplay_block_holds_the_pilots_true_numbers(path: Path) -> None:
    report = fastplay_report(path)
    ruleset = get_ruleset("fastplay")
    for pilot, after in report.position_after["aircraft"].items():
        text = ruleset.report_document(report, [pilot]).text()
        assert_fits(text)
        mine = block(text)
        assert mine.startswith(f"FOR {report.names[pilot].upper()}")
        assert f"Hits taken: {after.get('hits', 0)}" in mine
        for e in plain_events(report):
            if e["kind"] == "fire" and pilot in (e["shooter"], e["target"]):
                other = report.names[e["target"] if e["shooter"] == pilot else e["shooter"]]
                rolls = " ".join(str(r) for r in e["rolls"])
                assert f"{other} in move {e['move']} (" in mine
                assert f"rolled {rolls}: {e['hits']} hit" in mine
            if e["kind"] == "card_lost" and e["pilot"] == pilot:
                assert e["card"] in mine[mine.index("Cards lost"):]
            if e["kind"] == "victory" and e["pilot"] == pilot:
                assert f"Victory over {report.names[e['target']]}" in mine
        assert f"Victories: {after.get('kills', 0)}" in mine or "ace now" in mine


def test_an_observer_gets_the_turn_at_a_glance() -> None:
    report = run_scenario(yaml.safe_load((HERE / "scenarios" / "dogfight.yaml")
                                         .read_text(encoding="utf-8")))
    text = render_report(report)
    assert "\nFOR " not in text and "TURN 7 AT A GLANCE" in text
    glance = text[text.index("AT A GLANCE"):text.index("THE TURN IN SHORT")]
    assert "Carl went down: a kill for Manfred." in glance
    assert "Victory points: Manfred 16, Carl 6" in glance
    # the sections come in the order a phone reader needs them; the map is last
    order = [text.index(s) for s in ("AT A GLANCE", "THE TURN IN SHORT", "MOVE BY MOVE",
                                     "AIRCRAFT", "ORDERS GIVEN", "THE SKY AT THE START")]
    assert order == sorted(order)


def test_a_pilots_whole_copy_matches_golden() -> None:
    report = run_scenario(yaml.safe_load((HERE / "scenarios" / "dogfight.yaml")
                                         .read_text(encoding="utf-8")))
    check_golden("personal_dogfight_baron", render_report(report, ["baron"]))
    fp = fastplay_report(HERE / "fastplay" / "fp_last_turn.yaml")
    check_golden("personal_fastplay_fp_last_turn_anna",
                 get_ruleset("fastplay").report_document(fp, ["anna"]).text())


def test_corrections_say_what_changed_for_the_reader() -> None:
    data = yaml.safe_load((HERE / "scenarios" / "dogfight.yaml").read_text(encoding="utf-8"))
    before = run_scenario(data)
    data["orders"]["carl"] = {"plane": ["A", "LS", "A f-L"]}  # the GM's fix: Carl held fire
    after = run_scenario(data)
    tw = get_ruleset("tweedekker")
    line = tw.render_changes(before, after, ["baron"])
    assert line.startswith("For you: ") and "damage points 12 (was 10)" in line
    assert "For your aircraft nothing changed" in tw.render_changes(before, after, ["biggles"])
    assert tw.render_changes(before, after).startswith("What changed: ")
