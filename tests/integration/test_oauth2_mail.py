"""OAuth2 logins for real (issue 44): the grant by the device flow and by the
browser's, IMAP and SMTP with XOAUTH2 and OAUTHBEARER, an expired access token
renewed during a run, and a revoked grant that stops the referee with a clear
message and loses nothing.

A private Dovecot checks every token with its OAuth2 password database at the
introspection endpoint of a provider on loopback HTTPS (tokenserver.py), and
so does the SMTP relay; the referee asks that provider's token endpoint.
"""

from __future__ import annotations

import email
import email.policy
import os
import re
import stat
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path
from typing import Any

import pytest
import requests
import yaml
from mailservers import MailServers, dovecot_available
from tokenserver import CLIENT_ID

from pbmref import gm
from pbmref.config import Config, load_config
from pbmref.mail import make_mail
from pbmref.mail.base import Outgoing
from pbmref.mail.factory import access_tokens, open_intake, open_sender
from pbmref.mail.imap_in import ImapIntake
from pbmref.mail.oauth2 import (
    AccessTokens,
    AuthorizationLost,
    OAuth2App,
    TokenEndpointDown,
    TokenFile,
    authorize,
)
from pbmref.referee.pipeline import Referee
from pbmref.store import GameStore

pytestmark = pytest.mark.integration

PBMREF = [sys.executable, "-m", "pbmref"]


@pytest.fixture(scope="module")
def oauth_servers() -> Iterator[MailServers]:
    if not dovecot_available() or os.geteuid() != 0:
        pytest.skip("the private Dovecot needs /usr/sbin/dovecot and root")
    with MailServers(["referee"], oauth2=True, spare_users=40) as servers, \
            pytest.MonkeyPatch.context() as mp:
        # the referee's HTTPS requests trust the harness's certificate, as a
        # real host trusts its provider's
        mp.setenv("REQUESTS_CA_BUNDLE", str(servers.cert))
        yield servers


class Site:
    """A referee mailbox that logs in with OAuth2, a game and its players."""

    def __init__(self, ms: MailServers, root: Path, *, auth: str = "xoauth2",
                 flow: str = "device") -> None:
        self.ms = ms
        self.root = root
        self.ref = ms.fresh_user("ref")
        self.players = {pid: ms.fresh_user(pid) for pid in ("anna", "bert")}
        path = ms.write_config(root, user=self.ref)
        data = yaml.safe_load(path.read_text())
        provider = ms.provider
        for section in ("imap", "smtp"):
            data["mail"][section].pop("password_file", None)
            data["mail"][section].update({"user": self.ref, "auth": auth})
        data["mail"]["oauth2"] = {
            "client_id": CLIENT_ID, "flow": flow, "token_url": provider.url("/token"),
            "device_url": provider.url("/device"), "authorize_url": provider.url("/authorize"),
            "scopes": "mail offline_access"}
        data["referee"]["game_master"] = ms.address(ms.fresh_user("gm"))
        path.write_text(yaml.safe_dump(data, sort_keys=False))
        (root / f"{self.ref}.password").unlink()
        self.config_path = path
        created = gm.new_game(
            GameStore(self.config().games_dir), "zep1",
            [gm.PlayerSpec(pid, (ms.address(user),), pid.title())
             for pid, user in self.players.items()],
            title="OAuth2", seed=5, deadline=datetime.now(UTC) + timedelta(hours=2),
            turn_length="48h", early_adjudication=False)
        self.passwords = created.passwords

    def config(self) -> Config:
        return load_config(self.config_path)

    def grant(self) -> dict[str, Any]:
        """``mail authorize`` by the device flow, the referee's account saying yes."""
        config = self.config()
        app = OAuth2App.of(config.mail.oauth2)

        def say(text: str) -> None:
            code = re.search(r"enter the code (\w+)", text)
            assert code, text
            self.ms.provider.approve(code.group(1), self.ref)

        return authorize(app, TokenFile(config.mail.oauth2.token_file, app), say=say,
                         sleep=lambda s: None)

    def post(self, pid: str, lines: str = "PLANE\nTAKEOFF BETA\n1: A\n2: A\n3: L") -> None:
        msg = EmailMessage()
        msg["From"] = self.ms.address(self.players[pid])
        msg["To"] = self.ms.address(self.ref)
        msg["Subject"] = "zep1 orders"
        msg["Date"] = format_datetime(datetime.now(UTC))
        msg["Message-ID"] = make_msgid(domain="players.test")
        msg.set_content(f"GAME zep1\nPASSWORD {self.passwords[pid]}\n{lines}\nEND\n")
        before = self.ms.count(self.ref)
        self.ms.send("player@players.test", [self.ms.address(self.ref)], msg.as_bytes())
        assert self.ms.wait_count(self.ref, before + 1) == before + 1

    def replies(self, pid: str) -> list[EmailMessage]:
        return [email.message_from_bytes(r, policy=email.policy.default)  # type: ignore[misc]
                for r in self.ms.fetch_all(self.players[pid])]

    def round(self) -> int:
        """One round the daemon's way; how many mails it handled."""
        config = self.config()
        intake = open_intake(config)
        try:
            return Referee(config).take_in(intake, send=True)
        finally:
            intake.close()

    def pbmref(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*PBMREF, *args, "--config", str(self.config_path)],
                              capture_output=True, text=True, timeout=120, cwd=self.root,
                              stdin=subprocess.DEVNULL)


