"""The email policy of the mails the referee writes (and reads back from its
queue): Python's ``email.policy.default`` with a header factory that does
the same work once instead of for every header and every writing.

The stock ``HeaderRegistry`` makes a new class each time a header is set
(``type(...)`` in ``__getitem__``), and parses every value anew, so setting
the dozen headers of a reply cost about 0.7 ms, most of a reply's making
(issue 20). ``HeaderFactory`` keeps each header class once, and each header
made from a text value for the values it has seen lately: the referee's own
address, a player's address, ``Auto-Submitted``, the MIME headers repeat in
every mail. Each header also keeps what it was folded into (``FoldedOnce``):
a reply is written twice, into the spool and by the SMTP client, and a kept
header into every mail that has it. A header object is never changed once
made (``email`` builds new ones to change a header), so sharing one between
mails, or its folding, changes nothing in what is written;
``tests/mail/test_mail_compose.py`` compares the bytes.

>>> from email.message import EmailMessage
>>> msg = EmailMessage(policy=POLICY)
>>> msg["To"] = "anna@players.test"
>>> msg["To"].addresses[0].domain
'players.test'
"""

from __future__ import annotations

import email.policy
import io
import secrets
from email.generator import BytesGenerator
from email.headerregistry import BaseHeader, HeaderRegistry
from email.message import Message
from typing import Any

__all__ = ["KEPT_HEADERS", "POLICY", "FoldedOnce", "HeaderFactory", "flatten"]

#: Headers made from text kept for use again, the oldest dropped first.
KEPT_HEADERS = 512


class FoldedOnce(BaseHeader):
    """A header that keeps what it was folded into, for each kind of policy
    that folds it (what ``fold`` reads of a policy: its line length, its line
    ending, whether it may write UTF-8). A kept header is written into every
    mail that has it, and each mail twice (into the spool, then by the SMTP
    client): folding it anew each time was most of the writing."""

    def fold(self, *, policy: Any) -> str:
        key = (policy.max_line_length, policy.linesep, policy.utf8)
        folds: dict[tuple[Any, ...], str] = self.__dict__.setdefault("_folds", {})
        folded = folds.get(key)
        if folded is None:
            folded = folds[key] = super().fold(policy=policy)
        return folded


class HeaderFactory(HeaderRegistry):
    """``HeaderRegistry`` with its classes made once, its recent headers kept,
    and each header's folding kept (``FoldedOnce``)."""

    def __init__(self) -> None:
        super().__init__(base_class=FoldedOnce)
        self._classes: dict[str, type[BaseHeader]] = {}
        self._made: dict[tuple[str, str], BaseHeader] = {}

    def map_to_type(self, name: str, cls: type[BaseHeader]) -> None:
        super().map_to_type(name, cls)
        self._classes.clear()
        self._made.clear()

    def __getitem__(self, name: str) -> type[BaseHeader]:
        key = name.lower()
        cls = self._classes.get(key)
        if cls is None:
            cls = self._classes[key] = super().__getitem__(name)
        return cls

    def __call__(self, name: str, value: Any) -> BaseHeader:
        if type(value) is not str:  # an Address, a list of them: made as given
            return super().__call__(name, value)
        key = (name, value)
        made = self._made.get(key)
        if made is None:
            made = super().__call__(name, value)
            if len(self._made) >= KEPT_HEADERS:
                del self._made[next(iter(self._made))]
            self._made[key] = made
        return made


#: ``email.policy.default`` with the ``HeaderFactory``: for every mail the
#: referee makes, and for a queued one read back.
POLICY = email.policy.default.clone(header_factory=HeaderFactory())


class _Generator(BytesGenerator):
    """``BytesGenerator`` writing a part's body whole: the stock one writes each
    line and then its line ending, two writes a line, about 23,000 for the six
    report mails of a tweedekker turn with their pictures in base64 (most of
    their flattening's 20 ms). The bytes are the same: a body without a CR
    has its line endings made the policy's at once."""

    def _write_lines(self, lines: str) -> None:
        ending: str = self._NL  # type: ignore[attr-defined]  # set by flatten()
        if "\r" in lines:
            super()._write_lines(lines)  # type: ignore[misc]
        elif lines:
            self.write(lines if ending == "\n" else lines.replace("\n", ending))


def flatten(msg: Message) -> bytes:
    """A mail's bytes, as ``msg.as_bytes()`` writes them. A multipart part
    without a boundary is given a random one starting ``=_``, which neither
    base64 nor quoted-printable can write (the stock generator instead makes
    one and searches the part's whole text for it: a regex compiled and run
    over the pictures' base64 for each multipart of each mail).

    >>> from email.message import EmailMessage
    >>> msg = EmailMessage(policy=POLICY)
    >>> msg["Subject"] = "hi"
    >>> msg.set_content("one\\ntwo\\n")
    >>> flatten(msg) == msg.as_bytes()
    True
    """
    for part in msg.walk():
        if part.is_multipart() and part.get_boundary() is None:
            part.set_boundary(f"=_{secrets.token_hex(16)}")
    out = io.BytesIO()
    _Generator(out, mangle_from_=False, policy=msg.policy).flatten(msg)
    return out.getvalue()
