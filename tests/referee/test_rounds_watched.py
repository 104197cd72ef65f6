"""A daemon whose index watches the games folder (inotify, issue 20) sees at its
next round what a game master did by hand, and its look checks only the games
the kernel named: an edit in place or by rename, a game folder copied in or
deleted, a deleted index file, lost events. Where the kernel would not watch a
game folder (the limit of watches) or there is no inotify, the stat of every
game sees the same, and the log says why."""

from __future__ import annotations

import errno
import json
import logging
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest
from tablekit import Table, body_of

from pbmref import gm
from pbmref.base import inotify
from pbmref.referee.daemon import Daemon
from pbmref.referee.pipeline import Referee
from pbmref.store import GameStore

OTHERS = 8  # games besides zep1: a look at every game checks them all


def _others(table: Table) -> None:
    """Copies of zep1 with players of their own (quicker than new games)."""
    for i in range(OTHERS):
        _copy(table, f"other{i}")
        settings = table.store.path(f"other{i}") / "game.yaml"
        settings.write_text(settings.read_text(encoding="utf-8").replace(
            "@example.org", f"@other{i}.example"), encoding="utf-8")


def _orders(table: Table, game: str | None) -> str:
    head = [f"GAME {game}"] if game else []
    return "\n".join([*head, f"PASSWORD {table.passwords['anna']}", "PLANE", "TAKEOFF BETA",
                      "1: A", "2: A", "3: L", "END"])


def _answer(table: Table, daemon: Daemon, body: str, sender: str = "anna@example.org") -> str:
    """A mail taken in by the daemon's next round: the text of its one reply."""
    table.deliver(table.mail(body, sender=sender))
    daemon.round()
    out = table.new_outbox()
    assert len(out) == 1 and out[0]["To"] == sender, [body_of(m) for m in out]
    return body_of(out[0])


# ------------------------------------------------------------ what a game master does

