"""Sending over SMTP with aiosmtplib: plain, STARTTLS or implicit TLS, optional login.

`SmtpSender.send(mail)` is synchronous (usable from the referee's sync code and
from a thread that already runs an event loop); `send_async` is the coroutine.
Errors become `TemporaryFailure` (retry later) or `PermanentFailure` (5xx).
A mail goes as the bytes the outgoing spool holds (``Outgoing``: flattened
once when queued), its envelope from its From, To and Cc.

Inside ``with sender.session():`` (a delivery round of the outgoing spool)
every mail goes over one connection, opened at the first mail; a connection
the server dropped is opened again once for the mail at hand. (aiosmtplib
sends the commands of a mail one after another: it has no PIPELINING.)

The login is a password, or an OAuth2 access token (``auth="xoauth2"`` or
``"oauthbearer"``) from `AccessTokens`, asked for at each connection; a token
the server refuses is renewed and tried once more. A grant the provider
withdrew is a temporary failure (the mail stays in the spool) whose message
says to run ``pbmref mail authorize``.
"""

from __future__ import annotations

import asyncio
import base64
import concurrent.futures
import contextlib
import logging
import socket
import ssl
from collections.abc import Awaitable, Callable, Iterator
from typing import TYPE_CHECKING, TypeVar

import aiosmtplib

from pbmref.mail.base import IntakeError, Outgoing, PermanentFailure, TemporaryFailure

if TYPE_CHECKING:
    from pbmref.mail.health import ServerWatch
    from pbmref.mail.oauth2 import AccessTokens

__all__ = ["SECURITY_MODES", "SmtpSender"]

log = logging.getLogger(__name__)

T = TypeVar("T")

SECURITY_MODES = ("none", "starttls", "tls")
DEFAULT_PORTS = {"none": 25, "starttls": 587, "tls": 465}


class SmtpSender:
    """`Sender` over SMTP."""

    def __init__(
        self,
        host: str = "localhost",
        port: int | None = None,
        *,
        security: str = "starttls",
        user: str | None = None,
        password: str | None = None,
        auth: str = "password",
        tokens: AccessTokens | None = None,
        watch: ServerWatch | None = None,
        timeout: float = 60.0,
        tls_context: ssl.SSLContext | None = None,
        local_hostname: str | None = None,
    ) -> None:
        if security not in SECURITY_MODES:
            raise ValueError(f"security must be one of {', '.join(SECURITY_MODES)}, not {security!r}")
        if auth != "password" and (tokens is None or not user):
            raise ValueError(f"auth {auth!r} needs a user and the OAuth2 access tokens")
        self.host = host
        self.port = port or DEFAULT_PORTS[security]
        self.auth = auth
        self.tokens = tokens
        self.watch = watch  # told whether the server answers (mail.health)
        self.security = security
        self.user = user or None
        self.password = password
        self.timeout = timeout
        self.tls_context = tls_context
        self.local_hostname = local_hostname
        self._session: _Session | None = None

    def _hostname(self) -> str:
        """Our name in EHLO, found once (``socket.getfqdn`` may ask the DNS)."""
        if self.local_hostname is None:
            self.local_hostname = socket.getfqdn()
        return self.local_hostname

    def _client(self) -> aiosmtplib.SMTP:
        return aiosmtplib.SMTP(
            hostname=self.host, port=self.port,
            use_tls=self.security == "tls", start_tls=self.security == "starttls",
            timeout=self.timeout, tls_context=self.tls_context,
            local_hostname=self._hostname())

    async def open(self) -> aiosmtplib.SMTP:
        """A connection, secured as configured and logged in."""
        client = await self.connect()
        try:
            await self.login(client)
        except BaseException:
            client.close()
            raise
        return client

    async def connect(self) -> aiosmtplib.SMTP:
        """A connection, secured as configured (TLS at once, or STARTTLS), not
        logged in."""
        client = self._client()
        await client.connect()
        return client

    async def login(self, client: aiosmtplib.SMTP) -> None:
        """Log in (nothing without a user): with the password, or with an OAuth2
        access token, renewed and tried once more when the server refuses it."""
        if not self.user:
            return
        if self.auth == "password":
            await client.login(self.user, self.password or "")
            return
        assert self.tokens is not None
        if client.last_ehlo_response is None:
            await client.ehlo()
        if self.auth not in client.server_auth_methods:
            raise aiosmtplib.SMTPException(
                f"the SMTP server offers no {self.auth.upper()} login (it offers: "
                f"{', '.join(client.server_auth_methods) or 'none'})")
        for attempt in (1, 2):
            token = await asyncio.to_thread(self.tokens.token)
            try:
                if self.auth == "xoauth2":
                    await client.auth_xoauth2(self.user, token)
                else:
                    await _auth_oauthbearer(client, self.user, token)
                return
            except aiosmtplib.SMTPAuthenticationError:
                self.tokens.expire()  # turned down: the next one is renewed
                if attempt == 2:
                    raise

    async def send_async(self, mail: Outgoing) -> None:
        """Send one mail over a connection of its own."""
        async with _failures(self, mail):
            client = await self.open()
            try:
                await self._send_on(client, mail)
            finally:
                with contextlib.suppress(Exception):
                    await client.quit()

    async def _send_on(self, client: aiosmtplib.SMTP, mail: Outgoing) -> None:
        # the mail is 7-bit (pbmref.mail.compose); an address beyond ASCII needs SMTPUTF8
        options = [] if (mail.sender + "".join(mail.recipients)).isascii() else ["SMTPUTF8"]
        errors, _ = await client.sendmail(mail.sender, list(mail.recipients), mail.raw,
                                          mail_options=options)
        if errors:  # some recipients refused, others took it: not resent (no duplicates)
            log.warning("SMTP refused some recipients of %s: %s", mail.get("Message-ID"),
                        {k: str(v) for k, v in errors.items()})

    @contextlib.contextmanager
    def session(self) -> Iterator[None]:
        """One delivery round: every ``send`` inside goes over one connection."""
        if self._session is not None or _loop_running():
            yield  # nested, or inside an event loop: each mail connects on its own
            return
        with asyncio.Runner() as runner:
            self._session = _Session(self, runner)
            try:
                yield
            finally:
                session, self._session = self._session, None
                session.close()

    def send(self, mail: Outgoing) -> None:
        if self._session is not None:
            self._session.send(mail)
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            asyncio.run(self.send_async(mail))
            return
        # called from inside an event loop: run in a private loop on a worker thread
        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
            pool.submit(asyncio.run, self.send_async(mail)).result()


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


