"""Reading incoming mail: decoding, text extraction, never-answer rules, robustness."""

from __future__ import annotations

import base64
import email.policy
from datetime import UTC, datetime
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hypo import examples
from pbmref.mail.message import (
    _SPOOL_FIELDS,
    IncomingMail,
    _plain_fields,
    message_id_of,
    never_answer_reason,
    read_message,
    spool_headers,
)

OURS = ["referee@game.test"]


def mail(headers: str, body: bytes | str = b"GAME zep1\n") -> bytes:
    if isinstance(body, str):
        body = body.encode()
    return headers.strip().replace("\n", "\r\n").encode() + b"\r\n\r\n" + body


# ----------------------------------------------------------------------------- headers


def test_plain_mail_fields() -> None:
    m = read_message(mail("""
From: "Jo Flyer" <Jo.Flyer@Example.ORG>
Reply-To: other@example.org
To: referee@game.test
Cc: Someone <cc@example.org>
Subject: zep1 orders
Date: Mon, 30 Nov 2026 09:00:00 +0100
Message-ID: <abc@example.org>
In-Reply-To: <prev@game.test>
References: <one@x> <prev@game.test>
"""))
    assert m.from_addr == "jo.flyer@example.org" and m.from_name == "Jo Flyer"
    assert m.reply_to == "other@example.org"
    assert m.to == ("referee@game.test", "cc@example.org")
    assert m.subject == "zep1 orders"
    assert m.date is not None and m.date.isoformat() == "2026-11-30T09:00:00+01:00"
    assert m.message_id == "<abc@example.org>"
    assert m.in_reply_to == "<prev@game.test>"
    assert m.references == ("<one@x>", "<prev@game.test>")
    assert m.text == "GAME zep1\n"
    assert not m.oversized and m.size > 0


def test_missing_message_id_is_synthesised_and_stable() -> None:
    raw = mail("From: a@b.c\nSubject: x")
    one, two = read_message(raw), read_message(raw)
    assert one.message_id == two.message_id == message_id_of(raw)
    assert one.message_id.startswith("<") and one.message_id.endswith("@pbmref.invalid>")
    assert read_message(raw + b"more").message_id != one.message_id


@pytest.mark.parametrize(
    ("subject", "expected"),
    [
        ("=?utf-8?q?Gr=C3=BC=C3=9Fe?= aus Berlin", "Grüße aus Berlin"),
        ("=?iso-8859-1?q?caf=E9?=", "café"),
        ("=?utf-8?b?w6lsw6hWZQ==?=", "élèVe"),
        ("zep1\n orders\n\tturn 7", "zep1 orders turn 7"),  # folded: one line
        ("=?x-unknown?q?abc?=", "abc"),  # unknown charset: still read
        ("=?utf-8?q?broken", "=?utf-8?q?broken"),
        ("a\x1bb\x07c", "a b c"),  # control characters
    ],
)
def test_subject_decoding(subject: str, expected: str) -> None:
    m = read_message(mail(f"From: a@b.c\nSubject: {subject}"))
    assert m.subject == expected
    assert "\n" not in m.subject and "\r" not in m.subject


def test_raw_8bit_headers_and_commas_in_encoded_names() -> None:
    m = read_message(b"From: =?utf-8?q?Doe=2C_J=C3=BCrgen?= <J@X.org>\r\n"
                     b"To: =?utf-8?q?A=2C_B?= <a@b.c>, c@d.e\r\n"
                     b"Subject: gr\xc3\xbc\xc3\x9fe \xe9\r\n\r\nx")
    assert (m.from_name, m.from_addr) == ("Doe, Jürgen", "j@x.org")
    assert m.to == ("a@b.c", "c@d.e")
    assert m.subject == "grüße é"


# ----------------------------------------------------------------------------- bodies


