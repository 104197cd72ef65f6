"""The referee by real mail (issue 6): Dovecot in, SMTP out, no mocks.

Every test has a referee mailbox and player mailboxes of its own on the
session's private Dovecot; players write through the SMTP relay, the referee
reads with IMAP and answers through SMTP, and the tests read the players'
mailboxes.
"""

from __future__ import annotations

import email
import email.policy
import json
import os
import re
import signal
import subprocess
import sys
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path

import pytest
from mailservers import MailServers

from pbmref import gm
from pbmref.config import load_config
from pbmref.mail.factory import open_intake, open_spools
from pbmref.referee.pipeline import Referee
from pbmref.store import GameStore
from waiting import wait_until

pytestmark = pytest.mark.integration

PBMREF = [sys.executable, "-m", "pbmref"]


@dataclass
class Site:
    ms: MailServers
    root: Path
    config_path: Path
    referee_user: str
    players: dict[str, str]  # player id -> mailbox user
    passwords: dict[str, str]

    @property
    def referee_address(self) -> str:
        return self.ms.address(self.referee_user)

    def config(self):
        return load_config(self.config_path)

    def order_mail(self, pid: str, lines: str, *, password: str | None = None,
                   sender: str | None = None, headers: dict[str, str] | None = None,
                   message_id: str | None = None) -> bytes:
        msg = EmailMessage()
        msg["From"] = sender or self.ms.address(self.players[pid])
        msg["To"] = self.referee_address
        msg["Subject"] = "zep1 orders"
        msg["Date"] = format_datetime(datetime.now(UTC))
        msg["Message-ID"] = message_id or make_msgid(domain="players.test")
        for k, v in (headers or {}).items():
            msg[k] = v
        pw = self.passwords[pid] if password is None else password
        msg.set_content(f"GAME zep1\nPASSWORD {pw}\n{lines}\nEND\n")
        return msg.as_bytes()

    def post(self, raw: bytes, sender: str | None = None) -> None:
        """A player's mail through the SMTP relay into the referee's mailbox."""
        self.ms.send(sender or "player@players.test", [self.referee_address], raw)

    def round(self) -> Referee:
        """One pass of the referee: take in, answer, send."""
        config = self.config()
        referee = Referee(config)
        intake = open_intake(config)
        try:
            referee.take_in(intake)
        finally:
            intake.close()
        referee.deliver(force=True)
        return referee

    def daemon_round(self) -> tuple[Referee, int]:
        """One round the daemon's way (its replies sent within it); the referee
        and how many mails it handled."""
        config = self.config()
        referee = Referee(config)
        intake = open_intake(config)
        try:
            return referee, referee.take_in(intake, send=True)
        finally:
            intake.close()

    def inbox(self, pid: str) -> list[EmailMessage]:
        return [email.message_from_bytes(r, policy=email.policy.default)  # type: ignore[misc]
                for r in self.ms.fetch_all(self.players[pid])]


def text(msg: EmailMessage) -> str:
    part = msg.get_body(("plain",))
    return str(part.get_content()) if part is not None else ""


@pytest.fixture
def site(mailservers: MailServers, tmp_path: Path) -> Site:
    ms = mailservers
    ref = ms.fresh_user("ref")
    players = {pid: ms.fresh_user(pid) for pid in ("anna", "bert", "cora")}
    config_path = ms.write_config(tmp_path, user=ref)
    config = load_config(config_path)
    store = GameStore(config.games_dir)
    created = gm.new_game(
        store, "zep1",
        [gm.PlayerSpec(pid, (ms.address(user),), pid.title()) for pid, user in players.items()],
        title="Real mail", seed=5, deadline=datetime.now(UTC) + timedelta(hours=2),
        turn_length="48h", early_adjudication=False)
    return Site(ms, tmp_path, config_path, ref, players, created.passwords)


PLANE = "PLANE\nTAKEOFF BETA\n1: A\n2: A\n3: L"


