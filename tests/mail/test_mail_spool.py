"""Durable spools: idempotent save, shunting after repeated failure, send exactly once;
only what a retry needs is kept, and only for the retention (issue 15)."""

from __future__ import annotations

import contextlib
import email
import os
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
from pbmref.mail import spool as spool_module
from pbmref.mail.base import Outgoing

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
    done = spool.done(spool.begin(entry))
    assert [p.name for p in (tmp_path / "done").iterdir()] == [entry.id]
    assert done.raw() == b"" and done.message_id == "<m1@x>" and done.attempts == 1
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
    assert entry.raw().endswith(b"x\r\n")  # set aside, never lost
    assert spool.save(raw("<bad@x>")).duplicate  # and not taken in again


def test_a_mail_killed_among_others_is_not_counted_against_it(tmp_path: Path) -> None:
    """Issue 40, item 3: the referee killed while a mail was being handled with
    others (a round of several mails) is not the mail's fault, however many
    times it happens: the mail is not set aside, only marked to be handled
    alone next (``interrupted``). Before, three such kills set it aside."""
    spool = IncomingSpool(tmp_path, max_attempts=3)
    spool.save(raw("<good@x>"))
    for n in range(1, 6):
        (entry,) = spool.pending()
        spool.begin(entry)  # then the process dies: no failed(), no mark_answered()
        (again,) = spool.pending()
        assert (again.interrupted, again.deaths_alone, again.attempts) == (True, 0, n)
    assert spool.shunted() == []


def test_a_mail_is_set_aside_after_dying_alone_max_attempts_times_in_a_row(
        tmp_path: Path) -> None:
    """A mail that really kills the process (say, its memory): handled alone
    after the first death, it dies each time; after ``max_attempts`` such deaths
    in a row it is set aside with its reason, never handled again."""
    spool = IncomingSpool(tmp_path, max_attempts=3)
    spool.save(raw("<kill@x>"))
    (entry,) = spool.pending()
    spool.begin(entry)  # died in a round with other mails
    for n in range(1, 4):
        (entry,) = spool.pending()
        assert entry.interrupted and entry.deaths_alone == n - 1
        spool.begin(entry, alone=True)  # and died again, alone
    assert spool.pending() == []
    ((shunted, reason),) = spool.shunted()
    assert shunted.message_id == "<kill@x>" and "3 times" in reason and "alone" in reason


def test_a_try_that_ends_well_or_raises_is_no_death(tmp_path: Path) -> None:
    """A try ends when the mail's handling is over (its replies queued) or when
    handling it raises: neither is a death, and the deaths counted before are
    no longer in a row. Only raises count towards setting it aside then; a
    death after the handling (while the round sends, say) is not the mail's."""
    spool = IncomingSpool(tmp_path, max_attempts=3)
    spool.save(raw("<m@x>"))
    (entry,) = spool.pending()
    spool.begin(spool.begin(entry), alone=True)  # two deaths, one alone
    (entry,) = spool.pending()
    assert spool.failed(spool.begin(entry, alone=True), "ValueError: boom") is False
    (entry,) = spool.pending()
    assert (entry.interrupted, entry.deaths_alone, entry.failures, entry.attempts) == (
        False, 0, 1, 3)
    for _ in range(20):  # handled, then the process died before the mail was answered
        spool.handled(spool.begin(spool.begin(entry, alone=True)))
        (entry,) = spool.pending()
        assert (entry.interrupted, entry.deaths_alone) == (False, 0)
    assert len(entry.path.read_bytes().split(b"\n", 1)[0].rstrip()) <= 31  # still one line
    spool.begin(entry, alone=True)
    (entry,) = spool.pending()
    assert (entry.interrupted, entry.deaths_alone) == (True, 1)
    spool.mark_answered(spool.handled(entry) or entry)
    (entry,) = spool.pending()
    assert (entry.interrupted, entry.answered) == (False, True)


