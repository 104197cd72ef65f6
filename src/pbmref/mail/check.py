"""The connection test behind ``pbmref mail test``: each step a game master
would take by hand, in order, in plain words, and what to do when one fails.

IMAP: name lookup, connection, TLS, login, the folder, IDLE. SMTP: name
lookup, connection, TLS, login, and a test mail to the game master. A server's
steps stop at its first failure (the later ones need it). Nothing on the
servers is changed: the folder is opened read-only, the handled folder is not
made; the test mail is the one thing sent. The steps use the referee's own
connection code (`ImapIntake.open`'s pieces, `SmtpSender`), so what passes
here is what the referee does.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import ssl
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import aiosmtplib
from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError, LoginError

from pbmref.config import Config, ConfigError, LoginConfig
from pbmref.mail.base import MailError
from pbmref.mail.compose import make_mail
from pbmref.mail.factory import access_tokens, smtp_sender
from pbmref.mail.imap_in import imap_login
from pbmref.mail.smtp_out import DEFAULT_PORTS, SmtpSender

__all__ = ["Step", "check_imap", "check_smtp"]

AUTHORIZE = "run `pbmref mail authorize`"


@dataclass(frozen=True)
class Step:
    """One step of the test: what was found (``said``), and when it failed what
    to do (``todo``). ``note``: it passed, but is worth a look."""

    name: str
    ok: bool
    said: str
    todo: str = ""
    note: bool = False


# What to do when a login is refused, by provider and kind of login.
_LOGIN_TODO = {
    ("gmail", "password"): "Gmail: this account needs an app password (Google account, "
        "Security, 2-Step Verification, App passwords) or OAuth2: write auth: xoauth2 "
        f"under mail.imap and {AUTHORIZE}",
    ("microsoft", "password"): "Microsoft: Outlook.com, Hotmail and Microsoft 365 take no "
        "passwords for IMAP and SMTP: remove the password (auth: xoauth2, the preset's) "
        f"and {AUTHORIZE}",
    ("fastmail", "password"): "Fastmail: use an app password (Settings, Privacy & Security, "
        "App passwords), not the account's own password",
    ("gmail", "oauth2"): "Gmail: the user must be the Google account you signed in with at "
        f"`pbmref mail authorize`; if it is, {AUTHORIZE} again",
    ("microsoft", "oauth2"): "Microsoft: the user must be the account you signed in with at "
        "`pbmref mail authorize`; for Microsoft 365 an administrator must also allow IMAP and "
        "authenticated SMTP for the mailbox",
    ("generic", "password"): "check the user (often the whole address) and the password "
        "(password_env, password_file or password_command); some providers want an app "
        "password here",
    ("generic", "oauth2"): "check that the user is the account you signed in with at "
        f"`pbmref mail authorize` and that the server takes this login; {AUTHORIZE} again "
        "if in doubt",
}


def _login_todo(provider: str, login: LoginConfig) -> str:
    kind = "oauth2" if login.oauth2 else "password"
    return _LOGIN_TODO.get((provider, kind)) or _LOGIN_TODO[("generic", kind)]


def _reach(host: str, port: int, timeout: float, key: str) -> Iterator[Step]:
    """Name lookup and connection (a plain TCP connection, closed again)."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        yield Step("name lookup", False, f"cannot find {host} ({exc.strerror})",
                   f"check mail.{key}.host for a typo, and that this machine can look up "
                   "names (its network and DNS)")
        return
    addresses = ", ".join(dict.fromkeys(str(f[4][0]) for f in found))
    yield Step("name lookup", True, f"{host} is {addresses}")
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as exc:
        why = "nobody answered in time" if isinstance(exc, TimeoutError) else \
            (exc.strerror or str(exc))
        yield Step("connection", False, f"nothing answers on port {port} ({why})",
                   f"check mail.{key}.port and security (IMAP: 993 with tls, 143 with "
                   "starttls; SMTP: 465 with tls, 587 with starttls) and any firewall "
                   "between this machine and the server")
        return
    yield Step("connection", True, f"port {port} answers")


