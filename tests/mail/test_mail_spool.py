"""Durable spools: idempotent save, shunting after repeated failure, send exactly once;
only what a retry needs is kept, and only for the retention (issue 15)."""

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
    again = spool.save(raw("<m1@x>", key="7:99"))
    assert again.duplicate and again.id == first.id and again.intake_key == "7:1"
    assert [e.id for e in spool.pending()] == [first.id]
    assert first.raw().endswith(b"x\r\n")
    assert list((tmp_path / "tmp").iterdir()) == []
    # still a duplicate once handled
    spool.done(first)
    later = spool.save(raw("<m1@x>"))
    assert later.duplicate and later.state == "done"
    assert spool.pending() == []


def test_another_mail_under_a_message_id_seen_before_is_a_mail_of_its_own(
        tmp_path: Path) -> None:
    """Issue 15, item 6: only a true duplicate (same Message-ID, same content) is
    dropped; other bytes under the same Message-ID are spooled and handled."""
    spool = IncomingSpool(tmp_path)
    first = spool.save(raw("<m1@x>", key="7:1"))
    spool.done(first)
    other = spool.save(raw("<m1@x>", key="7:2", body="other bytes, same Message-ID"))
    assert not other.duplicate and other.state == "pending" and other.id != first.id
    assert other.message_id == "<m1@x>"
    again = spool.save(raw("<m1@x>", key="7:3", body="other bytes, same Message-ID"))
    assert again.duplicate and again.id == other.id
    assert [e.id for e in spool.pending()] == [other.id]


def test_a_handled_mail_keeps_only_its_record(tmp_path: Path) -> None:
    """Issue 15, item 5: once handled, the mail (and its password) leaves the spool;
    the record that recognises it stays."""
    spool = IncomingSpool(tmp_path)
    entry = spool.save(raw("<m1@x>", body="PASSWORD swordfish"))
    (entry.path / "replied").write_text("orders accepted\n")  # as versions before issue 20
    done = spool.done(entry)
    assert [p.name for p in done.path.iterdir()] == ["meta.json"]
    assert not any(b"swordfish" in p.read_bytes() for p in tmp_path.rglob("*") if p.is_file())
    assert spool.save(raw("<m1@x>", body="PASSWORD swordfish")).duplicate


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


def test_a_try_is_counted_without_writing_the_meta_anew(tmp_path: Path) -> None:
    """Issue 20: the attempt counter is the one write of every mail handled; it
    appends to a file of its own rather than writing meta.json again (on ext4 a
    file renamed over another costs a flush). A reply's record of being sent is
    its move and its folder's time: no file is made for it (a new file in an
    entry's folder cost 0.3-0.5 ms under load)."""
    spool = IncomingSpool(tmp_path, max_attempts=5)
    entry = spool.save(raw("<m@x>"))
    meta = (entry.path / "meta.json").stat()
    assert spool.begin(entry).attempts == 1 and spool.begin(entry).attempts == 2
    assert (entry.path / "meta.json").stat().st_ino == meta.st_ino
    assert (entry.path / "meta.json").stat().st_mtime_ns == meta.st_mtime_ns
    (again,) = spool.pending()
    assert again.attempts == 2
    done = spool.done(again)
    assert done.attempts == 2 and not (done.path / "message.eml").exists()
    outspool = OutgoingSpool(tmp_path / "out")
    queued = outspool.enqueue(report(1))
    meta = (queued.path / "meta.json").read_bytes()
    now = queued.created + timedelta(seconds=1)
    assert outspool.deliver(FakeSender([None]), now=now).sent == [queued.id]
    (sent,) = outspool.sent()
    assert (sent.path / "meta.json").read_bytes() == meta
    assert sent.attempts == 1 and sent.meta["sent"] == now.isoformat()
    assert {p.name for p in sent.path.iterdir()} == {"meta.json"}
    # a mail sent at its third try says so; one recorded before issue 20 by its sent.json
    again = outspool.enqueue(report(2))
    for n in range(3):
        outspool.deliver(FakeSender([None if n == 2 else TemporaryFailure("busy")]),
                         now=again.created + timedelta(hours=n + 1), force=True)
    (third,) = [e for e in outspool.sent() if e.id == again.id]
    assert third.attempts == 3
    assert third.meta["sent"] == (again.created + timedelta(hours=3)).isoformat()
    (sent.path / "sent.json").write_text('{"attempts": 4, "sent": "2026-01-01T00:00:00+00:00"}')
    (old,) = [e for e in outspool.sent() if e.id == queued.id]
    assert old.attempts == 4 and old.meta["sent"] == "2026-01-01T00:00:00+00:00"


