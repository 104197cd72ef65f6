"""Reading an incoming mail: any bytes in, one plain frozen record out.

`read_message` never raises: broken headers, unknown or wrong charsets,
broken transfer encodings, absurd nesting and plain garbage all end up as
a best-effort `IncomingMail` (with `text` possibly empty). What reading one
mail may cost is bounded (issue 40): a mail over `max_bytes`, or of more
than `MAX_LINES` lines, `MAX_PARTS` MIME parts or (HTML only) `MAX_TAGS`
tags, has its headers read and its body left unread (`oversized`, or
`unread` saying why in plain words); lines and parts are counted on the raw
bytes, before the mail is parsed. No header is read past `MAX_HEADER`
characters.
`never_answer_reason` says why a mail must not be answered (bounces,
auto-replies, lists, our own mail, loops), or None.
"""

from __future__ import annotations

import codecs
import email
import email.header
import email.utils
import hashlib
import html
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import Message
from email.parser import BytesHeaderParser
from functools import lru_cache
from html.parser import HTMLParser

from pbmref.base.addresses import mailbox
from pbmref.base.flowed import unflowed

__all__ = [
    "DEFAULT_MAX_BYTES",
    "LOOP_HEADER",
    "MAX_HEADER",
    "MAX_LINES",
    "MAX_PARTS",
    "MAX_TAGS",
    "IncomingMail",
    "message_id_of",
    "never_answer_reason",
    "spool_headers",
    "read_message",
]

DEFAULT_MAX_BYTES = 1_000_000
#: Header every mail we send carries (value: our address); mail with it is ours.
LOOP_HEADER = "X-Pbmref-Loop"

# What one mail may hold and still be read (see the module's words): far more than
# any mail of orders, a quoted report or an attachment needs (a megabyte in base64
# is 13,500 lines), and few enough to read quickly.
MAX_LINES = 20_000  # lines of the mail as sent, and of its text
MAX_PARTS = 500  # MIME parts (counted as the lines starting with "--")
MAX_TAGS = 2_000  # tags of an HTML body read for want of a plain one
MAX_HEADER = 20_000  # characters of a header (a Subject, a long list of recipients)
_MAX_DEPTH = 50  # nesting depth examined at most
_MSGID_RE = re.compile(r"<[^<>\s]+>")


@dataclass(frozen=True)
class IncomingMail:
    """One incoming mail, decoded. All strings are single-line except `text`."""

    message_id: str  # "<...>", synthesised ("<sha...@pbmref.invalid>") when missing
    from_addr: str  # lower-cased bare address, "" when absent
    from_name: str
    reply_to: str  # lower-cased bare address, "" when absent
    to: tuple[str, ...]  # lower-cased bare addresses (To and Cc)
    subject: str
    date: datetime | None  # aware (UTC when the header had no zone), None if absent/bad
    in_reply_to: str
    references: tuple[str, ...]
    text: str  # plain text of the body ("" when oversized or no text found)
    size: int  # size in bytes of the whole raw mail
    oversized: bool  # size > max_bytes: only the headers were read
    # why the body was not read (a bound it passes, in plain words), "" when it was
    unread: str = ""
    headers: tuple[tuple[str, str], ...] = field(default=(), repr=False)
    content_types: tuple[str, ...] = ()  # every MIME type seen, outermost first

    def header(self, name: str) -> str | None:
        """First value of header `name` (case-insensitive), decoded, or None."""
        low = name.lower()
        for key, value in self.headers:
            if key == low:
                return value
        return None


# --------------------------------------------------------------------------- helpers


_CONTROLS = {c: " " for c in range(32) if c != 9} | {127: " "}


def _one_line(text: str) -> str:
    """Collapse all whitespace and control characters: one clean line."""
    return " ".join(text.translate(_CONTROLS).split())


