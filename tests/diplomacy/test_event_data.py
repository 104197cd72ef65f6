"""A Diplomacy phase's events survive the store: ``encode_events`` and
``decode_events`` of the Diplomacy rulesets mirror each other, for every
event of the hand-worked scenarios (their plain data read back and written
again) and of every DATC case (the engine's typed events written and read
back), so a report of a stored phase draws what the adjudication made; and
typed events renamed for an anonymous game are the renamed data read back."""

from __future__ import annotations

from pathlib import Path

import yaml

from pbmref.reports.model import renamed, renamed_event
from pbmref.rules.diplomacy import adjudicate_full
from pbmref.rules.diplomacy.events import Event
from pbmref.rulesets import get_ruleset

from .datc import build_position, case_id, load_cases, parse_order, retreat_run, run_main

ROOT = Path(__file__).resolve().parent
FILES = sorted((ROOT.parent / "scenarios" / "dirigible").glob("*.yaml")) + sorted(
    (ROOT / "scenarios").glob("*.yaml"))
CASES = load_cases()


def test_every_scenario_event_reads_back() -> None:
    kinds: set[str] = set()
    for path in FILES:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        ruleset = get_ruleset(data.get("ruleset", "diplomacy"))
        plain = ruleset.run_scenario(data).events
        typed = ruleset.decode_events(plain, data)
        assert all(isinstance(e, Event) for e in typed)
        assert ruleset.encode_events(typed, data) == plain, path.name
        # renamed as an anonymous game's report renames them (issue 40), alike
        # typed or as data (ids here are power codes, which the events name)
        ids = {"FRA": "p1", "GER": "p2"}
        assert tuple(renamed_event(e, ids) for e in typed) == \
            ruleset.decode_events(renamed(plain, ids), data), path.name
        kinds |= {e.kind for e in typed}
    assert len(FILES) >= 40
    assert {"order", "dislodged", "devastated", "captured", "built"} <= kinds, sorted(kinds)


def _events_of(case: dict[str, object]) -> tuple[Event, ...]:
    if case["phase"] == "Main":
        adj = run_main(case, case.get("edition"))[3]  # type: ignore[arg-type]
    elif case["phase"] == "Retreat":
        adj = retreat_run(case)[4]
    else:
        orders: dict[str, object] = case["orders"]  # type: ignore[assignment]
        adj = adjudicate_full(build_position(case), [parse_order(k, "Build") for k in orders])
    return tuple(adj.events)  # type: ignore[attr-defined]


def test_every_datc_event_reads_back() -> None:
    ruleset = get_ruleset("diplomacy")
    kinds: set[str] = set()
    for case in CASES:
        typed = _events_of(case)
        plain = ruleset.encode_events(typed, {})
        assert ruleset.decode_events(plain, {}) == typed, case_id(case)
        kinds |= {e.kind for e in typed}
    assert {"order", "dislodged", "disbanded", "built", "removed"} <= kinds, sorted(kinds)
