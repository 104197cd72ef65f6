"""Settling a dispute: the GM edits turn 2's orders and re-runs from turn 2."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pbmref import gm
from pbmref.base.yamlfile import dump_yaml, read_yaml
from pbmref.store import GameStore, TurnError

T0 = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def snapshot(game_dir: Path) -> dict[str, str]:
    return {str(p.relative_to(game_dir)): p.read_text() for p in sorted(game_dir.rglob("*"))
            if p.is_file() and p.name != ".lock"}


def edit_orders(path: Path, **entry) -> None:
    data = read_yaml(path).data
    data["entry"] = {**data["entry"], **entry}
    path.write_text(dump_yaml(data))


def play_fake(store: GameStore, turns: int) -> None:
    for turn in range(1, turns + 1):
        game = store.open("fake1")
        for player, add in (("ann", turn), ("bob", 1)):
            game.book.save(player, {"add": add}, raw=str(add), message_id=f"<{player}{turn}>",
                             received_at=T0)
        assert gm.adjudicate(store, "fake1", T0 + timedelta(days=3 * turn)).turn == turn


def test_rerun_after_a_gm_edit_changes_later_turns_and_keeps_old_files(fake_store):
    play_fake(fake_store, 4)
    game = fake_store.open("fake1")
    before = snapshot(game.dir)
    old_final = game.position["score"]
    edit_orders(game.book.folder(2) / "ann.yaml", add=9)  # the GM settles a dispute

    dry = gm.rerun(fake_store, "fake1", 2, dry_run=True)
    assert dry.changed and snapshot(game.dir) == {**before, "turns/002/orders/ann.yaml":
                                                  (game.book.folder(2) / "ann.yaml").read_text()}

    result = gm.rerun(fake_store, "fake1", 2)
    changed = {(c.turn, c.name) for c in result.changes}
    # turn 2's events and report change; every later position follows
    assert {(2, "events.yaml"), (2, "report.txt"), (3, "position.yaml"), (4, "position.yaml"),
            (5, "position.yaml")} <= changed
    assert (2, "dice.yaml") not in changed  # the recorded dice were replayed (V5)
    assert (1, "events.yaml") not in changed
    new_final = fake_store.open("fake1").position["score"]
    assert new_final["ann"] == old_final["ann"] + 7 and new_final["bob"] == old_final["bob"]
    for turn, name in changed:
        assert (game.turn_dir(turn) / f"{name}.replaced-1").is_file()
    assert "turns/002/events.yaml (re-run)" in result.text()

    again = gm.rerun(fake_store, "fake1", 2)
    assert not again.changed and again.text().endswith("nothing changed.\n")
    assert not list(game.dir.rglob("*.replaced-2"))


def test_rerun_without_any_edit_changes_nothing(fake_store):
    play_fake(fake_store, 3)
    game = fake_store.open("fake1")
    before = snapshot(game.dir)
    assert not gm.rerun(fake_store, "fake1", 1).changed
    assert snapshot(game.dir) == before


def test_rerun_of_a_turn_not_played_yet_is_refused(fake_store):
    play_fake(fake_store, 1)
    with pytest.raises(TurnError, match="cannot be re-run"):
        gm.rerun(fake_store, "fake1", 2)


# ----------------------------------------------------------------- real tweedekker

TURNS = {  # orders per turn for the example game, turn 2 onwards
    2: {"baron": {"plane": ["A", "A", "A"]}, "biggles": {"plane": ["A", "A", "A"]},
        "snoopy": {"plane": ["A", "A", "A"]}, "immelmann": {"plane": ["A", "A", "A"]}},
    3: {"baron": {"plane": ["A", "A", "A"]}, "biggles": {"plane": ["L", "A", "A"]},
        "snoopy": {"plane": ["A", "R", "A"]}, "immelmann": {"plane": ["A", "A", "A"]}},
    4: {"baron": {"plane": ["R", "A", "A"]}, "biggles": {"plane": ["A", "A", "A"]},
        "snoopy": {"plane": ["A", "A", "L"]}, "immelmann": {"plane": ["A", "L", "A"]}},
}


def play_example(store: GameStore) -> None:
    now = datetime(2026, 12, 3, 20, 0, 5, tzinfo=UTC)
    for turn, orders in TURNS.items():
        game = store.open("example")
        assert game.turn == turn
        for player, entry in orders.items():
            game.book.save(player, entry, raw="\n".join(entry["plane"]),
                             message_id=f"<{player}-{turn}@example>", received_at=now)
        record = gm.adjudicate(store, "example", now)
        assert record is not None and record.turn == turn
        now = record.next_deadline + timedelta(seconds=5)


def test_example_played_then_gm_edit_of_turn_2_and_rerun(example_store):
    play_example(example_store)
    game = example_store.open("example")
    assert game.turn == 5
    old_turn3 = game.read_position(3)["aircraft"]["baron"]
    old_final = game.position["aircraft"]["baron"]
    orders_file = game.book.in_force(2)["baron"].path
    edit_orders(orders_file, plane=["L", "L", "A"])  # baron's mail was misread, says the GM

    result = gm.rerun(example_store, "example", 2)
    changed = {(c.turn, c.name) for c in result.changes}
    assert {(3, "position.yaml"), (2, "events.yaml"), (2, "report.txt")} <= changed
    game = example_store.open("example")
    assert game.read_position(3)["aircraft"]["baron"]["hex"] != old_turn3["hex"]
    assert game.position["aircraft"]["baron"] != old_final
    assert (game.turn_dir(3) / "position.yaml.replaced-1").is_file()
    assert (game.turn_dir(2) / "report.txt.replaced-1").is_file()
    assert (game.turn_dir(2) / "events.yaml").read_text() != (
        game.turn_dir(2) / "events.yaml.replaced-1").read_text()

    before = snapshot(game.dir)
    assert not gm.rerun(example_store, "example", 2).changed
    assert snapshot(game.dir) == before
    checked = gm.check(example_store, "example")
    assert checked.ok
    # orders that no longer fit the re-run position were left out, and say so
    assert all("left out" in w for w in checked.warnings + result.warnings)


def test_game_over_finishes_the_game(fake_store):
    game = fake_store.open("fake1")
    game.change_settings({"deadline": "2026-11-01T00:00:00+00:00"})
    path = game.turn_dir(1) / "position.yaml"
    # the GM starts the game close to the end (scores count to 100)
    game.history.replace(1, "position.yaml", path.read_text().replace("ann: 0", "ann: 99"))
    record = gm.adjudicate(fake_store, "fake1", T0)
    assert record.game_over and record.winners == ["ann"] and record.next_deadline is None
    game = fake_store.open("fake1")
    assert game.settings.status == "finished" and game.settings.deadline is None
    assert fake_store.due(T0 + timedelta(days=30)) == []
    assert gm.adjudicate(fake_store, "fake1", T0 + timedelta(days=30), force=True) is None


def test_rerun_that_ends_the_game_earlier_sets_later_turns_aside(fake_store):
    play_fake(fake_store, 5)
    game = fake_store.open("fake1")
    position = game.turn_dir(3) / "position.yaml"
    data = read_yaml(position).data
    data["score"]["ann"] = 98  # the GM corrects a score at the start of turn 3
    position.write_text(dump_yaml(data))
    result = gm.rerun(fake_store, "fake1", 3)
    assert any("now ends in turn 3" in w for w in result.warnings)
    game = fake_store.open("fake1")
    assert game.turn == 4 and game.settings.status == "finished"
    assert game.position["game_over"] is True
    names = sorted(p.name for p in (game.dir / "turns").iterdir())
    assert names[:4] == ["001", "002", "003", "004"]
    assert any(n.startswith("005.old-") for n in names)
    assert any(n.startswith("006.old-") for n in names)
    assert not (game.turn_dir(4) / "result.yaml").exists()
    assert (game.turn_dir(4) / "result.yaml.replaced-1").exists()
    assert not gm.rerun(fake_store, "fake1", 3).changed