def browser_of(ms: MailServers) -> Callable[[str], None]:
    """The game master's browser: it opens the provider's page, which says yes
    (or no) and redirects to the listener on this machine's loopback."""
    def open_page(url: str) -> None:
        threading.Thread(target=requests.get, args=(url,), daemon=True,
                         kwargs={"timeout": 30, "verify": str(ms.cert)}).start()
    return open_page


def test_device_flow_grant_then_a_round_with_xoauth2(oauth_servers: MailServers,
                                                     tmp_path: Path) -> None:
    site = Site(oauth_servers, tmp_path)
    token = site.grant()
    token_file = site.config().mail.oauth2.token_file
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    assert token["refresh_token"] in token_file.read_text()
    introspected = oauth_servers.provider.count("/introspect")
    site.post("anna")
    assert site.round() == 1
    assert oauth_servers.wait_count(site.players["anna"], 1) == 1
    assert "your orders are accepted" in site.replies("anna")[0].get_body(("plain",)).get_content()
    assert oauth_servers.count(site.ref) == 0  # moved to the handled folder
    # Dovecot and the SMTP relay both asked the provider about the token
    assert oauth_servers.provider.count("/introspect") >= introspected + 2


def test_browser_flow_grant_then_a_round_with_oauthbearer(oauth_servers: MailServers,
                                                          tmp_path: Path) -> None:
    site = Site(oauth_servers, tmp_path, auth="oauthbearer", flow="browser")
    config = site.config()
    app = OAuth2App.of(config.mail.oauth2)
    told: list[str] = []

    oauth_servers.provider.signs_in_as = site.ref
    authorize(app, TokenFile(config.mail.oauth2.token_file, app), say=told.append,
              open_browser=browser_of(oauth_servers), wait_seconds=60)
    assert "127.0.0.1" in told[0] and "code_challenge=" in told[0]
    site.post("bert")
    assert site.round() == 1
    assert oauth_servers.wait_count(site.players["bert"], 1) == 1


def test_the_browser_answer_no_is_said_plainly(oauth_servers: MailServers,
                                               tmp_path: Path) -> None:
    site = Site(oauth_servers, tmp_path, flow="browser")
    config = site.config()
    app = OAuth2App.of(config.mail.oauth2)
    oauth_servers.provider.deny = True
    try:
        with pytest.raises(AuthorizationLost, match="the provider refused: the user said no"):
            authorize(app, TokenFile(config.mail.oauth2.token_file, app), say=lambda t: None,
                      open_browser=browser_of(oauth_servers), wait_seconds=60)
    finally:
        oauth_servers.provider.deny = False
    assert not config.mail.oauth2.token_file.exists()


