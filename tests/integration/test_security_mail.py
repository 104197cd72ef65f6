"""Issue 15 by real mail: Dovecot in, SMTP out, no mocks.

A batch of poison mails (Subjects that decoded to lone surrogates) beside a good
order mail: one round answers the good mail. A flood of forged mails with wrong
passwords: one warning and one summary to the player, one notice to the game
master, and the player's own orders acknowledged in the middle of it.
``pbmref new-password``: the new password arrives in the player's mailbox, works,
and no copy of it stays in the referee's spool.
"""

from __future__ import annotations

import email
import email.policy
import re
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path

import pytest
from mailservers import MailServers

from pbmref import gm
from pbmref.config import Config, load_config
from pbmref.mail.factory import open_intake
from pbmref.referee.pipeline import Referee
from pbmref.store import GameStore

pytestmark = pytest.mark.integration

PBMREF = [sys.executable, "-m", "pbmref"]
PLANE = "PLANE\nTAKEOFF BETA\n1: A\n2: A\n3: L"
POISON_SUBJECTS = [b"=?utf-7?q?x+2AA-?=", b"=?unicode_escape?q?x=5Cud800?=",
                   b"=?utf-16?b?2AA=?=", b"x\xed\xa0\x80y", b"=?rot13?q?beqref?=",
                   b"=?punycode?q?bcher-kva?="]


class Site:
    """A referee mailbox, a game master's and three players' on the private Dovecot."""

    def __init__(self, ms: MailServers, root: Path) -> None:
        self.ms = ms
        self.referee_user = ms.fresh_user("ref")
        self.gm_user = ms.fresh_user("gm")
        self.players = {pid: ms.fresh_user(pid) for pid in ("anna", "bert", "cora")}
        self.config_path = ms.write_config(root, user=self.referee_user, referee={
            "address": ms.address(self.referee_user), "name": "pbmref test referee",
            "game_master": ms.address(self.gm_user)})
        store = GameStore(self.config().games_dir)
        created = gm.new_game(
            store, "zep1", [gm.PlayerSpec(pid, (ms.address(u),), pid.title())
                            for pid, u in self.players.items()],
            title="Real mail", seed=5, deadline=datetime.now(UTC) + timedelta(hours=2),
            early_adjudication=False)
        self.passwords = created.passwords

    def config(self) -> Config:
        return load_config(self.config_path)

    def address(self, pid: str) -> str:
        return self.ms.address(self.players[pid])

    def order_mail(self, pid: str, lines: str, *, password: str | None = None,
                   subject: bytes = b"zep1 orders") -> bytes:
        msg = EmailMessage()
        msg["From"] = self.address(pid)
        msg["To"] = self.ms.address(self.referee_user)
        msg["Subject"] = "SUBJECT"
        msg["Date"] = format_datetime(datetime.now(UTC))
        msg["Message-ID"] = make_msgid(domain="players.test")
        msg.set_content(f"GAME zep1\nPASSWORD {password or self.passwords[pid]}\n{lines}\nEND\n")
        return msg.as_bytes().replace(b"Subject: SUBJECT", b"Subject: " + subject)

    def post(self, raw: bytes, pid: str = "anna") -> None:
        self.ms.send(self.address(pid), [self.ms.address(self.referee_user)], raw)

    def round(self) -> None:
        config = self.config()
        referee = Referee(config)
        intake = open_intake(config)
        try:
            referee.take_in(intake)
        finally:
            intake.close()
        referee.deliver(force=True)

    def inbox(self, user: str) -> list[EmailMessage]:
        return [email.message_from_bytes(r, policy=email.policy.default)  # type: ignore[misc]
                for r in self.ms.fetch_all(user)]


def text(msg: EmailMessage) -> str:
    part = msg.get_body(("plain",))
    return str(part.get_content()) if part is not None else ""


@pytest.fixture
def site(mailservers: MailServers, tmp_path: Path) -> Site:
    return Site(mailservers, tmp_path)


def test_poison_subjects_beside_a_good_mail_stop_nothing(site: Site) -> None:
    for subject in POISON_SUBJECTS:
        site.post(site.order_mail("anna", PLANE, subject=subject))
    site.post(site.order_mail("bert", "PLANE\nTAKEOFF GAMMA\n1: A\n2: A\n3: RS"), "bert")
    assert site.ms.wait_count(site.referee_user, len(POISON_SUBJECTS) + 1) == 7
    site.round()
    assert site.ms.wait_count(site.players["bert"], 1) == 1
    assert "your orders are accepted" in text(site.inbox(site.players["bert"])[0])
    assert site.ms.wait_count(site.players["anna"], len(POISON_SUBJECTS)) == 6
    assert all("your orders are accepted" in text(m) for m in site.inbox(site.players["anna"]))
    assert site.ms.count(site.referee_user) == 0


def test_a_flood_of_wrong_passwords_by_real_mail(site: Site) -> None:
    for n in range(8):
        site.post(site.order_mail("anna", PLANE, password=f"guess-{n}"))
    site.post(site.order_mail("anna", PLANE))  # anna herself, after the flood
    assert site.ms.wait_count(site.referee_user, 9) == 9
    site.round()
    assert site.ms.wait_count(site.players["anna"], 3) == 3
    anna = [text(m) for m in site.inbox(site.players["anna"])]
    assert sum("warning is sent at most once an hour" in " ".join(t.split()) for t in anna) == 1
    assert sum("not answered one by one" in " ".join(t.split()) for t in anna) == 1
    assert sum("your orders are accepted" in t for t in anna) == 1
    assert site.ms.wait_count(site.gm_user, 1) == 1
    assert "pbmref new-password zep1 anna" in text(site.inbox(site.gm_user)[0])
    assert not any(f"guess-{n}" in t for t in anna for n in range(8))


def test_new_password_arrives_works_and_leaves_no_copy(site: Site) -> None:
    done = subprocess.run([*PBMREF, "new-password", "zep1", "anna", "--config",
                           str(site.config_path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert f"mailed to {site.address('anna')}" in done.stdout
    assert site.ms.wait_count(site.players["anna"], 1) == 1
    mail = site.inbox(site.players["anna"])[0]
    found = re.search(r"^Your password: ([a-z]+(?:-[a-z]+){4})\s*$", text(mail), re.M)
    assert found, text(mail)
    new = found.group(1)
    spool = site.config().spool_dir
    assert not any(new.encode() in p.read_bytes() for p in spool.rglob("*") if p.is_file())
    site.post(site.order_mail("anna", PLANE, password=new))
    assert site.ms.wait_count(site.referee_user, 1) == 1
    site.round()
    assert site.ms.wait_count(site.players["anna"], 2) == 2
    assert "your orders are accepted" in text(site.inbox(site.players["anna"])[1])