def test_a_try_is_counted_without_writing_the_entry_anew(tmp_path: Path) -> None:
    """Issue 20: the attempt counter is the one write of every mail handled; it is
    a byte written into the entry's marks, not the entry written anew (on ext4 a
    file renamed over another costs a flush, and under load a new file 0.5 ms).
    A reply's record of being sent is its move and its file's time: no file is
    made for it."""
    spool = IncomingSpool(tmp_path / "in", max_attempts=5)
    entry = spool.save(raw("<m@x>"))
    before = entry.path.stat()
    rest = entry.path.read_bytes()[32:]  # the meta line and the mail, after the marks
    assert spool.begin(entry).attempts == 1 and spool.begin(entry).attempts == 2
    assert entry.path.stat().st_ino == before.st_ino
    assert entry.path.read_bytes()[32:] == rest
    (again,) = spool.pending()
    assert again.attempts == 2
    done = spool.done(again)
    assert done.attempts == 2 and done.raw() == b"" and done.path.stat().st_ino == before.st_ino
    outspool = OutgoingSpool(tmp_path / "out")
    queued = outspool.enqueue(report(1))
    made = queued.path.stat().st_ino
    meta = queued.path.read_bytes().split(b"\n", 1)[0] + b"\n"
    now = queued.created + timedelta(seconds=1)
    assert outspool.deliver(FakeSender([None]), now=now).sent == [queued.id]
    (sent,) = outspool.sent()
    assert sent.path.read_bytes() == meta and sent.path.stat().st_ino == made
    assert sent.attempts == 1 and sent.meta["sent"] == now.isoformat()
    assert [p.name for p in (tmp_path / "out" / "sent").iterdir()] == [queued.id]
    # a mail sent at its third try says so
    again = outspool.enqueue(report(2))
    for n in range(3):
        outspool.deliver(FakeSender([None if n == 2 else TemporaryFailure("busy")]),
                         now=again.created + timedelta(hours=n + 1), force=True)
    (third,) = [e for e in outspool.sent() if e.id == again.id]
    assert third.attempts == 3
    assert third.meta["sent"] == (again.created + timedelta(hours=3)).isoformat()


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
        self.sent: list[Outgoing] = []
        self.calls = 0

    def send(self, msg: Outgoing) -> None:
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
    assert b"Subject:" not in done.path.read_bytes()  # sent: no retry needs it


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
        def send(self, msg: Outgoing) -> None:
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


def test_a_key_marker_is_a_second_name_of_its_entry_and_follows_it(tmp_path: Path) -> None:
    """Issue 20: a keyed mail's marker is no file of its own (a new file cost 0.2-0.5
    ms under load) but a second name of the entry's file, whose meta line names
    the entry; when the entry is written anew (a retry put off), the marker
    becomes a name of the new file, so no copy of the mail stays behind it (a
    secret one that fails for good leaves none)."""
    spool = OutgoingSpool(tmp_path, backoff_first=1)
    entry = spool.enqueue(report(1), key="password:anna", secret=True)
    (marker,) = (tmp_path / "keys").glob("[!.]*")
    assert marker.stat().st_ino == entry.path.stat().st_ino and marker.stat().st_nlink == 2
    spool.deliver(FakeSender([TemporaryFailure("451")]))
    assert marker.stat().st_ino == (tmp_path / "queue" / entry.id).stat().st_ino
    spool.deliver(FakeSender([PermanentFailure("550")]), force=True)
    (failed,) = spool.failed()
    assert marker.stat().st_ino == failed.path.stat().st_ino
    assert b"Subject:" not in marker.read_bytes()
    assert spool.enqueue(report(1), key="password:anna").id == entry.id
    assert sorted(p.name for p in (tmp_path / "keys").iterdir()) == [".lock", marker.name]


