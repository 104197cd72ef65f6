"""The game master hears about trouble (issue 44, item 7): a mail server that
has failed past the threshold gets one notice, again at most once a day, and
one when it works again; runs sharing the spool share what they saw."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pbmref.mail.health import ServerWatch, trouble

T0 = datetime(2026, 12, 6, 8, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


def watch(tmp_path: Path, clock: Clock, told: list[tuple[str, str, str]],
          server: str = "imap") -> ServerWatch:
    return ServerWatch(tmp_path, server, "imap.example.org", after=timedelta(hours=1),
                       notify=lambda *notice: told.append(notice), clock=clock)


# (minutes after the first failure, what happens, notices told by then)
STORY = [
    (0, "failed", 0),
    (30, "failed", 0),      # not yet past the hour
    (61, "failed", 1),      # past it: one notice
    (120, "failed", 1),     # told already today
    (61 + 24 * 60, "failed", 2),  # a day later, still failing: again
    (62 + 24 * 60, "ok", 3),      # works again: one notice
    (63 + 24 * 60, "ok", 3),      # and only one
    (70 + 24 * 60, "failed", 3),  # a new failure starts its own hour
    (140 + 24 * 60, "failed", 4),
]


def test_one_notice_past_the_threshold_again_a_day_later_and_when_it_works(
        tmp_path: Path) -> None:
    clock, told = Clock(), []
    imap = watch(tmp_path, clock, told)
    for minutes, what, count in STORY:
        clock.now = T0 + timedelta(minutes=minutes)
        if what == "failed":
            imap.failed("IMAP imap.example.org:993 (search) failed 6 times; last error: timed out")
        else:
            imap.ok()
        assert len(told) == count, (minutes, what, told)
    subjects = [subject for _, subject, _ in told]
    assert subjects == ["the mailbox (IMAP) has failed since Sun 06 Dec 08:00 UTC"] * 2 + [
        "the mailbox (IMAP) works again", "the mailbox (IMAP) has failed since Mon 07 Dec 09:10 UTC"]
    assert "The last error: IMAP imap.example.org:993 (search) failed 6 times" in told[0][2]
    assert "Nothing is lost" in told[0][2] and "pbmref mail test" in told[0][2]
    keys = [key for key, _, _ in told]
    assert len(set(keys)) == len(keys)  # each notice queued once, whoever queues it


def test_runs_sharing_the_spool_share_since_when(tmp_path: Path) -> None:
    """Cron's runs each fail once; together they are past the hour."""
    clock, told = Clock(), []
    watch(tmp_path, clock, told).failed("refused")
    clock.now = T0 + timedelta(minutes=65)
    later_run = watch(tmp_path, clock, told)
    later_run.failed("refused")
    assert len(told) == 1
    (now_failing,) = trouble(tmp_path)
    assert (now_failing.server, now_failing.since, now_failing.told) == \
        ("imap", T0, T0 + timedelta(minutes=65))
    assert now_failing.line(clock.now).startswith(
        "the mailbox (IMAP) imap.example.org has failed since Sun 06 Dec 08:00 UTC (1.1 h)")
    later_run.ok()
    assert trouble(tmp_path) == []


def test_a_notice_that_cannot_be_queued_never_stops_the_referee(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    def broken(*notice: str) -> None:
        raise OSError("disk full")

    clock = Clock()
    smtp = ServerWatch(tmp_path, "smtp", "smtp.example.org", after=timedelta(minutes=5),
                       notify=broken, clock=clock)
    smtp.failed("cannot reach SMTP server")
    clock.now += timedelta(minutes=6)
    with caplog.at_level(logging.ERROR):
        smtp.failed("cannot reach SMTP server")
    assert "could not queue the notice" in caplog.text
    assert trouble(tmp_path)[0].server == "smtp"


def test_the_state_files_keep_their_layout_to_the_byte(tmp_path: Path) -> None:
    """``mail-health.json`` and ``last-round.json`` may be read by an older
    process or looked at by the game master: their layout stays as it is."""
    from pbmref.mail.health import HEALTH_FILE, ROUND_FILE, last_round, note_round

    clock, told = Clock(), list[tuple[str, str, str]]()
    w = watch(tmp_path, clock, told)
    w.failed("connection refused")
    clock.now = T0 + timedelta(hours=2)
    w.failed("login failed")
    assert (tmp_path / HEALTH_FILE).read_text(encoding="utf-8") == (
        '{\n "imap": {\n  "since": "2026-12-06T08:00:00+00:00",\n'
        '  "host": "imap.example.org",\n  "error": "login failed",\n'
        '  "told": "2026-12-06T10:00:00+00:00"\n }\n}\n')
    note_round(tmp_path, T0)
    assert (tmp_path / ROUND_FILE).read_bytes() == b'{"last_round": "2026-12-06T08:00:00+00:00"}\n'
    assert last_round(tmp_path) == T0