def _rewrite(path: Path, old: str, new: str, way: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (old, text)
    text = text.replace(old, new)
    if way == "in place":  # as most editors save
        path.write_text(text, encoding="utf-8")
    else:  # a new file renamed over the old one (vim's backupcopy=no, sed -i)
        new_file = path.with_name(f".{path.name}.new")
        new_file.write_text(text, encoding="utf-8")
        os.replace(new_file, path)


def _copy(table: Table, to: str) -> None:
    shutil.copytree(table.store.path("zep1"), table.store.dir / to,
                    ignore=shutil.ignore_patterns(".lock"))


def _nothing(table: Table) -> None:
    pass


def _move_deadline(way: str) -> Callable[[Table], None]:
    def change(table: Table) -> None:
        _rewrite(table.store.path("zep1") / "game.yaml", "deadline: '2026-03-03T12:00:00+00:00'",
                 "deadline: '2026-03-01T11:00:00+00:00'", way)  # an hour ago
    return change


def _adjudicated(table: Table, daemon: Daemon) -> None:
    daemon.round()
    assert daemon.done.adjudicated == 1
    assert table.game().turn == 2


def _change_address(way: str) -> Callable[[Table], None]:
    def change(table: Table) -> None:
        _rewrite(table.store.path("zep1") / "game.yaml", "[anna@example.org]",
                 "[anna@work.example]", way)
    return change


def _routed(table: Table, daemon: Daemon) -> None:
    body = _answer(table, daemon, _orders(table, None), sender="anna@work.example")
    assert "accepted" in body


def _found(table: Table, daemon: Daemon) -> None:
    body = _answer(table, daemon, _orders(table, "zep2"))
    assert "accepted" in body and "zep2" in body
    assert list(table.store.open("zep2").book.in_force()) == ["anna"]


def _forgotten(table: Table, daemon: Daemon) -> None:
    body = _answer(table, daemon, _orders(table, "zep2"))
    assert "There is no game called 'zep2' here." in body
    assert table.store.index.games_of("anna@example.org") == ["zep1"]


def _widen_reminders(table: Table) -> None:
    _rewrite(table.store.path("zep1") / "game.yaml", "reminder_hours: 12",
             "reminder_hours: 48", "in place")  # the window opens now


def _reminded(table: Table, daemon: Daemon) -> None:
    daemon.round()
    out = [m for m in table.new_outbox() if m["Subject"].startswith("[zep1]")]
    assert sorted(m["To"] for m in out) == [
        "anna@example.org", "bert@example.org", "cora@example.org"]
    assert all("[zep1] reminder" in m["Subject"] for m in out)
    daemon.round()
    assert table.new_outbox() == []  # once


@dataclass(frozen=True)
class HandChange:
    """What the game master does between two rounds, and what the next round shows."""

    before: Callable[[Table], None]  # done before the daemon's first round
    change: Callable[[Table], None]
    seen: Callable[[Table, Daemon], None]  # the next round, and what it must show


CHANGES = {
    "deadline edited in place": HandChange(_nothing, _move_deadline("in place"), _adjudicated),
    "deadline edited by rename": HandChange(_nothing, _move_deadline("by rename"), _adjudicated),
    "address edited in place": HandChange(_nothing, _change_address("in place"), _routed),
    "address edited by rename": HandChange(_nothing, _change_address("by rename"), _routed),
    "game folder copied in": HandChange(_nothing, lambda t: _copy(t, "zep2"), _found),
    "game folder deleted": HandChange(lambda t: _copy(t, "zep2"),
                                      lambda t: shutil.rmtree(t.store.path("zep2")),
                                      _forgotten),
    "reminder window widened by hand": HandChange(_nothing, _widen_reminders, _reminded),
}


# ------------------------------------------------------------ how the daemon watches

def _watched(monkeypatch: pytest.MonkeyPatch) -> None:
    pass


def _watch_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel refuses a watch on every game folder, as at the user's limit."""
    add = inotify.Inotify.add

    def add_until_the_limit(self: inotify.Inotify, path: Path | str, mask: int) -> int:
        if Path(path).name != "games":
            raise OSError(errno.ENOSPC, "inotify_add_watch: No space left on device", path)
        return add(self, path, mask)
    monkeypatch.setattr(inotify.Inotify, "add", add_until_the_limit)


def _no_inotify(monkeypatch: pytest.MonkeyPatch) -> None:
    def unavailable() -> None:
        raise inotify.NotifyUnavailable("inotify is Linux's, this is elsewhere")
    monkeypatch.setattr(inotify, "_functions", unavailable)


@dataclass(frozen=True)
class Watching:
    """How the daemon's index watches, and what its log says about it."""

    setup: Callable[[pytest.MonkeyPatch], None]
    said: str | None  # in the log, once
    most_checked: int  # games a look checks after one change


MODES = {
    "watched": Watching(_watched, None, 3),
    "at the limit of watches": Watching(_watch_limit, "fs.inotify.max_user_watches",
                                        OTHERS + 2),
    "without inotify": Watching(_no_inotify, "no change notification", OTHERS + 2),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("what", CHANGES)
def test_a_change_by_hand_is_seen_at_the_next_round(
        table: Table, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        what: str, mode: str) -> None:
    change, watching = CHANGES[what], MODES[mode]
    watching.setup(monkeypatch)
    caplog.set_level(logging.INFO)
    _others(table)
    change.before(table)
    daemon = Daemon(table.referee, table.intake, watch_games=True)
    daemon.round()  # the first round looks at every game
    daemon.round()  # and the next at what the first changed
    index = table.store.index
    checked = index.checked
    change.change(table)
    change.seen(table, daemon)
    looks = [r.getMessage() for r in caplog.records if r.name.startswith("pbmref.store")]
    if watching.said is None:
        assert looks == []
    else:
        assert len(looks) == 1 and watching.said in looks[0], looks
    # a round looks once, and the store's index once more for the games due
    assert 1 <= index.checked - checked <= 2 * watching.most_checked
    daemon.close()


def test_a_watching_daemon_checks_no_game_when_nothing_changed(table: Table) -> None:
    _others(table)
    daemon = Daemon(table.referee, table.intake, watch_games=True)
    daemon.round()
    daemon.round()
    checked = table.store.index.checked
    for _ in range(3):
        daemon.round()
    assert table.store.index.checked == checked
    daemon.close()


def test_a_deleted_index_file_is_rebuilt_by_a_watching_daemon(table: Table) -> None:
    _others(table)
    config = table.referee.config
    path = config.spool_dir / "games-index.json"  # where a referee keeps its index
    Daemon(Referee(config, clock=table.clock), table.intake, watch_games=True).run(rounds=1)
    assert path.is_file()
    path.unlink()
    referee = Referee(config, clock=table.clock)
    daemon = Daemon(referee, table.intake, watch_games=True)
    daemon.round()
    assert referee.store.index.reads == OTHERS + 1  # every game read from its folder
    assert "accepted" in _answer(table, daemon, _orders(table, None))
    daemon.run(rounds=1)
    games = json.loads(path.read_text(encoding="utf-8"))["games"]
    assert sorted(games) == referee.store.index.ids() and len(games) == OTHERS + 1


def _queue_limit() -> int:
    return int(Path("/proc/sys/fs/inotify/max_queued_events").read_text())


def test_lost_events_lead_to_a_look_at_every_game(table: Table) -> None:
    """Past the kernel's queue of events (``max_queued_events``) the events are
    lost: a folder copied in then has no event, and the next round looks at
    every game and finds it."""
    _others(table)
    daemon = Daemon(table.referee, table.intake, watch_games=True)
    daemon.round()
    daemon.round()
    index = table.store.index
    checked = index.checked
    files = [table.store.path("zep1") / name for name in ("game.yaml", "state.yaml")]
    for k in range(_queue_limit() + 10):  # two names in turn: the kernel merges no two
        os.utime(files[k % 2])
    _copy(table, "zep2")  # its events are lost
    daemon.round()
    assert index.checked - checked >= OTHERS + 2  # every game, the new one too
    assert "zep2" in index.ids()
    assert "accepted" in _answer(table, daemon, _orders(table, "zep2"))
    checked = index.checked
    daemon.round()
    assert index.checked - checked <= 2, "back to the games the kernel names"
    daemon.close()


def test_a_turn_played_by_another_process_is_reported_by_the_watching_daemon(
        table: Table) -> None:
    """A run that adjudicated zep1 and died before mailing its report: the daemon
    that checked every game for missed reports at its first round finds this one
    at its next, from the change the kernel told."""
    _others(table)
    daemon = Daemon(table.referee, table.intake, watch_games=True)
    daemon.round()
    daemon.round()
    assert table.new_outbox() == []
    elsewhere = GameStore(table.store.dir)  # another process's store
    gm.adjudicate(elsewhere, "zep1", table.clock(), force=True)
    daemon.round()
    reports = table.new_outbox()
    assert sorted(m["To"] for m in reports) == [
        "anna@example.org", "bert@example.org", "cora@example.org"]
    assert all(m["Subject"].startswith("[zep1]") for m in reports)
    daemon.round()
    assert table.new_outbox() == []
    daemon.close()


def test_a_reminder_window_opening_with_time_is_reminded_once(table: Table) -> None:
    """The daemon asks about the games whose window opened since its last round
    (and those changed since), not every game in its window at every round."""
    _others(table)
    daemon = Daemon(table.referee, table.intake, watch_games=True)
    daemon.round()
    assert table.new_outbox() == []
    table.clock.now += timedelta(hours=37)  # the 12 hours before the deadline
    _reminded(table, daemon)  # (the other games are reminded too)
    table.deliver(table.mail(_orders(table, None)))  # anna's orders: zep1 changes
    daemon.round()
    out = table.new_outbox()
    assert [m["To"] for m in out] == ["anna@example.org"]  # her answer, no reminder
    daemon.close()
