"""The referee's bookkeeping file, shared by the daemon and cron runs: neither
undoes what the other recorded, and a process reads the file again only when
another one changed it (issue 20: an idle round reads no file that grows with
the games played)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pbmref.referee import state as state_module
from pbmref.referee.state import Ration, RefereeState

NOW = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
KEEP = timedelta(days=14)


def _two(tmp_path: Path) -> tuple[RefereeState, RefereeState]:
    """The state as the daemon and a cron run each hold it."""
    path = tmp_path / "spool" / "referee-state.json"
    daemon = RefereeState.load(path)
    daemon.first_times("told", ["g1"], NOW, KEEP)
    return daemon, RefereeState.load(path)


def test_neither_process_undoes_what_the_other_recorded(tmp_path: Path) -> None:
    daemon, cron = _two(tmp_path)
    assert cron.first_times("told", ["g1", "g2"], NOW, KEEP) == ["g2"]
    assert daemon.first_times("told", ["g2", "g3"], NOW, KEEP) == ["g3"]
    every = ["g1", "g2", "g3"]
    assert set(daemon.values("told", every)) == set(cron.values("told", every)) == set(every)


def test_what_is_told_once_is_forgotten_after_it_is_kept(tmp_path: Path) -> None:
    daemon, _ = _two(tmp_path)
    assert daemon.first_times("told", ["g1"], NOW + KEEP / 2, KEEP) == []
    assert daemon.first_times("told", ["g1"], NOW + KEEP, KEEP) == ["g1"]


def test_the_file_is_read_again_only_when_another_process_changed_it(
        tmp_path: Path) -> None:
    daemon, cron = _two(tmp_path)
    reads = daemon.reads
    for _ in range(3):  # an idle daemon's rounds, and what it records itself
        assert set(daemon.values("told", ["g1", "g2"])) == {"g1"}
        assert daemon.first_times("told", ["g1"], NOW, KEEP) == []
    daemon.first_times("told", ["g3"], NOW, KEEP)
    assert daemon.reads == reads
    cron.first_times("told", ["g2"], NOW, KEEP)
    assert set(daemon.values("told", ["g1", "g2"])) == {"g1", "g2"}
    assert daemon.reads == reads + 1


def test_a_change_that_could_not_be_saved_is_not_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    daemon, _ = _two(tmp_path)

    def full(*args: object, **kw: object) -> None:
        raise OSError(28, "No space left on device")
    with monkeypatch.context() as m:
        m.setattr(state_module, "replace_file", full)
        with pytest.raises(OSError):
            daemon.first_times("told", ["g5"], NOW, KEEP)
    assert set(daemon.values("told", ["g1", "g5"])) == {"g1"}  # as the file has it


def test_a_reply_rewrites_only_the_small_file_of_its_budget(tmp_path: Path) -> None:
    """Issue 20: with every kind in one file, each reply rewrote the reports and
    reminders of every game on the machine (120 ms a mail at 10,000 games)."""
    daemon, _ = _two(tmp_path)
    daemon.first_times("told", [f"g{n}" for n in range(2000)], NOW, KEEP)
    told = daemon.file_of("told")
    before = told.stat()
    assert daemon.within_budgets(NOW, [Ration("replies", "anna@example.org", 20,
                                              timedelta(hours=1))], token="<m1@x>")
    assert (told.stat().st_ino, told.stat().st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    replies = daemon.file_of("replies")
    assert replies.name == "referee-state.replies.json"
    assert replies.stat().st_size < 200


def test_the_one_file_of_earlier_versions_is_still_read(tmp_path: Path) -> None:
    path = tmp_path / "referee-state.json"
    path.write_text('{"told": {"g1": "2026-12-03T11:00:00+00:00"}, '
                    '"replies": {"a@x": ["2026-12-03T12:00:00+00:00"]}}')
    state = RefereeState.load(path)
    assert state.first_times("told", ["g1", "g2"], NOW, KEEP) == ["g2"]  # written apart now
    assert set(RefereeState.load(path).values("told", ["g1", "g2"])) == {"g1", "g2"}
    assert state.file_of("told").is_file()


def test_reminders_are_one_record_a_game(tmp_path: Path) -> None:
    state = RefereeState.load(tmp_path / "referee-state.json")
    assert state.remind_once("g1", 1, "anna") and state.remind_once("g1", 1, "bert")
    assert not state.remind_once("g1", 1, "anna")  # once a turn
    assert state.remind_once("g1", 2, "anna")  # the next turn: anew
    assert not state.remind_once("g1", 1, "cora")  # a turn that is over
    other = RefereeState.load(tmp_path / "referee-state.json")  # another process
    assert not other.remind_once("g1", 2, "anna")
    assert other.values("reminders", ["g1"]) == {"g1": {"turn": 2, "players": ["anna"]}}
