"""The shared vocabulary of the mail layer: raw mail, the intake and sender protocols, errors."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage, Message
from email.parser import BytesHeaderParser
from email.utils import getaddresses, parseaddr
from typing import TYPE_CHECKING, ClassVar, Protocol, runtime_checkable

from pbmref.mail.headers import POLICY, flatten

if TYPE_CHECKING:
    from pbmref.mail.compose import TextMail

__all__ = [
    "Intake",
    "IntakeError",
    "MailError",
    "Outgoing",
    "PermanentFailure",
    "RawMail",
    "Sender",
    "SessionSender",
    "TemporaryFailure",
    "session_of",
]


class MailError(Exception):
    """Base of every error the mail layer raises on purpose."""


class TemporaryFailure(MailError):
    """Sending failed but may work later (server down, 4xx): retry with back-off."""


class PermanentFailure(MailError):
    """Sending can never work (5xx, bad address): do not retry."""


class IntakeError(MailError):
    """The mailbox could not be read (server gone for good, bad login, missing folder)."""


@dataclass(frozen=True)
class RawMail:
    """One mail as the intake found it.

    key: how the intake finds it again ("<uidvalidity>:<uid>" for IMAP, the file
    name for a Maildir); arrived: the server's arrival time, aware, UTC;
    size: the true size (may exceed len(raw) when only the headers were fetched).
    """

    key: str
    raw: bytes
    arrived: datetime
    size: int = -1

    def __post_init__(self) -> None:
        if self.size < 0:
            object.__setattr__(self, "size", len(self.raw))


@dataclass(frozen=True)
class Outgoing:
    """One mail to send, as the outgoing spool keeps it: its bytes, flattened once
    when it was queued, sent as they are (never parsed and written again).

    >>> mail = Outgoing(b"From: Ref <ref@x.test>\\nTo: a@x.test, B <b@x.test>\\n"
    ...                 b"Subject: hi\\n\\nbody\\n")
    >>> mail.sender, mail.recipients, mail["Subject"]
    ('ref@x.test', ('a@x.test', 'b@x.test'), 'hi')
    """

    raw: bytes
    # (sender, recipients) as the spool noted them when it queued the mail, so
    # that sending it reads none of its headers back; None: read from ``raw``
    envelope: tuple[str, tuple[str, ...]] | None = None

    @classmethod
    def of(cls, msg: EmailMessage) -> Outgoing:
        """A mail made here, flattened (as the spool does when it queues one)."""
        return cls(flatten(msg), envelope_of(msg))

    @functools.cached_property
    def headers(self) -> Message:
        """Its headers alone (the body is not read)."""
        head = self.raw.split(b"\n\n", 1)[0] + b"\n\n"
        return BytesHeaderParser(policy=POLICY).parsebytes(head)

    def __getitem__(self, name: str) -> str | None:
        """A header's value, as ``EmailMessage`` gives it (None: none)."""
        value = self.headers[name]
        return None if value is None else str(value)

    def get(self, name: str, default: str = "") -> str:
        value = self[name]
        return default if value is None else value

    @property
    def sender(self) -> str:
        """The envelope's sender: the From address."""
        if self.envelope is not None:
            return self.envelope[0]
        return parseaddr(self.get("From"))[1]

    @property
    def recipients(self) -> tuple[str, ...]:
        """The envelope's recipients: the To and Cc addresses."""
        if self.envelope is not None:
            return self.envelope[1]
        return _recipients(self.get("To"), self.get("Cc"))


def envelope_of(msg: EmailMessage | TextMail) -> tuple[str, tuple[str, ...]]:
    """The SMTP envelope of a mail made here: its From address, and its To and Cc
    addresses (as ``Outgoing`` reads them from the mail's bytes).

    >>> msg = EmailMessage(); msg["From"] = "Ref <ref@x.test>"
    >>> msg["To"] = "a@x.test, B <b@x.test>"
    >>> envelope_of(msg)
    ('ref@x.test', ('a@x.test', 'b@x.test'))
    """
    return _envelope(str(msg.get("From", "")), str(msg.get("To", "")), str(msg.get("Cc", "")))


@functools.lru_cache(maxsize=1024)
def _envelope(sender: str, to: str, cc: str) -> tuple[str, tuple[str, ...]]:
    """``envelope_of`` from the header values, worked out once while the process
    keeps them: every reply is from the referee, mail after mail to a player
    (issue 41, item 5)."""
    return parseaddr(sender)[1], _recipients(to, cc)


def _recipients(to: str, cc: str) -> tuple[str, ...]:
    return tuple(addr for _, addr in getaddresses([to, cc]) if addr)


@runtime_checkable
class Intake(Protocol):
    """Where incoming mail comes from (a Maildir or an IMAP folder)."""

    # True when the intake records which mails it handed out and does not hand
    # them out again (IMAP's last UID): the caller's copy of each must then be on
    # disk before it asks for the next. False when a mail stays where it is until
    # it is marked handled (a Maildir).
    hands_out_once: ClassVar[bool]

    def fetch_new(self) -> Iterator[RawMail]:
        """Mail not yet marked handled, oldest first."""
        ...

    def mark_handled(self, *keys: str) -> None:
        """Move the mails out of the way (together, where the server can); call
        only after their games were saved."""
        ...

    def wait(self, timeout: float) -> bool:
        """Block until new mail may have arrived (IDLE) or `timeout` seconds passed.
        True when woken by news (new mail, or a broken connection worth a fetch)."""
        ...

    def interrupt(self) -> None:
        """End a ``wait`` (and any back-off) within a fraction of a second; safe to
        call from a signal handler. Every later wait returns at once."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class Sender(Protocol):
    """Where outgoing mail goes (SMTP or an outbox Maildir)."""

    def send(self, mail: Outgoing) -> None:
        """Send `mail` as its bytes are; raise TemporaryFailure or PermanentFailure."""
        ...


@runtime_checkable
class SessionSender(Protocol):
    """A sender that can hold one connection for a delivery round."""

    def send(self, mail: Outgoing) -> None: ...

    def session(self) -> contextlib.AbstractContextManager[None]:
        """Every ``send`` inside shares one connection (reconnecting if it drops)."""
        ...


def session_of(sender: Sender) -> contextlib.AbstractContextManager[None]:
    """The delivery round of ``sender``: its session, or nothing for a sender
    whose every mail stands alone (an outbox Maildir)."""
    if isinstance(sender, SessionSender):
        return sender.session()
    return contextlib.nullcontext()