@pytest.mark.parametrize(
    ("charset", "cte", "payload", "expected"),
    [
        ("utf-8", "8bit", "Grüße, GAME zep1".encode(), "Grüße, GAME zep1"),
        ("iso-8859-1", "8bit", "Grüße".encode("latin-1"), "Grüße"),
        ("windows-1252", "quoted-printable", b"caf=E9 =80", "café €"),
        ("koi8-r", "base64", base64.b64encode("Привет".encode("koi8-r")), "Привет"),
        # lying label: says ascii, is UTF-8
        ("us-ascii", "8bit", "Grüße".encode(), "Grüße"),
        # lying label: says UTF-8, is Latin-1 -> readable with a single-byte reading
        ("utf-8", "8bit", "Grüße".encode("latin-1"), "Grüße"),
        # mixed: mostly UTF-8 with a stray Windows-1252 byte
        ("utf-8", "8bit", "Grüße ".encode() + b"\x80", "Grüße €"),
        # unknown label
        ("x-klingon", "8bit", b"qapla", "qapla"),
        # broken base64 does not raise
        ("utf-8", "base64", b"R0FNRS!!!", None),
    ],
)
def test_charsets_and_transfer_encodings(charset: str, cte: str, payload: bytes,
                                         expected: str | None) -> None:
    raw = mail(f"From: a@b.c\nContent-Type: text/plain; charset={charset}\n"
               f"Content-Transfer-Encoding: {cte}", payload)
    m = read_message(raw)
    if expected is not None:
        assert m.text.strip() == expected
    else:
        assert isinstance(m.text, str)


def test_html_only_mail_is_read_as_text() -> None:
    html = ("<html><head><style>p {color: red}</style><title>t</title></head><body>"
            "<p>GAME zep1</p><p>PASSWORD a&amp;b</p><div>1: LS&nbsp;f-A</div>"
            "<script>alert(1)</script></body></html>")
    m = read_message(mail("From: a@b.c\nContent-Type: text/html; charset=utf-8", html))
    assert m.text.splitlines() == ["GAME zep1", "", "PASSWORD a&b", "", "1: LS f-A"]


def test_plain_part_preferred_and_attachments_ignored() -> None:
    msg = EmailMessage()
    msg["From"] = "a@b.c"
    msg.set_content("GAME zep1\nEND\n")
    msg.add_alternative("<p>HTML version</p>", subtype="html")
    msg.add_attachment(b"not the orders", maintype="text", subtype="plain", filename="x.txt")
    m = read_message(msg.as_bytes())
    assert m.text == "GAME zep1\nEND\n"
    assert "multipart/mixed" in m.content_types


def test_attachment_only_text_is_not_the_body() -> None:
    msg = EmailMessage()
    msg["From"] = "a@b.c"
    msg.set_content("<p>from html</p>", subtype="html")
    msg.add_attachment(b"attached text", maintype="text", subtype="plain", filename="a.txt")
    assert read_message(msg.as_bytes()).text == "from html"


@pytest.mark.parametrize("depth", [1, 5, 60, 400, 3000])
def test_nested_multipart_any_depth(depth: int) -> None:
    head = "From: a@b.c\nSubject: deep\nMIME-Version: 1.0\n"
    body = "GAME zep1 deep\n"
    part = f"Content-Type: text/plain\n\n{body}"
    for i in range(depth):
        part = (f'Content-Type: multipart/mixed; boundary="b{i}"\n\n'
                f"--b{i}\n{part}\n--b{i}--\n")
    m = read_message((head + part).encode(), max_bytes=10**8)
    assert m.subject == "deep"
    if depth <= 50:
        assert m.text.strip() == "GAME zep1 deep"


def test_oversized_reads_headers_only() -> None:
    raw = mail("From: Big <big@b.c>\nSubject: huge", b"x" * 5000)
    m = read_message(raw, max_bytes=1000)
    assert m.oversized and m.text == "" and m.subject == "huge" and m.size == len(raw)
    assert m.from_addr == "big@b.c"
    # the true size from the intake counts even when only the headers were fetched
    head = mail("From: a@b.c\nSubject: s", b"")
    assert read_message(head, max_bytes=1000, size=10_000).oversized