# The codecs that are text charsets a mail may be written in (Python's canonical
# names). Python also has codecs that turn text into other text or bytes into
# bytes (unicode_escape, rot13, base64_codec, punycode, idna, zlib ...): a label
# naming one of those is no charset, and the part is read as if unlabelled.
_CHARSET = re.compile(
    r"(ascii|utf-(8|7|16|32)(-[lb]e)?|utf-8-sig|iso8859-\d+|cp\d+|mac-[a-z0-9]+|koi8-[a-z]"
    r"|kz1048|ptcp154|tis-620|hp-roman8|big5(hkscs)?|gb2312|gbk|gb18030|hz|johab"
    r"|euc_[a-z0-9_]+|shift_jis[a-z0-9_]*|iso2022_[a-z0-9_]+)")
_SURROGATES = re.compile(r"[\ud800-\udfff]")


def _codec(name: str | None) -> str | None:
    """The Python codec of a charset label, or None when the label names no
    text charset (unknown, or a codec such as ``unicode_escape``).

    >>> _codec("Windows-1252"), _codec("unicode_escape"), _codec("rot13"), _codec("utf-7")
    ('cp1252', None, None, 'utf-7')
    """
    if not name:
        return None
    try:
        codec = codecs.lookup(name.strip().strip('"').lower()).name
    except (LookupError, ValueError, TypeError):
        return None
    return codec if _CHARSET.fullmatch(codec) else None


def _no_surrogates(text: str) -> str:
    r"""``text`` with every lone surrogate (no mail can be written with one, but
    UTF-7 or a header's stray bytes can yield it) replaced by U+FFFD.

    >>> _no_surrogates("x\ud800y")
    'x\ufffdy'
    """
    return _SURROGATES.sub("\ufffd", text)


def _cp1252_fallback(exc: UnicodeError) -> tuple[str, int]:
    """Codec error handler: read bytes that are not UTF-8 as Windows-1252 (else U+FFFD)."""
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    bad = exc.object[exc.start:exc.end]
    return bad.decode("cp1252", errors="replace"), exc.end


codecs.register_error("pbmref-cp1252", _cp1252_fallback)


def _decode_bytes(data: bytes, charset: str | None) -> str:
    """Decode with the declared charset; when the label lies, read UTF-8 and take the
    bytes that are not UTF-8 as Windows-1252; never raises, never yields a lone
    surrogate."""
    return _no_surrogates(_decode_declared(data, _codec(charset)))


def _decode_declared(data: bytes, declared: str | None) -> str:
    if declared and declared not in ("ascii", "utf-8"):
        try:
            return data.decode(declared)
        except (UnicodeDecodeError, LookupError):
            pass
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            try:  # a single-byte label that does not fit: keep its reading, replace the rest
                return data.decode(declared, errors="replace")
            except LookupError:
                pass
    return data.decode("utf-8", errors="pbmref-cp1252")


def _decode_header(value: object) -> str:
    """Decode an RFC 2047 header value; never raises."""
    if value is None:
        return ""
    raw = _raw_str(value)
    try:
        parts = email.header.decode_header(raw)
    except Exception:  # noqa: BLE001 - malformed encoded words
        return _one_line(raw)
    out: list[str] = []
    for chunk, cs in parts:
        if isinstance(chunk, bytes):
            out.append(_decode_bytes(chunk, cs))
        else:
            out.append(_no_surrogates(chunk))
    joined = ""
    for i, piece in enumerate(out):
        # decode_header loses the space between a plain word and a following encoded word
        if i and parts[i - 1][1] is None and parts[i][1] is not None and joined[-1:] not in (" ", "\t"):
            joined += " "
        joined += piece
    return _one_line(joined.replace("\x00", ""))


_ANGLE_ADDR_RE = re.compile(r"<([^<>\s@]+@[^<>\s@]+)>\s*$")


def _addr(value: str) -> tuple[str, str]:
    """(decoded display name, lower-cased address) of a raw (undecoded) header value.

    A value ending in ``<local@domain>`` has that address, whatever its display
    name holds (an encoded word with ``:`` or ``@`` in it confuses parseaddr).
    A value of a header line's length is worked out once while the process
    keeps it: a player's From comes mail after mail (issue 41, item 5).
    """
    return _kept_addr(value) if len(value) <= KEPT_ADDRESS else _read_addr(value)


