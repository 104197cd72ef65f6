"""Each power's copy of a Diplomacy report opens with that power's own block
(issue 43, item 3); observers get none; the HTML reflows (no fixed-width
blocks, tables); plain Diplomacy never speaks of dirigibles.

Phases are played by the computer powers from the opening (every power, six
phases of each ruleset: movement, retreats and Winter), and each report is
read as each power's player and as an observer.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from pbmref.reports.html import render_report_mail
from pbmref.reports.model import TurnReport
from pbmref.rules.diplomacy.events import Event
from pbmref.rulesets import get_ruleset
from pbmref.rulesets.base import NewGameOptions, PlayerSpec
from pbmref.rulesets.diplomacy.reader import order_words

POWERS = ("AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR")
DEADLINE = datetime(2026, 12, 11, 18, 0, tzinfo=UTC)


def played(ruleset_name: str, phases: int = 8) -> list[TurnReport[Event]]:
    ruleset = get_ruleset(ruleset_name)
    players = [PlayerSpec(p.lower(), power=p) for p in POWERS]
    position = ruleset.opening(players, NewGameOptions(), 7).position
    rng = random.Random(5)
    out = []
    for turn in range(1, phases + 1):
        state = ruleset.decode(position)
        typed = {p.id: o for p in players
                 if (o := ruleset.computer_orders(state, p.id, rng)) is not None}
        orders = {p: ruleset.encode_orders(o) for p, o in typed.items()}
        outcome = ruleset.adjudicate(position, typed, 0, state=state)
        out.append(TurnReport("dip1", "Test", ruleset_name, turn, position, outcome.position,
                              outcome.events, orders, {}, DEADLINE, "Europe/Paris",
                              outcome.game_over, outcome.winners))
        position = outcome.position
    return out


CASES = [(name, report) for name in ("diplomacy", "dirigible") for report in played(name)]


@pytest.mark.parametrize("name, report", CASES,
                         ids=[f"{n}-{r.position_before['phase']}" for n, r in CASES])
def test_each_power_reads_its_own_block_first(name: str, report: TurnReport[Event]) -> None:
    ruleset = get_ruleset(name)
    names = {"AUS": "AUSTRIA", "ENG": "ENGLAND", "FRA": "FRANCE", "GER": "GERMANY",
             "ITA": "ITALY", "RUS": "RUSSIA", "TUR": "TURKEY"}
    for power in POWERS:
        doc = ruleset.report_document(report, [power.lower()])
        kinds = [s.kind for s in doc.sections]
        assert kinds[:2] == ["head", "personal"], kinds
        assert kinds.count("personal") == 1
        mine = doc.sections[1]
        assert mine.title == f"FOR {names[power]} ({power})"
        text = "\n".join(mine.lines())
        # every order of the power is in its block, with its outcome and reason
        for e in report.events:
            if e.kind == "order" and e.power == power:
                assert " ".join(order_words(e).split()) in " ".join(text.split())
        after = report.position_after
        units = after["units"].get(power) or []
        assert f"Your units now ({len(units)})" in text
        centres = after["centers"].get(power) or []
        assert f"Your supply centres ({len(centres)})" in text
        for entry in (after.get("retreats") or after.get("dislodged") or {}).get(power, []):
            assert f"DISLODGED: {entry['unit']}" in text
        if str(after.get("phase")).endswith("A") and not report.game_over:
            from pbmref.rulesets.diplomacy.reader import _adjustment
            from pbmref.rulesets.diplomacy.view import PositionView

            change = _adjustment(PositionView.read(after), power)
            if change:
                assert ("you may build" if change > 0 else "you must remove") in text
        html = render_report_mail(doc, title="t")
        assert "<pre" not in html and "<table" in html
        assert html.index("part-personal") < html.index("part-orders")
        if name == "diplomacy":
            assert "irigib" not in doc.text() and "irigib" not in html
            assert "DD11" not in doc.text()


@pytest.mark.parametrize("name, report", CASES[:3],
                         ids=[f"{n}-{r.position_before['phase']}" for n, r in CASES[:3]])
def test_observers_and_the_stored_text_have_no_personal_block(name: str,
                                                              report: TurnReport[Event]) -> None:
    ruleset = get_ruleset(name)
    doc = ruleset.report_document(report, [])
    assert "personal" not in [s.kind for s in doc.sections]
    assert "\nFOR " not in ruleset.render_report(report)
    assert doc.text() == ruleset.render_report(report)
    # someone who plays no power of the game reads the observers' copy
    assert ruleset.report_document(report, ["nobody"]).text() == doc.text()