@pytest.mark.parametrize(
    "raw",
    [b"", b"\x00\x01\x02\xff\xfe", b"\r\n\r\n", b"From:\r\n\r\n", b"Content-Type: multipart/mixed\r\n\r\n--",
     b"Content-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\n--x\r\n--x--",
     b"Subject: =?utf-8?b?!!!?=\r\nFrom: <<<@>>>\r\nDate: yesterday\r\n\r\nbody",
     b"From: a@b.c\r\nContent-Type: text/plain; charset=\"\"\r\n\r\nx",
     b"From: a@b.c\r\nContent-Transfer-Encoding: x-uuencode\r\n\r\nbegin 644 x\r\n"],
)
def test_garbage_never_raises(raw: bytes) -> None:
    m = read_message(raw)
    assert isinstance(m, IncomingMail)
    assert m.message_id.startswith("<")


@settings(max_examples=examples(300), deadline=None)
@given(st.binary(max_size=3000))
def test_fuzz_random_bytes(raw: bytes) -> None:
    m = read_message(raw, max_bytes=2000)
    assert isinstance(m.text, str) and "\n" not in m.subject
    never_answer_reason(m, OURS)


_header_names = st.sampled_from(["From", "To", "Subject", "Content-Type", "Content-Transfer-Encoding",
                                 "Message-ID", "Date", "References", "Return-Path", "Auto-Submitted",
                                 "Content-Disposition", "Reply-To"])
_text = st.text(alphabet=st.characters(codec="utf-8"), max_size=60)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.tuples(_header_names, _text), max_size=8), st.binary(max_size=500),
       st.sampled_from(["text/plain", "text/html", "multipart/mixed; boundary=z",
                        "multipart/alternative", "message/rfc822", "text/plain; charset=bogus"]))
def test_fuzz_structured(headers: list[tuple[str, str]], body: bytes, ctype: str) -> None:
    head = "".join(f"{k}: {v}\r\n" for k, v in headers)
    raw = f"Content-Type: {ctype}\r\n{head}\r\n".encode("utf-8", "surrogateescape") + body
    raw += b"\r\n--z\r\nContent-Type: text/plain\r\n\r\nx\r\n--z--\r\n"
    m = read_message(raw)
    assert isinstance(m, IncomingMail)
    assert "\r" not in m.subject and "\n" not in m.from_name
    never_answer_reason(m, OURS)


# ----------------------------------------------------------------------------- never answer

NEVER_ANSWER = [
    # (headers, reason fragment or None when a reply is fine)
    ("From: player1@example.org", None),
    ("From: player1@example.org\nAuto-Submitted: no", None),
    ("From: player1@example.org\nPrecedence: first-class", None),
    ("From: Referee <REFEREE@game.test>", "referee itself"),
    ("From: player1@example.org\nX-Pbmref-Loop: referee@game.test", "loop header"),
    ("From: MAILER-DAEMON@mx.example.org", "bounce"),
    ("From: postmaster@example.org", "bounce"),
    ("Subject: no sender", "no sender"),
    ("Return-Path: <>\nFrom: player1@example.org", "null Return-Path"),
    ("From: player1@example.org\nAuto-Submitted: auto-replied", "Auto-Submitted: auto-replied"),
    ("From: player1@example.org\nAuto-Submitted: auto-generated; owner-email=x", "auto-generated"),
    ("From: player1@example.org\nPrecedence: bulk", "Precedence: bulk"),
    ("From: player1@example.org\nPrecedence: Junk", "Precedence: junk"),
    ("From: player1@example.org\nPrecedence: list", "Precedence: list"),
    ("From: player1@example.org\nList-Id: <games.lists.example.org>", "List-Id"),
    ("From: player1@example.org\nX-Loop: vacation@example.org", "X-Loop"),
    ("From: player1@example.org\nX-Autoreply: yes", "x-autoreply"),
    ("From: player1@example.org\nX-Autorespond: yes", "x-autorespond"),
    ("From: player1@example.org\nContent-Type: multipart/report; report-type=delivery-status;"
     " boundary=r", "delivery report"),
]