def test_unshunt_puts_mail_back(tmp_path: Path) -> None:
    spool = IncomingSpool(tmp_path)
    entry = spool.save(raw("<m@x>"))
    spool.begin(entry)
    entry = spool.begin(entry)
    assert entry.attempts == 2
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
    assert done.attempts == 5 and done.meta["subject"] == "report 1"
    assert not (done.path / "message.eml").exists()  # sent: no retry needs it


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


def test_prune_takes_shunted_and_failed_mail_and_their_keys(tmp_path: Path) -> None:
    inspool = IncomingSpool(tmp_path / "in", max_attempts=1)
    inspool.failed(inspool.begin(inspool.save(raw("<bad@x>"))), "boom")
    assert len(inspool.shunted()) == 1
    assert inspool.prune(timedelta(days=1)) == 0 and len(inspool.shunted()) == 1
    assert inspool.prune(timedelta(seconds=-1)) == 1 and inspool.shunted() == []
    outspool = OutgoingSpool(tmp_path / "out")
    outspool.enqueue(report(1), key="report:1")
    outspool.deliver(FakeSender([PermanentFailure("550")]))
    assert len(outspool.failed()) == 1 and len(list((tmp_path / "out" / "keys").glob("[!.]*")))
    assert outspool.prune(timedelta(seconds=-1)) == 1 and outspool.failed() == []
    assert list((tmp_path / "out" / "keys").glob("[!.]*")) == []


def test_a_secret_mail_leaves_the_spool_also_when_it_fails_for_good(tmp_path: Path) -> None:
    """The new-password mail: delivered or failed, its copy in the spool goes."""
    spool = OutgoingSpool(tmp_path)
    sent = spool.enqueue(report(1), secret=True)
    failed = spool.enqueue(report(2), secret=True)
    plain = spool.enqueue(report(3))
    spool.deliver(FakeSender([None, PermanentFailure("550"), PermanentFailure("550")]))
    assert not (tmp_path / "sent" / sent.id / "message.eml").exists()
    assert not (tmp_path / "failed" / failed.id / "message.eml").exists()
    assert (tmp_path / "failed" / plain.id / "message.eml").exists()  # for the GM to see


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


def test_a_keyed_mail_queued_in_a_block_that_fails_is_queued_again(tmp_path: Path) -> None:
    """A ``durable_together`` block that ends by an error (a full disk at its
    flush, say) never puts its queued mails in ``queue/``: the same key queued
    again by the same process, once the mail is handled again, is queued then."""
    from pbmref.base.files import durable_together

    spool = OutgoingSpool(tmp_path)
    with pytest.raises(OSError), durable_together():
        spool.enqueue(report(1), key="reply:m1:0")
        assert spool.queued() == []  # joins the queue at the block's end only
        raise OSError(28, "No space left on device")
    assert spool.queued() == []
    again = spool.enqueue(report(1), key="reply:m1:0")
    assert [e.id for e in spool.queued()] == [again.id]
    with durable_together():
        spool.enqueue(report(2), key="reply:m2:0")
        spool.enqueue(report(2), key="reply:m2:0")  # the same mail, twice in one block
    assert len(spool.queued()) == 2


