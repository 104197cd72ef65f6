"""Durable spools: idempotent save, shunting after repeated failure, send exactly once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbmref.mail import (
    IncomingSpool,
    OutgoingSpool,
    PermanentFailure,
    RawMail,
    TemporaryFailure,
    make_mail,
)

T0 = datetime(2026, 11, 30, 10, 0, tzinfo=UTC)


def raw(mid: str | None, key: str = "1:1", arrived: datetime = T0, body: str = "x") -> RawMail:
    head = f"Message-ID: {mid}\r\n" if mid else ""
    return RawMail(key=key, raw=f"From: a@b.c\r\n{head}\r\n{body}\r\n".encode(), arrived=arrived)


def test_save_is_atomic_and_idempotent(tmp_path: Path) -> None:
    spool = IncomingSpool(tmp_path)
    first = spool.save(raw("<m1@x>", key="7:1"))
    assert not first.duplicate and first.state == "pending"
    assert first.intake_key == "7:1" and first.arrived == T0
    again = spool.save(raw("<m1@x>", key="7:99", body="other bytes, same Message-ID"))
    assert again.duplicate and again.id == first.id and again.intake_key == "7:1"
    assert [e.id for e in spool.pending()] == [first.id]
    assert first.raw().endswith(b"x\r\n")
    assert list((tmp_path / "tmp").iterdir()) == []
    # still a duplicate once handled
    spool.done(first)
    later = spool.save(raw("<m1@x>"))
    assert later.duplicate and later.state == "done"
    assert spool.pending() == []


def test_mail_without_message_id_dedupes_by_content(tmp_path: Path) -> None:
    spool = IncomingSpool(tmp_path)
    assert not spool.save(raw(None)).duplicate
    assert spool.save(raw(None)).duplicate
    assert not spool.save(raw(None, body="different")).duplicate


def test_pending_in_arrival_order(tmp_path: Path) -> None:
    spool = IncomingSpool(tmp_path)
    for i, minutes in enumerate([30, 10, 20]):
        spool.save(raw(f"<m{i}@x>", arrived=T0 + timedelta(minutes=minutes)))
    assert [e.message_id for e in spool.pending()] == ["<m1@x>", "<m2@x>", "<m0@x>"]


def test_crashing_mail_is_shunted_after_three_failures(tmp_path: Path) -> None:
    spool = IncomingSpool(tmp_path, max_attempts=3)
    spool.save(raw("<bad@x>", arrived=T0))
    spool.save(raw("<good@x>", arrived=T0 + timedelta(minutes=1)))
    seen: list[str] = []

    def handler(entry):  # type: ignore[no-untyped-def]
        seen.append(entry.message_id)
        if entry.message_id == "<bad@x>":
            raise ValueError("boom")

    assert spool.process(handler) == {"done": 1, "failed": 1, "shunted": 0}
    assert spool.process(handler) == {"done": 0, "failed": 1, "shunted": 0}
    assert spool.process(handler) == {"done": 0, "failed": 0, "shunted": 1}
    assert spool.process(handler) == {"done": 0, "failed": 0, "shunted": 0}
    assert seen == ["<bad@x>", "<good@x>", "<bad@x>", "<bad@x>"]
    ((entry, reason),) = spool.shunted()
    assert entry.message_id == "<bad@x>" and "ValueError: boom" in reason
    assert (entry.path / "message.eml").exists()  # set aside, never lost
    assert spool.save(raw("<bad@x>")).duplicate  # and not taken in again


def test_killed_while_handling_counts_as_an_attempt(tmp_path: Path) -> None:
    spool = IncomingSpool(tmp_path, max_attempts=3)
    spool.save(raw("<kill@x>"))
    for _ in range(3):  # begin() then the process dies: no failed() call
        (entry,) = spool.pending()
        spool.begin(entry)
    assert spool.pending() == []
    ((entry, reason),) = spool.shunted()
    assert "3 attempts" in reason


def test_unshunt_puts_mail_back(tmp_path: Path) -> None:
    spool = IncomingSpool(tmp_path)
    entry = spool.save(raw("<m@x>"))
    spool.shunt(entry, "GM looks at it")
    back = spool.unshunt(entry.id)
    assert back.state == "pending" and back.attempts == 0
    assert [e.id for e in spool.pending()] == [entry.id]


class FakeSender:
    """Scripted sender: a list of outcomes (None = success) consumed per call."""

    def __init__(self, outcomes: list[Exception | None]) -> None:
        self.outcomes = outcomes
        self.sent: list[EmailMessage] = []
        self.calls = 0

    def send(self, msg: EmailMessage) -> None:
        self.calls += 1
        outcome = self.outcomes.pop(0) if self.outcomes else None
        if outcome is not None:
            raise outcome
        self.sent.append(msg)


def report(n: int = 1) -> EmailMessage:
    return make_mail(f"p{n}@example.org", f"report {n}", "body", from_addr="referee@game.test")


def test_outgoing_backoff_then_sent_once(tmp_path: Path) -> None:
    spool = OutgoingSpool(tmp_path, backoff_first=60, backoff_max=300)
    msg = report()
    entry = spool.enqueue(msg)
    sender = FakeSender([TemporaryFailure("down"), TemporaryFailure("down"),
                         TemporaryFailure("down"), TemporaryFailure("down"), None])
    delays = []
    now = datetime.now(UTC)
    for _ in range(4):
        r = spool.deliver(sender, now=now)
        assert r.deferred == [entry.id]
        nxt = spool.queued()[0].next_attempt
        delays.append((nxt - now).total_seconds())
        assert spool.deliver(sender, now=nxt - timedelta(seconds=1)).deferred == [entry.id]
        now = nxt
    assert delays == [60, 120, 240, 300]  # exponential, capped
    assert sender.calls == 4
    assert spool.deliver(sender, now=now).sent == [entry.id]
    assert spool.deliver(sender, now=now + timedelta(days=1)).sent == []
    assert [m["Message-ID"] for m in sender.sent] == [msg["Message-ID"]]
    (done,) = spool.sent()
    assert done.attempts == 5 and done.message()["Subject"] == "report 1"


def test_outgoing_permanent_failure_and_give_up(tmp_path: Path) -> None:
    spool = OutgoingSpool(tmp_path, backoff_first=1, give_up_after=3600)
    bad = spool.enqueue(report(1))
    slow = spool.enqueue(report(2))
    sender = FakeSender([PermanentFailure("550 no such user"), TemporaryFailure("451")])
    r = spool.deliver(sender)
    assert r.failed == [bad.id] and r.deferred == [slow.id]
    r = spool.deliver(FakeSender([TemporaryFailure("451")]),
                      now=datetime.now(UTC) + timedelta(hours=2))
    assert r.failed == [slow.id]
    assert spool.queued() == [] and {e.id for e in spool.failed()} == {bad.id, slow.id}


def test_unexpected_sender_error_is_retried_not_lost(tmp_path: Path) -> None:
    spool = OutgoingSpool(tmp_path)
    entry = spool.enqueue(report())
    r = spool.deliver(FakeSender([RuntimeError("bug")]))
    assert r.deferred == [entry.id] and spool.failed() == []


def test_only_one_deliverer_at_a_time(tmp_path: Path) -> None:
    spool = OutgoingSpool(tmp_path)
    spool.enqueue(report())
    other = OutgoingSpool(tmp_path)

    class Reentrant(FakeSender):
        def send(self, msg: EmailMessage) -> None:
            assert other.deliver(FakeSender([])).busy
            super().send(msg)

    sender = Reentrant([])
    assert len(spool.deliver(sender).sent) == 1 and len(sender.sent) == 1


@pytest.mark.parametrize("n", [3])
def test_enqueue_order_is_kept(tmp_path: Path, n: int) -> None:
    spool = OutgoingSpool(tmp_path)
    ids = [spool.enqueue(report(i)).id for i in range(n)]
    sender = FakeSender([])
    assert spool.deliver(sender).sent == ids
    assert [m["Subject"] for m in sender.sent] == [f"report {i}" for i in range(n)]


def test_prune_old_done_and_sent(tmp_path: Path) -> None:
    inspool = IncomingSpool(tmp_path / "in")
    inspool.done(inspool.save(raw("<old@x>")))
    assert inspool.prune(timedelta(days=1)) == 0
    assert inspool.prune(timedelta(seconds=-1)) == 1
    outspool = OutgoingSpool(tmp_path / "out")
    outspool.enqueue(report())
    outspool.deliver(FakeSender([]))
    assert outspool.prune(timedelta(days=1)) == 0
    assert outspool.prune(timedelta(seconds=-1)) == 1 and outspool.sent() == []


def test_crash_between_send_and_move_gives_at_most_one_duplicate(tmp_path: Path) -> None:
    spool = OutgoingSpool(tmp_path)
    spool.enqueue(report())

    class CrashAfterSend(FakeSender):
        def send(self, msg: EmailMessage) -> None:
            super().send(msg)
            raise SystemExit("killed right after the server took the mail")

    crashing = CrashAfterSend([])
    with pytest.raises(SystemExit):
        spool.deliver(crashing)
    assert len(spool.queued()) == 1  # the move to sent/ never happened
    sender = FakeSender([])
    assert len(spool.deliver(sender).sent) == 1
    assert spool.deliver(sender).sent == []
    assert len(crashing.sent) + len(sender.sent) == 2  # one duplicate, no more, none lost
