"""An air event's plain data reads back as the same event (``event_from_dict``
mirrors ``event_to_dict``; a ruleset's ``decode_events`` mirrors its
``encode_events``), for every event the hand-worked scenarios make: the
engine's typed events written and read back, and their plain data read and
written again. An anonymous game's report renames typed events
(``renamed_event``) as their plain data would be renamed (``renamed``,
issue 40)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
import yaml

from pbmref.orders.errors import OrderMailError
from pbmref.reports.model import renamed, renamed_event
from pbmref.rules.eventdata import (
    Event,
    EventDataError,
    UnknownEvent,
    event_from_dict,
    event_to_dict,
)
from pbmref.rules.fastplay.events import EVENT_TYPES as FAST_TYPES
from pbmref.rules.hexgrid import HexBoard
from pbmref.rules.tweedekker.events import EVENT_TYPES as TWEEDEKKER_TYPES
from pbmref.rules.tweedekker.events import DieRolled
from pbmref.rulesets import Outcome, get_ruleset
from pbmref.rulesets.air.ruleset import SCENARIO_ONLY

SCENARIOS = Path(__file__).parent.parent / "scenarios"
KINDS: dict[str, Mapping[str, type[Event]]] = {
    "tweedekker": TWEEDEKKER_TYPES, "fastplay": FAST_TYPES}


def played(kind: str) -> Iterator[tuple[str, dict[str, object], Outcome[Event]]]:
    """Every hand-worked scenario of the game kind that plays (not one of a
    refused order): its name, position and outcome."""
    ruleset = get_ruleset(kind)
    for path in sorted((SCENARIOS / kind).glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        position = {k: v for k, v in data.items() if k not in SCENARIO_ONLY}
        try:
            yield path.name, position, ruleset.adjudicate(
                position, ruleset.decode_turn(ruleset.decode(position), data.get("orders") or {}),
                seed=7)
        except (OrderMailError, ValueError):
            continue  # a scenario of a refused order


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_scenario_event_reads_back(kind: str) -> None:
    ruleset = get_ruleset(kind)
    seen: set[str] = set()
    turns = 0
    for name, position, outcome in played(kind):
        turns += 1
        board = ruleset.decode(position).board
        written = ruleset.encode_events(outcome.events, position)
        assert ruleset.decode_events(written, position) == outcome.events, name
        for event, plain in zip(outcome.events, written, strict=True):
            assert event_to_dict(event, board) == plain, name
            again = event_from_dict(plain, KINDS[kind], board)
            assert again == event and event_to_dict(again, board) == plain, name
            seen.add(event.kind)
    assert turns >= 20
    assert len(seen) >= 12, sorted(seen)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_events_are_renamed_as_their_data(kind: str) -> None:
    ruleset = get_ruleset(kind)
    changed = 0
    for name, position, outcome in played(kind):
        aircraft = position.get("aircraft")
        ids = {p: f"pilot{n}" for n, p in enumerate(aircraft or {}, 1)}
        plain = ruleset.encode_events(outcome.events, position)
        typed = tuple(renamed_event(e, ids) for e in outcome.events)
        assert typed == ruleset.decode_events(renamed(plain, ids), position), name
        changed += typed != outcome.events
    assert changed >= 20


def test_an_unknown_kind_is_refused() -> None:
    with pytest.raises(EventDataError, match="'loop'"):
        event_from_dict({"kind": "loop", "move": 1}, TWEEDEKKER_TYPES, HexBoard(10))


def test_a_field_left_out_takes_its_default() -> None:
    plain = {"kind": "die", "move": 0, "purpose": "wind change", "who": "", "value": 3}
    assert event_from_dict(plain, TWEEDEKKER_TYPES, HexBoard(10)) == \
        DieRolled(0, "wind change", "", 3, sides=6, target="")


def test_an_unknown_kind_is_kept_as_it_is() -> None:
    """A report of a turn a later version wrote shows an event it does not know;
    written again, it is what was read (``UnknownEvent``)."""
    ruleset = get_ruleset("tweedekker")
    position = {"board": {"side": 10}}
    plain = [{"kind": "loop", "move": 3, "pilot": "anna", "hex": "J10"},
             {"kind": "refilled", "move": 0, "pilot": "anna", "ammo": 16}]
    typed = ruleset.decode_events(plain, position)
    assert isinstance(typed[0], UnknownEvent) and typed[0].words() == "loop: pilot anna, hex J10"
    assert ruleset.encode_events(typed, position) == plain
