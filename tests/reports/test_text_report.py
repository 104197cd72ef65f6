"""The plain-text turn report (issue 7): golden files and the 70-column rule.

Golden files in ``golden/`` are the reports of the scenarios in
``scenarios/`` run through the real engine (and of hand-written event lists
in ``reports/``). They change only on purpose: run with
``PBMREF_UPDATE_GOLDEN=1`` to rewrite them, then read the diff.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import yaml

from pbmref.reports.model import TurnReport
from pbmref.rulesets import get_ruleset
from pbmref.rulesets.tweedekker.report import format_deadline, render_report

from .engine_run import run_scenario

HERE = Path(__file__).parent
GOLDEN = HERE / "golden"
SCENARIOS = sorted((HERE / "scenarios").glob("*.yaml"))
HANDMADE = sorted((HERE / "reports").glob("*.yaml"))
UPDATE = os.environ.get("PBMREF_UPDATE_GOLDEN") == "1"


def handmade_report(path: Path) -> TurnReport[Any]:
    """A report written by hand, its events as the store keeps them (decoded
    here, as the archive decodes a stored turn's)."""
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    events = get_ruleset(data["ruleset"]).decode_events(data["events"], data["position_before"])
    return TurnReport(**{**data, "events": events})


def scenario_report(path: Path) -> TurnReport[Any]:
    return run_scenario(yaml.safe_load(path.read_text(encoding="utf-8")))


def check_golden(name: str, text: str) -> None:
    golden = GOLDEN / f"{name}.txt"
    if UPDATE or not golden.exists():
        if not UPDATE:
            pytest.fail(f"no golden file {golden.name}; run with PBMREF_UPDATE_GOLDEN=1 "
                        "to write it, then read it")
        GOLDEN.mkdir(exist_ok=True)
        golden.write_text(text, encoding="utf-8")
        return
    expected = golden.read_text(encoding="utf-8")
    assert text == expected, (f"report differs from {golden}; if the change is meant, "
                              "rerun with PBMREF_UPDATE_GOLDEN=1 and review the diff")


def assert_fits(text: str, width: int = 70) -> None:
    long = [(n, line) for n, line in enumerate(text.splitlines(), 1) if len(line) > width]
    assert not long, f"lines over {width} characters: {long[:3]}"


def test_three_shipped_scenarios_at_least() -> None:
    assert len(SCENARIOS) >= 3


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_report_matches_golden(path: Path) -> None:
    text = render_report(scenario_report(path))
    assert_fits(text)
    check_golden(path.stem, text)


@pytest.mark.parametrize("path", HANDMADE, ids=[p.stem for p in HANDMADE])
def test_handmade_report_matches_golden(path: Path) -> None:
    text = render_report(handmade_report(path))
    assert_fits(text)
    check_golden(f"handmade_{path.stem}", text)


def test_dogfight_reads_what_happened() -> None:
    text = render_report(scenario_report(HERE / "scenarios" / "dogfight.yaml"))
    # header with the deadline in the game's own time zone
    assert "Next deadline (turn 8): Tue 1 Dec 2026 18:00 CET (Europe/Amsterdam)" in text
    # a kill with its gunner, and the new ace (V2, V4)
    assert "Carl is shot down: a kill for Manfred (V2)" in text
    assert "Manfred becomes an ACE" in text
    # postal notation: Manfred scored in move 1 and was hit in it
    summary = text[text.index("THE TURN IN SHORT"):text.index("MOVE BY MOVE")]
    assert "[A f-A*]" in summary
    # the NMR (N1) and the orders, secret until now
    assert "Dora: no orders received, NMR 2 in a row (N1)" in text
    orders = text[text.index("ORDERS GIVEN FOR TURN 7"):]
    assert "1: A f-A   2: A f-A   3: R" in orders


def test_zeppelin_raid_cites_the_vote_rules() -> None:
    text = render_report(scenario_report(HERE / "scenarios" / "zeppelin_raid.yaml"))
    assert "Zeppelin Z movement vote: A 2, L 1 -> A (Z7)" in text
    assert "A 1, R 1 (Z7: tie, the zeppelin holds)" in text
    assert "votes: Manfred d-B, Biggles d-B, Erich f-A" in text
    assert "hits Erich (Z15)" in text
    assert "bomb ready in turn 8" in text
    assert "Dora is removed from the game (NMR, N2)" in text


def test_last_turn_says_game_over_and_winner() -> None:
    report = scenario_report(HERE / "scenarios" / "last_man.yaml")
    assert report.game_over and report.winners == ["baron"]
    text = render_report(report)
    assert "GAME OVER. Winner: Manfred" in text.splitlines()[3]
    assert "EXPLODES" in text and "Carl is destroyed by explosion: nobody's kill" in text
    assert "Next deadline" not in text


def test_every_event_kind_has_words() -> None:
    text = render_report(handmade_report(HERE / "reports" / "t1_dogfight.yaml"))
    for phrase in ("takes off on runway Gamma (L3)", "lands on runway Alpha",
                   "refills to 16 rounds (L5)", "over no airfield, no bomb (Z14)",
                   "airfield disabled (Z16)", "no bomb is ready (Z14, Z17)",
                   "Die for kill roll-off about Carl: Manfred rolls 4 (V5)",
                   "EXPLODES at G9 H9 (Z12)", "removed from the game (NMR, N2)",
                   "wind now blows to S (was SW) (W3)", "new_kind_from_the_future"):
        assert phrase in text, phrase


def test_long_names_still_fit_seventy_columns() -> None:
    path = HERE / "scenarios" / "dogfight.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["report"]["title"] = "A very long game title " * 5
    data["report"]["names"] = {p: f"Hauptmann {p} von und zu Langername-Schreibweise"
                               for p in data["aircraft"]}
    report = run_scenario(data)
    assert_fits(render_report(report))


def test_deadline_in_the_game_time_zone() -> None:
    moment = datetime(2026, 7, 1, 16, 30, tzinfo=UTC)
    assert format_deadline(moment, "Europe/Amsterdam") == \
        "Wed 1 Jul 2026 18:30 CEST (Europe/Amsterdam)"
    assert format_deadline(moment, "UTC") == "Wed 1 Jul 2026 16:30 UTC"
    assert format_deadline(None) == "none set"
    assert format_deadline(moment, "Not/AZone") == "Wed 1 Jul 2026 16:30 UTC"


def test_other_rulesets_get_their_own_report_not_the_hex_map() -> None:
    fastplay = yaml.safe_load((HERE.parent / "scenarios" / "fastplay" / "fp05_cards.yaml")
                              .read_text(encoding="utf-8"))
    pos = {k: v for k, v in fastplay.items()
           if k not in ("orders", "expect", "seed", "description")}
    rules = get_ruleset("fastplay")
    outcome = rules.adjudicate(pos, rules.decode_turn(rules.decode(pos), fastplay.get("orders") or {}),
                               int(fastplay.get("seed", 1)))
    report = TurnReport("fp1", "Fast Play", "fastplay", int(pos.get("turn", 1)), pos,
                        outcome.position, outcome.events, fastplay.get("orders") or {})
    text = get_ruleset("fastplay").render_report(report)
    assert_fits(text)
    assert "MOVE BY MOVE" in text and "Move 1" in text
    assert "THE SKY" not in text  # the tweedekker hex map is not drawn for Fast Play
    assert "THE BOARD AT THE START OF TURN" in text  # its own board (issue 9, FP1)

    diplomacy = TurnReport(
        "dip1", "Spring 1901", "diplomacy", 1,
        {"units": {"FRA": ["A Par"]}}, {"units": {"FRA": ["A Bur"]}},
        get_ruleset("diplomacy").decode_events(
            [{"kind": "order", "move": 0, "order": "FRA A Par - Bur", "result": "succeeds"}], {}),
        {"FRA": ["A Par - Bur"]})  # type: ignore[dict-item]
    text = get_ruleset("diplomacy").render_report(diplomacy)
    assert_fits(text)
    assert "FRA: A Bur" in text and "A Par - Bur" in text