def test_an_expired_token_is_renewed_during_a_run(oauth_servers: MailServers,
                                                  tmp_path: Path) -> None:
    """The intake and the sender stay open across rounds, as the daemon's do.
    Once the provider stops taking the access token, the next connection's login
    is refused, the token renewed and the login done again: nothing is missed."""
    site = Site(oauth_servers, tmp_path)
    site.grant()
    config = site.config()
    referee = Referee(config)
    intake = open_intake(config)
    assert isinstance(intake, ImapIntake) and intake.tokens is not None
    try:
        site.post("anna")
        assert referee.take_in(intake, send=True) == 1
        assert intake.tokens.renewals == 0
        first_refresh = _refresh_token(config)
        oauth_servers.provider.expire_access()  # the provider's clock passed the token
        oauth_servers.restart_imap()  # the connection drops: the next round logs in again
        site.post("bert")
        assert referee.take_in(intake, send=True) == 1
        assert intake.tokens.renewals == 1
    finally:
        intake.close()
    assert oauth_servers.wait_count(site.players["anna"], 1) == 1
    assert oauth_servers.wait_count(site.players["bert"], 1) == 1
    # the provider turns refresh tokens over: the new one is the one kept
    assert _refresh_token(config) != first_refresh
    assert oauth_servers.count(site.ref) == 0


def test_a_token_near_its_end_is_renewed_before_the_login(oauth_servers: MailServers,
                                                          tmp_path: Path) -> None:
    """By the clock: no refused login first. Two processes sharing the file
    renew once; the second takes the first's token."""
    site = Site(oauth_servers, tmp_path)
    site.grant()
    config = site.config()
    later = datetime.now(UTC).timestamp() + 3600 - 30  # within the minute's margin
    one = AccessTokens(access_tokens(config).file, clock=lambda: later)
    two = AccessTokens(access_tokens(config).file, clock=lambda: later)
    renewals_before = oauth_servers.provider.count("/token", grant_type="refresh_token")
    oauth_servers.provider.lifetime = 7200  # the renewed token lasts past that clock
    try:
        token = one.token()
    finally:
        oauth_servers.provider.lifetime = 3600
    assert one.renewals == 1
    assert two.token() == token and two.renewals == 0
    assert oauth_servers.provider.count("/token", grant_type="refresh_token") \
        == renewals_before + 1
    intake = ImapIntake(oauth_servers.host, oauth_servers.imap_port, user=site.ref,
                        security="none", auth="xoauth2", tokens=AccessTokens(one.file),
                        state_file=tmp_path / "s.json")
    try:
        assert intake.has_capability("IDLE")
    finally:
        intake.close()


def test_a_revoked_grant_gives_a_clear_message_and_loses_nothing(
        oauth_servers: MailServers, tmp_path: Path) -> None:
    site = Site(oauth_servers, tmp_path)
    site.grant()
    config = site.config()
    # a notice waits in the outgoing spool (the SMTP server was away)
    referee = Referee(config)
    referee.outgoing.enqueue(make_mail(config.referee.game_master, "a notice", "waiting",
                                       from_addr=config.referee.address))
    site.post("anna")
    oauth_servers.provider.revoke(site.ref)

    run = site.pbmref("mail", "fetch")
    assert run.returncode == 1, run
    assert "refused renewing the access token (invalid_grant" in run.stderr
    assert "run `pbmref mail authorize` again" in run.stderr
    assert "Traceback" not in run.stderr
    assert oauth_servers.count(site.ref) == 1  # the order mail waits on the server
    assert referee.deliver(force=True) == 0
    (waiting,) = referee.outgoing.queued()  # the notice waits too
    assert "run `pbmref mail authorize` again" in waiting.last_error

    site.grant()  # the game master authorizes again
    run = site.pbmref("mail", "fetch")
    assert run.returncode == 0, run.stderr
    assert "handled 1 mail(s)" in run.stdout
    assert oauth_servers.wait_count(site.players["anna"], 1) == 1
    run = site.pbmref("mail", "deliver")  # what was put off goes now, not at its next try
    assert "sent 1 mail(s)" in run.stdout, run
    assert oauth_servers.wait_count(_user(config.referee.game_master), 1) == 1


