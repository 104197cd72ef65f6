"""The welcome mail and HELP by real mail (issue 16): ``pbmref new-game`` with
the referee's config mails every player their welcome through SMTP into
their own IMAP mailbox; HELP without the password is answered; the HELP
example, copied with the player's password put in, is accepted."""

from __future__ import annotations

import email
import email.policy
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path

import pytest
from mailservers import MailServers

from pbmref.config import load_config
from pbmref.mail.factory import open_intake
from pbmref.referee.pipeline import Referee
from pbmref.store import GameStore

pytestmark = pytest.mark.integration

PBMREF = [sys.executable, "-m", "pbmref"]


def _text(msg: EmailMessage) -> str:
    part = msg.get_body(("plain",))
    return str(part.get_content()) if part is not None else ""


def _inbox(ms: MailServers, user: str) -> list[EmailMessage]:
    return [email.message_from_bytes(r, policy=email.policy.default)  # type: ignore[misc]
            for r in ms.fetch_all(user)]


def _example(text: str) -> str:
    lines = [line.strip() for line in text.splitlines()]
    start = next(n for n, line in enumerate(lines) if line.startswith("GAME "))
    return "\n".join(lines[start:lines.index("END", start) + 1])


def _round(config_path: Path) -> None:
    config = load_config(config_path)
    intake = open_intake(config)
    try:
        Referee(config).take_in(intake)
    finally:
        intake.close()
    Referee(config).deliver(force=True)


def _mail(ms: MailServers, sender_user: str, referee_user: str, body: str) -> None:
    msg = EmailMessage()
    msg["From"] = ms.address(sender_user)
    msg["To"] = ms.address(referee_user)
    msg["Subject"] = "zep1"
    msg["Date"] = format_datetime(datetime.now(UTC))
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content(body)
    ms.send(ms.address(sender_user), [ms.address(referee_user)], msg.as_bytes())


def test_new_game_welcomes_every_player_and_help_needs_no_password(
        mailservers: MailServers, tmp_path: Path) -> None:
    ms = mailservers
    ref = ms.fresh_user("ref")
    players = {pid: ms.fresh_user(pid) for pid in ("anna", "bert")}
    config_path = ms.write_config(tmp_path, user=ref)
    deadline = (datetime.now(UTC) + timedelta(hours=48)).replace(microsecond=0)
    cmd = [*PBMREF, "new-game", "zep1", "--config", str(config_path), "--seed", "5",
           "--deadline", deadline.isoformat(), "--timezone", "Europe/Berlin"]
    for pid, user in players.items():
        cmd += ["--player", f"{pid}:{ms.address(user)}:{pid.title()}"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "welcome mailed to 2 players" in done.stdout

    passwords = {}
    for pid, user in players.items():
        assert ms.wait_count(user, 1) == 1
        [welcome] = _inbox(ms, user)
        body = _text(welcome)
        assert welcome["Subject"].startswith("[zep1] welcome")
        assert "(Europe/Berlin)" in body and "airfield" in body and "TAKEOFF" in body
        # flowed text a phone re-wraps, and no line past 78 columns (issue 43)
        assert welcome.get_body(("plain",)).get_param("format") == "flowed"
        assert max(map(len, body.splitlines())) <= 78
        password = next(line.split(": ", 1)[1] for line in body.splitlines()
                        if line.startswith("Your password: "))
        assert body.count(password) == 1
        passwords[pid] = password

    _mail(ms, players["anna"], ref, "Hi,\nHELP\nThanks, Anna\n")
    assert ms.wait_count(ref, 1) == 1
    _round(config_path)
    assert ms.wait_count(players["anna"], 2) == 2
    help_reply = _text(_inbox(ms, players["anna"])[1])
    assert "How to send orders (pbmref, Tweedekker, game zep1)" in help_reply
    assert passwords["anna"] not in help_reply and "PASSWORD <your password>" in help_reply

    copied = _example(help_reply).replace("<your password>", passwords["anna"])
    _mail(ms, players["anna"], ref, copied)
    assert ms.wait_count(ref, 1) == 1
    _round(config_path)
    assert ms.wait_count(players["anna"], 3) == 3
    assert "your orders are accepted" in _text(_inbox(ms, players["anna"])[2])
    store = GameStore(load_config(config_path).games_dir)
    assert store.open("zep1").book.entries()["anna"]["takeoff"]
