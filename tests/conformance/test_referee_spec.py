"""Conformance: every promise of shared/spec/referee.md, checked from outside.

Players are simulated by mail delivered to the local Maildir (speckit.py);
the game master and cron by ``pbmref.cli.main([...])`` and, where two
programs run at once, by subprocesses of ``python -m pbmref``.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path
from typing import Any

import pytest
import yaml
from speckit import (
    DEADLINE,
    OBSERVER,
    REFEREE,
    T0,
    Table,
    body_of,
    config_yaml,
    mail,
    make_table,
)

from pbmref import gm
from pbmref.cli import main
from pbmref.mail.base import Outgoing, TemporaryFailure
from pbmref.mail.outbox import read_maildir
from pbmref.referee.pipeline import Referee
from pbmref.referee.turns import adjudicate_due
from pbmref.rulesets import get_ruleset

TAKEOFF = ("PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: L")
PLAYERS = ["anna@example.org", "bert@example.org", "cora@example.org", "duo@example.org"]
AFTER = DEADLINE + timedelta(minutes=1)


def only_reply(out: list[EmailMessage]) -> EmailMessage:
    assert len(out) == 1, [m["Subject"] for m in out]
    return out[0]


def zep1_reports(out: list[EmailMessage], turn: int = 1) -> list[EmailMessage]:
    return [m for m in out if f"[zep1] turn {turn} report" in str(m["Subject"])]


def raw_mail(sender: str, body: str | None = None, **headers: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = REFEREE
    msg["Subject"] = headers.pop("Subject", "orders")
    msg["Date"] = format_datetime(T0)
    msg["Message-ID"] = make_msgid(domain="example.org")
    for k, v in headers.items():
        msg[k] = v
    if body is not None:
        msg.set_content(body)
    return msg


# ------------------------------------------------------------------ mail: once and only once


def test_a_message_is_handled_once_also_after_a_restart(table: Table) -> None:
    body = mail(table, "anna", *TAKEOFF)
    assert len(table.send(body, message_id="<once@example.org>")) == 1
    # the referee restarts: a new Referee on the same spool and games
    table.referee = Referee(table.referee.config, store=table.store, clock=table.clock)
    assert table.send(body, message_id="<once@example.org>") == []
    files = list((table.game().dir / "turns" / "001" / "orders").glob("anna*"))
    assert len(files) == 1


def test_the_raw_message_is_saved_with_its_message_id(table: Table) -> None:
    table.send(mail(table, "anna", *TAKEOFF), message_id="<kept@example.org>")
    spool = table.root / "spool"
    saved = [p for p in spool.rglob("*") if p.is_file() and b"kept@example.org" in p.read_bytes()]
    assert saved, "the raw mail is kept in the spool"
    orders_file = next((table.game().dir / "turns" / "001" / "orders").glob("anna*"))
    data = yaml.safe_load(orders_file.read_text())
    assert data["message_id"] == "<kept@example.org>"
    assert "TAKEOFF BETA" in data["raw"]


class FlakySender:
    """Fails the first ``failures`` sends, then hands mail to the real sender."""

    def __init__(self, real: Any, failures: int) -> None:
        self.real, self.failures, self.calls = real, failures, 0

    def send(self, msg: Outgoing) -> None:
        self.calls += 1
        if self.calls <= self.failures:
            raise TemporaryFailure("the server said 451 try later")
        self.real.send(msg)

    def close(self) -> None:  # pragma: no cover - not every sender needs it
        pass


def test_a_reply_that_could_not_be_sent_is_retried_and_sent_once(table: Table) -> None:
    flaky = FlakySender(table.referee.sender, failures=2)
    table.referee.sender = flaky
    assert table.send(mail(table, "anna", *TAKEOFF)) == []  # first try failed
    assert table.referee.outgoing.queued(), "the reply waits in the spool"
    table.referee.deliver(force=True)  # second try fails too
    assert table.new_outbox() == []
    table.referee.deliver(force=True)
    sent = table.new_outbox()
    assert len(sent) == 1 and "accepted" in body_of(sent[0])
    table.referee.deliver(force=True)
    assert table.new_outbox() == [] and flaky.calls == 3


def test_retry_waits_for_its_back_off(table: Table) -> None:
    table.referee.sender = FlakySender(table.referee.sender, failures=1)
    table.send(mail(table, "anna", *TAKEOFF))
    assert table.referee.deliver() == 0, "not retried before its back-off ends"
    entry = table.referee.outgoing.queued()[0]
    assert entry.next_attempt > datetime.now(UTC)


# ------------------------------------------------------------------ mail: never answered


NEVER = [
    ("referee itself", REFEREE, {}),
    ("MAILER-DAEMON", "MAILER-DAEMON@example.org", {}),
    ("postmaster bounce", "postmaster@example.org", {}),
    ("null sender", "anna@example.org", {"Return-Path": "<>"}),
    ("Auto-Submitted auto-replied", "anna@example.org", {"Auto-Submitted": "auto-replied"}),
    ("Auto-Submitted auto-generated", "anna@example.org",
     {"Auto-Submitted": "auto-generated"}),
    ("Precedence bulk", "anna@example.org", {"Precedence": "bulk"}),
    ("Precedence junk", "anna@example.org", {"Precedence": "junk"}),
    ("Precedence list", "anna@example.org", {"Precedence": "list"}),
    ("X-Loop", "anna@example.org", {"X-Loop": "someone@example.org"}),
    ("our loop header", "anna@example.org", {"X-Pbmref-Loop": REFEREE}),
    ("list mail", "anna@example.org", {"List-Id": "<players.example.org>"}),
]


@pytest.mark.parametrize("why,sender,headers", NEVER, ids=[n[0] for n in NEVER])
def test_mail_that_must_never_be_answered_is_not_and_is_logged(
        table: Table, caplog: pytest.LogCaptureFixture, why: str, sender: str,
        headers: dict[str, str]) -> None:
    caplog.set_level(logging.INFO, logger="pbmref")
    assert table.send(mail(table, "anna", *TAKEOFF), sender=sender, headers=headers) == []
    assert table.game().book.entries() == {}
    assert any("not answered" in r.getMessage() for r in caplog.records), why


def test_a_delivery_report_is_never_answered(table: Table,
                                             caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="pbmref")
    raw = (b"From: anna@example.org\r\nTo: referee@test.invalid\r\nSubject: Undelivered\r\n"
           b"Message-ID: <dsn@example.org>\r\nMIME-Version: 1.0\r\n"
           b"Content-Type: multipart/report; report-type=delivery-status; boundary=XX\r\n\r\n"
           b"--XX\r\nContent-Type: text/plain\r\n\r\nGAME zep1\r\nHELP\r\n"
           b"--XX\r\nContent-Type: message/delivery-status\r\n\r\nStatus: 5.1.1\r\n--XX--\r\n")
    assert table.send_raw(raw) == []
    assert any("not answered" in r.getMessage() for r in caplog.records)


def test_auto_submitted_no_is_answered(table: Table) -> None:
    out = table.send(mail(table, "anna", *TAKEOFF), headers={"Auto-Submitted": "no"})
    assert "accepted" in body_of(only_reply(out))


def test_every_reply_carries_the_loop_headers_and_threading(table: Table) -> None:
    out = only_reply(table.send(mail(table, "anna", "STATUS"), subject="Turn one",
                                message_id="<ask@example.org>"))
    assert out["Auto-Submitted"] == "auto-replied"
    assert out["X-Pbmref-Loop"] == REFEREE
    assert out["In-Reply-To"] == "<ask@example.org>"
    assert "<ask@example.org>" in out["References"]
    assert out["Subject"] == "Re: Turn one"


def test_every_mail_the_referee_sends_carries_auto_submitted(table: Table) -> None:
    """Reports and reminders too: the loop headers are on all outgoing mail (referee.md)."""
    table.clock.now = DEADLINE - timedelta(hours=6)
    adjudicate_due(table.referee, table.intake)  # reminders
    table.clock.now = AFTER
    adjudicate_due(table.referee, table.intake)  # reports
    sent = table.new_outbox()
    assert any("reminder" in str(m["Subject"]) for m in sent)
    assert zep1_reports(sent)
    for msg in sent:
        # A report is not an answer: auto-generated (RFC 3834) is the right value;
        # what the spec guards is that it is never "no" and carries the loop header.
        assert msg["Auto-Submitted"] in ("auto-replied", "auto-generated"), msg["Subject"]
        assert msg["X-Pbmref-Loop"] == REFEREE


# ------------------------------------------------------------------ mail: formats


def _orders_text(table: Table) -> str:
    return mail(table, "anna", *TAKEOFF)


def test_plain_text_is_read_first(table: Table) -> None:
    msg = raw_mail("anna@example.org", _orders_text(table))
    msg.add_alternative("<p>GAME zep1<br>PLANE<br>1: 0</p>", subtype="html")
    out = only_reply(table.send_raw(msg.as_bytes()))
    assert "accepted" in body_of(out)
    assert table.game().book.entries()["anna"]["plane"] == ["A", "A", "L"]


def test_an_html_only_mail_is_read_from_its_text(table: Table) -> None:
    html = "<html><body><p>" + "<br>\n".join(_orders_text(table).split("\n")) + \
        "</p></body></html>"
    msg = raw_mail("anna@example.org")
    msg.set_content(html, subtype="html")
    out = only_reply(table.send_raw(msg.as_bytes()))
    assert "accepted" in body_of(out), body_of(out)
    assert table.game().book.entries()["anna"]["plane"] == ["A", "A", "L"]


@pytest.mark.parametrize("charset,cte", [
    ("iso-8859-1", "quoted-printable"), ("utf-8", "base64"), ("windows-1252", "8bit"),
    ("utf-8", "quoted-printable"),
])
def test_any_charset_and_transfer_encoding(table: Table, charset: str, cte: str) -> None:
    text = _orders_text(table).replace("END", "# Grüße, à bientôt\nEND")
    msg = raw_mail("anna@example.org")
    msg.set_content(text, charset=charset, cte=cte)
    out = only_reply(table.send_raw(msg.as_bytes()))
    assert "accepted" in body_of(out)


def test_attachments_are_ignored(table: Table) -> None:
    msg = raw_mail("anna@example.org", _orders_text(table))
    msg.add_attachment("PLANE\n1: 0\n2: RS\n", filename="old-orders.txt")
    msg.add_attachment(b"\x89PNG\r\n\x1a\n" + bytes(200), maintype="image", subtype="png",
                       filename="map.png")
    out = only_reply(table.send_raw(msg.as_bytes()))
    assert "accepted" in body_of(out)
    assert table.game().book.entries()["anna"]["plane"] == ["A", "A", "L"]


def test_orders_only_in_an_attachment_are_not_read(table: Table) -> None:
    msg = raw_mail("anna@example.org", f"GAME zep1\nPASSWORD {table.passwords['anna']}\n")
    msg.add_attachment("PLANE\nTAKEOFF BETA\n1: A\n2: A\n", filename="orders.txt")
    only_reply(table.send_raw(msg.as_bytes()))
    assert table.game().book.entries() == {}


def test_oversized_mail_is_refused_politely(tmp_path: Path) -> None:
    table = make_table(tmp_path, max_message_bytes=4000)
    body = _orders_text(table).replace("END", "# " + "x" * 70 + "\n") * 80
    out = only_reply(table.send(body))
    text = body_of(out)
    assert "larger than" in text and "not read" in text and out["To"] == "anna@example.org"
    assert table.game().book.entries() == {}


# ------------------------------------------------------------------ identification


def test_an_unregistered_sender_changes_nothing(table: Table) -> None:
    out = table.send(mail(table, "anna", *TAKEOFF), sender="mallory@evil.example")
    assert all(m["To"] == "mallory@evil.example" for m in out)
    assert table.game().book.entries() == {}


@pytest.mark.parametrize("password_ok", [True, False])
def test_replies_go_to_the_registered_address_never_to_reply_to(
        table: Table, password_ok: bool) -> None:
    body = mail(table, "anna", *TAKEOFF)
    if not password_ok:
        body = body.replace(table.passwords["anna"], "guessed-wrong")
    out = only_reply(table.send(body, headers={"Reply-To": "thief@evil.example"}))
    assert out["To"] == "anna@example.org"
    assert "thief" not in str(out["To"]) + str(out.get("Cc", ""))
    text = body_of(out)
    assert ("accepted" in text) == password_ok
    if not password_ok:
        assert "wrong or missing PASSWORD" in text


def test_a_wrong_password_from_a_forged_sender_is_reported_to_the_owner(table: Table) -> None:
    out = only_reply(table.send("GAME zep1\nPASSWORD letmein\nPLANE\nTAKEOFF BETA\n1: A\n2: A\n",
                                sender="Anna <anna@example.org>",
                                headers={"Reply-To": "Anna <anna@evil.example>"}))
    assert out["To"] == "anna@example.org"
    assert "wrong or missing PASSWORD" in body_of(out)


# ------------------------------------------------------------------ deadlines and turns


def test_adjudicate_due_is_safe_to_run_twice(table: Table) -> None:
    table.send(mail(table, "anna", *TAKEOFF))
    table.clock.now = AFTER
    first = adjudicate_due(table.referee, table.intake)
    second = adjudicate_due(table.referee, table.intake)
    assert sorted((r.game_id, r.turn) for r in first.adjudicated) == [("zep1", 1), ("zep2", 1)]
    assert second.adjudicated == []
    out = table.new_outbox()
    assert len(zep1_reports(out)) == 5  # 4 player addresses and the observer, once each
    assert table.game().turn == 2


def test_after_adjudication_every_player_and_observer_gets_the_report(table: Table) -> None:
    table.clock.now = AFTER
    adjudicate_due(table.referee, table.intake)
    reports = zep1_reports(table.new_outbox())
    assert sorted(str(m["To"]) for m in reports) == sorted([*PLAYERS, OBSERVER])
    game = table.game()
    assert game.turn == 2
    assert game.settings.deadline == DEADLINE + timedelta(hours=48)
    assert "Next deadline (turn 2): Thu 5 Mar 2026 12:00 UTC" in body_of(reports[0])


def test_orders_that_reached_the_server_in_time_count_though_the_daemon_was_down(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """cron alone: the mail waits in the Maildir with its server arrival time."""
    table = make_table(tmp_path)
    cfg = config_yaml(tmp_path)
    msg = raw_mail("anna@example.org", mail(table, "anna", *TAKEOFF))
    key = table.intake.deliver(msg.as_bytes())
    stamp = (DEADLINE - timedelta(hours=1)).timestamp()
    os.utime(table.intake.root / "new" / key, (stamp, stamp))
    assert main(["adjudicate", "--due", "--config", str(cfg)]) == 0
    out = capsys.readouterr().out
    assert "zep1: turn 1 adjudicated" in out
    used = table.store.open("zep1").book.entries(1)
    assert used["anna"]["plane"] == ["A", "A", "L"]


def test_a_mail_after_the_deadline_is_too_late_with_the_new_turn_number(table: Table) -> None:
    late = DEADLINE + timedelta(minutes=5)
    table.clock.now = late + timedelta(minutes=1)
    key = table.intake.deliver(raw_mail("anna@example.org",
                                        mail(table, "anna", *TAKEOFF)).as_bytes())
    os.utime(table.intake.root / "new" / key, (late.timestamp(), late.timestamp()))
    adjudicate_due(table.referee, table.intake)
    out = table.new_outbox()
    reply = next(m for m in out if str(m["Subject"]).startswith("Re:"))
    text = body_of(reply)
    assert "after the deadline" in text and "not used" in text
    assert "turn 2" in text, "the reply names the new turn"
    assert "anna" not in table.store.open("zep1").book.entries(1)


def test_a_mail_for_an_adjudicated_turn_is_too_late(table: Table) -> None:
    table.clock.now = AFTER
    adjudicate_due(table.referee, table.intake)
    table.new_outbox()
    text = body_of(only_reply(table.send(mail(table, "anna", *TAKEOFF, turn=1))))
    assert "already been adjudicated" in text and "Turn 2 is open" in text
    assert table.game().book.entries() == {}


def test_early_adjudication_when_every_active_player_has_sent_orders(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    gm.new_game(table.store, "quick", [
        gm.PlayerSpec("anna", ("anna@example.org",), airfield="N"),
        gm.PlayerSpec("bert", ("bert@example.org",), airfield="S")],
        seed=5, deadline=DEADLINE, early_adjudication=True, reminder_hours=0, now=T0,
        passwords=False)
    table.send("GAME quick\nPLANE\nTAKEOFF BETA\n1: A\n2: A\n3: A\n")
    assert adjudicate_due(table.referee, table.intake).adjudicated == []
    table.send("GAME quick\nPLANE\nTAKEOFF BETA\n1: A\n2: A\n3: A\n", sender="bert@example.org")
    # played once the game's delay for changes has passed (issue 43, item 7)
    assert adjudicate_due(table.referee, table.intake).adjudicated == []
    table.clock.now += get_ruleset("tweedekker").early_delay
    done = adjudicate_due(table.referee, table.intake).adjudicated
    assert [(r.game_id, r.turn) for r in done] == [("quick", 1)]


def test_a_reminder_some_hours_before_the_deadline_to_those_without_orders(
        table: Table) -> None:
    table.send(mail(table, "anna", *TAKEOFF))
    table.clock.now = DEADLINE - timedelta(hours=13)
    adjudicate_due(table.referee, table.intake)
    assert not [m for m in table.new_outbox() if "reminder" in str(m["Subject"])]
    table.clock.now = DEADLINE - timedelta(hours=11)
    adjudicate_due(table.referee, table.intake)
    adjudicate_due(table.referee, table.intake)
    reminders = [m for m in table.new_outbox() if "[zep1] reminder" in str(m["Subject"])]
    to = sorted(str(m["To"]) for m in reminders)
    assert "anna@example.org" not in to
    assert {"bert@example.org", "cora@example.org", "duo@example.org"} == set(to)
    assert all("Tue 3 Mar 2026 12:00 UTC" in body_of(m) for m in reminders)
    # one address flying two pilots gets a reminder for each, naming the pilot
    duo = sorted(body_of(m).split(";")[0] for m in reminders if str(m["To"]) == "duo@example.org")
    assert duo == ["This reminder is for your pilot Dirk", "This reminder is for your pilot Emil"]


def _run(args: list[str], cwd: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2] / "src"))
    return subprocess.Popen([sys.executable, "-m", "pbmref", *args], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_adjudicate_due_concurrently_with_itself_and_the_daemon(tmp_path: Path) -> None:
    """Three cron runs and a daemon round at once: each turn adjudicated exactly once,
    each report mailed once to each address (real clock: the deadline is past)."""
    table = make_table(tmp_path)
    cfg = config_yaml(tmp_path)
    for n in range(6):
        who = ("anna", "bert", "cora")[n % 3]
        msg = raw_mail(f"{who}@example.org", mail(table, who, *TAKEOFF))
        key = table.intake.deliver(msg.as_bytes())
        stamp = (DEADLINE - timedelta(hours=2)).timestamp()
        os.utime(table.intake.root / "new" / key, (stamp, stamp))
    procs = [_run(["adjudicate", "--due", "--config", str(cfg)], tmp_path) for _ in range(3)]
    procs.append(_run(["serve", "--once", "--quiet", "--config", str(cfg)], tmp_path))
    results = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], results
    said = "".join(r[0] for r in results)
    # the daemon adjudicates due games too (quietly): at most one cron run says so
    assert said.count("zep1: turn 1 adjudicated") <= 1, said
    assert said.count("zep2: turn 1 adjudicated") <= 1, said
    for gid in ("zep1", "zep2"):
        turns = tmp_path / "games" / gid / "turns"
        assert sorted(p.name for p in turns.iterdir() if p.is_dir()) == ["001", "002"]
        assert not list(turns.rglob("*.replaced-*")), "a turn adjudicated twice"
    # every mail reached the server before the deadline: all count for turn 1
    assert set(table.store.open("zep1").book.entries(1)) >= {"anna", "bert", "cora"}
    # mail delivered later by whoever finds it in the spool
    main(["mail", "deliver", "--config", str(cfg)])
    outbox = read_maildir(tmp_path / "outbox")
    reports = zep1_reports(outbox)
    assert sorted(str(m["To"]) for m in reports) == sorted([*PLAYERS, OBSERVER])
    replies = [m for m in outbox if str(m["Subject"]).startswith("Re:")]
    assert len(replies) == 6


# ------------------------------------------------------------------ history as YAML


def test_each_turn_folder_holds_position_orders_dice_events_and_report(table: Table) -> None:
    table.send(mail(table, "anna", *TAKEOFF), message_id="<t1@example.org>")
    table.clock.now = AFTER
    adjudicate_due(table.referee, table.intake)
    turn = table.game().dir / "turns" / "001"
    for name in ("position.yaml", "dice.yaml", "events.yaml", "report.txt"):
        assert (turn / name).is_file(), name
    orders = yaml.safe_load(next((turn / "orders").glob("anna*")).read_text())
    assert orders["message_id"] == "<t1@example.org>" and "TAKEOFF BETA" in orders["raw"]
    assert (table.game().dir / "turns" / "002" / "position.yaml").is_file()
    assert (table.game().dir / "game.yaml").is_file()


def test_yaml_is_read_with_a_safe_loader_only(table: Table,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    marker = table.root / "pwned"
    settings = table.game().dir / "game.yaml"
    settings.write_text(settings.read_text().replace(
        "title:", f"evil: !!python/object/apply:os.system ['touch {marker}']\ntitle:", 1))
    code = main(["check", "zep1", "--games", str(table.root / "games")])
    out = capsys.readouterr().out
    assert code == 1 and "game.yaml" in out
    assert not marker.exists()


def test_a_file_the_gm_broke_is_reported_and_the_game_waits(
        table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    position = table.game().dir / "turns" / "001" / "position.yaml"
    text = position.read_text()
    position.write_text(text.replace("heading:", "heading: [", 1))
    before = {p: p.read_bytes() for p in (table.root / "games").rglob("*") if p.is_file()
              and "zep2" not in str(p)}
    table.clock.now = AFTER
    report = adjudicate_due(table.referee, table.intake)
    assert "zep1" in report.broken and "position.yaml" in report.broken["zep1"]
    assert "line" in report.broken["zep1"]
    assert [r.game_id for r in report.adjudicated] == ["zep2"]
    after = {p: p.read_bytes() for p in (table.root / "games").rglob("*") if p.is_file()
             and "zep2" not in str(p)}
    assert {p: b for p, b in after.items() if p.name != ".lock"} == {
        p: b for p, b in before.items() if p.name != ".lock"}
    code = main(["check", "zep1", "--games", str(table.root / "games")])
    out = capsys.readouterr().out
    assert code == 1 and "position.yaml" in out and "line" in out
    assert main(["check", "--games", str(table.root / "games")]) == 1  # all games
    capsys.readouterr()
    # once the GM fixed the file, the game is adjudicated again
    position.write_text(text)
    assert main(["check", "zep1", "--games", str(table.root / "games")]) == 0
    assert [r.game_id for r in adjudicate_due(table.referee, table.intake).adjudicated] == [
        "zep1"]


def test_check_a_good_game(table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "zep1", "--games", str(table.root / "games")]) == 0
    assert "zep1: ok" in capsys.readouterr().out


def _play_turn_one(table: Table) -> None:
    table.send(mail(table, "anna", *TAKEOFF))
    table.send(mail(table, "bert", "PLANE", "TAKEOFF GAMMA", "1: A", "2: A", "3: A"),
               sender="bert@example.org")
    table.clock.now = AFTER
    adjudicate_due(table.referee, table.intake)
    table.new_outbox()


def test_rerun_replays_the_recorded_dice_and_shows_what_changed_before_mailing(
        table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    _play_turn_one(table)
    games = str(table.root / "games")
    cfg = str(config_yaml(table.root))
    turn1 = table.game().dir / "turns" / "001"
    report_before = (turn1 / "report.txt").read_text()
    # without an edit, a re-run changes nothing (same orders, same dice)
    assert main(["rerun", "zep1", "--from", "1", "--games", games]) == 0
    assert "nothing changed" in capsys.readouterr().out
    # the GM edits anna's orders: she takes off from ALPHA instead
    orders_file = next((turn1 / "orders").glob("anna*"))
    orders_file.write_text(orders_file.read_text().replace("BETA", "ALPHA"))
    assert main(["rerun", "zep1", "--from", "1", "--dry-run", "--games", games]) == 0
    dry = capsys.readouterr().out
    assert "dry run" in dry and "report.txt changed" in dry
    assert (turn1 / "report.txt").read_text() == report_before
    assert main(["rerun", "zep1", "--from", "1", "--mail", "--games", games,
                 "--config", cfg]) == 0
    out = capsys.readouterr().out
    assert out.index("report.txt changed") < out.index("mailed")
    assert "ALPHA" in out or "Alpha" in out
    # the old files are kept aside, never rewritten in place
    kept = list(turn1.glob("report.txt.replaced-*"))
    assert kept and kept[0].read_text() == report_before
    mailed = [m for m in read_maildir(table.root / "outbox")
              if str(m["Subject"]) == "[zep1] turn 1 report (corrected)"]
    assert sorted(str(m["To"]) for m in mailed) == sorted([*PLAYERS, OBSERVER])


# ------------------------------------------------------------------ the GM's commands


def test_new_game_from_the_command_line(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    games = str(tmp_path / "games")
    code = main(["new-game", "g1", "--games", games, "--player", "anna:anna@example.org",
                 "--player", "bert:bert@example.org", "--observer", OBSERVER,
                 "--timezone", "Europe/Berlin", "--deadline", "2030-01-02T18:00:00+01:00",
                 "--seed", "3"])
    out = capsys.readouterr().out
    assert code == 0 and "passwords" in out
    assert main(["check", "g1", "--games", games]) == 0
    settings = yaml.safe_load((tmp_path / "games" / "g1" / "game.yaml").read_text())
    assert settings["observers"] == [OBSERVER]
    pw_line = next(line for line in out.splitlines() if "anna@example.org" in line)
    assert pw_line.split()[1] not in (tmp_path / "games" / "g1" / "game.yaml").read_text()


def test_extend_moves_the_deadline(table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    games = str(table.root / "games")
    assert main(["extend", "zep1", "--by", "24h", "--games", games]) == 0
    assert table.game().settings.deadline == DEADLINE + timedelta(hours=24)
    table.clock.now = AFTER
    assert [r.game_id for r in adjudicate_due(table.referee, table.intake).adjudicated] == [
        "zep2"]
    table.new_outbox()
    text = body_of(only_reply(table.send(mail(table, "anna", "STATUS"))))
    assert "Wed 4 Mar 2026 12:00 UTC" in text


def test_pause_stops_adjudication_and_resume_starts_it(
        table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    games = str(table.root / "games")
    assert main(["pause", "zep1", "--games", games]) == 0
    table.clock.now = AFTER
    assert "zep1" not in [r.game_id for r in
                          adjudicate_due(table.referee, table.intake).adjudicated]
    assert table.game().turn == 1
    assert main(["resume", "zep1", "--games", games]) == 0
    deadline = table.game().settings.deadline
    assert deadline is not None and deadline > datetime.now(UTC)
    table.clock.now = deadline + timedelta(minutes=1)
    assert "zep1" in [r.game_id for r in
                      adjudicate_due(table.referee, table.intake).adjudicated]


def test_what_pause_tells_the_gm_is_what_players_get(
        table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    """The GM is told what a paused game does with order mail; the player's reply
    must agree with it."""
    assert main(["pause", "zep1", "--games", str(table.root / "games")]) == 0
    said = capsys.readouterr().out
    text = body_of(only_reply(table.send(mail(table, "anna", *TAKEOFF))))
    taken = table.game().book.entries().get("anna") is not None
    assert not taken and "paused" in said and "not used" in said, (said, text)
    assert "paused" in text


def test_a_reply_from_a_paused_game_shows_the_orders_in_force(
        table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    table.send(mail(table, "anna", *TAKEOFF))
    assert main(["pause", "zep1", "--games", str(table.root / "games")]) == 0
    text = body_of(only_reply(table.send(mail(table, "anna", "PLANE", "1: 0"))))
    assert "paused" in text and "TAKEOFF BETA" in text and "3: L" in text
    assert "Tue 3 Mar 2026 12:00 UTC" in text


def test_replace_player_gives_the_place_a_new_address(
        table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    games = str(table.root / "games")
    assert main(["replace-player", "zep1", "cora", "--address", "cora2@example.net",
                 "--name", "Cora Two", "--games", games]) == 0
    out = capsys.readouterr().out
    password = out.split("new password for cora: ")[1].split()[0]
    old = table.send(f"GAME zep1\nPASSWORD {table.passwords['cora']}\n" + "\n".join(TAKEOFF),
                     sender="cora@example.org")
    assert "cora" not in table.game().book.entries()
    assert all("accepted" not in body_of(m) for m in old)
    new = only_reply(table.send(f"GAME zep1\nPASSWORD {password}\n" + "\n".join(TAKEOFF),
                                sender="cora2@example.net"))
    assert "accepted" in body_of(new) and new["To"] == "cora2@example.net"


def test_kick_ignores_the_players_mail_and_stops_their_reports(
        table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["kick", "zep1", "cora", "--games", str(table.root / "games")]) == 0
    table.send(mail(table, "cora", *TAKEOFF), sender="cora@example.org")
    assert "cora" not in table.game().book.entries()
    table.clock.now = AFTER
    adjudicate_due(table.referee, table.intake)
    to = [str(m["To"]) for m in zep1_reports(table.new_outbox())]
    assert "cora@example.org" not in to and "anna@example.org" in to


def test_status_shows_who_sent_orders_never_what(
        table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    table.send(mail(table, "anna", "PLANE", "TAKEOFF GAMMA", "1: A", "2: A", "3: RS f-A"))
    assert main(["status", "zep1", "--games", str(table.root / "games")]) == 0
    out = capsys.readouterr().out
    assert "turn 1" in out.lower() and "2026" in out
    assert "GAMMA" not in out and "RS f-A" not in out
    anna = next(line for line in out.splitlines() if "anna" in line.lower())
    bert = next(line for line in out.splitlines() if "bert" in line.lower())
    assert anna != bert.replace("bert", "anna").replace("Bert", "Anna")


def test_render_writes_the_archive_and_a_map_picture(
        table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    _play_turn_one(table)
    out_dir = table.root / "archive"
    svg = table.root / "map.svg"
    assert main(["render", "zep1", "--games", str(table.root / "games"), "--out",
                 str(out_dir), "--svg", str(svg)]) == 0
    assert (out_dir / "zep1" / "index.html").is_file()
    assert list((out_dir / "zep1").glob("turn-*.html"))
    assert svg.read_text().lstrip().startswith(("<svg", "<?xml"))


# ------------------------------------------------------------------ reports


def test_the_text_report_has_what_a_player_needs(table: Table) -> None:
    table.send(mail(table, "anna", *TAKEOFF, "ZEPPELIN", "1: L f-A", "2: A", "3: R"))
    table.clock.now = AFTER
    adjudicate_due(table.referee, table.intake)
    reports = zep1_reports(table.new_outbox())
    text = body_of(reports[0])
    for needed in ("turn 1", "Next deadline", "UTC"):
        assert needed in text, needed
    lower = text.lower()
    for needed in ("move 1", "move 2", "move 3", "zeppelin", "wind", "ammo", "nmr"):
        assert needed in lower, needed
    assert "J19" in text or "J1" in text  # positions by hex name (B3)
    # votes and their counts
    assert "vote" in lower
    # the same turn as a picture, shown inline (issue 43: a light PNG, no SVG)
    assert any(p.get_content_type() == "image/png" for p in reports[0].walk())
    plain = reports[0].get_body(("plain",))
    assert plain is not None and plain.get_param("format") == "flowed"  # a phone re-wraps it
    assert all(len(line) <= 80 for line in str(plain.get_content()).splitlines()), \
        "fit for a phone"


def test_the_html_archive_of_a_turn(table: Table) -> None:
    from pbmref.archive import write_archive

    _play_turn_one(table)
    written = write_archive(table.game(), table.root / "arch")
    pages = [p for p in written if p.name.startswith("turn-")]
    assert pages and "<svg" in pages[0].read_text()


def test_orders_files_are_never_rewritten_in_place(table: Table) -> None:
    table.send(mail(table, "anna", *TAKEOFF))
    folder = table.game().dir / "turns" / "001" / "orders"
    first = {p: p.read_bytes() for p in folder.iterdir()}
    table.send(mail(table, "anna", "PLANE", "TAKEOFF GAMMA", "1: A", "2: A", "3: R"))
    table.send(mail(table, "anna", "CLEAR"))
    assert all(p.read_bytes() == b for p, b in first.items())
    assert len(list(folder.iterdir())) == len(first) + 2


def test_rerun_uses_the_recorded_dice_not_new_ones(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """W3 rolls a die every turn; after the GM changes the game's seed a re-run
    still replays the recorded die (referee.md, V5) and so changes nothing."""
    table = make_table(tmp_path)
    gm.new_game(table.store, "windy", [gm.PlayerSpec("anna", ("anna@example.org",),
                                                     airfield="N"),
                                       gm.PlayerSpec("bert", ("bert@example.org",),
                                                     airfield="S")],
                wind={"to": "N", "strength": 1, "changes": True}, seed=99,
                deadline=DEADLINE, reminder_hours=0, early_adjudication=False, now=T0,
                passwords=False)
    table.clock.now = AFTER
    adjudicate_due(table.referee, table.intake)
    dice_file = tmp_path / "games" / "windy" / "turns" / "001" / "dice.yaml"
    dice = yaml.safe_load(dice_file.read_text())
    assert len(dice["dice"]) == 1  # the W3 die, with what it was rolled for
    move, purpose, who, value = dice["dice"][0]
    settings = tmp_path / "games" / "windy" / "game.yaml"
    settings.write_text(settings.read_text().replace("seed: 99", "seed: 12345"))
    games = str(tmp_path / "games")
    assert main(["rerun", "windy", "--from", "1", "--games", games]) == 0
    assert "nothing changed" in capsys.readouterr().out
    # the recorded die is what counts: the GM sets it to the other extreme
    other = 6 if value != 6 else 1
    line = f"- [{move}, {purpose}, {who}, {value}]"
    assert line in dice_file.read_text()
    dice_file.write_text(dice_file.read_text().replace(line, f"- [{move}, {purpose}, {who}, "
                                                             f"{other}]"))
    assert main(["rerun", "windy", "--from", "1", "--dry-run", "--games", games]) == 0
    out = capsys.readouterr().out
    assert "changed" in out and "nothing changed" not in out


def _diplomacy_table(tmp_path: Path) -> tuple[Table, dict[str, str]]:
    table = make_table(tmp_path)
    created = gm.new_game(table.store, "dip1", [
        gm.PlayerSpec("fra", ("anna@example.org",), power="FRA"),
        gm.PlayerSpec("ger", ("gerd@example.org",), power="GER")],
        ruleset="diplomacy", seed=4, deadline=DEADLINE, reminder_hours=0,
        early_adjudication=False, now=T0)
    return table, created.passwords


def test_phase_not_open_rejects_a_diplomacy_mail_as_stale(tmp_path: Path) -> None:
    table, passwords = _diplomacy_table(tmp_path)
    head = f"GAME dip1\nPASSWORD {passwords['fra']}\n"
    text = body_of(only_reply(table.send(head + "PHASE F1901M\nA Par - Bur\nEND\n")))
    assert "S1901M" in text and "nothing was used or changed" in text
    assert "fra" not in table.store.open("dip1").book.entries()
    text = body_of(only_reply(table.send(head + "PHASE S1901M\nA Par - Bur\nEND\n")))
    assert "accepted" in text and "A Par - Bur" in text
    assert "UTC" in text  # the deadline with its time zone


def test_the_report_shows_each_aircrafts_state(table: Table) -> None:
    _play_turn_one(table)
    text = table.game().history.report(1) or ""
    table_head = next(line for line in text.splitlines() if "Pilot" in line and "Hex" in line)
    for column in ("Hex", "Hdg", "DP", "Ammo", "VP", "NMR"):
        assert column in table_head, column
    assert "ZEPPELIN Z" in text and "wind" in text.lower() and "Next deadline" in text


def test_zeppelin_votes_alone_are_not_orders_for_early_adjudication(tmp_path: Path) -> None:
    """Votes never spare an NMR (N3): a pilot who has only voted so far is still
    waited for, and reminded, though a later PLANE section is the normal next mail
    (orders.md: sections are replaced one by one)."""
    table = make_table(tmp_path)
    gm.new_game(table.store, "quick", [
        gm.PlayerSpec("anna", ("anna@example.org",), airfield="N"),
        gm.PlayerSpec("bert", ("bert@example.org",), airfield="S")],
        seed=5, deadline=DEADLINE, early_adjudication=True, reminder_hours=12, now=T0,
        passwords=False)
    table.send("GAME quick\nZEPPELIN\n1: L\n")
    table.send("GAME quick\nPLANE\nTAKEOFF BETA\n1: A\n2: A\n3: A\n", sender="bert@example.org")
    assert adjudicate_due(table.referee, table.intake).adjudicated == []
    table.clock.now = DEADLINE - timedelta(hours=6)
    adjudicate_due(table.referee, table.intake)
    reminded = [str(m["To"]) for m in table.new_outbox()
                if "[quick] reminder" in str(m["Subject"])]
    assert reminded == ["anna@example.org"]
    table.send("GAME quick\nPLANE\nTAKEOFF ALPHA\n1: A\n2: A\n3: A\n")
    table.clock.now += get_ruleset("tweedekker").early_delay  # issue 43, item 7
    done = adjudicate_due(table.referee, table.intake).adjudicated
    assert [(r.game_id, r.turn) for r in done] == [("quick", 1)]


def test_render_and_status_never_show_orders_of_the_open_turn(
        table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    _play_turn_one(table)
    table.send(mail(table, "anna", "ZEPPELIN", "1: RS f-B", "2: LS d-B"))
    out_dir = table.root / "archive"
    assert main(["render", "zep1", "--games", str(table.root / "games"), "--out",
                 str(out_dir), "--svg", str(table.root / "map.svg")]) == 0
    for page in [*out_dir.rglob("*.html"), table.root / "map.svg"]:
        text = page.read_text()
        assert "RS f-B" not in text and "LS d-B" not in text, page


def test_a_mail_handled_only_after_its_turn_was_adjudicated_is_too_late(table: Table) -> None:
    """The mail reached the server before the deadline but the referee took it in
    only after the turn had been adjudicated (a daemon that fetched it just as
    cron ran): it was meant for the adjudicated turn, so it is answered too late,
    not used, with the new turn's number -- never silently used for the next turn."""
    key = table.intake.deliver(raw_mail("anna@example.org",
                                        mail(table, "anna", *TAKEOFF)).as_bytes())
    sent = (DEADLINE - timedelta(minutes=3)).timestamp()
    os.utime(table.intake.root / "new" / key, (sent, sent))
    table.clock.now = AFTER
    adjudicate_due(table.referee, None)  # cron's run, without this mail
    table.new_outbox()
    table.referee.take_in(table.intake)
    table.referee.deliver(force=True)
    text = body_of(only_reply(table.new_outbox()))
    assert "not used" in text and "turn 2" in text.lower(), text
    assert "anna" not in table.game().book.entries()  # not taken as orders for turn 2


