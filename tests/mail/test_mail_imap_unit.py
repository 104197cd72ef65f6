"""ImapIntake pieces that need no server: time conversion and the state file."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from pbmref.mail import IntakeError
from pbmref.mail.imap_in import ImapIntake, _to_utc


def test_internaldate_naive_local_and_aware_become_utc() -> None:
    aware = datetime(2026, 11, 30, 12, 0, tzinfo=timezone(timedelta(hours=1)))
    assert _to_utc(aware) == aware and _to_utc(aware).tzinfo == UTC
    naive = datetime(2026, 11, 30, 12, 0)  # imapclient's normalised form: local time
    assert _to_utc(naive) == naive.astimezone(UTC)


def test_unreachable_server_raises_intake_error_after_backoff(tmp_path: Path) -> None:
    naps: list[float] = []
    intake = ImapIntake("127.0.0.1", 1, user="u", password="p", security="none",
                        state_file=tmp_path / "s.json", reconnect_attempts=5,
                        backoff_first=1.0, backoff_max=3.0, sleep=naps.append, timeout=2)
    with pytest.raises(IntakeError, match="failed 5 times"):
        list(intake.fetch_new())
    assert naps == [1.0, 2.0, 3.0, 3.0]  # exponential, capped
    # a mark that cannot be done is remembered in the state file, not lost
    intake.mark_handled("7:42")
    assert json.loads((tmp_path / "s.json").read_text())["pending_marks"] == ["7:42"]
    with pytest.raises(ValueError):
        intake.mark_handled("not-a-key")
    intake.close()


def test_two_processes_sharing_the_state_file_keep_both_progress(tmp_path: Path) -> None:
    state = tmp_path / "s.json"
    a = ImapIntake("h", user="u", password="p", state_file=state)
    b = ImapIntake("h", user="u", password="p", state_file=state)
    for intake in (a, b):
        intake._state["uidvalidity"] = 5
    a._update_state(lambda st: st.__setitem__("last_uid", 10))
    b._update_state(lambda st: st["pending_marks"].append("5:3"))
    a._update_state(lambda st: st["pending_marks"].append("5:4"))
    data = json.loads(state.read_text())
    assert data["last_uid"] == 10  # b did not undo a's progress
    assert sorted(data["pending_marks"]) == ["5:3", "5:4"]  # nor a b's mark


class _IdleClient:
    """A client in IDLE whose server tells of a new mail only as the IDLE ends:
    a keep-alive line first, then the EXISTS just before DONE's answer."""

    def __init__(self) -> None:
        self.checks = 0

    def idle(self) -> None:
        pass

    def idle_check(self, timeout: float) -> list[object]:
        self.checks += 1
        return [(b"OK", b"Still here")] if self.checks == 1 else []

    def idle_done(self) -> tuple[bytes, list[object]]:
        return b"Idle completed", [(1, b"EXISTS")] if self.checks == 1 else []


def test_a_new_mail_told_as_idle_ends_wakes_the_wait(tmp_path: Path) -> None:
    """The untagged responses that come with DONE's answer are looked at too: an
    EXISTS among them was otherwise lost, and the wait slept to its timeout."""
    intake = ImapIntake("h", user="u", password="p", state_file=tmp_path / "s.json")
    intake._client = _IdleClient()  # type: ignore[assignment]
    intake._caps = frozenset({b"IDLE"})
    assert intake.wait(5) is True
