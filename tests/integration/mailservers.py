"""Real mail servers for tests and benchmarks: a private Dovecot (IMAP + LMTP) and an
aiosmtpd SMTP server on loopback that relays every recipient into Dovecot over LMTP.

    with MailServers(users=["referee", "player1"]) as ms:
        ms.smtp_port, ms.imap_port, ms.password("player1"), ms.address("player1")
        ms.append("referee", raw_bytes)            # put a mail straight into a mailbox
        ms.fetch_all("referee", "INBOX")           # -> list[bytes]
        ms.kill_imap(); ms.start_imap(); ms.restart_imap()
        ms.stop_smtp(); ms.start_smtp()

With ``oauth2=True`` an OAuth2 provider runs beside them (``ms.provider``, a
`tokenserver.TokenServer` on loopback HTTPS): Dovecot takes XOAUTH2 and
OAUTHBEARER through its OAuth2 password database, which asks the provider's
introspection endpoint about each token, and the SMTP relay takes both too,
asking the same endpoint; passwords work as before.

The SMTP relay runs in a thread of the caller's process, or (``relay_process=True``,
for the benchmarks) in a process of its own, as every host's mail server does:
plain SMTP without AUTH or STARTTLS, its users read from Dovecot's passwd file.

Nothing here touches system configuration: Dovecot runs from its own folder
(world-enterable, under /tmp, because Dovecot's unprivileged processes must
reach it) with its own base_dir, state and log; ports are picked free at run time.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import smtplib
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterable
from email.utils import formatdate, make_msgid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: the wait helper
from waiting import wait_until

DOVECOT = Path("/usr/sbin/dovecot")
MAIL_UID = 10000
DOMAIN = "game.test"


def dovecot_available() -> bool:
    return DOVECOT.exists() and os.access(DOVECOT, os.X_OK)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _answers(port: int) -> bool:
    """Does something listen on the loopback ``port``?"""
    try:
        with socket.create_connection(("127.0.0.1", port), 0.2):
            return True
    except OSError:
        return False


def _wait_port(port: int, timeout: float = 30.0) -> None:
    try:
        wait_until(lambda: _answers(port), what=f"an answer on 127.0.0.1:{port}",
                   timeout=timeout, step=0.02)
    except AssertionError as exc:
        raise RuntimeError(str(exc)) from None


_CONF = """\
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
info_log_path = {root}/dovecot.log
listen = 127.0.0.1
{ssl}
disable_plaintext_auth = no
auth_mechanisms = plain login{oauth2_mechanisms}
protocols = imap lmtp
mail_location = maildir:~/Maildir
first_valid_uid = {uid}
last_valid_uid = {uid}
first_valid_gid = {uid}
last_valid_gid = {uid}
mail_fsync = never
# the imap process shows the command it runs (IDLE) in its title: a test waits
# on that to know a client is in IDLE
verbose_proctitle = yes
# IDLE notices new mail by inotify, and also looks every this often; Dovecot's
# default (30 secs) equals the 30 s a test waits for IDLE to wake, so a missed
# inotify event on a loaded machine turned into a timeout exactly then.
mailbox_idle_check_interval = 1 secs
namespace inbox {{
  inbox = yes
  separator = /
}}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%n {root}/passwd
}}
{oauth2_passdb}userdb {{
  driver = static
  args = uid={uid} gid={uid} home={root}/home/%n
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {imap_port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {imaps_port}
  }}
}}
service lmtp {{
  inet_listener lmtp {{
    address = 127.0.0.1
    port = {lmtp_port}
  }}
}}
protocol lmtp {{
  auth_username_format = %n
}}
"""


_OAUTH2_PASSDB = """\
passdb {{
  driver = oauth2
  mechanisms = xoauth2 oauthbearer
  args = {root}/dovecot-oauth2.conf.ext
}}
"""

# Dovecot's OAuth2 password database: each token is checked at the provider's
# introspection endpoint (RFC 7662), over HTTPS with the harness's certificate.
_OAUTH2_CONF = """\
introspection_mode = post
introspection_url = {url}
username_attribute = username
active_attribute = active
active_value = true
tls_ca_cert_file = {cert}
"""


class RelayHandler:
    """aiosmtpd handler: each recipient is delivered into Dovecot over LMTP before 250."""

    def __init__(self, servers: MailServers) -> None:
        self.servers = servers
        self.delivered = 0

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,
                          rcpt_options: list[str]) -> str:
        local, _, domain = address.partition("@")
        if local.lower() not in self.servers.users:
            return "550 5.1.1 no such user here"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        import asyncio

        data: bytes = envelope.original_content or envelope.content
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogateescape")
        data = self._complete(data)
        loop = asyncio.get_running_loop()
        try:
            for rcpt in envelope.rcpt_tos:
                await loop.run_in_executor(None, self._lmtp, envelope.mail_from or "", rcpt, data)
        except (OSError, smtplib.SMTPException) as exc:
            return f"451 4.3.0 mailbox store unavailable ({type(exc).__name__})"
        self.delivered += 1
        return "250 2.0.0 delivered"

    @staticmethod
    def _complete(data: bytes) -> bytes:
        head_end = data.find(b"\r\n\r\n")
        if head_end < 0:
            head_end = data.find(b"\n\n")
        head = (data[:head_end] if head_end >= 0 else data).lower()
        extra = b""
        if not head.startswith(b"date:") and b"\ndate:" not in head:
            extra += f"Date: {formatdate(localtime=False)}\r\n".encode()
        if not head.startswith(b"message-id:") and b"\nmessage-id:" not in head:
            extra += f"Message-ID: {make_msgid(domain='relay.' + DOMAIN)}\r\n".encode()
        return extra + data

    def _lmtp(self, mail_from: str, rcpt: str, data: bytes) -> None:
        with smtplib.LMTP("127.0.0.1", self.servers.lmtp_port, timeout=10) as lmtp:
            refused = lmtp.sendmail(mail_from, [rcpt], data)
            if refused:
                raise smtplib.SMTPRecipientsRefused(refused)


class OAuth2RelayHandler(RelayHandler):
    """The relay, also taking XOAUTH2 and OAUTHBEARER logins (aiosmtpd offers
    a mechanism for each ``auth_NAME`` method of its handler). A token the
    provider does not call active gets the mechanisms' error challenge, then 535."""

    async def auth_XOAUTH2(self, server: Any, args: list[str]) -> Any:
        return await self._bearer(server, args, lambda text: text.split("\x01")[0][5:])

    async def auth_OAUTHBEARER(self, server: Any, args: list[str]) -> Any:
        # "n,a=USER,\x01auth=Bearer TOKEN\x01\x01" (RFC 7628)
        return await self._bearer(server, args, lambda text: text.split(",")[1][2:])

    async def _bearer(self, server: Any, args: list[str], user_of: Any) -> Any:
        import asyncio
        import base64
        import json

        from aiosmtpd.smtp import AuthResult

        if len(args) < 2:
            return AuthResult(success=False, handled=False)
        text = base64.b64decode(args[1]).decode()
        fields = dict(f.split("=", 1) for f in text.split("\x01") if "=" in f and
                      f.startswith("auth="))
        token = fields.get("auth", "").removeprefix("Bearer ")
        user = user_of(text).split("@")[0].lower()
        account = await asyncio.get_running_loop().run_in_executor(
            None, self._introspect, token)
        if account is not None and account == user:
            return AuthResult(success=True, auth_data=user)
        status = base64.b64encode(json.dumps({"status": "401", "schemes": "bearer"}).encode())
        await server.challenge_auth(status.decode(), encode_to_b64=False)
        return AuthResult(success=False, handled=False)


    def _introspect(self, token: str) -> str | None:
        """The account the provider's introspection endpoint says the token is
        good for (as Dovecot asks it), or None."""
        import json
        import urllib.parse
        import urllib.request

        servers = self.servers
        assert isinstance(servers, MailServers)
        context = ssl.create_default_context(cafile=str(servers.cert))
        body = urllib.parse.urlencode({"token": token}).encode()
        with urllib.request.urlopen(servers.provider.url("/introspect"), body, timeout=10,
                                    context=context) as answer:
            said = json.load(answer)
        return said.get("username") if said.get("active") else None


