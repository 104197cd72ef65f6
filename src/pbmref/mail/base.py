"""The shared vocabulary of the mail layer: raw mail, the intake and sender protocols, errors."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from typing import ClassVar, Protocol, runtime_checkable

__all__ = [
    "Intake",
    "IntakeError",
    "MailError",
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

    def send(self, msg: EmailMessage) -> None:
        """Send `msg`; raise TemporaryFailure or PermanentFailure."""
        ...


@runtime_checkable
class SessionSender(Protocol):
    """A sender that can hold one connection for a delivery round."""

    def send(self, msg: EmailMessage) -> None: ...

    def session(self) -> contextlib.AbstractContextManager[None]:
        """Every ``send`` inside shares one connection (reconnecting if it drops)."""
        ...


def session_of(sender: Sender) -> contextlib.AbstractContextManager[None]:
    """The delivery round of ``sender``: its session, or nothing for a sender
    whose every mail stands alone (an outbox Maildir)."""
    if isinstance(sender, SessionSender):
        return sender.session()
    return contextlib.nullcontext()