KEPT_ADDRESS = 998  # characters of an address header kept at most (RFC 5322's line)


@lru_cache(maxsize=1024)
def _kept_addr(value: str) -> tuple[str, str]:
    return _read_addr(value)


def _read_addr(value: str) -> tuple[str, str]:
    try:
        name, addr = email.utils.parseaddr(value)
    except Exception:  # noqa: BLE001
        return "", ""
    angle = _ANGLE_ADDR_RE.search(_one_line(value))
    if angle and angle.group(1).lower() != _one_line(addr).lower():
        addr = angle.group(1)
        name = _one_line(value)[:angle.start()].strip().strip('"')
    addr = mailbox(_one_line(addr))  # "anna"@example.org is anna@example.org
    if " " in addr or any(ord(c) < 32 or c in "\x7f\ufffd" for c in addr):
        addr = ""  # control bytes or spaces: no address a reply could go to
    return _decode_header(name), addr.lower()


def _addr_list(values: Iterable[str]) -> tuple[str, ...]:
    try:
        pairs = email.utils.getaddresses(list(values))
    except Exception:  # noqa: BLE001
        return ()
    found = (mailbox(a.strip()) for _, a in pairs if a and "@" in a)
    return tuple(a.lower() for a in found if a)


def _raw_str(value: object) -> str:
    """A header value as text without decoding encoded words; raw 8-bit bytes
    (which the parser keeps as surrogates) are read as UTF-8, else Windows-1252."""
    if isinstance(value, email.header.Header):
        chunks = getattr(value, "_chunks", [])
        text = "".join(str(c[0]) for c in chunks) if chunks else str(value)
    else:
        text = str(value)
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        data = text.encode("utf-8", "surrogateescape")
        return _decode_bytes(data, "utf-8")


