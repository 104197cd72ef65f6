"""``pbmref mail test`` against the private Dovecot and SMTP relay (issue 44):
each step in order and in plain words, and for each failure what to do.

The servers offer STARTTLS with a certificate the harness made at its start;
the referee trusts it through SSL_CERT_FILE, as a host trusts its CA bundle.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from mailservers import MailServers, free_port

pytestmark = pytest.mark.integration

PBMREF = [sys.executable, "-m", "pbmref"]
IMAP_STEPS = ["name lookup", "connection", "TLS", "login", "folder", "IDLE"]
SMTP_STEPS = ["name lookup", "connection", "TLS", "login", "test mail"]


def config_for(ms: MailServers, root: Path, imap: dict[str, Any] | None = None,
               smtp: dict[str, Any] | None = None, **mail: Any) -> tuple[Path, str, str]:
    """A config on the harness (STARTTLS both ways, password logins), changed by
    ``imap``, ``smtp`` and ``mail``; its path, the referee's and the GM's mailbox."""
    ref, gm = ms.fresh_user("ref"), ms.fresh_user("gm")
    path = ms.write_config(root, user=ref)
    data = yaml.safe_load(path.read_text())
    data["referee"]["game_master"] = ms.address(gm)
    password_file = data["mail"]["imap"]["password_file"]
    data["mail"]["imap"].update({"security": "starttls", **(imap or {})})
    data["mail"]["smtp"].update({"security": "starttls", "user": ref,
                                 "password_file": password_file, **(smtp or {})})
    data["mail"].update(mail)
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path, ref, gm


def mail_test(ms: MailServers, config: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SSL_CERT_FILE": str(ms.cert)}
    return subprocess.run([*PBMREF, "mail", "test", "--config", str(config)], env=env,
                          capture_output=True, text=True, timeout=120, cwd=config.parent,
                          stdin=subprocess.DEVNULL)


def steps(out: str) -> list[tuple[str, str]]:
    """(mark, step) of each step line, in order."""
    found = []
    for line in out.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] in ("ok", "note", "FAIL"):
            name = "name lookup" if words[1] == "name" else \
                "test mail" if words[1] == "test" else words[1]
            found.append((words[0], name))
    return found


@pytest.fixture
def tls_servers(mailservers: MailServers) -> MailServers:
    if not mailservers.tls:
        pytest.skip("no openssl command: the harness has no certificate")
    return mailservers


def test_every_step_passes_in_order_and_the_gm_gets_the_test_mail(
        tls_servers: MailServers, tmp_path: Path) -> None:
    ms = tls_servers
    config, ref, gm = config_for(ms, tmp_path)
    ms.append(ref, b"From: aunt@example.org\r\nSubject: lunch?\r\n\r\nSunday?\r\n")
    run = mail_test(ms, config)
    assert run.returncode == 0, run.stdout + run.stderr
    assert [name for _, name in steps(run.stdout)] == IMAP_STEPS + SMTP_STEPS
    assert "FAIL" not in run.stdout
    assert "TLSv1." in run.stdout and "after STARTTLS" in run.stdout
    # a mail already in the folder: the referee would answer it
    assert ("note", "folder") in steps(run.stdout)
    assert "it must be the referee's own mailbox" in run.stdout
    assert "Ready: the referee can read its mailbox and send mail." in run.stdout
    assert ms.wait_count(gm, 1) == 1
    assert b"Subject: pbmref mail test" in ms.fetch_all(gm)[0]
    assert ms.count(ref) == 1 and ms.count(ref, "pbmref-handled") == 0  # nothing changed


FAILURES = [
    # (case, imap changes, smtp changes, mail changes, the step that fails, what it says,
    #  a words of what to do)
    ("nothing answers", {"port": "FREE"}, {}, {}, ("IMAP", "connection"),
     "nothing answers on port", "check mail.imap.port and security"),
    ("TLS at once on the STARTTLS port", {"security": "tls"}, {}, {}, ("IMAP", "TLS"),
     "does not speak TLS at once", "this port wants security: starttls"),
    ("wrong password, Gmail", {"password_file": "WRONG"}, {}, {"provider": "gmail"},
     ("IMAP", "login"), "the server refused", "Gmail: this account needs an app password"),
    ("wrong password, Microsoft", {"password_file": "WRONG"}, {}, {"provider": "microsoft"},
     ("IMAP", "login"), "the server refused", "Microsoft: Outlook.com, Hotmail and Microsoft "
     "365 take no passwords"),
    ("no OAuth2 grant yet", {"auth": "xoauth2", "password_file": None}, {},
     {"oauth2": {"client_id": "x", "token_url": "https://127.0.0.1:9/t",
                 "device_url": "https://127.0.0.1:9/d"}},
     ("IMAP", "login"), "no OAuth2 grant yet", "run `pbmref mail authorize`"),
    ("no such folder", {"folder": "Orders"}, {}, {}, ("IMAP", "folder"), "cannot open Orders",
     "this mailbox has: INBOX"),
    ("SMTP with TLS at once on the STARTTLS port", {}, {"security": "tls"}, {}, ("SMTP", "TLS"),
     "does not speak TLS at once", "this port wants security: starttls"),
    ("SMTP wrong password", {}, {"password_file": "WRONG"}, {}, ("SMTP", "login"),
     "the server refused", "check the user (often the whole address) and the password"),
]


@pytest.mark.parametrize(("case", "imap", "smtp", "mail", "where", "said", "todo"), FAILURES,
                         ids=[f[0] for f in FAILURES])
def test_a_failure_says_what_to_do_and_that_servers_later_steps_are_not_taken(
        tls_servers: MailServers, tmp_path: Path, case: str, imap: dict[str, Any],
        smtp: dict[str, Any], mail: dict[str, Any], where: tuple[str, str], said: str,
        todo: str) -> None:
    ms = tls_servers
    wrong = tmp_path / "wrong.password"
    wrong.write_text("not-it\n")
    for changes in (imap, smtp):
        for key, value in list(changes.items()):
            changes[key] = {"FREE": free_port(), "WRONG": str(wrong)}.get(value, value) \
                if isinstance(value, str) else value
    imap = {"host": ms.host, "port": ms.imap_port, **imap} if mail.get("provider") else imap
    smtp = {"host": ms.host, "port": ms.smtp_port, "security": "starttls", **smtp} \
        if mail.get("provider") else smtp
    config, _, gm = config_for(ms, tmp_path, imap, smtp, **mail)
    run = mail_test(ms, config)
    assert run.returncode == 1, run.stdout + run.stderr
    server, step = where
    imap_part, smtp_part = run.stdout.split("\nSMTP ")
    part = imap_part if server == "IMAP" else smtp_part
    expected = IMAP_STEPS if server == "IMAP" else SMTP_STEPS
    found = steps(part)
    assert [name for _, name in found] == expected[:expected.index(step) + 1], run.stdout
    assert found[-1] == ("FAIL", step)
    failing = part.split("  FAIL  ")[1]
    assert said in failing, run.stdout
    assert "what to do" in failing and todo in failing, run.stdout
    assert "Not ready" in run.stdout and "Traceback" not in run.stderr
    if server == "IMAP":  # the other server is tested all the same
        assert [name for _, name in steps(smtp_part)] == SMTP_STEPS
