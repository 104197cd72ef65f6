"""Deadlines as the judges keep them (issue 45, rules J8-J12), in the store:
the settings read and refused, where the next deadline falls, when a turn is
due with a grace period (J10) and a minimum gap (J9), and the index that
answers it (and LIST, J1) without opening a game."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from store_fakes import FAKE_POSITION, fake_settings, load_fake

from pbmref.store import GameStore
from pbmref.store.deadlines import DeadlineRules, deadline_rules, next_deadline
from pbmref.store.errors import DataError
from pbmref.store.schedule import AT_ONCE, Schedule
from pbmref.store.settings import settings_from_dict, settings_to_dict

PARIS = ZoneInfo("Europe/Paris")
FRIDAY = datetime(2026, 7, 3, 20, 0, tzinfo=PARIS)


def _settings(**changes: Any) -> Any:
    return settings_from_dict(fake_settings(**changes), "fake1")


def test_the_settings_read_and_write_back() -> None:
    s = _settings(deadlines={"grace": "24h", "days": ["Mon", "tue", "friday"],
                             "min_gap": "12h", "retreats": "1d", "absence_longest": 0},
                  draws={"allow": ["all", "named"], "secret": False}, takeover="standby",
                  players={"ann": {"addresses": ["ann@example.org"],
                                   "timezone": "America/New_York"},
                           "bob": {"addresses": ["bob@example.org"], "status": "resigned"}})
    rules = s.deadlines
    assert (rules.grace, rules.days, rules.min_gap, rules.retreats, rules.adjustments) == (
        timedelta(hours=24), frozenset({0, 1, 4}), timedelta(hours=12), timedelta(days=1),
        None)
    assert rules.absence_longest == timedelta(0) and rules.absence_total == timedelta(days=21)
    assert s.draws.allow == ("all", "named") and not s.draws.secret
    assert s.takeover == "standby"
    assert s.zone_of("ann") == "America/New_York" and s.zone_of("bob") == "Europe/Berlin"
    assert s.zone_of_address("Ann@Example.org") == "America/New_York"
    assert s.players["bob"].open_place and not s.players["ann"].open_place
    again = settings_from_dict(settings_to_dict(s), "fake1")
    assert again == s
    assert "deadlines" not in settings_to_dict(_settings())  # the defaults are not written


@pytest.mark.parametrize(("changes", "path", "words"), [
    ({"deadlines": {"grace": "soon"}}, ("deadlines", "grace"), "length of time"),
    ({"deadlines": {"days": ["mon", "funday"]}}, ("deadlines", "days", 1), "day of the week"),
    ({"deadlines": {"retreats": 0}}, ("deadlines", "retreats"), "length of time like 24h"),
    ({"deadlines": {"holidays": 3}}, ("deadlines", "holidays"), "unknown key"),
    ({"draws": {"allow": ["all", "dias"]}}, ("draws", "allow"), "all, named"),
    ({"draws": {"secret": "yes"}}, ("draws", "secret"), "true or false"),
    ({"takeover": "nobody"}, ("takeover",), "anyone, standby"),
    ({"players": {"ann": {"addresses": ["ann@x.org"], "timezone": "Mars/Olympus"}}},
     ("players", "ann", "timezone"), "time zone name"),
    ({"players": {"ann": {"addresses": ["ann@x.org"], "status": "gone"}}},
     ("players", "ann", "status"), "active, resigned, removed, kicked"),
])
def test_a_bad_setting_is_refused_with_its_key(changes: dict[str, Any], path: tuple[Any, ...],
                                                words: str) -> None:
    with pytest.raises(DataError) as info:
        _settings(**changes)
    assert info.value.path == path and words in info.value.message


# ------------------------------------------------------------------ J8, J9, J11


def test_the_next_deadline_keeps_the_rhythm_as_before_without_rules() -> None:
    rules = DeadlineRules()
    after = FRIDAY + timedelta(minutes=5)
    assert next_deadline(rules, FRIDAY, timedelta(hours=48), after, PARIS) == \
        FRIDAY + timedelta(hours=48)
    late = FRIDAY + timedelta(hours=50)  # the old deadline plus the clock has passed
    assert next_deadline(rules, FRIDAY, timedelta(hours=48), late, PARIS) == \
        late + timedelta(hours=48)


def test_a_deadline_moves_to_the_next_day_allowed_at_the_same_time_J8() -> None:
    weekdays = DeadlineRules(days=frozenset(range(5)))
    got = next_deadline(weekdays, FRIDAY, timedelta(hours=24), FRIDAY, PARIS)
    assert got == datetime(2026, 7, 6, 20, 0, tzinfo=PARIS)  # Saturday -> Monday 20:00
    # the local clock holds across the change to winter time (25 October 2026)
    autumn = datetime(2026, 10, 23, 20, 0, tzinfo=PARIS)
    got = next_deadline(weekdays, autumn, timedelta(hours=24), autumn, PARIS)
    assert got.astimezone(PARIS).hour == 20 and got.date().isoformat() == "2026-10-26"


def test_no_deadline_closer_than_the_minimum_gap_J9() -> None:
    rules = DeadlineRules(min_gap=timedelta(hours=36))
    got = next_deadline(rules, FRIDAY, timedelta(hours=24), FRIDAY, PARIS)
    assert got == FRIDAY + timedelta(hours=36)


def test_a_deadline_in_an_absence_moves_past_it_then_to_a_day_allowed_J11() -> None:
    away = (datetime(2026, 7, 4, tzinfo=PARIS), datetime(2026, 7, 11, tzinfo=PARIS))
    rules = DeadlineRules(days=frozenset({0, 2, 4}))  # mon, wed, fri
    got = next_deadline(rules, FRIDAY, timedelta(hours=24), FRIDAY, PARIS, [away])
    # Saturday 4 July is in the absence, which ends with Friday 10 July: Saturday 11
    # at 20:00 is after it, and Monday 13 the first day allowed
    assert got == datetime(2026, 7, 13, 20, 0, tzinfo=PARIS)


def test_deadline_rules_read_none_as_the_defaults() -> None:
    assert deadline_rules(None) == DeadlineRules()


# ------------------------------------------------------------------ J10, J9: due


def _schedule(**kw: Any) -> Schedule:
    base: dict[str, Any] = {"deadline": FRIDAY, "humans": 2, "waiting_for": ("ann",)}
    base.update(kw)
    return Schedule(**base)


def test_with_grace_a_late_player_is_waited_for_until_its_end_J10() -> None:
    grace = FRIDAY + timedelta(hours=24)
    s = _schedule(grace_until=grace)
    assert s.due_at() == grace
    assert not s.is_due(FRIDAY + timedelta(hours=1)) and s.is_due(grace)
    assert s.late_window() == (FRIDAY, grace)
    assert s.in_grace(FRIDAY) and not s.in_grace(grace)
    # the last late orders in: due at the deadline, so at once within the grace period
    done = _schedule(grace_until=grace, waiting_for=())
    assert done.due_at() == FRIDAY and done.late_window() is None
    # no grace: the deadline, as before
    assert _schedule().due_at() == FRIDAY and _schedule().late_window() is None


def test_early_adjudication_waits_for_the_minimum_gap_J9() -> None:
    earliest = FRIDAY - timedelta(hours=10)
    s = _schedule(early_adjudication=True, waiting_for=(), earliest=earliest)
    assert s.due_at() == earliest
    assert _schedule(early_adjudication=True, waiting_for=()).due_at() == AT_ONCE
    # a WAIT stops early adjudication, in the index as in the game
    assert _schedule(early_adjudication=True, waiting_for=(), waits=("ann",)).due_at() == FRIDAY


# ------------------------------------------------------------------ the index


@pytest.fixture
def graced(tmp_path: Path) -> GameStore:
    store = GameStore(tmp_path / "games", ruleset_loader=load_fake,
                      index_file=tmp_path / "spool" / "index.json")
    store.create("fake1", fake_settings(deadlines={"grace": "24h"}), FAKE_POSITION)
    return store


def test_the_index_knows_the_grace_period_and_the_lateness_window(graced: GameStore) -> None:
    deadline = datetime(2026, 12, 1, 17, 0, tzinfo=UTC)
    index = graced.index
    assert graced.due(deadline) == []
    assert index.lates_due(deadline) == ["fake1"]
    assert index.lates_due(deadline - timedelta(seconds=1)) == []
    assert index.next_event(deadline - timedelta(hours=1)) == deadline
    assert index.next_event(deadline) == deadline + timedelta(hours=24)
    assert graced.due(deadline + timedelta(hours=24)) == ["fake1"]
    assert index.lates_opened(deadline - timedelta(minutes=1), deadline) == ["fake1"]
    # both players' orders in: due at once, no lateness window
    game = graced.open("fake1")
    for pid in ("ann", "bob"):
        game.book.save(pid, {"add": 1}, raw="1", message_id=f"<{pid}@x>",
                       received_at=deadline)
    assert graced.due(deadline + timedelta(minutes=1)) == ["fake1"]
    assert index.lates_due(deadline + timedelta(minutes=1)) == []


def test_a_new_process_reads_the_grace_and_the_listing_from_the_state_index_alone(
        graced: GameStore, tmp_path: Path) -> None:
    graced.index.look()
    graced.index.save()
    again = GameStore(graced.dir, ruleset_loader=load_fake,
                      index_file=tmp_path / "spool" / "index.json")
    deadline = datetime(2026, 12, 1, 17, 0, tzinfo=UTC)
    assert again.index.lates_due(deadline) == ["fake1"]
    (tmp_path / "spool" / "index.json").unlink()  # rebuilt from state.yaml, no game.yaml
    rebuilt = GameStore(graced.dir, ruleset_loader=load_fake,
                        index_file=tmp_path / "spool" / "index.json")
    assert rebuilt.index.lates_due(deadline) == ["fake1"]
    listing = rebuilt.index.listings()["fake1"]
    assert (listing.title, listing.kind, listing.places, listing.clock) == (
        "Fake game", "Fake", 2, "48h a turn; grace 24h")
    assert rebuilt.index.whole_reads == 0


def test_a_place_given_up_by_hand_is_listed_open_at_the_next_look(graced: GameStore) -> None:
    index = graced.index
    assert index.listings()["fake1"].open == ()
    path = graced.path("fake1") / "game.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("    name: Ann\n", "    name: Ann\n    status: removed\n"),
                    encoding="utf-8")
    index.look()
    listing = index.listings()["fake1"]
    assert listing.open == ("ann",) and listing.kind == "Fake"
