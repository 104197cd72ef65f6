"""The game master hears about trouble, by real mail (issue 44, item 7): a
mailbox or an SMTP server failing past `referee.trouble_after` gets one
notice, and one when it works again; `pbmref status` shows it meanwhile.

Earlier runs' failures are written into the spool's health file as they would
have left it (two hours ago), so the tests wait on no clock."""

from __future__ import annotations

import email
import email.policy
import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import yaml
from mailservers import MailServers, free_port

from pbmref.config import load_config
from pbmref.mail import make_mail
from pbmref.mail.health import HEALTH_FILE
from pbmref.mail.spool import OutgoingSpool

pytestmark = pytest.mark.integration

PBMREF = [sys.executable, "-m", "pbmref"]


def setup(ms: MailServers, root: Path, failing: str) -> tuple[Path, str, str, int]:
    """A referee whose ``failing`` server (imap or smtp) points at a dead port and
    has failed since two hours ago; the config, its mailbox, the GM's, the good port."""
    ref, gm = ms.fresh_user("ref"), ms.fresh_user("gm")
    path = ms.write_config(root, user=ref)
    data = yaml.safe_load(path.read_text())
    data["referee"]["game_master"] = ms.address(gm)
    good = data["mail"][failing]["port"]
    data["mail"][failing]["port"] = free_port()
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    since = (datetime.now(UTC) - timedelta(hours=2)).isoformat()
    spool = load_config(path).spool_dir
    spool.mkdir(parents=True, exist_ok=True)
    (spool / HEALTH_FILE).write_text(json.dumps(
        {failing: {"since": since, "host": ms.host, "error": "timed out"}}))
    return path, ref, gm, good


def fix(path: Path, server: str, port: int) -> None:
    data = yaml.safe_load(path.read_text())
    data["mail"][server]["port"] = port
    path.write_text(yaml.safe_dump(data, sort_keys=False))


def pbmref(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PBMREF, *args, "--config", str(config)], capture_output=True,
                          text=True, timeout=120, cwd=config.parent, stdin=subprocess.DEVNULL)


def subjects(ms: MailServers, user: str) -> list[str]:
    return [str(email.message_from_bytes(raw, policy=email.policy.default)["Subject"])
            for raw in ms.fetch_all(user)]


def test_a_mailbox_that_fails_past_the_threshold_is_told_once_and_when_it_works(
        servers_up: MailServers, tmp_path: Path) -> None:
    ms = servers_up
    config, _, gm, good = setup(ms, tmp_path, "imap")
    run = pbmref(config, "mail", "fetch")
    assert run.returncode == 1 and "failed 1 time;" in run.stderr  # one try: the grammar of issue 40
    assert ms.wait_count(gm, 1) == 1
    (subject,) = subjects(ms, gm)
    assert subject.startswith("[pbmref] the mailbox (IMAP) has failed since")
    status = pbmref(config, "status")
    assert f"referee: the mailbox (IMAP) {ms.host} has failed since" in status.stdout
    assert "the game master was told" in status.stdout
    assert pbmref(config, "mail", "fetch").returncode == 1
    assert ms.count(gm) == 1  # told once
    fix(config, "imap", good)
    run = pbmref(config, "mail", "fetch")
    assert run.returncode == 0, run.stderr
    assert ms.wait_count(gm, 2) == 2
    assert subjects(ms, gm)[1] == "[pbmref] the mailbox (IMAP) works again"
    assert "has failed" not in pbmref(config, "status").stdout


def test_an_smtp_server_that_fails_is_told_once_it_works_with_what_waited(
        servers_up: MailServers, tmp_path: Path) -> None:
    ms = servers_up
    config, _, gm, good = setup(ms, tmp_path, "smtp")
    cfg = load_config(config)
    OutgoingSpool(cfg.spool_dir / "out").enqueue(make_mail(
        cfg.referee.game_master, "a report that waited", "turn 3",
        from_addr=cfg.referee.address))
    run = pbmref(config, "mail", "deliver")
    assert "sent 0 mail(s)" in run.stdout
    assert "the SMTP server" in pbmref(config, "status").stdout
    fix(config, "smtp", good)
    run = pbmref(config, "mail", "deliver")
    assert ms.wait_count(gm, 2) >= 2
    got = subjects(ms, gm)
    assert "a report that waited" in got
    assert any(s.startswith("[pbmref] the SMTP server has failed since") for s in got)
    # the notice that it works again is queued by the send that worked; the next goes
    pbmref(config, "mail", "deliver")
    assert ms.wait_count(gm, 3) == 3
    assert "[pbmref] the SMTP server works again" in subjects(ms, gm)
