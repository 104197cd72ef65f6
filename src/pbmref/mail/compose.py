"""Building the mails the referee sends: replies, reports, reminders.

Every mail carries `Auto-Submitted` (RFC 3834) and our loop header, so other
robots do not answer it and we never answer ourselves. Header values are
stripped of CR/LF, so no header can be injected through a subject or a name.

The plain text is ``format=flowed`` (RFC 3676, ``pbmref.base.flowed``), so a
phone re-wraps its paragraphs; every part is 7-bit (quoted-printable where
the text is not ASCII), so the bytes written into the spool go to any
server as they are. A picture or file (``Attachment``) is made into its MIME
part once, however many mails carry it: the maps of a turn are encoded once
for every reader's report.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime, formataddr, make_msgid

from pbmref.base.flowed import flowed
from pbmref.mail.headers import POLICY
from pbmref.mail.message import LOOP_HEADER, IncomingMail

__all__ = ["Attachment", "clean_header", "make_mail", "make_reply", "reply_subject"]

_RE_PREFIX = re.compile(r"^(?:\s*(?:re|aw|sv|antw|wg|fw|fwd)\s*(?:\[\d+\])?\s*:\s*)+", re.I)
_MAX_REFERENCES = 20
_LINE_MAX = 998  # the longest line a mail may carry (RFC 5322, 2.1.1)


@dataclass(frozen=True)
class Attachment:
    """A file a mail carries: attached, or (``cid`` set) shown by its HTML part
    (``<img src="cid:...">``). Its MIME part is made once (``part``), and the
    same part goes into every mail that carries this attachment."""

    filename: str
    content: bytes
    mimetype: str = "application/octet-stream"  # e.g. "image/svg+xml"
    cid: str = ""  # set: shown inside the HTML part (``<img src="cid:...">``), not attached

    @functools.cached_property
    def part(self) -> EmailMessage:
        """The MIME part (base64): made on first use, shared by every mail after."""
        maintype, _, subtype = self.mimetype.partition("/")
        part = EmailMessage(policy=POLICY)
        part.set_content(self.content, maintype=maintype or "application",
                         subtype=subtype or "octet-stream", filename=clean_header(self.filename),
                         disposition="inline" if self.cid else "attachment",
                         cid=f"<{clean_header(self.cid)}>" if self.cid else None)
        del part["MIME-Version"]  # a part's, not a mail's
        return part


def clean_header(value: str) -> str:
    """One line, no CR/LF/NUL: safe as any header value.

    ``=?`` is broken up too: the email package decodes RFC 2047 encoded words
    in a value it is given, so text that merely looks like one (a subject or a
    Message-ID from a hostile mail) could otherwise turn back into a CR LF and
    a header of its own (``Bcc:``) when the mail is written.
    """
    return " ".join(str(value).replace("\x00", " ").replace("=?", "= ?").split())


_CONTROLS = {c: " " for c in range(32)} | {127: " "}
#: A reply's Subject is at most this long (the line length RFC 5322 recommends):
#: a sender's Subject is repeated, never a sender's whole essay.
SUBJECT_MAX = 78


def reply_subject(subject: str) -> str:
    """`Re: ` + the subject, without piling up `Re: Re:` (or Aw:/Sv: ...), stripped
    of control characters and cut to SUBJECT_MAX characters.

    >>> reply_subject("Re: RE: " + "x" * 200) == "Re: " + "x" * 74
    True
    """
    bare = _RE_PREFIX.sub("", clean_header(subject.translate(_CONTROLS))).strip()
    return (f"Re: {bare}" if bare else "Re: your mail")[:SUBJECT_MAX].rstrip()


def _domain(addr: str) -> str:
    return addr.rsplit("@", 1)[-1] if "@" in addr else "localhost"


def _address(addr: str, name: str = "") -> str:
    addr = clean_header(addr)
    name = clean_header(name)
    return formataddr((name, addr)) if name else addr


def make_mail(
    to: str | Sequence[str],
    subject: str,
    body: str,
    *,
    from_addr: str,
    from_name: str = "",
    html: str | None = None,
    attachments: Sequence[Attachment] = (),
    in_reply_to: str | None = None,
    references: Sequence[str] = (),
    auto_submitted: str = "auto-generated",
    extra_headers: Sequence[tuple[str, str]] = (),
    date: datetime | None = None,
) -> EmailMessage:
    """A UTF-8 text mail from the referee (reports, reminders, notices).

    `html` adds an HTML alternative (``multipart/alternative``); `attachments`
    (e.g. the SVG map) are added as attachments, except those with a ``cid``,
    which go beside the HTML part (``multipart/related``) for it to show inline
    (``<img src="cid:CID">``). Returns a complete message with Message-ID and Date.
    """
    msg = EmailMessage(policy=POLICY)
    msg["From"] = _address(from_addr, from_name)
    recipients = [to] if isinstance(to, str) else list(to)
    msg["To"] = ", ".join(_address(r) for r in recipients if clean_header(r))
    msg["Subject"] = clean_header(subject)
    msg["Date"] = format_datetime(date or datetime.now(UTC))
    msg["Message-ID"] = make_msgid(domain=_domain(clean_header(from_addr)))
    _thread_headers(msg, in_reply_to, references)
    msg["Auto-Submitted"] = clean_header(auto_submitted)
    msg[LOOP_HEADER] = clean_header(from_addr)
    for name, value in extra_headers:
        msg[clean_header(name).replace(":", "")] = clean_header(value)
    text = flowed(body if body.endswith("\n") else body + "\n")
    _set_text(msg, text, "plain")
    msg.set_param("format", "flowed")
    msg.set_param("delsp", "no")
    if html is not None:
        msg.make_alternative()
        msg.attach(_html_part(html, [a for a in attachments if a.cid]))
    _attach(msg, [a for a in attachments if not (a.cid and html is not None)])
    return msg


def _attach(msg: EmailMessage, attached: Sequence[Attachment]) -> None:
    """The attachments (one with a ``cid`` but no HTML to show it: as a plain one)."""
    if not attached:
        return
    msg.make_mixed()
    for att in attached:
        msg.attach(att.part if not att.cid else Attachment(att.filename, att.content,
                                                             att.mimetype).part)


def _thread_headers(msg: EmailMessage, in_reply_to: str | None,
                    references: Sequence[str]) -> None:
    """In-Reply-To and References (the last ``_MAX_REFERENCES``) of a reply."""
    if in_reply_to:
        msg["In-Reply-To"] = clean_header(in_reply_to)
    refs = [clean_header(r) for r in references if clean_header(r)]
    if refs:
        msg["References"] = " ".join(refs[-_MAX_REFERENCES:])


def _html_part(html: str, inline: Sequence[Attachment]) -> EmailMessage:
    """The HTML alternative, with the pictures it shows inline beside it
    (``multipart/related``) when there are any."""
    alternative = EmailMessage(policy=POLICY)
    _set_text(alternative, html, "html")
    del alternative["MIME-Version"]
    if inline:
        alternative.make_related()
        for att in inline:
            alternative.attach(att.part)
    return alternative


def _set_text(part: EmailMessage, text: str, subtype: str) -> None:
    """UTF-8 text, 7-bit on the wire: as it is when ASCII (in lines SMTP takes),
    else quoted-printable (readable in the raw mail, as base64 would not be)."""
    if text.isascii() and max(map(len, text.split("\n"))) <= _LINE_MAX:
        part.set_content(text, subtype=subtype, charset="utf-8", cte="7bit")
    else:
        part.set_content(text, subtype=subtype, charset="utf-8", cte="quoted-printable")


def make_reply(
    original: IncomingMail,
    to_addr: str,
    body: str,
    *,
    from_addr: str,
    from_name: str = "",
    html: str | None = None,
    attachments: Sequence[Attachment] = (),
    date: datetime | None = None,
) -> EmailMessage:
    """The answer to `original`, sent to `to_addr` (the registered address).

    Threading headers point at the original; the subject is `Re: <original>`;
    `Auto-Submitted: auto-replied` and the loop header are set.
    """
    refs = list(original.references)
    if original.message_id and original.message_id not in refs:
        refs.append(original.message_id)
    return make_mail(
        to_addr,
        reply_subject(original.subject),
        body,
        from_addr=from_addr,
        from_name=from_name,
        html=html,
        attachments=attachments,
        in_reply_to=original.message_id,
        references=refs,
        auto_submitted="auto-replied",
        date=date,
    )