def test_order_mail_in_and_its_reply_in_the_players_mailbox(site: Site) -> None:
    site.post(site.order_mail("anna", PLANE))
    assert site.ms.wait_count(site.referee_user, 1) == 1
    site.round()
    assert site.ms.wait_count(site.players["anna"], 1) == 1
    reply = site.inbox("anna")[0]
    assert reply["Subject"] == "Re: zep1 orders"
    assert reply["Auto-Submitted"] == "auto-replied"
    assert "your orders are accepted" in text(reply)
    # handled mail left the referee's INBOX for the handled folder
    assert site.ms.count(site.referee_user) == 0
    assert site.ms.count(site.referee_user, "pbmref-handled") == 1


def test_wrong_password_and_unknown_sender(site: Site) -> None:
    stranger = site.ms.fresh_user("stranger")
    site.post(site.order_mail("bert", PLANE, password="guess"))
    site.post(site.order_mail("anna", PLANE, sender=site.ms.address(stranger)))
    site.ms.wait_count(site.referee_user, 2)
    site.round()
    assert site.ms.wait_count(site.players["bert"], 1) == 1
    assert "wrong or missing PASSWORD" in text(site.inbox("bert")[0])
    assert site.ms.wait_count(stranger, 1) == 1
    assert GameStore(site.config().games_dir).open("zep1").book.entries() == {}


def test_bounce_and_auto_reply_get_no_answer(site: Site) -> None:
    site.post(site.order_mail("anna", PLANE, headers={"Auto-Submitted": "auto-replied"}))
    bounce = (f"From: MAILER-DAEMON@players.test\r\nTo: {site.referee_address}\r\n"
              "Subject: Undelivered Mail Returned to Sender\r\n\r\nsorry\r\n").encode()
    site.post(bounce, sender="")
    site.ms.wait_count(site.referee_user, 2)
    site.round()  # a reply would be in the mailbox now: the relay says 250 once it is stored
    assert site.ms.count(site.players["anna"]) == 0
    assert site.ms.count(site.referee_user, "pbmref-handled") == 2


def test_a_late_mail_is_answered_too_late(site: Site) -> None:
    store = GameStore(site.config().games_dir)
    gm.extend(store, "zep1", -timedelta(hours=3))  # the deadline is now in the past
    site.post(site.order_mail("cora", PLANE))
    site.ms.wait_count(site.referee_user, 1)
    site.round()
    assert site.ms.wait_count(site.players["cora"], 1) == 1
    assert "after the deadline" in text(site.inbox("cora")[0])


