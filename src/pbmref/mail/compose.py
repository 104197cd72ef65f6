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
from email import quoprimime
from email.message import EmailMessage
from email.utils import format_datetime, formataddr, make_msgid

from pbmref.base.flowed import flowed, unflowed
from pbmref.mail.headers import POLICY
from pbmref.mail.message import LOOP_HEADER, IncomingMail

__all__ = ["Attachment", "Mail", "TextMail", "clean_header", "make_mail", "make_reply",
           "reply_subject", "write_reply"]

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


class TextMail:
    """A plain-text mail made here, written straight as bytes: no
    ``EmailMessage`` built, then flattened (issue 41, item 5: most of a
    reply's making). Each header is folded as ``email`` folds it (``POLICY``:
    the same header objects, their folding kept) and the text encoded as
    ``_set_text`` encodes it, so ``as_bytes`` is byte for byte what
    ``make_mail`` makes of the same mail (``tests/mail/test_mail_compose.py``
    compares them). It answers what the spool asks of a mail (``get``,
    ``replace_header``, ``as_bytes``) as ``EmailMessage`` does.

    >>> mail = TextMail([("From", "ref@x.test"), ("Subject", "Re: orders")], "ok\\n")
    >>> mail.replace_header("Subject", "Re: hi"); print(mail.as_bytes().decode())
    From: ref@x.test
    Subject: Re: hi
    Content-Transfer-Encoding: 7bit
    MIME-Version: 1.0
    Content-Type: text/plain; charset="utf-8"; format="flowed"; delsp="no"
    <BLANKLINE>
    ok
    <BLANKLINE>
    """

    def __init__(self, headers: Sequence[tuple[str, str]], text: str) -> None:
        self.headers = list(headers)
        self.text = text  # format=flowed already

    def get(self, name: str, default: str | None = None) -> str | None:
        """A header's value as given (``default``: none)."""
        key = name.lower()
        return next((v for n, v in self.headers if n.lower() == key), default)

    def __getitem__(self, name: str) -> str | None:
        return self.get(name)

    def replace_header(self, name: str, value: str) -> None:
        """Put ``value`` in the place of the first header ``name`` (KeyError: none)."""
        key = name.lower()
        for n, (have, _) in enumerate(self.headers):
            if have.lower() == key:
                self.headers[n] = (have, value)
                return
        raise KeyError(name)

    def plain_text(self) -> str:
        """The text as the reader sees it (the flowed stuffing taken off), as
        ``get_body(("plain",)).get_content()`` reads an ``EmailMessage``.

        >>> TextMail([], flowed(" a\\nb")).plain_text()
        ' a\\nb'
        """
        return unflowed(self.text)

    def as_bytes(self) -> bytes:
        cte, payload = _text_payload(self.text)
        head = "".join(_folded(name, value) for name, value in self.headers)
        return (f"{head}Content-Transfer-Encoding: {cte}\nMIME-Version: 1.0\n"
                f"{_FLOWED_TYPE}\n\n{payload}").encode("ascii")


def _folded(name: str, value: str) -> str:
    """A header's line(s) as ``email`` writes it (``POLICY``): a value that
    needs nothing of that (printable ASCII, one space between words, no
    encoded word, on one line) as it is, the others through the header
    objects; the addresses always (they are made once a player anyway)."""
    if (len(name) + len(value) + 2 <= _HEADER_LINE and name.lower() not in _ADDRESS_HEADERS
            and "=?" not in value and _AS_GIVEN.fullmatch(value)):
        return f"{name}: {value}\n"
    return str(POLICY.header_factory(name, value).fold(policy=POLICY))


_AS_GIVEN = re.compile(r"[!-~]+(?: [!-~]+)*")
_ADDRESS_HEADERS = frozenset({"from", "to", "cc", "bcc", "sender", "reply-to"})
_HEADER_LINE = 78  # POLICY.max_line_length: a longer line is folded