def test_a_secret_mail_leaves_the_spool_also_when_it_fails_for_good(tmp_path: Path) -> None:
    """The new-password mail: delivered or failed, its copy in the spool goes."""
    spool = OutgoingSpool(tmp_path)
    sent = spool.enqueue(report(1), secret=True)
    failed = spool.enqueue(report(2), secret=True)
    plain = spool.enqueue(report(3))
    spool.deliver(FakeSender([None, PermanentFailure("550"), PermanentFailure("550")]))
    assert b"Subject:" not in (tmp_path / "sent" / sent.id).read_bytes()
    assert b"Subject:" not in (tmp_path / "failed" / failed.id).read_bytes()
    (kept,) = [e for e in spool.failed() if e.id == plain.id]
    assert kept.message()["Subject"] == "report 3"  # for the GM to see
    assert "550" in kept.meta["reason"]


def test_crash_between_send_and_move_gives_at_most_one_duplicate(tmp_path: Path) -> None:
    spool = OutgoingSpool(tmp_path)
    spool.enqueue(report())

    class CrashAfterSend(FakeSender):
        def send(self, msg: Outgoing) -> None:
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
    from powercut import flushes

    spool = OutgoingSpool(tmp_path)
    flushed = flushes(monkeypatch)
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
    assert sorted(flushed) == sorted([str(tmp_path / "tmp" / second.id),
                                      str(tmp_path / "keys"), str(tmp_path / "queue")])
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
    os.truncate(torn.path, torn.path.stat().st_size - 20)
    raw = kept.path.read_bytes().split(b"\n", 1)[1]

    alive = OutgoingSpool(tmp_path)
    again = alive.enqueue(report(1), key="reply:m1:0")
    assert again.id == kept.id and [e.id for e in alive.queued()] == [kept.id]
    assert alive.queued()[0].message().as_bytes() == raw
    anew = alive.enqueue(report(2), key="reply:m2:0")
    assert anew.id != torn.id and not (tmp_path / "tmp" / torn.id).exists()
    # the same key again finds the mail taken over, now in the queue
    assert alive.enqueue(report(1), key="reply:m1:0").id == kept.id


def test_an_answered_mail_is_noted_in_its_marks(tmp_path: Path) -> None:
    """Issue 20: the note that a mail's replies are queued is one byte written
    beside the marks that count its tries (a new file cost 0.5 ms under load),
    and it survives the next try's count."""
    spool = IncomingSpool(tmp_path)
    entry = spool.begin(spool.save(raw("<m1@x>")))
    assert (entry.attempts, entry.answered) == (1, False)
    spool.mark_answered(entry)
    assert [p.name for p in (tmp_path / "new").iterdir()] == [entry.id]
    assert entry.path.read_bytes().startswith(b".+ ")
    again = spool.begin(spool.pending()[0])  # the referee died before done()
    assert (again.attempts, again.answered) == (2, True)
    assert spool.done(again).answered


def _old_entry(folder: Path, **files: str | bytes) -> Path:
    """An entry as versions before issue 20 wrote it: a folder of files."""
    folder.mkdir(parents=True)
    for name, data in files.items():
        path = folder / name.replace("_", ".")
        path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return folder


def _tree(root: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None)
            for p in sorted(root.rglob("*"))}


@pytest.mark.parametrize("kind", [IncomingSpool, OutgoingSpool])
def test_a_spool_of_folders_is_refused_and_left_as_it_is(tmp_path: Path, kind: type) -> None:
    """Issue 41, item 3, and issue 44, item 4: a spool written before issue 20
    (an entry a folder of files, no ``.layout``) is not turned into today's
    layout any more: opening it says so in one plain line, and changes nothing."""
    mail = b"From: a@b.c\r\nMessage-ID: <kept@x>\r\n\r\nhello\r\n"
    state = "new" if kind is IncomingSpool else "queue"
    _old_entry(tmp_path / state / "k1", message_eml=mail, meta_json="{}", attempts=".")
    before = _tree(tmp_path)
    with pytest.raises(spool_module.SpoolFormatError, match="an old pbmref"):
        kind(tmp_path)
    assert _tree(tmp_path) == before