def _tls_step(security: str, sock: Any, host: str, key: str) -> Step:
    if security == "none":
        return Step("TLS", True, "none (security: none): the password and the mail cross the "
                    "network readable; only on a network you trust", note=True)
    how = "at once" if security == "tls" else "after STARTTLS"
    if not isinstance(sock, ssl.SSLObject | ssl.SSLSocket):
        return Step("TLS", True, f"{how}")
    cert = sock.getpeercert() or {}
    until = cert.get("notAfter")
    valid = ""
    if until:
        ends = datetime.fromtimestamp(ssl.cert_time_to_seconds(str(until)), UTC)
        valid = f"; its certificate for {host} is valid until {ends:%Y-%m-%d}"
    return Step("TLS", True, f"{sock.version()} {how}{valid}")


def _tls_failure(exc: BaseException, security: str, port: int, key: str) -> Step:
    text = str(exc)
    if isinstance(exc, ssl.SSLCertVerificationError):
        return Step("TLS", False, f"the server's certificate is not trusted "
                    f"({exc.verify_message})",
                    f"check mail.{key}.host: it must be the name the certificate is made "
                    "for; a server with a certificate of its own making is trusted by "
                    "pointing SSL_CERT_FILE at its certificate")
    if "WRONG_VERSION_NUMBER" in text or "record layer failure" in text or \
            "UNEXPECTED_EOF" in text or isinstance(exc, EOFError):
        return Step("TLS", False, f"the server does not speak TLS at once on port {port}",
                    "this port wants security: starttls (IMAP 143, SMTP 587), or a plain "
                    "connection; implicit TLS is on IMAP 993 and SMTP 465")
    if "STARTTLS" in text.upper():
        return Step("TLS", False, f"the server offers no STARTTLS on port {port} ({text})",
                    "write security: tls with the implicit TLS port (IMAP 993, SMTP 465), "
                    "or security: none on a network you trust")
    return Step("TLS", False, f"{type(exc).__name__}: {text}",
                f"check mail.{key}.security and port")


# ------------------------------------------------------------------------ IMAP


def check_imap(config: Config, *, ssl_context: ssl.SSLContext | None = None) -> Iterator[Step]:
    """The IMAP steps, in order; stops at the first that fails."""
    imap = config.mail.imap
    port = imap.port or (993 if imap.security == "tls" else 143)
    steps = list(_reach(imap.host, port, imap.timeout, "imap"))
    yield from steps
    if not steps[-1].ok:
        return
    try:
        client = IMAPClient(imap.host, port=port, ssl=imap.security == "tls",
                            ssl_context=ssl_context, timeout=imap.timeout)
        if imap.security == "starttls":
            client.starttls(ssl_context)
    except (OSError, IMAPClientError, EOFError) as exc:
        yield _tls_failure(exc, imap.security, port, "imap")
        return
    try:
        yield _tls_step(imap.security, getattr(client._imap, "sock", None), imap.host, "imap")
        login = _imap_login(config, client)
        yield login
        if not login.ok:
            return
        yield from _imap_folder(config, client)
    finally:
        with contextlib.suppress(Exception):
            client.logout()


def _imap_login(config: Config, client: IMAPClient) -> Step:
    imap = config.mail.imap
    how = f"{imap.auth.upper()} (OAuth2)" if imap.oauth2 else "password"
    try:
        if imap.oauth2:
            imap_login(client, imap.user, auth=imap.auth, tokens=access_tokens(config))
        else:
            imap_login(client, imap.user, password=imap.password())
    except (ConfigError, MailError) as exc:  # no password, or no grant
        return Step("login", False, str(exc), _missing_secret_todo(imap))
    except ConnectionError as exc:  # the token endpoint
        return Step("login", False, str(exc), "try again later; check this machine's network")
    except LoginError as exc:
        said = str(exc)
        if said.startswith(("b'", 'b"')):  # imaplib's bytes, as words
            said = said[2:-1]
        return Step("login", False, f"the server refused {imap.user} by {how} ({said})",
                    _login_todo(config.mail.provider, imap))
    return Step("login", True, f"as {imap.user}, by {how}")


def _missing_secret_todo(login: LoginConfig) -> str:
    if login.oauth2:
        return AUTHORIZE
    return "set the password (password_env, password_file or password_command)"