def test_mails_held_for_a_delivery_are_flushed_only_if_they_stay(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 20: inside ``holding()`` a queued mail is written but not flushed and
    waits outside ``queue/`` for the delivery inside; a mail sent there never
    costs a flush in the spool, one still queued after it is flushed (message,
    entry, key markers) and joins ``queue/`` on leaving the hold."""
    import os

    spool = OutgoingSpool(tmp_path)
    flushed: list[str] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        flushed.append(os.readlink(f"/proc/self/fd/{fd}"))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    sender = FakeSender([None, TemporaryFailure("down")])
    with spool.holding():
        first = spool.enqueue(report(1), key="reply:m1:0")
        second = spool.enqueue(report(2), key="reply:m2:0")
        assert spool.enqueue(report(1), key="reply:m1:0").id == first.id  # keyed, held
        assert spool.queued() == [] and flushed == []
        delivered = spool.deliver(sender)
        assert delivered.sent == [first.id] and delivered.deferred == [second.id]
        assert flushed == [] and spool.queued() == []
    assert [e.id for e in spool.queued()] == [second.id]
    assert [e.id for e in spool.sent()] == [first.id]
    entry = str(tmp_path / "tmp" / second.id)
    assert sorted(flushed) == sorted([entry + "/message.eml", entry, str(tmp_path / "keys"),
                                      str(tmp_path / "queue")])
    assert spool.enqueue(report(2), key="reply:m2:0").id == second.id
    assert spool.deliver(FakeSender([]), force=True).sent == [second.id]


def test_a_hold_that_ends_by_an_error_queues_nothing(tmp_path: Path) -> None:
    """Mails held in a hold that ends by an error (the referee dies) never join the
    queue: the same key queued again later is queued anew; one sent in the hold
    stays sent."""
    spool = OutgoingSpool(tmp_path)
    with pytest.raises(SystemExit), spool.holding():
        sent = spool.enqueue(report(1), key="reply:m1:0")
        spool.enqueue(report(2), key="reply:m2:0")
        spool.deliver(FakeSender([None, TemporaryFailure("down")]))
        raise SystemExit("killed")
    assert spool.queued() == [] and [e.id for e in spool.sent()] == [sent.id]
    assert spool.enqueue(report(1), key="reply:m1:0").id == sent.id
    again = spool.enqueue(report(2), key="reply:m2:0")
    assert [e.id for e in spool.queued()] == [again.id]


def test_a_held_mail_that_fails_for_good_is_kept_in_failed(tmp_path: Path) -> None:
    spool = OutgoingSpool(tmp_path)
    with spool.holding():
        entry = spool.enqueue(report(1), key="reply:m1:0")
        assert spool.deliver(FakeSender([PermanentFailure("no such user")])).failed == [
            entry.id]
    assert spool.queued() == [] and [e.id for e in spool.failed()] == [entry.id]
    assert spool.enqueue(report(1), key="reply:m1:0").id == entry.id
    assert list((tmp_path / "tmp").iterdir()) == []


def test_a_held_mail_whose_holder_died_is_taken_over_whole(tmp_path: Path) -> None:
    """The referee dies in the hold (SIGKILL: what it wrote is there, nothing was
    committed). The next process queueing the same key takes the held mail over,
    the very same message, instead of making a second, different one; a held mail
    not written whole (a power cut took part of it) is dropped and made anew."""
    dead = OutgoingSpool(tmp_path)
    hold = dead.holding()
    hold.__enter__()  # and never leaves it: killed
    kept = dead.enqueue(report(1), key="reply:m1:0")
    torn = dead.enqueue(report(2), key="reply:m2:0")
    (tmp_path / "tmp" / torn.id / "message.eml").write_bytes(b"From: half a mai")
    raw = (tmp_path / "tmp" / kept.id / "message.eml").read_bytes()

    alive = OutgoingSpool(tmp_path)
    again = alive.enqueue(report(1), key="reply:m1:0")
    assert again.id == kept.id and [e.id for e in alive.queued()] == [kept.id]
    assert alive.queued()[0].message().as_bytes() == raw
    anew = alive.enqueue(report(2), key="reply:m2:0")
    assert anew.id != torn.id and not (tmp_path / "tmp" / torn.id).exists()
    # the same key again finds the mail taken over, now in the queue
    assert alive.enqueue(report(1), key="reply:m1:0").id == kept.id


def test_an_answered_mail_is_noted_in_its_attempts_file(tmp_path: Path) -> None:
    """Issue 20: the note that a mail's replies are queued is one byte appended to
    the file that counts its tries (a new file cost 0.5 ms under load), and it
    survives the next try's count; a mail an earlier version marked answered (a
    ``replied`` file) is still seen as answered."""
    spool = IncomingSpool(tmp_path)
    entry = spool.begin(spool.save(raw("<m1@x>")))
    assert (entry.attempts, entry.answered) == (1, False)
    spool.mark_answered(entry)
    assert sorted(p.name for p in entry.path.iterdir()) == ["attempts", "message.eml",
                                                            "meta.json"]
    again = spool.begin(spool.pending()[0])  # the referee died before done()
    assert (again.attempts, again.answered) == (2, True)
    assert spool.done(again).answered
    older = spool.begin(spool.save(raw("<m2@x>")))
    assert not older.answered
    (older.path / "replied").write_text("orders accepted\n")
    assert spool.begin(older).answered
