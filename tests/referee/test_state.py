"""The referee's bookkeeping file, shared by the daemon and cron runs: neither
undoes what the other recorded, and a process reads the file again only when
another one changed it (issue 20: an idle round reads no file that grows with
the games played)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbmref.referee import state as state_module
from pbmref.referee.state import RefereeState


def _two(tmp_path: Path) -> tuple[RefereeState, RefereeState]:
    """The state as the daemon and a cron run each hold it."""
    path = tmp_path / "spool" / "referee-state.json"
    daemon = RefereeState.load(path)
    daemon.raise_to("reported", "g1", 1)
    return daemon, RefereeState.load(path)


def test_neither_process_undoes_what_the_other_recorded(tmp_path: Path) -> None:
    daemon, cron = _two(tmp_path)
    cron.raise_to("reported", "g2", 3)
    daemon.raise_to("reported", "g1", 2)
    both = ["g1", "g2"]
    assert daemon.values("reported", both) == cron.values("reported", both) == {
        "g1": 2, "g2": 3}


def test_the_file_is_read_again_only_when_another_process_changed_it(
        tmp_path: Path) -> None:
    daemon, cron = _two(tmp_path)
    reads = daemon.reads
    for _ in range(3):  # an idle daemon's rounds, and what it records itself
        assert daemon.values("reported", ["g1", "g2"]) == {"g1": 1}
        assert daemon.last("reported", "g1") == 1
    daemon.raise_to("reported", "g1", 2)
    assert daemon.reads == reads
    cron.raise_to("reported", "g2", 1)
    assert daemon.values("reported", ["g1", "g2"]) == {"g1": 2, "g2": 1}
    assert daemon.reads == reads + 1


def test_a_change_that_could_not_be_saved_is_not_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    daemon, _ = _two(tmp_path)

    def full(*args: object, **kw: object) -> None:
        raise OSError(28, "No space left on device")
    with monkeypatch.context() as m:
        m.setattr(state_module, "replace_file", full)
        with pytest.raises(OSError):
            daemon.raise_to("reported", "g1", 5)
    assert daemon.last("reported", "g1") == 1  # as the file has it
