"""Early adjudication waits a little once every player's orders are in (issue
43, item 7), through the real referee and the deadline job.

The acceptance that completes the turn says when it will be played ("All
orders are in: turn 1 will be played at 12:30 UTC ... unless someone sends
WAIT"); the deadline job leaves the turn alone until then and plays it
after; a changed mail in between starts the delay again; game.yaml's
``early_delay`` overrides the ruleset's default (0m: at once, as before).
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from tablekit import T0, Clock, Table, body_of, maildir_config

from pbmref import gm
from pbmref.referee.turns import adjudicate_due
from pbmref.rulesets import get_ruleset
from pbmref.store import GameStore


def make_table(tmp_path: Path, delay: str | None = None) -> Table:
    config = maildir_config(tmp_path)
    store = GameStore(config.games_dir)
    players = [gm.PlayerSpec("anna", ("anna@example.org",), "Anna", airfield="N"),
               gm.PlayerSpec("bert", ("bert@example.org",), "Bert", airfield="SE")]
    created = gm.new_game(store, "zep1", players, title="Early", seed=11,
                          deadline=T0 + timedelta(hours=48), turn_length="48h",
                          early_adjudication=True, reminder_hours=0, now=T0)
    if delay is not None:
        store.open("zep1").update_settings(lambda data: data.update(early_delay=delay))
    table: Table = Table.start(tmp_path, config, store, Clock(T0), passwords=created.passwords)
    return table


def orders(table: Table, player: str) -> str:
    return "\n".join(["GAME zep1", f"PASSWORD {table.passwords[player]}", "TURN 1",
                      "PLANE", "TAKEOFF " + ("BETA" if player == "anna" else "ALPHA"),
                      "1: A", "2: A", "3: A", "END"])


def played(table: Table) -> list[int]:
    return [r.turn for r in adjudicate_due(table.referee, table.intake).adjudicated]


def test_the_default_delay_of_each_ruleset() -> None:
    delays = {name: get_ruleset(name).early_delay for name in
              ("tweedekker", "fastplay", "diplomacy", "dirigible")}
    assert delays == {"tweedekker": timedelta(minutes=30), "fastplay": timedelta(0),
                      "diplomacy": timedelta(hours=1), "dirigible": timedelta(hours=1)}


def test_all_orders_in_plays_the_turn_after_the_delay_unless_someone_waits(
        tmp_path: Path) -> None:
    table = make_table(tmp_path)
    clock = table.referee.clock
    assert isinstance(clock, Clock)
    first = body_of(table.send(orders(table, "anna"))[0])
    assert "All orders are in" not in first
    clock.now = T0 + timedelta(minutes=5)
    (last,) = table.send(orders(table, "bert"), sender="bert@example.org")
    assert ("All orders are in: turn 1 will be played at 12:35 UTC\n(Sun 1 Mar) unless "
            "someone sends WAIT.") in body_of(last)
    clock.now = T0 + timedelta(minutes=34)
    assert played(table) == []
    # anna changes her orders: the delay starts again from her mail
    (again,) = table.send(orders(table, "anna"))
    assert "will be played at 13:04 UTC" in body_of(again)
    clock.now = T0 + timedelta(minutes=40)
    assert played(table) == []
    entry = table.store.index.entry("zep1")
    assert entry is not None and entry.due_at() == T0 + timedelta(minutes=64)
    clock.now = T0 + timedelta(minutes=65)
    assert played(table) == [1]


def test_wait_keeps_the_turn_to_its_deadline(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    clock = table.referee.clock
    assert isinstance(clock, Clock)
    table.send(orders(table, "anna").replace("END", "WAIT\nEND"))
    (last,) = table.send(orders(table, "bert"), sender="bert@example.org")
    assert "All orders are in" not in body_of(last)
    clock.now = T0 + timedelta(hours=2)
    assert played(table) == []


def test_a_game_may_set_no_delay(tmp_path: Path) -> None:
    table = make_table(tmp_path, "0m")
    table.send(orders(table, "anna"))
    (last,) = table.send(orders(table, "bert"), sender="bert@example.org")
    assert "Every player's orders are in: turn 1 is being adjudicated now" in body_of(last)
    assert played(table) == [1]
