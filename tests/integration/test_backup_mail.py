"""A backup while the daemon runs and mail arrives (issue 44, item 6), real
Dovecot and SMTP: the backup waits for no quiet moment; mail that reaches the
server while it runs is taken into the spool by the daemon and is in the
archive; restored into an empty folder, every game checks ok and the
restored referee's next round answers the mail that was in the spool, its
orders stored in the game."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

import pytest
from mailservers import MailServers

from pbmref import gm
from pbmref.cli import main
from pbmref.config import load_config
from pbmref.mail.factory import open_intake
from pbmref.referee.backup import make_backup
from pbmref.referee.pipeline import Referee
from pbmref.store import GameStore
from waiting import wait_until

pytestmark = pytest.mark.integration

PLAYERS = ("anna", "bert", "cora")


def _orders(ms: MailServers, to: str, player: str, user: str, password: str, n: int) -> bytes:
    msg = EmailMessage()
    msg["From"] = ms.address(user)
    msg["To"] = to
    msg["Subject"] = "zep1 orders"
    msg["Date"] = format_datetime(datetime.now(UTC))
    msg["Message-ID"] = f"<backup-{player}-{n}@players.test>"
    msg.set_content(f"GAME zep1\nPASSWORD {password}\nPLANE\nEND\n")  # stay landed (L2a)
    return msg.as_bytes()


def _replied(ms: MailServers, users: dict[str, str]) -> list[str]:
    """The Message-IDs answered, once per reply in the players' mailboxes."""
    import email
    import email.policy

    found = []
    for user in users.values():
        for raw in ms.fetch_all(user):
            msg = email.message_from_bytes(raw, policy=email.policy.default)
            if msg["In-Reply-To"]:
                found.append(str(msg["In-Reply-To"]))
    return found


def _wait(what: str, done: Callable[[], object], timeout: float = 60.0) -> None:
    wait_until(done, what=what, timeout=timeout)


def test_backup_while_the_daemon_runs_and_restore_answers_the_spooled_mail(
        mailservers: MailServers, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ms = mailservers
    ref = ms.fresh_user("bkref")
    users = {p: ms.fresh_user(p) for p in PLAYERS}
    site = tmp_path / "site"
    config_path = ms.write_config(site, user=ref)
    config = load_config(config_path)
    made = gm.new_game(GameStore(config.games_dir), "zep1", [
        gm.PlayerSpec(p, (ms.address(u),), p.title()) for p, u in users.items()],
        seed=5, deadline=datetime.now(UTC) + timedelta(hours=2), early_adjudication=False)
    to = ms.address(ref)

    def mail(player: str, n: int) -> bytes:
        return _orders(ms, to, player, users[player], made.passwords[player], n)

    log = tmp_path / "serve.log"
    daemon = subprocess.Popen([sys.executable, "-m", "pbmref", "serve", "--config",
                               str(config_path)], stdout=open(log, "ab"),
                              stderr=subprocess.STDOUT, start_new_session=True)
    try:
        for player in PLAYERS:  # answered before the backup
            ms.send(ms.address(users[player]), [to], mail(player, 1))
        _wait("the first answers", lambda: len(_replied(ms, users)) >= 3)

        arrived: list[str] = []

        def mail_arrives(said: str) -> None:
            """While the backup runs (its games archived, its spool not yet): three
            mails reach the server at once, and the daemon takes them in."""
            if said != "game zep1":
                return
            client = ms.imap(ref)
            try:
                client.create_folder("arriving")
                for player in PLAYERS:
                    client.append("arriving", mail(player, 2))
                    arrived.append(f"<backup-{player}-2@players.test>")
                client.select_folder("arriving")
                client.move(client.search(["ALL"]), "INBOX")
            finally:
                client.logout()
            waiting = config.spool_dir / "in" / "new"
            _wait("the daemon to take them in",
                  lambda: len([p for p in waiting.iterdir() if not p.name.startswith(".")]) == 3)

        backup = make_backup(config, tmp_path / "pbmref.tar.gz", progress=mail_arrives)
        assert backup.games == ["zep1"] and len(arrived) == 3
        # the daemon goes on after the backup: it answers them
        _wait("the daemon's answers", lambda: set(arrived) <= set(_replied(ms, users)))
    finally:
        os.killpg(daemon.pid, signal.SIGTERM)
        daemon.wait(timeout=30)
    assert daemon.returncode == 0, log.read_text()[-3000:]

    restored = tmp_path / "restored"
    assert main(["restore", str(backup.file), str(restored)]) == 0
    assert main(["check", "--config", str(restored / "pbmref.yaml")]) == 0
    assert "zep1: ok" in capsys.readouterr().out
    again = load_config(restored / "pbmref.yaml")
    assert again.games_dir == restored / "games" and again.spool_dir == restored / "spool"
    referee = Referee(again)
    assert sorted(e.message_id for e in referee.incoming.pending()) == sorted(arrived)
    before = len(_replied(ms, users))
    intake = open_intake(again)
    try:
        assert referee.take_in(intake, send=True) == 3  # the next round answers them
    finally:
        intake.close()
    assert referee.incoming.pending() == []
    _wait("the restored referee's answers", lambda: len(_replied(ms, users)) >= before + 3)
    in_force = referee.store.open("zep1").book.in_force()
    assert {f.message_id for f in in_force.values()} == set(arrived)
