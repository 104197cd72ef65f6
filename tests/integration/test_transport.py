"""The mail transport against real servers: SMTP relay -> Dovecot -> ImapIntake, no mocks."""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from mailservers import MailServers

from pbmref.mail import (
    IncomingSpool,
    IntakeError,
    OutgoingSpool,
    PermanentFailure,
    TemporaryFailure,
    finish,
    make_mail,
    read_message,
    take_in,
)
from pbmref.mail.base import Outgoing
from pbmref.mail.imap_in import ImapIntake
from pbmref.mail.smtp_out import SmtpSender

pytestmark = pytest.mark.integration


def order_mail(sender: str, to: str, subject: str, body: str = "GAME zep1\nEND\n") -> bytes:
    return (f"From: {sender}\r\nTo: {to}\r\nSubject: {subject}\r\n"
            f"\r\n{body}").encode()


def intake_for(ms: MailServers, user: str, state: Path, **kw: object) -> ImapIntake:
    opts: dict[str, object] = {"backoff_first": 0.1, "backoff_max": 0.5, "reconnect_attempts": 40,
                               "timeout": 5.0}
    opts.update(kw)
    return ImapIntake(ms.host, ms.imap_port, user=user, password=ms.password(user), security="none",
                      state_file=state, **opts)  # type: ignore[arg-type]


def sender_for(ms: MailServers, **kw: object) -> SmtpSender:
    return SmtpSender(ms.host, ms.smtp_port, security="none", timeout=10, **kw)  # type: ignore[arg-type]


def test_smtp_to_dovecot_to_intake_then_moved_to_handled(mailservers: MailServers,
                                                         tmp_path: Path) -> None:
    ms = mailservers
    ref = ms.fresh_user("ref")
    before = datetime.now(UTC) - timedelta(seconds=5)
    msg = make_mail(ms.address(ref), "zep1 orders", "GAME zep1\nEND",
                    from_addr=ms.address("player1"), from_name="Player One")
    sender_for(ms).send(Outgoing.of(msg))
    assert ms.wait_count(ref, 1) == 1

    intake = intake_for(ms, ref, tmp_path / "state.json")
    try:
        got = list(intake.fetch_new())
        assert len(got) == 1
        raw = got[0]
        assert raw.arrived.tzinfo is not None and raw.arrived.utcoffset() == timedelta(0)
        assert before <= raw.arrived <= datetime.now(UTC) + timedelta(seconds=5)
        mail = read_message(raw.raw)
        assert mail.subject == "zep1 orders"
        assert mail.from_addr == ms.address("player1")
        assert mail.message_id == msg["Message-ID"]
        # BODY.PEEK: nothing flagged \Seen, still in INBOX until marked
        assert ms.count(ref) == 1
        intake.mark_handled(raw.key)
        assert ms.count(ref) == 0
        assert ms.count(ref, "pbmref-handled") == 1
        assert list(intake.fetch_new()) == []
    finally:
        intake.close()


def test_last_uid_survives_restart_and_new_state_refetches(mailservers: MailServers,
                                                           tmp_path: Path) -> None:
    ms = mailservers
    ref = ms.fresh_user("ref")
    for i in range(3):
        ms.append(ref, order_mail("player1@game.test", f"{ref}@game.test", f"m{i}"))
    first = intake_for(ms, ref, tmp_path / "a.json")
    assert [read_message(r.raw).subject for r in first.fetch_new()] == ["m0", "m1", "m2"]
    first.close()
    again = intake_for(ms, ref, tmp_path / "a.json")  # same state: nothing new
    assert list(again.fetch_new()) == []
    again.close()
    fresh = intake_for(ms, ref, tmp_path / "b.json")  # lost state: all again ...
    spool = IncomingSpool(tmp_path / "spool")
    for raw in fresh.fetch_new():
        spool.save(raw)
    fresh.close()
    fresh = intake_for(ms, ref, tmp_path / "c.json")
    dup = [spool.save(r).duplicate for r in fresh.fetch_new()]  # ... and the spool drops them
    fresh.close()
    assert dup == [True, True, True]
    assert len(spool.pending()) == 3