def _imap_folder(config: Config, client: IMAPClient) -> Iterator[Step]:
    imap = config.mail.imap
    try:
        info = client.select_folder(imap.folder, readonly=True)
    except IMAPClientError as exc:
        names = ", ".join(str(f[2]) for f in client.list_folders()[:12])
        yield Step("folder", False, f"cannot open {imap.folder} ({exc})",
                   f"check mail.imap.folder; this mailbox has: {names}")
        return
    count = int(info.get(b"EXISTS", 0))
    handled = ("exists" if client.folder_exists(imap.handled_folder)
               else "is made at the first handled mail")
    said = (f"{imap.folder} holds {count} mail(s); handled mail goes to "
            f"{imap.handled_folder} ({handled})")
    if count:
        yield Step("folder", True, said + ". The referee answers EVERY mail in "
                   f"{imap.folder} and files it away: it must be the referee's own mailbox",
                   note=True)
    else:
        yield Step("folder", True, said)
    if b"IDLE" in set(client.capabilities()):
        yield Step("IDLE", True, "the server tells new mail at once")
    else:
        yield Step("IDLE", True, f"not offered: the referee looks for new mail every "
                   f"{imap.poll_seconds:g} s (mail.imap.poll_seconds)", note=True)


# ------------------------------------------------------------------------ SMTP


def check_smtp(config: Config, *, to: str,
               ssl_context: ssl.SSLContext | None = None) -> Iterator[Step]:
    """The SMTP steps, in order, ending with a test mail to ``to``."""
    smtp = config.mail.smtp
    port = smtp.port or DEFAULT_PORTS[smtp.security]
    steps = list(_reach(smtp.host, port, smtp.timeout, "smtp"))
    yield from steps
    if not steps[-1].ok:
        return
    try:
        sender = smtp_sender(config)  # reads the password
    except ConfigError as exc:
        yield Step("login", False, str(exc), _missing_secret_todo(smtp))
        return
    sender.tls_context = ssl_context
    yield from asyncio.run(_smtp_steps(config, sender, to))


async def _smtp_steps(config: Config, sender: SmtpSender, to: str) -> list[Step]:
    smtp = config.mail.smtp
    steps: list[Step] = []
    try:
        client = await sender.connect()
    except (aiosmtplib.SMTPException, OSError) as exc:
        cause = exc.__cause__ or exc.__context__ or exc
        steps.append(_tls_failure(cause if isinstance(cause, ssl.SSLError) else exc,
                                  smtp.security, sender.port, "smtp"))
        return steps
    try:
        ssl_object = client.get_transport_info("ssl_object")
        steps.append(_tls_step(smtp.security, ssl_object, sender.host, "smtp"))
        steps.append(await _smtp_login(config, sender, client))
        if not steps[-1].ok:
            return steps
        steps.append(await _test_mail(config, client, to))
    finally:
        with contextlib.suppress(Exception):
            await client.quit()
    return steps


async def _smtp_login(config: Config, sender: SmtpSender, client: aiosmtplib.SMTP) -> Step:
    smtp = config.mail.smtp
    if not smtp.user:
        return Step("login", True, "none (mail.smtp.user is empty): the server must take "
                    "mail from this machine without one", note=True)
    how = f"{smtp.auth.upper()} (OAuth2)" if smtp.oauth2 else "password"
    try:
        await sender.login(client)
    except MailError as exc:
        return Step("login", False, str(exc), AUTHORIZE)
    except ConnectionError as exc:
        return Step("login", False, str(exc), "try again later; check this machine's network")
    except aiosmtplib.SMTPAuthenticationError as exc:
        return Step("login", False, f"the server refused {smtp.user} by {how} ({exc.code} "
                    f"{exc.message})", _login_todo(config.mail.provider, smtp))
    except aiosmtplib.SMTPException as exc:
        return Step("login", False, str(exc), "check mail.smtp.auth, security and port "
                    "(many servers offer a login only after TLS)")
    return Step("login", True, f"as {smtp.user}, by {how}")


async def _test_mail(config: Config, client: aiosmtplib.SMTP, to: str) -> Step:
    referee = config.referee
    msg = make_mail(to, "pbmref mail test", (
        f"This is a test mail from the play-by-mail referee {referee.address}.\n"
        f"It was sent by `pbmref mail test` through {config.mail.smtp.host}; "
        "nothing to do.\n"), from_addr=referee.address, from_name=referee.name)
    try:
        refused, _ = await client.send_message(msg)
    except aiosmtplib.SMTPException as exc:
        return Step("test mail", False, f"the server did not take it ({exc})",
                    f"check referee.address ({referee.address}): many servers send only "
                    "from the logged-in account's own address")
    if refused:
        return Step("test mail", False, f"the server refused {to}: {refused}",
                    "check the address (referee.game_master, or --to)")
    return Step("test mail", True, f"sent to {to}: look for \"pbmref mail test\" there "
                "(and in its spam folder)")