def test_a_token_endpoint_that_is_down_is_a_connection_error(tmp_path: Path) -> None:
    """Retried like a mail server that is down; never taken for a lost grant."""
    app = OAuth2App(client_id=CLIENT_ID, token_url="https://127.0.0.1:9/token")
    file = TokenFile(tmp_path / "t.json", app)
    file.save({"access_token": "a", "refresh_token": "r", "expires_at": 0})
    with pytest.raises(TokenEndpointDown, match="cannot reach the token endpoint"):
        AccessTokens(file).token()


def test_the_token_file_is_refused_when_others_can_read_it_or_it_is_another_apps(
        tmp_path: Path) -> None:
    app = OAuth2App(client_id=CLIENT_ID, token_url="https://127.0.0.1:9/token")
    file = TokenFile(tmp_path / "t.json", app)
    with pytest.raises(AuthorizationLost, match="run `pbmref mail authorize` once"):
        file.load()
    file.save({"access_token": "a", "refresh_token": "r"})
    assert stat.S_IMODE(file.path.stat().st_mode) == 0o600
    assert file.load()["refresh_token"] == "r"
    os.chmod(file.path, 0o644)
    with pytest.raises(AuthorizationLost, match="can be read by other users .*chmod 600"):
        file.load()
    os.chmod(file.path, 0o600)
    other = TokenFile(file.path, OAuth2App(client_id="another", token_url=app.token_url))
    with pytest.raises(AuthorizationLost, match="made for another app"):
        other.load()


def _refresh_token(config: Config) -> str:
    return str(access_tokens(config).file.load()["refresh_token"])


def _user(address: str) -> str:
    return address.split("@")[0]


def test_open_sender_logs_in_with_the_token(oauth_servers: MailServers, tmp_path: Path) -> None:
    site = Site(oauth_servers, tmp_path)
    site.grant()
    config = site.config()
    sender = open_sender(config)
    sender.send(Outgoing.of(make_mail(config.referee.game_master, "hello", "by XOAUTH2",
                                      from_addr=config.referee.address)))
    assert oauth_servers.wait_count(_user(config.referee.game_master), 1) == 1


@pytest.mark.parametrize("flow", ["device", "browser"])
def test_pbmref_mail_authorize_tells_what_to_do_and_keeps_the_grant(
        oauth_servers: MailServers, tmp_path: Path, flow: str) -> None:
    """The command as the game master runs it: the device flow's code, or the
    browser flow's address (--no-browser), in its output; the grant kept."""
    site = Site(oauth_servers, tmp_path, flow=flow)
    oauth_servers.provider.signs_in_as = site.ref
    proc = subprocess.Popen([*PBMREF, "mail", "authorize", "--no-browser", "--config",
                             str(site.config_path)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                            stdin=subprocess.DEVNULL)
    assert proc.stdout is not None
    seen = []
    for line in proc.stdout:  # as the game master reads it, line by line
        seen.append(line)
        code = re.search(r"enter the code (\w+)", line)
        if code:
            oauth_servers.provider.approve(code.group(1), site.ref)
            break
        if line.strip().startswith("https://"):
            browser_of(oauth_servers)(line.strip())
            break
    rest, err = proc.communicate(timeout=120)
    out = "".join(seen) + rest
    assert proc.returncode == 0, out + err
    assert out.startswith(f"Asking {site.config().mail.oauth2.token_url} to let the referee "
                          f"read and send the mail of {site.ref} ({flow} flow).")
    assert "Granted. The grant is kept in" in out and "Next: pbmref mail test" in out
    assert stat.S_IMODE(site.config().mail.oauth2.token_file.stat().st_mode) == 0o600
    assert site.pbmref("mail", "fetch").returncode == 0


def test_pbmref_mail_authorize_with_a_password_login_says_there_is_nothing_to_do(
        tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("mail: {mode: imap, imap: {user: r, password_env: PW}}\n")
    run = subprocess.run([*PBMREF, "mail", "authorize", "--config", str(config)],
                         capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert run.returncode == 2
    assert run.stderr.startswith("nothing to authorize: this config logs in with a password")
    assert not (tmp_path / "oauth2-token.json").exists()