def test_an_empty_state_file_left_by_a_power_cut_means_no_record(
        mailservers: MailServers, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The last UID is written unflushed (issue 20): a power cut may leave its
    file empty. That reads as no record, with a warning: the mails still in the
    inbox are handed out again and the spool drops them as known."""
    ms = mailservers
    ref = ms.fresh_user("ref")
    for i in range(2):
        ms.append(ref, order_mail("player1@game.test", f"{ref}@game.test", f"m{i}"))
    spool = IncomingSpool(tmp_path / "spool")
    first = intake_for(ms, ref, tmp_path / "s.json")
    for raw in first.fetch_new():
        spool.save(raw)
    first.close()
    (tmp_path / "s.json").write_text("")
    again = intake_for(ms, ref, tmp_path / "s.json")
    assert [spool.save(r).duplicate for r in again.fetch_new()] == [True, True]
    again.close()
    assert "unreadable IMAP state file" in caplog.text
    assert len(spool.pending()) == 2
    assert json.loads((tmp_path / "s.json").read_text())["last_uid"] >= 2


def test_idle_wakes_on_new_mail(mailservers: MailServers, tmp_path: Path) -> None:
    ms = mailservers
    ref = ms.fresh_user("ref")
    intake = intake_for(ms, ref, tmp_path / "s.json")
    try:
        assert intake.has_capability("IDLE")
        assert list(intake.fetch_new()) == []
        timer = threading.Timer(0.5, ms.send, args=("player2@game.test", [ms.address(ref)],
                                                    order_mail("player2@game.test", ref, "idle")))
        timer.start()
        # Dovecot looks for new mail every second besides inotify (its
        # mailbox_idle_check_interval, set in mailservers.py), so 30 s is thirty
        # of its checks: a wake-up missed on a loaded machine is caught by the next
        woke = intake.wait(30)
        timer.join()
        assert woke is True  # woken by the server, not by the 30 s timeout
        got = list(intake.fetch_new())
        assert [read_message(r.raw).subject for r in got] == ["idle"]
    finally:
        intake.close()


def test_imap_killed_and_restarted_while_in_use(servers_up: MailServers, tmp_path: Path) -> None:
    ms = servers_up
    ref = ms.fresh_user("ref")
    ms.append(ref, order_mail("player1@game.test", ref, "before"))
    intake = intake_for(ms, ref, tmp_path / "s.json")
    try:
        assert [read_message(r.raw).subject for r in intake.fetch_new()] == ["before"]
        assert intake.connects == 1
        # crash while IDLE: wait() returns, it does not raise
        killer = threading.Timer(0.3, ms.kill_imap)
        killer.start()
        intake.wait(20)
        killer.join()
        # server still down: the next fetch retries with back-off until it is back
        starter = threading.Timer(1.0, ms.start_imap)
        starter.start()
        got = list(intake.fetch_new())
        starter.join()
        assert got == []
        assert intake.connects == 2
        ms.append(ref, order_mail("player1@game.test", ref, "after"))
        got = list(intake.fetch_new())
        assert [read_message(r.raw).subject for r in got] == ["after"]
        # mark while the server is gone: remembered, done on the next connection
        ms.kill_imap()
        intake.reconnect_attempts = 2
        intake.mark_handled(got[0].key)
        ms.start_imap()
        intake.reconnect_attempts = 40
        assert list(intake.fetch_new()) == []
        assert ms.count(ref, "pbmref-handled") == 1
        assert [read_message(r).subject for r in ms.fetch_all(ref)] == ["before"]
    finally:
        intake.close()


def test_smtp_down_spool_keeps_mail_and_delivers_exactly_once(servers_up: MailServers,
                                                              tmp_path: Path) -> None:
    ms = servers_up
    player = ms.fresh_user("p")
    spool = OutgoingSpool(tmp_path / "out", backoff_first=30)
    sender = sender_for(ms)
    msg = make_mail(ms.address(player), "Turn 3 report", "report text",
                    from_addr=ms.address("referee"))
    spool.enqueue(msg)
    ms.stop_smtp()
    t0 = datetime.now(UTC)
    first = spool.deliver(sender, now=t0)
    assert first.sent == [] and len(first.deferred) == 1
    (entry,) = spool.queued()
    assert entry.attempts == 1 and entry.next_attempt == t0 + timedelta(seconds=30)
    assert "cannot reach" in entry.last_error
    # not due yet: not even tried
    assert spool.deliver(sender, now=t0 + timedelta(seconds=10)).deferred == [entry.id]
    ms.start_smtp()
    # Dovecot down behind a live relay: 451, still temporary
    ms.kill_imap()
    second = spool.deliver(sender, now=t0 + timedelta(seconds=31))
    assert len(second.deferred) == 1
    assert spool.queued()[0].next_attempt == t0 + timedelta(seconds=31 + 60)
    ms.start_imap()
    third = spool.deliver(sender, now=t0 + timedelta(hours=1))
    assert third.sent == [entry.id]
    assert spool.deliver(sender, now=t0 + timedelta(days=1)).sent == []
    assert spool.queued() == [] and len(spool.sent()) == 1
    delivered = [read_message(r) for r in ms.fetch_all(player)]
    assert [m.message_id for m in delivered] == [msg["Message-ID"]]


def test_smtp_login_and_permanent_refusal(mailservers: MailServers) -> None:
    ms = mailservers
    player = ms.fresh_user("p")
    ok = sender_for(ms, user="referee", password=ms.password("referee"))
    ok.send(Outgoing.of(make_mail(ms.address(player), "with login", "x", from_addr=ms.address("referee"))))
    assert ms.wait_count(player, 1) == 1
    bad_login = sender_for(ms, user="referee", password="wrong")
    with pytest.raises(TemporaryFailure, match="login"):
        bad_login.send(Outgoing.of(make_mail(ms.address(player), "x", "x", from_addr=ms.address("referee"))))
    with pytest.raises(PermanentFailure, match="refused"):
        sender_for(ms).send(Outgoing.of(make_mail("nobody@game.test", "x", "x",
                                      from_addr=ms.address("referee"))))


def test_oversized_mail_fetched_as_headers_only(mailservers: MailServers, tmp_path: Path) -> None:
    ms = mailservers
    ref = ms.fresh_user("ref")
    big = order_mail("player1@game.test", ref, "huge", "x" * 200_000 + "\r\n")
    ms.append(ref, big)
    intake = intake_for(ms, ref, tmp_path / "s.json", max_fetch_bytes=50_000)
    try:
        (raw,) = list(intake.fetch_new())
    finally:
        intake.close()
    assert raw.size >= 200_000 and len(raw.raw) < 1000
    mail = read_message(raw.raw, max_bytes=50_000, size=raw.size)
    assert mail.oversized and mail.subject == "huge" and mail.text == ""


def test_take_in_then_finish_round_trip(mailservers: MailServers, tmp_path: Path) -> None:
    ms = mailservers
    ref = ms.fresh_user("ref")
    for i in range(4):
        ms.send("player3@game.test", [ms.address(ref)],
                order_mail("player3@game.test", ref, f"t{i}"))
    assert ms.wait_count(ref, 4) == 4
    spool = IncomingSpool(tmp_path / "in")
    intake = intake_for(ms, ref, tmp_path / "s.json")
    try:
        report = take_in(intake, spool)
        assert len(report.new) == 4
        entries = spool.pending()
        assert [read_message(e.raw()).subject for e in entries] == ["t0", "t1", "t2", "t3"]
        finish(intake, spool, entries[0])
        # crash after done but before the move: a new run re-marks it, nothing is handled twice
        spool.done(entries[1])
    finally:
        intake.close()
    again = intake_for(ms, ref, tmp_path / "other-state.json")
    try:
        report = take_in(again, spool)
    finally:
        again.close()
    assert report.new == [] and report.duplicates == 3 and report.remarked == 1
    assert ms.count(ref, "pbmref-handled") == 2
    assert len(spool.pending()) == 2


def test_a_rounds_mails_are_moved_to_handled_in_one_command(
        mailservers: MailServers, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A round marks its mails together: one MOVE for the lot (issue 20: a MOVE
    a mail cost 2.5 ms each in a batch of 500)."""
    ms = mailservers
    ref = ms.fresh_user("ref")
    for i in range(4):
        ms.append(ref, order_mail("player1@game.test", ref, f"mail {i}"))
    intake = intake_for(ms, ref, tmp_path / "s.json")
    moves: list[list[int]] = []
    try:
        got = list(intake.fetch_new())
        real = intake._move
        monkeypatch.setattr(intake, "_move", lambda c, uids: moves.append(uids) or real(c, uids))
        intake.mark_handled(*(raw.key for raw in got))
    finally:
        intake.close()
    assert len(got) == 4 and len(moves) == 1 and len(moves[0]) == 4
    assert ms.count(ref) == 0 and ms.count(ref, "pbmref-handled") == 4


def test_without_idle_and_move_polls_and_copies(mailservers: MailServers, tmp_path: Path) -> None:
    ms = mailservers
    ref = ms.fresh_user("ref")
    naps: list[float] = []
    intake = intake_for(ms, ref, tmp_path / "s.json", use_idle=False, use_move=False,
                        poll_seconds=7.0, sleep=naps.append)
    try:
        assert not intake.has_capability("IDLE") and not intake.has_capability("MOVE")
        assert intake.wait(100) is False and naps == [7.0]  # polling: one poll interval
        ms.append(ref, order_mail("player1@game.test", ref, "copied"))
        (raw,) = list(intake.fetch_new())
        intake.mark_handled(raw.key)  # COPY + \Deleted + UID EXPUNGE
    finally:
        intake.close()
    assert ms.count(ref) == 0
    assert [read_message(r).subject for r in ms.fetch_all(ref, "pbmref-handled")] == ["copied"]


@pytest.mark.parametrize("security", ["starttls", "tls"])
def test_smtp_over_tls(mailservers: MailServers, security: str) -> None:
    ms = mailservers
    if not ms.tls:
        pytest.skip("no openssl command: the harness has no certificate")
    player = ms.fresh_user("p")
    port = ms.smtps_port if security == "tls" else ms.smtp_port
    sender = SmtpSender(ms.host, port, security=security, user="referee",
                        password=ms.password("referee"), tls_context=ms.client_tls_context(),
                        timeout=10)
    sender.send(Outgoing.of(make_mail(ms.address(player), f"over {security}", "x",
                          from_addr=ms.address("referee"))))
    assert ms.wait_count(player, 1) == 1


@pytest.mark.parametrize("security", ["tls", "starttls"])
def test_imap_intake_over_tls(mailservers: MailServers, tmp_path: Path, security: str) -> None:
    """Implicit TLS (the imaps port), or port 143 and STARTTLS before the login;
    the harness's self-signed certificate, made at its start, is the one trusted."""
    ms = mailservers
    if not ms.tls:
        pytest.skip("no openssl command: the harness has no certificate")
    ref = ms.fresh_user("ref")
    ms.append(ref, order_mail("player1@game.test", ref, security))
    port = ms.imaps_port if security == "tls" else ms.imap_port
    intake = ImapIntake(ms.host, port, user=ref, password=ms.password(ref), security=security,
                        ssl_context=ms.client_tls_context(), state_file=tmp_path / "s.json")
    try:
        (raw,) = list(intake.fetch_new())
        intake.mark_handled(raw.key)
        assert intake._client is not None
        assert intake._client._starttls_done == (security == "starttls")
    finally:
        intake.close()
    assert read_message(raw.raw).subject == security
    assert ms.count(ref, "pbmref-handled") == 1
    # a certificate nobody vouches for is refused before any password is sent
    untrusting = ImapIntake(ms.host, port, user=ref, password=ms.password(ref),
                            security=security, reconnect_attempts=1,
                            state_file=tmp_path / "s2.json")
    with pytest.raises(IntakeError, match="CERTIFICATE_VERIFY_FAILED"):
        list(untrusting.fetch_new())


def test_idle_is_renewed_and_arrival_time_is_the_servers(mailservers: MailServers,
                                                          tmp_path: Path) -> None:
    ms = mailservers
    ref = ms.fresh_user("ref")
    intake = intake_for(ms, ref, tmp_path / "s.json", idle_renew_seconds=0.2)
    try:
        assert list(intake.fetch_new()) == []
        assert intake.wait(3.0) is False  # nothing came: timed out (15 renewals' time) ...
        assert intake.idles >= 2  # ... renewing IDLE on the way
        # INTERNALDATE set by APPEND: returned as the same instant, in UTC
        when = datetime(2026, 11, 29, 23, 59, 58, tzinfo=timezone(timedelta(hours=2)))
        ms.append(ref, order_mail("player1@game.test", ref, "dated"), msg_time=when)
        (raw,) = list(intake.fetch_new())
    finally:
        intake.close()
    assert raw.arrived == when and raw.arrived.tzinfo == UTC


def test_config_from_the_harness_builds_working_intake_and_sender(mailservers: MailServers,
                                                                  tmp_path: Path) -> None:
    from pbmref.config import load_config
    from pbmref.mail import open_intake, open_sender, open_spools

    ms = mailservers
    ref = ms.fresh_user("ref")
    cfg = load_config(ms.write_config(tmp_path, ref, limits={"max_message_bytes": 5000}),
                      required=True)
    sender = open_sender(cfg)
    sender.send(Outgoing.of(make_mail(ms.address(ref), "via config", "x", from_addr=ms.address("player1"))))
    assert ms.wait_count(ref, 1) == 1
    intake = open_intake(cfg)
    inspool, _ = open_spools(cfg)
    try:
        report = take_in(intake, inspool)
        (entry,) = report.new
        assert read_message(entry.raw(), max_bytes=cfg.limits.max_message_bytes).subject == "via config"
        finish(intake, inspool, entry)
    finally:
        intake.close()
    assert ms.count(ref, "pbmref-handled") == 1
    assert (tmp_path / "spool" / "imap-state.json").exists()


def test_uidvalidity_change_refetches_and_spool_drops_duplicates(mailservers: MailServers,
                                                                 tmp_path: Path) -> None:
    ms = mailservers
    ref = ms.fresh_user("ref")
    mails = [order_mail("player1@game.test", ref, f"v{i}").replace(
        b"\r\n\r\n", f"\r\nMessage-ID: <v{i}@game.test>\r\n\r\n".encode(), 1) for i in range(2)]
    for raw in mails:
        ms.append(ref, raw, folder="orders")
    spool = IncomingSpool(tmp_path / "in")
    intake = intake_for(ms, ref, tmp_path / "s.json", folder="orders")
    report = take_in(intake, spool)
    old_key = report.new[0].intake_key
    intake.close()
    assert len(report.new) == 2
    # the folder is rebuilt (new UIDVALIDITY) holding the same mails plus one more
    client = ms.imap(ref)
    client.delete_folder("orders")
    client.logout()
    for raw in [*mails, order_mail("player1@game.test", ref, "v2")]:
        ms.append(ref, raw, folder="orders")
    intake = intake_for(ms, ref, tmp_path / "s.json", folder="orders")
    try:
        report = take_in(intake, spool)
        assert intake.uidvalidity is not None and not old_key.startswith(f"{intake.uidvalidity}:")
        assert report.duplicates == 2 and len(report.new) == 1
        intake.mark_handled(old_key)  # a key from before the change: ignored, nothing moved
        assert ms.count(ref, "orders") == 3
    finally:
        intake.close()


def test_relay_adds_date_and_message_id_like_a_real_mta(mailservers: MailServers) -> None:
    ms = mailservers
    ref = ms.fresh_user("ref")
    ms.send("player1@game.test", [ms.address(ref)],
            b"From: player1@game.test\r\nSubject: bare\r\n\r\nGAME zep1\r\n")
    assert ms.wait_count(ref, 1) == 1
    (raw,) = ms.fetch_all(ref)
    mail = read_message(raw)
    assert mail.date is not None
    assert mail.message_id.endswith("@relay.game.test>")
