"""Sending within a provider's limits (issue 44, item 9): the outgoing spool
sends no more than ``send_per_minute`` mails a minute and
``recipients_per_day`` recipients in any 24 hours; the rest stays queued,
due when the window has room; every process that delivers counts the same
sends (the ledger in the spool); a mail queued ``first`` goes before the
others."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from pbmref.mail import OutgoingSpool, make_mail
from pbmref.mail.base import Outgoing
from pbmref.mail.pace import Pace, recipients_of

# A moment after the mails these tests queue (each is due when queued, at the real
# clock, however long the suite ran before): a fixed date made them not yet due
# once the day passed it.
T0 = datetime.now(UTC).replace(second=0, microsecond=0) + timedelta(days=2)


class Sent:
    def __init__(self) -> None:
        self.subjects: list[str] = []

    def send(self, msg: Outgoing) -> None:
        self.subjects.append(str(msg["Subject"]))


def _spool(root: Path, **limits: int) -> OutgoingSpool:
    return OutgoingSpool(root, pace=Pace(**limits))


def _queue(spool: OutgoingSpool, n: int, to: str = "p@example.org", **kw: bool) -> None:
    for i in range(n):
        spool.enqueue(make_mail(to, f"mail {i}", "x", from_addr="ref@example.org"), **kw)


def test_a_minute_takes_no_more_than_send_per_minute(tmp_path: Path) -> None:
    spool, sent = _spool(tmp_path, send_per_minute=2), Sent()
    _queue(spool, 5)
    first = spool.deliver(sent, now=T0)
    assert sent.subjects == ["mail 0", "mail 1"] and len(first.paced) == 3
    assert len(spool.queued()) == 3 and first.failed == [] and first.deferred == []
    assert spool.deliver(sent, now=T0 + timedelta(seconds=59)).sent == []
    assert len(spool.deliver(sent, now=T0 + timedelta(seconds=61)).sent) == 2
    assert sent.subjects[2:] == ["mail 2", "mail 3"]  # in order


def test_the_ledger_is_the_spools_so_every_deliverer_counts_the_same(tmp_path: Path) -> None:
    _queue(_spool(tmp_path), 3)
    assert len(_spool(tmp_path, send_per_minute=2).deliver(Sent(), now=T0).sent) == 2
    other = _spool(tmp_path, send_per_minute=2)  # another process: cron beside the daemon
    assert other.deliver(Sent(), now=T0 + timedelta(seconds=10)).sent == []
    assert other.next_due() is not None


def test_recipients_a_day_count_every_address(tmp_path: Path) -> None:
    spool, sent = _spool(tmp_path, recipients_per_day=3), Sent()
    _queue(spool, 2, to="a@example.org, b@example.org")
    assert recipients_of("a@example.org, b@example.org") == 2
    assert len(spool.deliver(sent, now=T0).sent) == 1  # 2 of 3; the next would make 4
    assert spool.deliver(sent, now=T0 + timedelta(hours=23)).sent == []
    assert len(spool.deliver(sent, now=T0 + timedelta(hours=24, seconds=1)).sent) == 1


def test_a_mail_to_more_than_a_days_recipients_goes_alone_in_an_empty_day(
        tmp_path: Path) -> None:
    spool = _spool(tmp_path, recipients_per_day=2)
    _queue(spool, 1, to="a@x.org, b@x.org, c@x.org")
    assert len(spool.deliver(Sent(), now=T0).sent) == 1


def test_held_mails_the_pace_keeps_back_join_the_queue(tmp_path: Path) -> None:
    spool, sent = _spool(tmp_path, send_per_minute=1), Sent()
    with spool.holding():
        _queue(spool, 3)
        report = spool.deliver(sent)
    assert len(report.sent) == 1 and len(report.paced) == 2
    assert [e.message()["Subject"] for e in spool.queued()] == ["mail 1", "mail 2"]
    assert list((tmp_path / "tmp").iterdir()) == []


def test_a_mail_queued_first_goes_before_the_queue(tmp_path: Path) -> None:
    spool, sent = _spool(tmp_path, send_per_minute=1), Sent()
    _queue(spool, 3)
    spool.enqueue(make_mail("gm@example.org", "to the game master", "x",
                            from_addr="ref@example.org"), first=True)
    spool.deliver(sent, now=T0)
    assert sent.subjects == ["to the game master"]


def test_the_daemon_waits_until_the_window_has_room(tmp_path: Path) -> None:
    spool = _spool(tmp_path, send_per_minute=1)
    _queue(spool, 2)
    now = datetime.now(UTC)
    spool.deliver(Sent(), now=now)
    due = spool.next_due()
    assert due is not None and due >= now + timedelta(seconds=59)
    unpaced = _spool(tmp_path)  # no limits: due as queued
    assert unpaced.next_due() is not None and unpaced.next_due() <= now  # type: ignore[operator]


def test_no_limits_no_ledger(tmp_path: Path) -> None:
    spool = _spool(tmp_path)
    _queue(spool, 50)
    assert len(spool.deliver(Sent(), now=T0).sent) == 50
    assert not (tmp_path / "pace.json").exists()
