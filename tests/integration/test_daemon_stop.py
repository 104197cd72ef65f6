"""The daemon on real servers (issue 20): SIGTERM and SIGINT end it within a second,
also in the middle of an IMAP IDLE; one SMTP connection carries a delivery round."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import yaml
from mailservers import MailServers

from pbmref import gm
from pbmref.config import load_config
from pbmref.mail.outbox import write_maildir
from pbmref.mail.smtp_out import SmtpSender
from pbmref.referee.pipeline import Referee
from pbmref.store import GameStore

pytestmark = pytest.mark.integration

PBMREF = [sys.executable, "-m", "pbmref"]


def _idle_daemon(ms: MailServers, tmp_path: Path) -> subprocess.Popen[bytes]:
    ref = ms.fresh_user("stopref")
    config = ms.write_config(tmp_path, user=ref)
    data = yaml.safe_load(config.read_text())
    data["mail"]["imap"].update(poll_seconds=120, idle_renew_seconds=120)  # a long IDLE
    config.write_text(yaml.safe_dump(data))
    proc = subprocess.Popen([*PBMREF, "serve", "--config", str(config)],
                            stdout=open(tmp_path / "serve.log", "ab"), stderr=subprocess.STDOUT,
                            start_new_session=True)
    time.sleep(4)  # its first round is done: it waits in IDLE, for two minutes
    assert proc.poll() is None, (tmp_path / "serve.log").read_text()
    return proc


def _maildir_daemon(tmp_path: Path) -> subprocess.Popen[bytes]:
    """``pbmref serve`` on a local Maildir, its games watched (inotify), waiting on
    the inbox for a minute after its first round answered a stranger's mail."""
    config = tmp_path / "pbmref.yaml"
    config.write_text(yaml.safe_dump({
        "games_dir": "games", "spool_dir": "spool",
        "referee": {"address": "referee@stop.test"},
        "mail": {"mode": "maildir", "maildir": {"inbox": "inbox", "outbox": "outbox"}}}))
    gm.new_game(GameStore(tmp_path / "games"), "stop", [
        gm.PlayerSpec(p, (f"{p}@stop.test",)) for p in ("anna", "bert")],
        seed=1, deadline=datetime.now(UTC) + timedelta(days=2))
    write_maildir(tmp_path / "inbox", b"From: walker@elsewhere.test\r\n"
                  b"Message-ID: <walk@elsewhere.test>\r\nSubject: hello\r\n\r\nCan I play?\r\n")
    proc = subprocess.Popen([*PBMREF, "serve", "--config", str(config), "--poll", "60"],
                            cwd=tmp_path, stdout=open(tmp_path / "serve.log", "ab"),
                            stderr=subprocess.STDOUT, start_new_session=True)
    answered = time.monotonic() + 60
    while not list((tmp_path / "outbox" / "new").glob("*")):  # its first round is done
        assert proc.poll() is None, (tmp_path / "serve.log").read_text()
        assert time.monotonic() < answered, "no answer in a minute"
        time.sleep(0.05)
    return proc


DAEMONS = {"IMAP IDLE": True, "Maildir, games watched": False}


@pytest.mark.parametrize("daemon", DAEMONS)
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_ends_the_daemon_within_a_second_even_in_idle(
        request: pytest.FixtureRequest, tmp_path: Path, sig: int, daemon: str) -> None:
    if DAEMONS[daemon]:
        proc = _idle_daemon(request.getfixturevalue("mailservers"), tmp_path)
    else:
        proc = _maildir_daemon(tmp_path)
    start = time.monotonic()
    os.kill(proc.pid, sig)
    try:
        status = proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    took = time.monotonic() - start
    assert status == 0, (tmp_path / "serve.log").read_text()
    assert took < 1.0, f"the daemon took {took:.2f} s to stop"


def test_one_smtp_connection_carries_a_delivery_round(mailservers: MailServers,
                                                      tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    ms = mailservers
    ref = ms.fresh_user("oneref")
    users = [ms.fresh_user("one") for _ in range(4)]
    config = load_config(ms.write_config(tmp_path, user=ref))
    store = GameStore(config.games_dir)
    gm.new_game(store, "one", [gm.PlayerSpec(f"p{i}", (ms.address(u),))
                               for i, u in enumerate(users)],
                seed=1, deadline=datetime.now(UTC) + timedelta(hours=2))
    referee = Referee(config)
    for n, user in enumerate(users):
        referee.outgoing.enqueue(referee.mail_to(ms.address(user), f"note {n}", "hello"))
    opened = []
    real = SmtpSender._client

    def client(self: SmtpSender) -> object:
        opened.append(1)
        return real(self)

    monkeypatch.setattr(SmtpSender, "_client", client)
    assert referee.deliver() == 4
    assert len(opened) == 1
    assert all(ms.wait_count(u, 1) == 1 for u in users)