def test_the_next_deadline_is_in_the_future_after_a_late_cron(table: Table) -> None:
    table.clock.now = DEADLINE + timedelta(days=5, hours=1)
    adjudicate_due(table.referee, table.intake)
    deadline = table.game().settings.deadline
    assert deadline is not None and deadline > table.clock.now


GM_COMMANDS_ON_A_MISSING_GAME = [
    ["check", "nosuch"], ["status", "nosuch"], ["rerun", "nosuch", "--from", "1"],
    ["extend", "nosuch", "--by", "24h"], ["pause", "nosuch"], ["resume", "nosuch"],
    ["replace-player", "nosuch", "anna", "--address", "a@example.org"],
    ["kick", "nosuch", "anna"], ["render", "nosuch"],
]


@pytest.mark.parametrize("argv", GM_COMMANDS_ON_A_MISSING_GAME, ids=lambda a: a[0])
def test_gm_commands_on_a_missing_game_fail_in_plain_words(
        table: Table, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code = main([*argv, "--games", str(table.root / "games")])
    captured = capsys.readouterr()
    assert code != 0
    said = captured.out + captured.err
    assert "nosuch" in said and "Traceback" not in said


def test_new_game_from_a_scenario_file(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """A GM may start a game from a scenario file's position (scenario.md)."""
    scenario = tmp_path / "start.yaml"
    scenario.write_text(yaml.safe_dump({
        "ruleset": "tweedekker", "turn": 1, "seed": 4,
        "aircraft": {"anna": {"airfield": "N"}, "bert": {"airfield": "S"}},
        "zeppelins": {"Z": {"hexes": ["J10", "J9"], "heading": "N", "controlled": True}},
        "orders": {"anna": {"plane": ["A"]}}, "expect": {"turn": 2}}))
    games = str(tmp_path / "games")
    assert main(["new-game", "g2", "--games", games, "--position", str(scenario),
                 "--player", "anna:anna@example.org", "--player", "bert:bert@example.org"]) == 0
    assert main(["check", "g2", "--games", games]) == 0
    position = yaml.safe_load((tmp_path / "games" / "g2" / "turns" / "001" / "position.yaml")
                              .read_text())
    assert position["zeppelins"]["Z"]["hexes"] == ["J10", "J9"]
    assert "orders" not in position and "expect" not in position