class _Session:
    """The connection of one delivery round, in the round's own event loop."""

    def __init__(self, sender: SmtpSender, runner: asyncio.Runner) -> None:
        self.sender = sender
        self.runner = runner
        self.client: aiosmtplib.SMTP | None = None
        self.connects = 0

    def _run(self, make: Callable[[], Awaitable[T]]) -> T:
        async def run() -> T:
            return await make()
        return self.runner.run(run())

    def send(self, mail: Outgoing) -> None:
        async def send() -> None:
            reused = self.client is not None and self.client.is_connected
            try:
                async with _failures(self.sender, mail):
                    try:
                        await self._send(mail)
                    except (aiosmtplib.SMTPServerDisconnected, ConnectionError,
                            TimeoutError) as exc:
                        if not reused:
                            raise
                        # the server closed the connection kept from the last mail
                        log.info("SMTP connection lost (%s); connecting again", exc)
                        await self._drop()
                        await self._send(mail)
            except BaseException:
                await self._drop()  # in an unknown state: the next mail connects anew
                raise

        self._run(send)

    async def _send(self, mail: Outgoing) -> None:
        if self.client is None or not self.client.is_connected:
            await self._drop()
            self.client = await self.sender.open()
            self.connects += 1
        await self.sender._send_on(self.client, mail)

    async def _drop(self) -> None:
        client, self.client = self.client, None
        if client is not None:
            with contextlib.suppress(Exception):
                client.close()

    def close(self) -> None:
        async def quit() -> None:
            client, self.client = self.client, None
            if client is not None and client.is_connected:
                with contextlib.suppress(Exception):
                    await client.quit()
        self._run(quit)


@contextlib.asynccontextmanager
async def _failures(sender: SmtpSender, mail: Outgoing):  # type: ignore[no-untyped-def]
    """SMTP errors as the spool reads them: temporary (retry) or permanent (5xx).
    A server that could not be reached or logged in to is told to the `watch`,
    and so is one that took the mail."""
    try:
        yield
    except IntakeError as exc:  # the OAuth2 grant is gone: the mail waits for a new one
        raise _down(sender, f"SMTP login to {sender.host}: {exc}") from exc
    except aiosmtplib.SMTPRecipientsRefused as exc:
        codes = [r.code for r in exc.recipients]
        detail = "; ".join(f"{r.recipient}: {r.code} {r.message}" for r in exc.recipients)
        if codes and all(c >= 500 for c in codes):
            raise PermanentFailure(f"all recipients refused: {detail}") from exc
        raise TemporaryFailure(f"recipients refused for now: {detail}") from exc
    except aiosmtplib.SMTPAuthenticationError as exc:
        # a configuration problem: keep the mail queued until the GM fixes it
        raise _down(sender, f"SMTP login to {sender.host} failed: {exc}") from exc
    except aiosmtplib.SMTPResponseException as exc:
        if 500 <= exc.code < 600:
            raise PermanentFailure(
                f"SMTP server refused the mail: {exc.code} {exc.message}") from exc
        raise TemporaryFailure(
            f"SMTP server deferred the mail: {exc.code} {exc.message}") from exc
    except (TimeoutError, aiosmtplib.SMTPException, OSError, ssl.SSLError) as exc:
        raise _down(sender, f"cannot reach SMTP server {sender.host}:{sender.port}: "
                            f"{type(exc).__name__}: {exc}") from exc
    else:
        if sender.watch is not None:
            sender.watch.ok()


def _down(sender: SmtpSender, why: str) -> TemporaryFailure:
    if sender.watch is not None:
        sender.watch.failed(why)
    return TemporaryFailure(why)


async def _auth_oauthbearer(client: aiosmtplib.SMTP, user: str, token: str) -> None:
    """SASL OAUTHBEARER (RFC 7628); on failure the server sends its error as a
    challenge, answered with a single 0x01 before its final reply."""
    gs2 = "n,a=" + user.replace("=", "=3D").replace(",", "=2C") + ","
    initial = base64.b64encode(f"{gs2}\x01auth=Bearer {token}\x01\x01".encode())
    response = await client.execute_command(b"AUTH", b"OAUTHBEARER", initial)
    if response.code == 334:
        response = await client.execute_command(base64.b64encode(b"\x01"))
    if response.code != 235:
        raise aiosmtplib.SMTPAuthenticationError(response.code, response.message)