def _parse_date(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        dt = email.utils.parsedate_to_datetime(value)
    except Exception:  # noqa: BLE001
        return None
    if dt is None:
        return None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return dt


def spool_headers(raw: bytes) -> tuple[str, str, datetime | None]:
    """The Message-ID (``message_id_of``), the sender's lower-cased bare address
    and the Date header of a raw mail, from one reading of its headers alone
    (``""`` and None when absent or unreadable): what the spool keys a mail
    by, and needs to put mails of one second in the order they were sent.

    A plain header block (``_plain_fields``: every mail of orders a phone or
    a mail program writes) is read from the bytes, as email's parser reads
    it; any other goes the parser's way. So an accepted mail is parsed once,
    when it is read (issue 41, item 3).

    >>> spool_headers(b"From: Anna <Anna@X.test>\\r\\nMessage-ID:\\r\\n <1@x>\\r\\n\\r\\nhi")
    ('<1@x>', 'anna@x.test', None)
    """
    head = _headers_only(raw)
    fields = _plain_fields(head, _SPOOL_FIELDS)
    if fields is not None:
        return _spool_values(raw, fields.get)
    try:
        headers = BytesHeaderParser().parsebytes(head)
    except Exception:  # noqa: BLE001 - a mangled header block sorts as unknown
        return message_id_of(raw, ""), "", None
    return _spool_values(raw, headers.get)


#: The fields the spool reads of a mail's headers (lower case).
_SPOOL_FIELDS = frozenset(("message-id", "from", "date"))
# A header block read without the parser: printable ASCII, tabs and line
# endings (the parser also breaks lines at a lone CR, which is left to it).
_PLAIN_HEAD = re.compile(rb"[\t\n\r\x20-\x7e]*")
# A field's name as the parser takes it: printable ASCII but the colon, at least one.
_FIELD = re.compile(r"[\x21-\x39\x3b-\x7e]+:")


def _plain_fields(head: bytes, names: frozenset[str]) -> dict[str, str] | None:
    """The first value of each field of ``names`` (lower case) in a header
    block, as email's parser (``compat32``) gives it: the text after the colon
    with its leading blanks cut, its continuation lines kept with their line
    endings, the last line ending cut. Only for a plain block: printable ASCII,
    each line ending LF or CRLF, each a field (``Name: value``) or the
    continuation of the one before, up to an empty line; None for any other
    (a first line ``From ...`` or one that continues nothing, a line that is
    neither, no empty line, 8-bit or control bytes), which the parser reads
    its own way.

    >>> _plain_fields(b"Date: a\\n b\\nDATE: c\\n\\nX: y\\n", frozenset({"date", "x"}))
    {'date': 'a\\n b'}
    >>> _plain_fields(b"From bob Mon\\nDate: a\\n\\n", frozenset({"date"})) is None
    True
    """
    if not _PLAIN_HEAD.fullmatch(head) or b"\r" in head.replace(b"\r\n", b""):
        return None
    found: dict[str, str] = {}
    name = ""
    value: list[str] | None = None  # the lines of a field of ``names`` being read
    # each line with its line ending cut (what follows the last ending is no line)
    for line in head.decode("ascii").split("\n")[:-1]:
        if line in ("", "\r"):  # the empty line: the headers end
            break
        if line[0] in " \t":
            if not name:
                return None  # the first line continues nothing
            if value is not None:
                value.append(line)
            continue
        if not _FIELD.match(line):
            return None  # neither a field nor a continuation
        if value is not None:
            found.setdefault(name, "\n".join(value))
        field_name, _, rest = line.partition(":")
        name = field_name.lower()
        value = [rest.lstrip(" \t")] if name in names else None
    else:
        return None  # no empty line
    if value is not None:
        found.setdefault(name, "\n".join(value))
    return {key: text.rstrip("\r") for key, text in found.items()}


def _spool_values(raw: bytes, get: Callable[[str, object], object]
                  ) -> tuple[str, str, datetime | None]:
    """``spool_headers`` from ``get``, which gives a header's value (or its
    second argument when the mail has none): the parser's ``Message.get``,
    or the ``dict.get`` of ``_plain_fields``."""
    mid = get("message-id", None)
    message_id = message_id_of(raw, str(mid) if mid is not None else "")
    try:
        sender = _addr(_raw_str(get("from", "")))[1]
        date = get("date", None)
    except Exception:  # noqa: BLE001 - a mangled header block sorts as unknown
        return message_id, "", None
    return message_id, sender, _parse_date(str(date) if date is not None else None)


def message_id_of(raw: bytes, header_value: str | None = None) -> str:
    """The mail's Message-ID ("<...>"), or a stable one made from a hash of the bytes."""
    if header_value is None:
        try:
            headers = BytesHeaderParser().parsebytes(_headers_only(raw))
            header_value = headers.get("Message-ID")
        except Exception:  # noqa: BLE001
            header_value = None
    if header_value:
        value = _one_line(_no_surrogates(str(header_value)))
        found = _MSGID_RE.search(value)
        if found:
            return found.group(0)
        bare = value.strip("<>").replace(" ", "")
        if bare:
            return f"<{bare}>"
    digest = hashlib.sha256(raw).hexdigest()[:32]
    return f"<{digest}@pbmref.invalid>"


class _TextOfHtml(HTMLParser):
    _BLOCK = frozenset(
        "br p div tr li h1 h2 h3 h4 h5 h6 pre blockquote table ul ol dt dd hr".split()
    )
    _SKIP = frozenset(("script", "style", "head", "title"))

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._SKIP:
            self._skip += 1
        elif tag in self._BLOCK:
            self.out.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._SKIP:
            self._skip = max(0, self._skip - 1)
        elif tag in self._BLOCK:
            self.out.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.out.append(data)


def html_to_text(markup: str) -> str:
    """Text of an HTML body: tags stripped, entities unescaped, blocks on their own lines."""
    try:
        parser = _TextOfHtml()
        parser.feed(markup)
        parser.close()
        text = "".join(parser.out)
    except Exception:  # noqa: BLE001 - fall back to a crude strip
        text = html.unescape(re.sub(r"<[^>]*>", " ", markup))
    lines = [" ".join(line.split()) for line in text.replace("\xa0", " ").splitlines()]
    # collapse runs of blank lines
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip("\n")


def _part_text(part: Message) -> str:
    try:
        payload = part.get_payload(decode=True)
    except Exception:  # noqa: BLE001
        payload = None
    if payload is None:
        raw = part.get_payload()
        if isinstance(raw, str):
            payload = raw.encode("utf-8", errors="surrogateescape")
        else:
            return ""
    if not isinstance(payload, bytes):
        return ""
    try:
        charset = part.get_content_charset()
    except Exception:  # noqa: BLE001
        charset = None
    text = _decode_bytes(payload, charset)
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    return _as_shown(part, text)


def _as_shown(part: Message, text: str) -> str:
    """The text of a ``format=flowed`` part as its writer saw it (RFC 3676, with
    ``DelSp``): Apple Mail and Thunderbird break long lines softly, which put
    half a greeting on a line of its own (issue 42, item 5)."""
    try:
        flowed = str(part.get_param("format") or "").lower() == "flowed"
        delsp = str(part.get_param("delsp") or "").lower() == "yes"
    except Exception:  # noqa: BLE001
        return text
    return unflowed(text, delsp=delsp) if flowed else text


def _is_attachment(part: Message) -> bool:
    try:
        disp = (part.get("Content-Disposition") or "").split(";")[0].strip().lower()
        if disp == "attachment":
            return True
        return bool(part.get_param("filename", header="content-disposition")) and disp != "inline"
    except Exception:  # noqa: BLE001
        return False


def _content_type(part: Message) -> str:
    try:
        return part.get_content_type()
    except Exception:  # noqa: BLE001
        return "text/plain"


def _walk(msg: Message) -> list[tuple[Message, str]]:
    """The parts (with their types) in document order, iteratively, bounded."""
    seen: list[tuple[Message, str]] = []
    stack: list[tuple[Message, int]] = [(msg, 0)]
    while stack and len(seen) < MAX_PARTS:
        part, depth = stack.pop()
        ctype = _content_type(part)
        seen.append((part, ctype))
        if depth >= _MAX_DEPTH:
            continue
        try:
            children = part.get_payload() if part.is_multipart() else None
        except Exception:  # noqa: BLE001
            children = None
        if isinstance(children, list):
            for child in reversed(children):
                if isinstance(child, Message):
                    stack.append((child, depth + 1))
    return seen


class _Unread(Exception):
    """A mail past a bound: why, in plain words."""


def _body_text(parts: list[tuple[Message, str]]) -> str:
    plain = [p for p, t in parts if t == "text/plain" and not _is_attachment(p)]
    for part in plain:
        text = _part_text(part)
        if text.strip():
            return text
    htmls = [p for p, t in parts if t == "text/html" and not _is_attachment(p)]
    for part in htmls:
        markup = _part_text(part)
        if markup.count("<") > MAX_TAGS:
            raise _Unread(f"its HTML has more than {MAX_TAGS:,} tags; the referee reads HTML "
                          f"of at most {MAX_TAGS:,} tags (plain text is always read)")
        text = html_to_text(markup)
        if text.strip():
            return text
    return _part_text(plain[0]) if plain else ""


def _too_much(raw: bytes) -> str:
    """Why ``raw`` is not read (a bound it passes, counted on its bytes), or ""."""
    lines = raw.count(b"\n")
    if lines > MAX_LINES:
        return (f"it has {lines:,} lines; the referee reads mails of at most {MAX_LINES:,} "
                "lines")
    if raw.count(b"\n--") > MAX_PARTS:
        return (f"it has more than {MAX_PARTS} parts (attachments and the like); the "
                f"referee reads mails of at most {MAX_PARTS} parts")
    return ""


def _too_long(text: str) -> str:
    """Why a mail's decoded text is not read (more lines than MAX_LINES), or ""."""
    lines = text.count("\n")
    if lines > MAX_LINES:
        return (f"its text has {lines:,} lines; the referee reads mails of at most "
                f"{MAX_LINES:,} lines")
    return ""


def _headers_only(raw: bytes) -> bytes:
    """The header block of ``raw`` (its first 256 KB when it has no end)."""
    for sep in (b"\r\n\r\n", b"\n\n"):
        pos = raw.find(sep)
        if pos >= 0:
            return raw[: pos + len(sep)]
    return raw[: 256 * 1024]


def _parsed(source: bytes) -> Message:
    """``source`` parsed by the standard mail parser; a mail of one part (not
    multipart, not a message) has its headers parsed and its body taken whole,
    as the parser would take it, not line by line (the parser took 8 ms over a
    megabyte of lines). Anything the shortcut might read otherwise (a header
    block the parser would end elsewhere, a defect) goes the parser's way."""
    ends = [at + len(sep) for sep in (b"\r\n\r\n", b"\n\n") if (at := source.find(sep)) >= 0]
    if ends:
        end = min(ends)
        head = email.message_from_bytes(source[:end])
        if (not head.defects and head.get_payload() == ""
                and head.get_content_maintype() not in ("multipart", "message")):
            head.set_payload(source[end:].decode("ascii", "surrogateescape"))
            return head
    return email.message_from_bytes(source)


def _parsed_safely(raw: bytes, source: bytes) -> Message:
    """``source`` parsed; a mail nested past the parser's depth: its headers only;
    anything else that breaks the parser: an empty message."""
    try:
        return _parsed(source)
    except RecursionError:
        try:
            return email.message_from_bytes(_headers_only(raw))
        except Exception:  # noqa: BLE001
            return Message()
    except Exception:  # noqa: BLE001
        return Message()


def _header_pairs(msg: Message) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Each header (lower-case name) as written (raw 8-bit read as UTF-8, else
    Windows-1252), and decoded; a header that cannot be read is left out."""
    raw_headers: list[tuple[str, str]] = []
    headers: list[tuple[str, str]] = []
    try:
        items = msg.items()
    except Exception:  # noqa: BLE001
        items = []
    for key, value in items:
        try:
            # no header is read further than MAX_HEADER (a References of a long thread);
            # a Subject past its own bound is told by the envelope (orders.envelope)
            name, written = str(key).strip().lower(), _raw_str(value)[:MAX_HEADER]
            raw_headers.append((name, written))
            headers.append((name, _decode_header(written)))
        except Exception:  # noqa: BLE001
            continue
    return raw_headers, headers


def _body_of(parts: list[tuple[Message, str]]) -> tuple[str, str]:
    """(the text of the mail's parts, why it was not read: empty if it was)."""
    try:
        text = _body_text(parts)
        unread = _too_long(text)
    except _Unread as exc:
        return "", str(exc)
    except Exception:  # noqa: BLE001
        return "", ""
    return ("", unread) if unread else (text, "")


def _all_of(headers: list[tuple[str, str]], name: str) -> list[str]:
    return [v for k, v in headers if k == name]


def _message_id(msg: Message, raw: bytes) -> str:
    try:
        raw_mid = msg.get("Message-ID")
    except Exception:  # noqa: BLE001
        raw_mid = None
    return message_id_of(raw, str(raw_mid) if raw_mid is not None else "")


def read_message(
    raw: bytes, *, max_bytes: int = DEFAULT_MAX_BYTES, size: int | None = None
) -> IncomingMail:
    """Parse `raw` into an `IncomingMail`; never raises.

    `size` is the mail's true size when `raw` holds only part of it (an intake may
    fetch only the headers of a huge mail). Over `max_bytes`, only headers are read.
    """
    if not isinstance(raw, bytes | bytearray | memoryview):
        raw = str(raw).encode("utf-8", errors="replace")
    raw = bytes(raw)
    total = max(size or 0, len(raw))
    oversized = total > max_bytes
    unread = "" if oversized else _too_much(raw)
    source = _headers_only(raw) if oversized or unread else raw
    msg = _parsed_safely(raw, source)
    raw_headers, headers = _header_pairs(msg)

    def first(name: str) -> str | None:
        return next((v for k, v in headers if k == name), None)

    message_id = _message_id(msg, raw)
    # addresses are parsed from the raw values: a decoded name may hold commas or quotes
    from_name, from_addr = _addr((_all_of(raw_headers, "from") or [""])[0])
    _, reply_to = _addr((_all_of(raw_headers, "reply-to") or [""])[0])
    to = _addr_list(_all_of(raw_headers, "to") + _all_of(raw_headers, "cc"))
    subject = _one_line(first("subject") or "")
    in_reply_to_m = _MSGID_RE.search(first("in-reply-to") or "")
    references = tuple(_MSGID_RE.findall(" ".join(_all_of(headers, "references"))))

    try:
        parts = _walk(msg)
    except Exception:  # noqa: BLE001
        parts = []
    text = ""
    if not oversized and not unread:
        text, unread = _body_of(parts)

    return IncomingMail(
        message_id=message_id,
        from_addr=from_addr,
        from_name=from_name,
        reply_to=reply_to,
        to=to,
        subject=subject,
        date=_parse_date(first("date")),
        in_reply_to=in_reply_to_m.group(0) if in_reply_to_m else "",
        references=references,
        text=text,
        size=total,
        oversized=oversized,
        unread=unread,
        headers=tuple(headers),
        content_types=tuple(t for _, t in parts),
    )


# --------------------------------------------------------------------------- never answer

_BOUNCE_LOCALS = frozenset(("mailer-daemon", "postmaster", "mail-daemon", "mailerdaemon"))
_AUTO_HEADERS = ("x-autoreply", "x-autorespond", "x-autogenerated", "x-auto-response")


def never_answer_reason(mail: IncomingMail, our_addresses: Iterable[str]) -> str | None:
    """Why `mail` must never be answered, in plain words; None when a reply is fine.

    Follows RFC 3834 (automatic responses): no answer to our own mail, to bounces
    and delivery reports, to anything auto-submitted, to bulk/list mail, or to
    mail carrying a loop header. A mail with a List-Id came through a mailing
    list, so answering it would write to the whole list: it is not answered.
    """
    if mail.header(LOOP_HEADER) is not None:
        return f"carries our loop header {LOOP_HEADER}"
    return _sender_reason(mail, our_addresses) or _automatic_reason(mail)


def _sender_reason(mail: IncomingMail, our_addresses: Iterable[str]) -> str | None:
    """Why the sender is none to answer: the referee, nobody, a mailer daemon."""
    ours = {a.strip().lower() for a in our_addresses if a}
    if mail.from_addr and mail.from_addr in ours:
        return f"sent by the referee itself ({mail.from_addr})"
    if not mail.from_addr:
        return "no sender address (bounce or broken mail)"
    if "@" not in mail.from_addr.strip("@"):
        return f"no usable sender address ({mail.from_addr!r} has no domain)"
    local = mail.from_addr.split("@", 1)[0]
    if local in _BOUNCE_LOCALS:
        return f"bounce from {mail.from_addr}"
    return None


def _automatic_reason(mail: IncomingMail) -> str | None:
    """Why the mail is one a program sent (RFC 3834): a bounce, a report, an
    auto-reply, bulk or list mail, another program's loop."""
    return_path = mail.header("return-path")
    if return_path is not None and return_path.strip() in ("", "<>"):
        return "null Return-Path (bounce)"
    for ctype in mail.content_types:
        if ctype in ("multipart/report", "message/delivery-status",
                     "message/disposition-notification", "message/feedback-report"):
            return f"delivery report ({ctype})"
    auto = mail.header("auto-submitted")
    if auto is not None:
        value = auto.split(";")[0].strip().lower()
        if value and value != "no":
            return f"Auto-Submitted: {value}"
    precedence = (mail.header("precedence") or "").strip().lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {precedence}"
    if mail.header("list-id") is not None:
        return "mailing list mail (List-Id)"
    if mail.header("x-loop") is not None:
        return "X-Loop header (another program's loop)"
    for name in _AUTO_HEADERS:
        if mail.header(name) is not None:
            return f"auto-reply header {name}"
    return None