@pytest.mark.parametrize(("headers", "fragment"), NEVER_ANSWER)
def test_never_answer_reason(headers: str, fragment: str | None) -> None:
    m = read_message(mail(headers))
    reason = never_answer_reason(m, OURS)
    if fragment is None:
        assert reason is None
    else:
        assert reason is not None and fragment.lower() in reason.lower()


def test_delivery_status_part_inside_a_mixed_mail() -> None:
    raw = mail("From: player1@example.org\nContent-Type: multipart/mixed; boundary=q",
               b"--q\r\nContent-Type: text/plain\r\n\r\nfailed\r\n"
               b"--q\r\nContent-Type: message/delivery-status\r\n\r\nStatus: 5.0.0\r\n\r\n--q--\r\n")
    assert "delivery" in (never_answer_reason(read_message(raw), OURS) or "")


# ---------------------------------------------------------------- issue 15, item 1

@pytest.mark.parametrize("label, codec", [
    ("utf-8", "utf-8"), ("UTF8", "utf-8"), ("latin1", "iso8859-1"), ("Windows-1252", "cp1252"),
    ("utf-7", "utf-7"), ("UTF-16", "utf-16"), ("koi8-r", "koi8-r"), ("Shift_JIS", "shift_jis"),
    ("iso-2022-jp", "iso2022_jp"), ("gb2312", "gb2312"), ("big5", "big5"),
    # codecs that are no charset: read as if the part had no label
    ("unicode_escape", None), ("raw_unicode_escape", None), ("rot13", None), ("rot_13", None),
    ("base64_codec", None), ("base64", None), ("punycode", None), ("idna", None),
    ("zlib", None), ("hex", None), ("uu", None), ("quopri", None), ("undefined", None),
    ("x-klingon-9", None), ("", None),
])
def test_only_real_text_charsets_are_decoded(label: str, codec: str | None) -> None:
    from pbmref.mail.message import _codec

    assert _codec(label) == codec


_SURROGATE_BYTES = b"x\xed\xa0\x80y"


@pytest.mark.parametrize("header", [
    b"Subject: =?utf-7?q?x+2AA-?=", b"Subject: =?unicode_escape?q?x=5Cud800?=",
    b"Subject: =?utf-16?b?2AA=?=", b"Subject: " + _SURROGATE_BYTES,
    b"From: =?utf-7?q?x+2AA-?= <anna@example.org>", b"From: " + _SURROGATE_BYTES
    + b" <anna@example.org>", b"Message-ID: <" + _SURROGATE_BYTES + b"@example.org>",
    b"Message-ID: =?utf-7?q?<x+2AA-@y>?=", b"References: <" + _SURROGATE_BYTES + b"@x>",
    b"X-Whatever: =?utf-7?q?x+2AA-?=", b"Content-Type: text/plain; charset=utf-7",
    b"Content-Type: text/plain; charset=unicode_escape",
])
def test_no_field_of_a_read_mail_holds_a_lone_surrogate(header: bytes) -> None:
    """Whatever a header holds, every string of the mail can be written as UTF-8
    (a lone surrogate made the reply unencodable and stopped the referee's round)."""
    raw = (b"From: anna@example.org\r\nTo: referee@example.org\r\n" + header
           + b"\r\n\r\nGAME zep1 +2AA- \\ud800\r\n")
    mail = read_message(raw)
    strings = [mail.message_id, mail.from_addr, mail.from_name, mail.reply_to, mail.subject,
               mail.in_reply_to, mail.text, *mail.to, *mail.references,
               *(v for _, v in mail.headers)]
    for value in strings:
        value.encode("utf-8")  # raises on a lone surrogate
    assert "GAME zep1" in mail.text


# ----------------------------------------------------------------------------- the spool's headers
# The spool reads a mail's Message-ID, From and Date from a plain header block
# itself (issue 41, item 3: each mail parsed once, when it is read); what it
# reads must be what email's parser reads, which reads every other block.

_FIELD_NAMES = st.sampled_from(["Message-ID", "message-id", "FROM", "From", "Date", "date",
                                "Subject", "X-Any", "From ", "Da te", "", "Ré"])
