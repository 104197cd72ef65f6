"""The daemon on real servers (issue 20): SIGTERM and SIGINT end it within a second,
also in the middle of an IMAP IDLE; one SMTP connection carries a delivery round.
With its mailbox down (issue 40): ``serve --once`` does its one round, says so
in one line and fails; ``serve`` goes on trying, one log line a round, no
traceback, and answers once the server is back."""

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
from mailservers import MailServers, free_port

from pbmref import gm
from pbmref.config import load_config
from pbmref.mail.outbox import write_maildir
from pbmref.mail.smtp_out import SmtpSender
from pbmref.referee.pipeline import Referee
from pbmref.store import GameStore
from waiting import wait_until

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
    wait_until(lambda: ms.in_idle(ref), what="the daemon waiting in IDLE", alive=proc,
               said=(tmp_path / "serve.log").read_text)  # for two minutes
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
    wait_until(lambda: list((tmp_path / "outbox" / "new").glob("*")), alive=proc,
               what="the answer of its first round", said=(tmp_path / "serve.log").read_text)
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


# ------------------------------------------------------------------ the mailbox down


def _cron_run(config: Path, *command: str) -> subprocess.CompletedProcess[str]:
    """``pbmref COMMAND`` as cron runs it; a run that goes on and on fails."""
    try:
        return subprocess.run([*PBMREF, *command, "--config", str(config)],
                              capture_output=True, text=True, cwd=config.parent, timeout=120)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"{' '.join(command)} still ran after {exc.timeout} s; it said at last: "
                    f"{(exc.stderr or b'')[-2000:]!r}")


def _config_of_closed_port(ms: MailServers, tmp_path: Path) -> Path:
    """The harness's config, its IMAP port one nothing listens on (loopback)."""
    config = ms.write_config(tmp_path, user=ms.fresh_user("downref"))
    data = yaml.safe_load(config.read_text())
    data["mail"]["imap"]["port"] = free_port()
    config.write_text(yaml.safe_dump(data))
    return config


def _config_with_dovecot_stopped(ms: MailServers, tmp_path: Path, *waiting: bytes) -> Path:
    """The harness's config, Dovecot stopped (the ``servers_up`` fixture starts it
    again); ``waiting``: mails in the referee's mailbox before it stopped."""
    user = ms.fresh_user("downref")
    config = ms.write_config(tmp_path, user=user)
    for raw in waiting:
        ms.append(user, raw)
    ms.kill_imap()
    return config


MAILBOX_DOWN = {"a closed loopback port": _config_of_closed_port,
                "Dovecot stopped": _config_with_dovecot_stopped}


@pytest.mark.parametrize("command", [("serve", "--once"), ("adjudicate", "--due")],
                         ids=["serve --once", "adjudicate --due"])
@pytest.mark.parametrize("down", MAILBOX_DOWN)
def test_a_run_with_the_mailbox_down_says_so_in_one_line_and_fails(
        servers_up: MailServers, tmp_path: Path, down: str, command: tuple[str, ...]) -> None:
    proc = _cron_run(MAILBOX_DOWN[down](servers_up, tmp_path), *command)
    assert proc.returncode == 1, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    assert "no mail" not in proc.stdout, proc.stdout
    said = [line for line in proc.stderr.splitlines() if " INFO " not in line]  # serve's log
    assert len(said) == 1, proc.stderr  # no reconnect warnings: the next run tries again
    assert "mailbox cannot be read" in said[0] and "refused" in said[0].lower(), said


def test_serve_with_dovecot_stopped_logs_no_traceback_and_answers_once_it_is_back(
        servers_up: MailServers, tmp_path: Path) -> None:
    ms = servers_up
    walker = ms.fresh_user("walker")
    config = _config_with_dovecot_stopped(ms, tmp_path, (
        f"From: {ms.address(walker)}\r\nMessage-ID: <walk@elsewhere.test>\r\n"
        "Subject: hello\r\n\r\nCan I play?\r\n").encode())
    log = tmp_path / "serve.log"
    proc = subprocess.Popen([*PBMREF, "serve", "--config", str(config)], cwd=tmp_path,
                            stdout=open(log, "ab"), stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        wait_until(lambda: "mailbox cannot be read" in log.read_text(), timeout=180,
                   step=0.1, alive=proc, what="its first round to fail", said=log.read_text)
        ms.start_imap()  # the mail that waited is answered now
        assert ms.wait_count(walker, 1, timeout=120) == 1, log.read_text()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
        status = proc.wait(timeout=30)
    assert status == 0, log.read_text()
    assert "Traceback" not in log.read_text(), log.read_text()