#: A mail the referee made: written as bytes (``TextMail``), or a MIME tree.
Mail = EmailMessage | TextMail
_FLOWED_TYPE = 'Content-Type: text/plain; charset="utf-8"; format="flowed"; delsp="no"'


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
    for name, value in _headers(to, subject, from_addr=from_addr, from_name=from_name,
                                in_reply_to=in_reply_to, references=references,
                                auto_submitted=auto_submitted, extra_headers=extra_headers,
                                date=date):
        msg[name] = value
    _set_text(msg, flowed(body if body.endswith("\n") else body + "\n"), "plain")
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


def _headers(
    to: str | Sequence[str],
    subject: str,
    *,
    from_addr: str,
    from_name: str,
    in_reply_to: str | None,
    references: Sequence[str],
    auto_submitted: str,
    extra_headers: Sequence[tuple[str, str]],
    date: datetime | None,
    message_id: str = "",
) -> list[tuple[str, str]]:
    """The headers of a mail from the referee, in the order they are written:
    From, To, Subject, Date, Message-ID (a new one unless given), In-Reply-To
    and References (the last ``_MAX_REFERENCES``) of a reply, Auto-Submitted,
    the loop header, then ``extra_headers``; every value through
    ``clean_header``."""
    recipients = [to] if isinstance(to, str) else list(to)
    headers = [
        ("From", _address(from_addr, from_name)),
        ("To", ", ".join(_address(r) for r in recipients if clean_header(r))),
        ("Subject", clean_header(subject)),
        ("Date", format_datetime(date or datetime.now(UTC))),
        ("Message-ID", message_id or make_msgid(domain=_domain(clean_header(from_addr)))),
    ]
    if in_reply_to:
        headers.append(("In-Reply-To", clean_header(in_reply_to)))
    refs = [clean_header(r) for r in references if clean_header(r)]
    if refs:
        headers.append(("References", " ".join(refs[-_MAX_REFERENCES:])))
    headers += [("Auto-Submitted", clean_header(auto_submitted)),
                (LOOP_HEADER, clean_header(from_addr))]
    headers += [(clean_header(name).replace(":", ""), clean_header(value))
                for name, value in extra_headers]
    return headers


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


def _cte(text: str) -> str:
    """UTF-8 text, 7-bit on the wire: as it is when ASCII (in lines SMTP takes),
    else quoted-printable (readable in the raw mail, as base64 would not be)."""
    if text.isascii() and max(map(len, text.split("\n"))) <= _LINE_MAX:
        return "7bit"
    return "quoted-printable"


def _set_text(part: EmailMessage, text: str, subtype: str) -> None:
    part.set_content(text, subtype=subtype, charset="utf-8", cte=_cte(text))


def _text_payload(text: str) -> tuple[str, str]:
    """The transfer encoding of ``text`` (``_cte``) and the text so encoded, as
    ``email``'s content manager encodes it for ``_set_text``."""
    cte = _cte(text)
    body = b"\n".join(text.encode().splitlines()) + b"\n"
    if cte == "7bit":
        return cte, body.decode("ascii")
    return cte, quoprimime.body_encode(body.decode("latin-1"), POLICY.max_line_length or 78)


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
    return make_mail(
        to_addr,
        reply_subject(original.subject),
        body,
        from_addr=from_addr,
        from_name=from_name,
        html=html,
        attachments=attachments,
        in_reply_to=original.message_id,
        references=_references(original),
        auto_submitted="auto-replied",
        date=date,
    )


def write_reply(
    original: IncomingMail,
    to_addr: str,
    body: str,
    *,
    from_addr: str,
    from_name: str = "",
    date: datetime | None = None,
) -> TextMail:
    """The plain-text answer to ``original`` as ``make_reply`` makes it without
    HTML or attachments, written as bytes (``TextMail``)."""
    return TextMail(_headers(to_addr, reply_subject(original.subject), from_addr=from_addr,
                             from_name=from_name, in_reply_to=original.message_id,
                             references=_references(original), auto_submitted="auto-replied",
                             extra_headers=(), date=date),
                    flowed(body if body.endswith("\n") else body + "\n"))


def _references(original: IncomingMail) -> list[str]:
    """A reply's References: the original's, then the original itself."""
    refs = list(original.references)
    if original.message_id and original.message_id not in refs:
        refs.append(original.message_id)
    return refs