_SEPARATORS = st.sampled_from([":", ": ", ":\t", ":  ", " :"])
_VALUE = st.lists(st.sampled_from(list("ab <>@.,\"'()=?:;\t-") + [
    "=?utf-8?q?J=C3=B6?=", "é", "\x0c", "\x00", "\r", "\n", "<1@x.test>",
    "Mon, 7 Dec 2026 10:00:00 +0100", "Jo <JO@X.Test>"]), max_size=8).map("".join)
_LINE = st.one_of(
    st.tuples(_FIELD_NAMES, _SEPARATORS, _VALUE).map(lambda t: "".join(t)),
    st.tuples(st.sampled_from([" ", "\t", "  "]), _VALUE).map(lambda t: "".join(t)),
    st.sampled_from(["From bob@x.test Mon Dec  7 10:00:00 2026", "no colon", ":empty name"]),
)
_HEAD = st.tuples(st.lists(_LINE, max_size=7), st.sampled_from(["\n", "\r\n", "\r"]),
                  st.sampled_from(["\n", "\r\n", "", "\r"]), _VALUE)


def _head(parts: tuple[list[str], str, str, str]) -> bytes:
    lines, ending, blank, body = parts
    return (ending.join(lines) + ending + blank + body).encode("utf-8", "surrogateescape")


def _parser_fields(head: bytes) -> dict[str, str]:
    parsed = BytesHeaderParser().parsebytes(head)
    return {name: str(parsed[name]) for name in ("message-id", "from", "date")
            if parsed[name] is not None}


@settings(max_examples=examples(1000), deadline=None)
@given(_HEAD)
def test_a_plain_header_block_reads_as_the_parser_reads_it(parts: tuple[list[str], str, str,
                                                                        str]) -> None:
    head = _head(parts)
    fields = _plain_fields(head, _SPOOL_FIELDS)
    if fields is not None:
        assert fields == _parser_fields(head)


@settings(max_examples=examples(1000), deadline=None)
@given(_HEAD)
def test_the_spool_headers_are_the_parsers(parts: tuple[list[str], str, str, str]) -> None:
    raw = _head(parts)
    with mock.patch("pbmref.mail.message._plain_fields", return_value=None):
        by_parser = spool_headers(raw)
    assert spool_headers(raw) == by_parser


def test_an_order_mail_has_its_spool_headers_read_without_the_parser() -> None:
    msg = EmailMessage()
    msg["From"] = "Jö Flyer <Jo.Flyer@Example.ORG>"
    msg["To"] = "referee@game.test"
    msg["Subject"] = "orders for zep1, a subject long enough to be folded onto a second line"
    msg["Date"] = "Mon, 07 Dec 2026 10:00:00 +0100"
    msg["Message-ID"] = "<orders.1@example.org>"
    msg.set_content("GAME zep1\nPASSWORD x\n1 F2 L\n")
    raw = msg.as_bytes(policy=email.policy.SMTP)
    assert b"=?utf-8?" in raw and b"\r\n " in raw  # an encoded word, a folded line
    with mock.patch("pbmref.mail.message.BytesHeaderParser", side_effect=AssertionError):
        read = spool_headers(raw)
    assert read == ("<orders.1@example.org>", "jo.flyer@example.org",
                    datetime(2026, 12, 7, 9, 0, tzinfo=UTC))


def test_a_senders_address_is_worked_out_once_for_the_mails_they_send(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 41, item 5: a player's From header is the same mail after mail
    import email.utils

    seen: list[str] = []
    real = email.utils.parseaddr
    monkeypatch.setattr(email.utils, "parseaddr", lambda v, **kw: seen.append(v) or real(v))
    sender = '"Jo Flyer" <Jo.Flyer.Once@Example.ORG>'  # a sender no other test has
    for n in range(3):
        m = read_message(mail(f"From: {sender}\nMessage-ID: <{n}@x>\nSubject: orders"))
        assert (m.from_name, m.from_addr) == ("Jo Flyer", "jo.flyer.once@example.org")
    assert seen.count(sender) == 1