@pytest.mark.parametrize("kind", [IncomingSpool, OutgoingSpool])
def test_a_spool_of_today_gets_its_format_written(tmp_path: Path, kind: type) -> None:
    """A spool written before the formats were kept (0.1.0: a ``.layout`` file,
    one file an entry) is format 1: its format file is written at its first
    opening, and its entries stay as they are; a fresh spool has one at once."""
    fresh = kind(tmp_path / "fresh")
    assert "format: 1" in (fresh.root / "format.yaml").read_text()
    old = tmp_path / "old"
    if kind is IncomingSpool:
        IncomingSpool(old).save(raw("<m1@x>"))
    else:
        OutgoingSpool(old).enqueue(report(1), key="report:1")
    (old / "format.yaml").unlink()  # as 0.1.0 left it
    (old / ".layout").write_text("2 one file an entry\n")
    before = _tree(old)
    spool = kind(old)
    assert "format: 1" in (old / "format.yaml").read_text()
    assert {k: v for k, v in _tree(old).items() if k != "format.yaml"} == before
    waiting = spool.pending() if kind is IncomingSpool else spool.queued()
    assert len(waiting) == 1


@pytest.mark.parametrize("kind", [IncomingSpool, OutgoingSpool])
def test_a_spool_of_a_newer_release_is_refused(tmp_path: Path, kind: type) -> None:
    kind(tmp_path)
    (tmp_path / "format.yaml").write_text("format: 2\n")
    before = _tree(tmp_path)
    with pytest.raises(spool_module.SpoolFormatError,
                       match=r"format.yaml: written by a newer pbmref \(format 2 of a spool"):
        kind(tmp_path)
    assert _tree(tmp_path) == before


def _aged(path: Path, age: timedelta) -> Path:
    """``path`` made to look written ``age`` ago (its file time)."""
    then = (datetime.now(UTC) - age).timestamp()
    os.utime(path, (then, then))
    return path


def test_prune_takes_what_a_writer_killed_half_way_left_in_tmp(tmp_path: Path) -> None:
    """A process killed between writing an entry in ``tmp/`` and naming it leaves
    the file there, a whole mail with any password in it, which nobody reads:
    pruning deletes it once no writer can still be at work on it (an incoming
    mail is written and named in one step: after an hour; a reply held for a
    delivery round, which a round after a kill takes over: after
    ``give_up_after``, when a queued one would be given up too), and a
    half-written ``.NAME.X.tmp`` beside the entries after an hour. Fresh ones
    stay. The count is of entries, those of `tmp/` among them."""
    inspool = IncomingSpool(tmp_path / "in")
    left = tmp_path / "in" / "tmp" / "abc.4242.0badc0de"
    left.write_bytes(b"From: a@b.c\r\n\r\npassword: five common words here\r\n")
    fresh = tmp_path / "in" / "tmp" / "def.4243.0badc0de"
    fresh.write_bytes(b"being written")
    half = tmp_path / "in" / "done" / ".xyz.k3j4.tmp"
    half.write_bytes(b"half")
    _aged(left, timedelta(minutes=59))
    assert inspool.prune(timedelta(days=14)) == 0 and left.exists()
    _aged(left, timedelta(hours=2))
    _aged(half, timedelta(hours=2))
    assert inspool.prune(timedelta(days=14)) == 1  # an entry; a half-written file is none
    assert not left.exists() and not half.exists() and fresh.exists()

    dead = OutgoingSpool(tmp_path / "out", give_up_after=5 * 24 * 3600.0)
    hold = dead.holding()
    hold.__enter__()  # and never leaves it: killed
    old = dead.enqueue(report(1), key="reply:m1:0")
    young = dead.enqueue(report(2), key="reply:m2:0")
    keys = tmp_path / "out" / "keys"
    assert len(list(keys.glob("[!.]*"))) == 2
    _aged(old.path, timedelta(days=4))
    alive = OutgoingSpool(tmp_path / "out", give_up_after=5 * 24 * 3600.0)
    assert alive.prune(timedelta(days=14)) == 0 and old.path.exists()
    _aged(old.path, timedelta(days=6))
    temp = tmp_path / "out" / "tmp" / f".{young.id}.x1y2.tmp"  # a rewrite killed half-way
    temp.write_bytes(b"half")
    _aged(temp, timedelta(days=6))
    assert alive.prune(timedelta(days=14)) == 1  # the half-written temp is no entry
    assert not old.path.exists() and not temp.exists() and young.path.exists()
    assert len(list(keys.glob("[!.]*"))) == 1  # its key marker went with it
    # the reply is made anew if its mail is handled again; the young one is
    # still taken over whole, and held anew its age counts from then
    _aged(young.path, timedelta(days=6))
    again = alive.holding()
    again.__enter__()
    assert alive.enqueue(report(1), key="reply:m1:0").id != old.id
    assert alive.enqueue(report(2), key="reply:m2:0").id == young.id
    assert OutgoingSpool(tmp_path / "out").prune(timedelta(days=14)) == 0
    assert young.path.exists()