def test_a_whole_turn_from_orders_to_reports_in_every_mailbox(site: Site) -> None:
    for pid in site.players:
        site.post(site.order_mail(pid, PLANE))
    site.ms.wait_count(site.referee_user, 3)
    done = subprocess.run([*PBMREF, "adjudicate", "zep1", "--config", str(site.config_path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "zep1: turn 1 adjudicated" in done.stdout
    for pid, user in site.players.items():
        assert site.ms.wait_count(user, 2) == 2
        subjects = [m["Subject"] for m in site.inbox(pid)]
        assert any("turn 1 report" in s for s in subjects), subjects
        report = next(m for m in site.inbox(pid) if "turn 1 report" in m["Subject"])
        assert "ORDERS GIVEN FOR TURN 1" in text(report)


def _serve(site: Site, log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [*PBMREF, "serve", "--config", str(site.config_path), "--poll", "0.5"],
        stdout=open(log, "ab"), stderr=subprocess.STDOUT, start_new_session=True)


def _stop(proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, sig)
    proc.wait(timeout=30)


def _stored_message_ids(site: Site) -> list[str]:
    orders = site.config().games_dir / "zep1" / "turns" / "001" / "orders"
    found = []
    for path in orders.glob("*.yaml"):
        m = re.search(r"^message_id: ['\"]?(<[^>]+>)", path.read_text(), re.M)
        if m:
            found.append(m.group(1))
    return found


def _replied_ids(site: Site) -> list[str]:
    return [orig for orig, _ in _replies(site)]


def _replies(site: Site) -> list[tuple[str, str]]:
    """(the mail answered, the reply's own Message-ID) for every reply delivered."""
    out = []
    for pid in site.players:
        out += [(str(m["In-Reply-To"]), str(m["Message-ID"]))
                for m in site.inbox(pid) if m["In-Reply-To"]]
    return out


def test_a_round_answered_part_by_part_goes_out_over_one_smtp_connection(
        site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    """The daemon's round of more than ROUND_PART mails: each part's replies sent
    by the courier while the next part is handled, all over the round's one
    connection; every mail answered once."""
    from pbmref.mail.smtp_out import SmtpSender
    from pbmref.referee import pipeline

    monkeypatch.setattr(pipeline, "ROUND_PART", 5)
    sent_ids = []
    for i in range(12):
        mid = f"<parts-{i}@players.test>"
        sent_ids.append(mid)
        site.post(site.order_mail(("anna", "bert", "cora")[i % 3], PLANE, message_id=mid))
    assert site.ms.wait_count(site.referee_user, 12) == 12
    connections = []
    real_client = SmtpSender._client

    def client(sender: SmtpSender):  # type: ignore[no-untyped-def]
        connections.append(sender)
        return real_client(sender)

    monkeypatch.setattr(SmtpSender, "_client", client)
    referee, handled = site.daemon_round()
    assert handled == 12
    assert len(connections) == 1
    assert len(referee.outgoing.sent()) == 12 and referee.outgoing.queued() == []
    for pid in ("anna", "bert", "cora"):
        assert site.ms.wait_count(site.players[pid], 4) == 4
    assert sorted(orig for orig, _ in _replies(site)) == sorted(sent_ids)


def test_smtp_down_through_a_round_answered_part_by_part_keeps_every_reply(
        site: Site, servers_up: MailServers, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server is down while the courier sends a round's parts: every reply is
    put off, flushed into the queue before the mails are marked, and each goes
    once when the server is back."""
    from pbmref.referee import pipeline

    monkeypatch.setattr(pipeline, "ROUND_PART", 2)
    site.ms.stop_smtp()
    sent_ids = []
    for i in range(6):
        mid = f"<down-{i}@players.test>"
        sent_ids.append(mid)
        site.ms.append(site.referee_user, site.order_mail(
            ("anna", "bert", "cora")[i % 3], PLANE, message_id=mid))
    referee, handled = site.daemon_round()
    assert handled == 6
    assert len(referee.outgoing.queued()) == 6  # on disk, to be retried
    assert site.ms.count(site.referee_user) == 0  # the mails marked handled
    site.ms.start_smtp()
    assert len(Referee(site.config()).outgoing.queued()) == 6  # a new process sees them
    referee.deliver(force=True)
    for user in site.players.values():
        assert site.ms.wait_count(user, 2) == 2
    assert sorted(orig for orig, _ in _replies(site)) == sorted(sent_ids)


def test_daemon_killed_mid_batch_loses_nothing_and_answers_once(site: Site) -> None:
    log = site.root / "serve.log"
    sent_ids = []
    for i in range(50):
        pid = ("anna", "bert", "cora")[i % 3]
        mid = f"<batch-{i}@players.test>"
        sent_ids.append(mid)
        site.post(site.order_mail(pid, f"PLANE\nTAKEOFF BETA\n1: A\n2: A\n3: {'ALR'[i % 3]}",
                                  message_id=mid))
    proc = _serve(site, log)
    try:
        wait_until(lambda: len(_replied_ids(site)) >= 10, what="10 replies",
                   said=log.read_text)
        _stop(proc, signal.SIGKILL)  # mid-batch
        proc = _serve(site, log)
        wait_until(lambda: len(_replied_ids(site)) >= 50, what="50 replies", timeout=120,
                   step=0.2, said=log.read_text)
    finally:
        _stop(proc)  # SIGTERM: the round in progress ends first, a duplicate is sent by then
    replies = _replies(site)
    assert sorted({orig for orig, _ in replies}) == sorted(sent_ids), log.read_text()[-3000:]
    # Each mail got exactly one reply. A kill while the SMTP server is storing a
    # reply (before its 250 reaches us) can only make the same reply, with the
    # same Message-ID, arrive a second time: at most one such copy per kill.
    assert len(set(replies)) == 50, "a mail was answered twice with different replies"
    assert len(replies) <= 50 + 1
    stored = _stored_message_ids(site)
    assert len(stored) == len(set(stored)), "an order mail was stored twice"
    assert set(stored) == set(sent_ids)


def test_a_power_cut_at_the_spools_flush_loses_no_mail(
        site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fetch's mails reach the spool's disk together, and the IMAP intake
    records them handed out (its last UID) only after that (issue 20). The power
    goes at that flush: what the referee had not flushed is gone, the server's
    mailbox is not; the next referee fetches the mails again and answers each
    once."""
    from pbmref.base import files
    from powercut import Disk

    site.round()  # a referee that ran before: its spool and its intake's record exist
    for n, pid in enumerate(("anna", "bert", "cora")):
        site.post(site.order_mail(pid, PLANE, message_id=f"<flush-{n}@players.test>"))
    assert site.ms.wait_count(site.referee_user, 3) == 3
    disk = Disk(site.root, monkeypatch)

    class PowerCut(BaseException):
        pass

    def power_cut(self: object) -> None:
        disk.off()
        raise PowerCut("the power went at the spool's flush")

    with monkeypatch.context() as mp:
        mp.setattr(files._Together, "flush", power_cut)
        with pytest.raises(PowerCut):
            site.round()
    disk.cut()
    site.round()
    answered = [str(m["In-Reply-To"]) for pid in site.players for m in site.inbox(pid)]
    assert sorted(answered) == [f"<flush-{n}@players.test>" for n in range(3)]


def test_the_intakes_record_of_mails_handed_out_is_not_flushed_on_its_own(
        site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    """The IMAP intake's last UID is written after the spool's copies are on
    disk, and not flushed itself (issue 20: two flushes fewer a round, a
    millisecond or two of a single mail's answer). Losing it costs nothing: the
    mails are fetched again and the spool knows them. The round's flushes are
    the spool's copy, the game and the replies; none is the intake's file or
    its folder's record of it."""
    from powercut import flushes

    site.round()  # the record exists
    site.post(site.order_mail("anna", PLANE, message_id="<one-flush@players.test>"))
    assert site.ms.wait_count(site.referee_user, 1) == 1
    state = site.config().spool_dir / "imap-state.json"
    before = json.loads(state.read_text())["last_uid"]
    flushed = flushes(monkeypatch)
    site.daemon_round()
    monkeypatch.undo()
    assert json.loads(state.read_text())["last_uid"] == before + 1
    assert flushed, "the round flushed nothing"
    assert not [p for p in flushed if "imap-state" in p], flushed
    assert str(state.parent) not in flushed, flushed  # nor the folder's name of it


def test_a_power_cut_after_the_intake_recorded_its_mails_answers_each_once(
        site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    """The power goes just after the take-in wrote its record of the mails
    handed out (not flushed) and before any was answered: the record is back at
    its last flushed state, the spool's copies are on disk; the next referee
    fetches the mails again, finds them in the spool and answers each once."""
    from powercut import Disk

    site.round()
    for n, pid in enumerate(("anna", "bert", "cora")):
        site.post(site.order_mail(pid, PLANE, message_id=f"<record-{n}@players.test>"))
    assert site.ms.wait_count(site.referee_user, 3) == 3
    state = site.config().spool_dir / "imap-state.json"
    before = json.loads(state.read_text())["last_uid"]
    disk = Disk(site.root, monkeypatch)

    class PowerCut(BaseException):
        pass

    def power_cut(self: object, *args: object, **kwargs: object) -> int:
        disk.off()
        raise PowerCut("the power went after the take-in")

    with monkeypatch.context() as mp:
        mp.setattr(Referee, "process_spool", power_cut)
        with pytest.raises(PowerCut):
            site.round()
    assert json.loads(state.read_text())["last_uid"] == before + 3  # written...
    disk.cut()
    assert json.loads(state.read_text())["last_uid"] == before  # ...not flushed
    site.round()
    answered = sorted(str(m["In-Reply-To"]) for pid in site.players for m in site.inbox(pid))
    assert answered == [f"<record-{n}@players.test>" for n in range(3)]
    assert json.loads(state.read_text())["last_uid"] == before + 3


def _mails(site: Site, pid: str) -> list[tuple[str, str | None]]:
    """(Subject, In-Reply-To) of every mail in a player's mailbox, as delivered."""
    return [(str(m["Subject"]), m["In-Reply-To"] and str(m["In-Reply-To"]))
            for m in site.inbox(pid)]


def _delivered(site: Site, **counts: int) -> bool:
    """Whether each player's mailbox holds at least ``counts[player]`` mails and
    the daemon's outgoing spool has nothing left to send or retry. A poll that
    Dovecot, just restarted, does not answer counts as not yet (as in
    ``MailServers.wait_count``)."""
    import imaplib

    try:
        if any(site.ms.count(site.players[pid]) < n for pid, n in counts.items()):
            return False
    except (OSError, imaplib.IMAP4.error):
        return False
    return not open_spools(site.config())[1].queued()


REMINDER = "[zep1] reminder: orders for turn 1"


def test_imap_server_restarted_while_the_daemon_runs(site: Site, servers_up: MailServers) -> None:
    """Dovecot killed and started again under the daemon: the order mail sent
    after it is answered once. The game's deadline is 2 h away and its
    reminder_hours 12, so the daemon's first round, which answers anna, also
    reminds bert and cora (issue 40: the test counted bert's mails, "at least
    one", and failed when the reminder, put off by the kill, arrived with the
    reply). Each player's mailbox is compared whole, once nothing is queued."""
    log = site.root / "serve.log"
    anna_mid, bert_mid = "<restart-anna@players.test>", "<restart-bert@players.test>"
    site.post(site.order_mail("anna", PLANE, message_id=anna_mid))  # in before the first round
    proc = _serve(site, log)
    try:
        wait_until(lambda: _delivered(site, anna=1, bert=1), alive=proc, step=0.2,
                   what="anna's reply and bert's reminder", said=log.read_text)
        assert _mails(site, "anna") == [("Re: zep1 orders", anna_mid)]
        assert _mails(site, "bert") == [(REMINDER, None)]
        site.ms.kill_imap()
        wait_until(lambda: "mailbox cannot be read" in log.read_text(), alive=proc,
                   what="the daemon to find the mailbox gone", said=log.read_text)
        site.ms.restart_imap()
        site.post(site.order_mail("bert", PLANE, message_id=bert_mid))
        wait_until(lambda: _delivered(site, bert=2), alive=proc, step=0.2, timeout=90,
                   what="the reply to bert", said=log.read_text)
        # a doubled reply would be there now: the relay says 250 once it is stored
        assert _mails(site, "bert") == [(REMINDER, None), ("Re: zep1 orders", bert_mid)], (
            log.read_text())
        assert _mails(site, "anna") == [("Re: zep1 orders", anna_mid)]
    finally:
        _stop(proc)


def test_smtp_down_then_back_every_reply_delivered_once(site: Site,
                                                         servers_up: MailServers) -> None:
    site.ms.stop_smtp()
    for pid in site.players:  # the mail reaches the server another way
        site.ms.append(site.referee_user, site.order_mail(pid, PLANE))
    referee = site.round()
    assert len(referee.outgoing.queued()) == 3  # kept, to be retried
    for user in site.players.values():
        assert site.ms.count(user) == 0
    site.ms.start_smtp()
    referee.deliver(force=True)
    referee.deliver(force=True)
    for user in site.players.values():
        assert site.ms.wait_count(user, 1) == 1
    # a second copy would be in the mailbox now: the relay says 250 once it is stored
    for user in site.players.values():
        assert site.ms.count(user) == 1
