"""Sending over SMTP with aiosmtplib: plain, STARTTLS or implicit TLS, optional login.

`SmtpSender.send(msg)` is synchronous (usable from the referee's sync code and
from a thread that already runs an event loop); `send_async` is the coroutine.
Errors become `TemporaryFailure` (retry later) or `PermanentFailure` (5xx).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import ssl
from email.message import EmailMessage

import aiosmtplib

from pbmref.mail.base import PermanentFailure, TemporaryFailure

__all__ = ["SECURITY_MODES", "SmtpSender"]

log = logging.getLogger(__name__)

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
        timeout: float = 60.0,
        tls_context: ssl.SSLContext | None = None,
        local_hostname: str | None = None,
    ) -> None:
        if security not in SECURITY_MODES:
            raise ValueError(f"security must be one of {', '.join(SECURITY_MODES)}, not {security!r}")
        self.host = host
        self.port = port or DEFAULT_PORTS[security]
        self.security = security
        self.user = user or None
        self.password = password
        self.timeout = timeout
        self.tls_context = tls_context
        self.local_hostname = local_hostname

    async def send_async(self, msg: EmailMessage) -> None:
        try:
            errors, response = await aiosmtplib.send(
                msg,
                hostname=self.host,
                port=self.port,
                username=self.user,
                password=self.password if self.user else None,
                use_tls=self.security == "tls",
                start_tls=self.security == "starttls",
                timeout=self.timeout,
                tls_context=self.tls_context,
                local_hostname=self.local_hostname,
            )
        except aiosmtplib.SMTPRecipientsRefused as exc:
            codes = [r.code for r in exc.recipients]
            detail = "; ".join(f"{r.recipient}: {r.code} {r.message}" for r in exc.recipients)
            if codes and all(c >= 500 for c in codes):
                raise PermanentFailure(f"all recipients refused: {detail}") from exc
            raise TemporaryFailure(f"recipients refused for now: {detail}") from exc
        except aiosmtplib.SMTPAuthenticationError as exc:
            # a configuration problem: keep the mail queued until the GM fixes it
            raise TemporaryFailure(f"SMTP login to {self.host} failed: {exc}") from exc
        except aiosmtplib.SMTPResponseException as exc:
            if 500 <= exc.code < 600:
                raise PermanentFailure(f"SMTP server refused the mail: {exc.code} {exc.message}") from exc
            raise TemporaryFailure(f"SMTP server deferred the mail: {exc.code} {exc.message}") from exc
        except (TimeoutError, aiosmtplib.SMTPException, OSError, ssl.SSLError) as exc:
            raise TemporaryFailure(
                f"cannot reach SMTP server {self.host}:{self.port}: {type(exc).__name__}: {exc}"
            ) from exc
        if errors:  # some recipients refused, others took it: not resent (no duplicates)
            log.warning("SMTP refused some recipients of %s: %s", msg.get("Message-ID"),
                        {k: str(v) for k, v in errors.items()})

    def send(self, msg: EmailMessage) -> None:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            asyncio.run(self.send_async(msg))
            return
        # called from inside an event loop: run in a private loop on a worker thread
        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
            pool.submit(asyncio.run, self.send_async(msg)).result()