class MailServers:
    """A private Dovecot plus an SMTP->LMTP relay. Use as a context manager."""

    def __init__(self, users: Iterable[str] = ("referee",), *, password: str = "secret",
                 smtp_auth: bool = True, spare_users: int = 40,
                 relay_process: bool = False, oauth2: bool = False) -> None:
        self.default_password = password
        self.relay_process = relay_process
        self._relay: subprocess.Popen[str] | None = None
        self.users: dict[str, str] = {}
        self.smtp_auth = smtp_auth
        self.root = Path(tempfile.mkdtemp(prefix="pbmref-mail-", dir="/tmp"))
        os.chmod(self.root, 0o755)
        self.imap_port = free_port()
        self.lmtp_port = free_port()
        self.smtp_port = free_port()
        self.smtps_port = free_port()  # implicit TLS (only when `self.tls` is True)
        self.imaps_port = 0
        self.host = "127.0.0.1"
        self.domain = DOMAIN
        self._proc: subprocess.Popen[bytes] | None = None
        self._controller: Any = None
        self._smtps: Any = None
        self.handler = OAuth2RelayHandler(self) if oauth2 else RelayHandler(self)
        self.provider: Any = None
        for sub in ("run", "state", "home"):
            (self.root / sub).mkdir(mode=0o755)
        os.chown(self.root / "home", MAIL_UID, MAIL_UID)
        self.cert = self.root / "cert.pem"
        self.tls = self._make_cert()
        if self.tls:
            self.imaps_port = free_port()
            ssl_conf = f"ssl = yes\nssl_cert = <{self.cert}\nssl_key = <{self.root / 'key.pem'}"
        else:
            ssl_conf = "ssl = no"
        oauth2_passdb = oauth2_mechanisms = ""
        if oauth2:
            from tokenserver import TokenServer

            if not self.tls:
                raise RuntimeError("the OAuth2 provider needs the openssl command (HTTPS)")
            self.provider = TokenServer(self.cert, self.root / "key.pem").start()
            (self.root / "dovecot-oauth2.conf.ext").write_text(_OAUTH2_CONF.format(
                url=self.provider.url("/introspect"), cert=self.cert))
            # Dovecot's auth process reads both as its own user, whatever the
            # test process's umask (pbmref's cli.main sets 027 for good)
            for name in ("dovecot-oauth2.conf.ext", "cert.pem"):
                os.chmod(self.root / name, 0o644)
            oauth2_passdb = _OAUTH2_PASSDB.format(root=self.root)
            oauth2_mechanisms = " xoauth2 oauthbearer"
        (self.root / "dovecot.conf").write_text(_CONF.format(
            root=self.root, uid=MAIL_UID, imap_port=self.imap_port, lmtp_port=self.lmtp_port,
            imaps_port=self.imaps_port, ssl=ssl_conf, oauth2_passdb=oauth2_passdb,
            oauth2_mechanisms=oauth2_mechanisms))
        for user in users:
            self.add_user(user)
        self._spare = [f"box{i:03d}" for i in range(spare_users, 0, -1)]
        self._add_users(self._spare)

    def _make_cert(self) -> bool:
        """A self-signed certificate for 127.0.0.1 (needs the openssl command)."""
        openssl = shutil.which("openssl") or "/usr/bin/openssl"
        try:
            subprocess.run(
                [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                 "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                 "-keyout", str(self.root / "key.pem"), "-out", str(self.cert)],
                check=True, capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.SubprocessError):
            return False
        return True

    def client_tls_context(self) -> ssl.SSLContext:
        """An SSL context that trusts this harness's certificate (for IMAPS/SMTPS/STARTTLS)."""
        return ssl.create_default_context(cafile=str(self.cert))

    def _server_tls_context(self) -> ssl.SSLContext:
        ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ctx.load_cert_chain(str(self.cert), str(self.root / "key.pem"))
        return ctx

    # ------------------------------------------------------------------ users
    def add_user(self, name: str, password: str | None = None) -> str:
        """Create a mailbox user (Dovecot re-reads the passwd file when it changes,
        but at most once a second: use fresh_user() for an at-once usable one)."""
        name = name.lower()
        self._add_users([name], password)
        return name

    def _add_users(self, names: list[str], password: str | None = None) -> None:
        for name in names:
            self.users[name] = password or self.default_password
            home = self.root / "home" / name
            home.mkdir(exist_ok=True)
            os.chown(home, MAIL_UID, MAIL_UID)
        lines = "".join(f"{u}:{{PLAIN}}{p}::::::\n" for u, p in self.users.items())
        tmp = self.root / "passwd.tmp"
        tmp.write_text(lines)
        os.chmod(tmp, 0o644)
        # Dovecot notices a changed passwd-file by its mtime (whole seconds) and size:
        # give every version a later mtime, so two quick additions are both seen
        self._passwd_stamp = max(int(time.time()), getattr(self, "_passwd_stamp", 0) + 1)
        os.utime(tmp, (self._passwd_stamp, self._passwd_stamp))
        os.replace(tmp, self.root / "passwd")

    def fresh_user(self, prefix: str = "u") -> str:
        """A new user with an empty mailbox (for tests that must not share one).

        Taken from a pool made at start-up; when that runs dry a new user is added
        and this waits until Dovecot knows it (it re-reads its passwd file at most
        once a second)."""
        if self._spare:
            name = self._spare.pop()
            return name
        name = self.add_user(f"{prefix}{uuid.uuid4().hex[:8]}")
        if self._proc is not None:  # Dovecot re-reads passwd once a second at most
            wait_until(lambda: self._logs_in(name), what=f"{name} to log in to Dovecot",
                       timeout=15, step=0.2)
        return name

    def _logs_in(self, user: str) -> bool:
        try:
            self.imap(user).logout()
        except Exception:  # noqa: BLE001 - not yet: asked again
            return False
        return True

    def in_idle(self, user: str) -> bool:
        """Is a client of ``user`` waiting in IDLE? Dovecot's imap process says the
        command it runs in its title (``verbose_proctitle``)."""
        want = f"dovecot/imap [{user} ".encode()
        for proc in Path("/proc").iterdir():
            if not proc.name.isdigit():
                continue
            try:
                title = (proc / "cmdline").read_bytes()
            except OSError:
                continue
            if title.startswith(want) and b" IDLE]" in title:
                return True
        return False

    def password(self, user: str) -> str:
        return self.users[user.lower()]

    def address(self, user: str) -> str:
        return f"{user}@{self.domain}"

    # ------------------------------------------------------------------ dovecot
    def start_imap(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            return
        with open(self.root / "dovecot.stderr", "ab") as err:
            self._proc = subprocess.Popen(
                [str(DOVECOT), "-F", "-c", str(self.root / "dovecot.conf")],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                start_new_session=True,
            )
        try:
            _wait_port(self.imap_port)
            _wait_port(self.lmtp_port)
            if self.imaps_port:
                _wait_port(self.imaps_port)
        except RuntimeError as exc:
            raise RuntimeError(f"{exc}\n--- dovecot log:\n{self.log_tail()}") from exc

    def kill_imap(self) -> None:
        """Crash Dovecot: SIGKILL its whole process group (clients see the socket die)."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        # sessions that re-parented away from the group: wait for the port to close
        wait_until(lambda: not _answers(self.imap_port),
                   what=f"Dovecot's port {self.imap_port} to close", timeout=30)

    def restart_imap(self) -> None:
        self.kill_imap()
        self.start_imap()

    def log_tail(self, n: int = 40) -> str:
        out = []
        for name in ("dovecot.log", "dovecot.stderr"):
            with contextlib.suppress(OSError):
                out += (self.root / name).read_text(errors="replace").splitlines()[-n:]
        return "\n".join(out)

    # ------------------------------------------------------------------ smtp relay
    def start_smtp(self) -> None:
        if self.relay_process:
            self._start_relay_process()
            return
        if self._controller is not None:
            return
        from aiosmtpd.controller import Controller
        from aiosmtpd.smtp import AuthResult, LoginPassword

        def authenticator(server: Any, session: Any, envelope: Any, mechanism: str,
                          auth_data: Any) -> AuthResult:
            if isinstance(auth_data, LoginPassword):
                user = auth_data.login.decode().split("@")[0].lower()
                if self.users.get(user) == auth_data.password.decode():
                    return AuthResult(success=True)
            return AuthResult(success=False, handled=False)

        kwargs: dict[str, Any] = {}
        if self.smtp_auth:
            kwargs = {"authenticator": authenticator, "auth_require_tls": False,
                      "auth_required": False}
        if self.tls:  # STARTTLS offered (not required) on the plain port
            kwargs["tls_context"] = self._server_tls_context()
        controller = Controller(self.handler, hostname="127.0.0.1", port=self.smtp_port,
                                ready_timeout=10, **kwargs)
        controller.start()
        self._controller = controller
        if self.tls:
            kwargs.pop("tls_context")
            smtps = Controller(self.handler, hostname="127.0.0.1", port=self.smtps_port,
                               ready_timeout=10, ssl_context=self._server_tls_context(),
                               **kwargs)
            smtps.start()
            self._smtps = smtps

    def _start_relay_process(self) -> None:
        if self._relay is not None and self._relay.poll() is None:
            return
        relay = subprocess.Popen(
            [sys.executable, __file__, "relay", str(self.smtp_port), str(self.lmtp_port),
             str(self.root / "passwd")],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True)
        ready = relay.stdout.readline() if relay.stdout else ""
        if ready.strip() != "ready":
            relay.kill()
            relay.wait()
            raise RuntimeError(f"the SMTP relay process did not start: {ready!r}")
        self._relay = relay

    def stop_smtp(self) -> None:
        relay, self._relay = self._relay, None
        if relay is not None:
            relay.terminate()
            relay.wait(timeout=10)
        controller, self._controller = self._controller, None
        if controller is not None:
            controller.stop()
        smtps, self._smtps = self._smtps, None
        if smtps is not None:
            smtps.stop()

    # ------------------------------------------------------------------ IMAP helpers
    def imap(self, user: str) -> Any:
        """A logged-in IMAPClient for `user` (caller logs out)."""
        from imapclient import IMAPClient

        client = IMAPClient(self.host, port=self.imap_port, ssl=False, timeout=10)
        client.login(user, self.password(user))
        return client

    def append(self, user: str, raw: bytes, folder: str = "INBOX", msg_time: Any = None) -> None:
        client = self.imap(user)
        try:
            if not client.folder_exists(folder):
                client.create_folder(folder)
            client.append(folder, raw, msg_time=msg_time)
        finally:
            client.logout()

    def fetch_all(self, user: str, folder: str = "INBOX") -> list[bytes]:
        """Every mail in `folder` of `user` (without setting \\Seen), in UID order."""
        client = self.imap(user)
        try:
            if not client.folder_exists(folder):
                return []
            client.select_folder(folder, readonly=True)
            uids = sorted(client.search(["ALL"]))
            if not uids:
                return []
            data = client.fetch(uids, ["BODY.PEEK[]"])
            return [bytes(data[u][b"BODY[]"]) for u in uids if u in data]
        finally:
            client.logout()

    def count(self, user: str, folder: str = "INBOX") -> int:
        return len(self.fetch_all(user, folder))

    def wait_count(self, user: str, n: int, folder: str = "INBOX", timeout: float = 60.0) -> int:
        """Wait until `folder` holds at least `n` mails; returns the final count.

        A poll the server fails to answer (a Dovecot just restarted can take
        longer than this client's timeout; the connection may drop) counts as
        not yet; when the time is up such a failure is raised."""
        import imaplib

        got: int | None = None
        failed: Exception | None = None

        def enough() -> bool:
            nonlocal got, failed
            try:
                got, failed = self.count(user, folder), None
            except (OSError, imaplib.IMAP4.error) as exc:
                failed = exc
                return False
            return got >= n

        with contextlib.suppress(AssertionError):
            wait_until(enough, what=f"{n} mails in {user}'s {folder}", timeout=timeout,
                       step=0.1)
        if got is None or failed is not None:
            raise failed or AssertionError(f"{user}'s {folder} could not be read")
        return got

    def send(self, from_addr: str, to: list[str], raw: bytes) -> None:
        """Submit a mail through the relay with stdlib smtplib."""
        with smtplib.SMTP(self.host, self.smtp_port, timeout=10) as s:
            s.sendmail(from_addr, to, raw)

    def write_config(self, folder: str | os.PathLike[str], user: str = "referee",
                     **extra: Any) -> Path:
        """Write a pbmref config (mode imap, plain IMAP + SMTP on this harness, the
        password in a file) into `folder`; returns its path. `extra` adds top-level
        YAML sections, e.g. limits={"max_message_bytes": 5000}."""
        import yaml

        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        pw = folder / f"{user}.password"
        pw.write_text(self.password(user) + "\n")
        data: dict[str, Any] = {
            "games_dir": "games",
            "spool_dir": "spool",
            "referee": {"address": self.address(user), "name": "pbmref test referee"},
            "mail": {
                "mode": "imap",
                "imap": {"host": self.host, "port": self.imap_port, "security": "none",
                         "user": user, "password_file": str(pw), "timeout": 10,
                         "idle_renew_seconds": 60, "poll_seconds": 1},
                "smtp": {"host": self.host, "port": self.smtp_port, "security": "none",
                         "timeout": 10},
            },
        }
        data.update(extra)
        path = folder / "pbmref.yaml"
        path.write_text(yaml.safe_dump(data, sort_keys=False))
        return path

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> MailServers:
        if not dovecot_available():
            raise RuntimeError(f"{DOVECOT} is not installed")
        self.start_imap()
        self.start_smtp()
        return self

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.stop_smtp()
        proc, self._proc = self._proc, None
        if proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=5)
        if self.provider is not None:
            self.provider.stop()
        # sessions left behind die with their group
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> MailServers:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc: object) -> None:
        self.stop()


_lock = threading.Lock()


class _PasswdUsers:
    """The users of Dovecot's passwd file as the relay process sees them (read
    again when the file changes): what ``RelayHandler`` asks of ``users``."""

    def __init__(self, passwd: Path) -> None:
        self.passwd = passwd
        self._stamp: tuple[int, int] = (0, 0)
        self._names: frozenset[str] = frozenset()

    def __contains__(self, name: object) -> bool:
        st = self.passwd.stat()
        if (st.st_mtime_ns, st.st_size) != self._stamp:
            self._stamp = (st.st_mtime_ns, st.st_size)
            self._names = frozenset(line.split(":", 1)[0]
                                    for line in self.passwd.read_text().splitlines() if line)
        return name in self._names


class _RelayServers:
    """What a ``RelayHandler`` needs of ``MailServers``, in the relay's process."""

    def __init__(self, lmtp_port: int, passwd: Path) -> None:
        self.lmtp_port = lmtp_port
        self.users = _PasswdUsers(passwd)


def _run_relay(smtp_port: int, lmtp_port: int, passwd: Path) -> None:
    """The relay in a process of its own: says ``ready`` once it listens, stops
    on SIGTERM."""
    from aiosmtpd.controller import Controller

    controller = Controller(RelayHandler(_RelayServers(lmtp_port, passwd)),  # type: ignore[arg-type]
                            hostname="127.0.0.1", port=smtp_port, ready_timeout=10)
    controller.start()
    print("ready", flush=True)
    signal.sigwait({signal.SIGTERM, signal.SIGINT})
    controller.stop()


if __name__ == "__main__" and sys.argv[1:2] == ["relay"]:
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})
    _run_relay(int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4]))