def test_prune_takes_a_key_marker_temp_a_killed_writer_left_in_keys(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A reply's key marker is made as a dotted temp name of its entry's file in
    ``keys/`` (``.NAME.PID.tmp``), then renamed over the marker. A process
    killed between the two leaves the temp: a third name of the entry file,
    which keeps the reply (a password in it) on disk after the entry and its
    marker are gone. Pruning deletes it an hour after it was made, like the
    other half-written temps; a temp just made of an entry written long ago
    (a marker being made at that moment) stays, and so do the entry's own
    names. A new name changes a file without writing it, so the hour counts
    from that change, which no test can set back: the hour is made none."""
    spool = OutgoingSpool(tmp_path / "out")
    entry = spool.enqueue(report(1), key="reply:m1:0")
    keys = tmp_path / "out" / "keys"
    (marker,) = keys.glob("[!.]*")
    _aged(entry.path, timedelta(hours=2))
    left = keys / f".{marker.name}.4242.tmp"
    os.link(entry.path, left)
    assert spool.prune(timedelta(days=14)) == 0 and left.exists()
    monkeypatch.setattr(spool_module.entries, "_LEFT_BEHIND", timedelta(0))
    monkeypatch.setattr(spool_module.outgoing, "_LEFT_BEHIND", timedelta(0))
    assert spool.prune(timedelta(days=14)) == 0  # a temp is no entry
    assert not left.exists()
    assert entry.path.exists() and marker.samefile(entry.path)
    assert OutgoingSpool(tmp_path / "out").queued()[0].id == entry.id


@pytest.mark.parametrize("held", [False, True])
def test_a_mail_is_sent_as_the_bytes_queued_never_parsed_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, held: bool) -> None:
    """Issue 43: a mail is flattened once, when queued; delivery hands the sender
    those bytes (from the entry, or kept in the hold), with no parse and no
    second flattening."""
    spool = OutgoingSpool(tmp_path)
    msg = make_mail("p@example.org", "report", "body\n" * 50, from_addr="referee@game.test",
                    html="<p>body</p>")
    flat = msg.as_bytes()

    def no(*_: object, **__: object) -> None:
        raise AssertionError("delivery parsed or flattened the mail again")

    sender = FakeSender([])
    with spool.holding() if held else contextlib.nullcontext():
        spool.enqueue(msg)
        monkeypatch.setattr(EmailMessage, "as_bytes", no)
        monkeypatch.setattr(email, "message_from_bytes", no)
        assert len(spool.deliver(sender).sent) == 1
    (sent,) = sender.sent
    assert sent.raw == flat
    assert sent.sender == "referee@game.test" and sent.recipients == ("p@example.org",)
