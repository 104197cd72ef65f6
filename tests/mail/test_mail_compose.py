"""Composing the referee's mails: threading, loop protection, no header injection."""

from __future__ import annotations

import email
import email.policy
import io
import re
from datetime import UTC, datetime
from email.generator import BytesGenerator
from email.message import EmailMessage

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hypo import examples
from pbmref.mail.compose import Attachment, make_mail, make_reply, reply_subject, write_reply
from pbmref.mail.headers import flatten
from pbmref.mail.message import never_answer_reason, read_message

REF = "referee@game.test"

ORIGINAL = read_message(
    b"From: Jo <jo@example.org>\r\nSubject: Re: RE: zep1 orders\r\n"
    b"Message-ID: <orig@example.org>\r\nReferences: <r1@x> <r2@x>\r\n\r\nGAME zep1\r\n"
)


@pytest.mark.parametrize(
    ("subject", "expected"),
    [
        ("zep1 orders", "Re: zep1 orders"),
        ("Re: zep1 orders", "Re: zep1 orders"),
        ("RE: Re: re:zep1", "Re: zep1"),
        ("Aw: [zep1] turn 7 report", "Re: [zep1] turn 7 report"),
        ("Re[2]: x", "Re: x"),
        ("", "Re: your mail"),
        ("Re: a\r\nBcc: evil@x", "Re: a Bcc: evil@x"),
    ],
)
def test_reply_subject(subject: str, expected: str) -> None:
    assert reply_subject(subject) == expected


def test_reply_headers() -> None:
    when = datetime(2026, 11, 30, 9, 30, tzinfo=UTC)
    msg = make_reply(ORIGINAL, "jo@example.org", "Orders accepted: über", from_addr=REF,
                     from_name="Referee", date=when)
    assert msg["Subject"] == "Re: zep1 orders"
    assert msg["To"] == "jo@example.org"
    assert msg["From"] == "Referee <referee@game.test>"
    assert msg["In-Reply-To"] == "<orig@example.org>"
    assert msg["References"] == "<r1@x> <r2@x> <orig@example.org>"
    assert msg["Auto-Submitted"] == "auto-replied"
    assert msg["X-Pbmref-Loop"] == REF
    assert msg["Message-ID"].endswith("@game.test>")
    assert msg["Date"] == "Mon, 30 Nov 2026 09:30:00 +0000"
    assert msg.get_content() == "Orders accepted: über\n"
    # our own reply, read back, is never answered
    assert never_answer_reason(read_message(msg.as_bytes()), [REF]) is not None


def test_header_injection_is_impossible() -> None:
    evil = "x\r\nBcc: victim@example.org\r\n\r\nbody"
    msg = make_mail("jo@example.org\r\nCc: a@b", evil, "text", from_addr=REF,
                    from_name="Ref\nX-Evil: 1", extra_headers=[("X-Turn", "7\r\nX-Evil: 2")])
    raw = msg.as_bytes()
    parsed = email.message_from_bytes(raw, policy=email.policy.default)
    assert parsed["Bcc"] is None and parsed["X-Evil"] is None
    for name, value in parsed.items():
        assert "\n" not in value and "\r" not in value, name


def test_report_mail_with_html_and_svg_attachment() -> None:
    msg = make_mail(["a@x.org", "b@y.org"], "[zep1] turn 7 report", "text report",
                    from_addr=REF, from_name="Referee", html="<p>report</p>",
                    attachments=[Attachment("turn7.svg", b"<svg/>", "image/svg+xml")])
    assert msg["Auto-Submitted"] == "auto-generated"
    assert msg["X-Pbmref-Loop"] == REF
    assert msg["To"] == "a@x.org, b@y.org"
    types = [p.get_content_type() for p in msg.walk()]
    assert types == ["multipart/mixed", "multipart/alternative", "text/plain", "text/html",
                     "image/svg+xml"]
    back = read_message(msg.as_bytes())
    assert back.text == "text report\n"  # the plain part is what a reader sees first


@settings(max_examples=examples(300), deadline=None)
@given(subject=st.text(max_size=200), name=st.text(max_size=60), body=st.text(max_size=500))
def test_fuzz_compose_never_injects_headers(subject: str, name: str, body: str) -> None:
    original = read_message(f"From: a@b.c\r\nSubject: {subject}\r\n\r\nx".encode(
        "utf-8", "surrogateescape"))
    msg = make_reply(original, "jo@example.org", body, from_addr=REF, from_name=name)
    parsed = email.message_from_bytes(msg.as_bytes(), policy=email.policy.default)
    assert sorted(parsed.keys()) == sorted(msg.keys())
    assert parsed["To"] == "jo@example.org"
    assert parsed["Auto-Submitted"] == "auto-replied"


# --- the header factory (pbmref.mail.headers): the same bytes as the stock policy ---

_MAILS = [
    # (to, subject, body, from_name, html, attachments, references)
    ("anna@players.test", "Re: zep1 orders", "Accepted.\n", "", None, (), ()),
    ("anna@players.test", "Re: zep1 orders", "Accepted.\n", "pbmref referee", None, (), ()),
    (["jo@example.org", "Jörg Müller <jm@example.org>"], "Bericht für Zug 7 — Übersicht",
     "Zug 7: Flak über Ypern.\n", "Schiedsrichter Ä", None, (), ()),
    ("anna@players.test", "Re: " + "long subject " * 12, "x" * 200 + "\n", "", None, (),
     tuple(f"<ref{i}.{'y' * 30}@players.test>" for i in range(25))),
    ("anna@players.test", "turn 3 report", "Text.\n", "Ref", "<p>Text.</p>",
     (Attachment("map.svg", b"<svg/>", "image/svg+xml", cid="map"),
      Attachment("orders.txt", b"PLANE\n", "text/plain")), ()),
    ('"Quoted, Name" <q@players.test>', "Re: a\r\nBcc: evil@x", "=?utf-8?q?x?=\n",
     "=?utf-8?b?QmNjOiBldmls?=", None, (), ("<a@x>", "not an id")),
]


def _made(monkeypatch: pytest.MonkeyPatch, policy: email.policy.EmailPolicy | None,
          args: tuple) -> bytes:  # type: ignore[type-arg]
    import pbmref.mail.compose as compose

    if policy is not None:
        monkeypatch.setattr(compose, "POLICY", policy)
    monkeypatch.setattr(compose, "make_msgid", lambda domain: f"<fixed@{domain}>")
    to, subject, body, name, html, attachments, refs = args
    msg = make_mail(to, subject, body, from_addr=REF, from_name=name, html=html,
                    attachments=attachments, references=refs, in_reply_to="<orig@x>",
                    date=datetime(2026, 12, 4, 9, 0, tzinfo=UTC))
    # as the spool writes it, then as the SMTP client does (aiosmtplib flattens
    # with the SMTP policies, lines ending in CRLF), each twice: a header keeps
    # its folding per policy, and a mail's second writing uses the kept ones
    written = []
    for policy in (None, None, email.policy.SMTP, email.policy.SMTPUTF8, email.policy.SMTP):
        out = io.BytesIO()
        BytesGenerator(out, policy=policy).flatten(msg)
        written.append(out.getvalue())
    return re.sub(rb"=+[0-9]+==", b"BOUNDARY", b"\n--\n".join(written))  # random


@pytest.mark.parametrize("args", _MAILS)
def test_header_factory_writes_what_the_stock_policy_writes(
        monkeypatch: pytest.MonkeyPatch, args: tuple) -> None:  # type: ignore[type-arg]
    stock = _made(monkeypatch, email.policy.default, args)
    with monkeypatch.context() as m:
        first = _made(m, None, args)
    with monkeypatch.context() as m:
        again = _made(m, None, args)  # every header now made from the kept ones
    assert first == stock
    assert again == stock
    assert b"\r\n" in stock and b"\nSubject: " in stock  # both line endings compared


def test_a_header_keeps_its_folding_per_policy() -> None:
    from pbmref.mail.headers import HeaderFactory

    factory = HeaderFactory()
    subject = factory("Subject", "Re: " + "long subject " * 12)
    narrow = email.policy.default.clone(max_line_length=40)
    assert subject.fold(policy=email.policy.default).endswith("\n")
    assert subject.fold(policy=email.policy.SMTP).endswith("\r\n")
    assert subject.fold(policy=email.policy.SMTP) is subject.fold(policy=email.policy.SMTP)
    assert max(map(len, subject.fold(policy=narrow).splitlines())) <= 40
    assert subject.fold(policy=narrow) != subject.fold(policy=email.policy.default)
    assert max(map(len, subject.fold(policy=email.policy.default).splitlines())) <= 78
    name = factory("From", "Jörg Müller <jm@example.org>")
    assert "=?utf-8?" in name.fold(policy=email.policy.SMTP)
    assert name.fold(policy=email.policy.SMTPUTF8).startswith("From: Jörg Müller")


def test_header_factory_keeps_classes_and_recent_headers() -> None:
    from pbmref.mail.headers import KEPT_HEADERS, HeaderFactory

    factory = HeaderFactory()
    assert factory["To"] is factory["to"]  # one class a header name
    one = factory("To", "anna@players.test")
    assert factory("To", "anna@players.test") is one
    assert factory("To", "bert@players.test") is not one
    for n in range(KEPT_HEADERS):  # the oldest are dropped first: bounded
        factory("Message-ID", f"<{n}@x>")
    assert len(factory._made) == KEPT_HEADERS
    assert factory("To", "anna@players.test") is not one
    # a header mapped to another type anew forgets what it made
    from email.headerregistry import UnstructuredHeader

    factory.map_to_type("To", UnstructuredHeader)
    assert not hasattr(factory("To", "anna@players.test"), "addresses")


# --- a reply of text alone written as bytes (write_reply): what make_reply writes ---

def _both(monkeypatch: pytest.MonkeyPatch, original_raw: bytes, body: str,
          name: str) -> tuple[bytes, bytes]:
    """``write_reply``'s bytes and those of ``make_reply``'s message for the same
    reply (one Message-ID for both: a new one is random)."""
    import pbmref.mail.compose as compose

    monkeypatch.setattr(compose, "make_msgid", lambda domain: f"<fixed@{domain}>")
    original = read_message(original_raw)
    when = datetime(2026, 12, 6, 15, 0, tzinfo=UTC)
    written = write_reply(original, "jo@example.org", body, from_addr=REF, from_name=name,
                          date=when)
    made = make_reply(original, "jo@example.org", body, from_addr=REF, from_name=name,
                      date=when)
    return written.as_bytes(), made.as_bytes()


_REPLIES = [
    # (the original mail, the reply's text, the referee's name)
    (b"From: Jo <jo@example.org>\r\nSubject: [zep1] orders\r\nMessage-ID: <o@x>\r\n\r\nx",
     "Your orders are accepted.\n\nPLANE\n1: A\n", "Referee"),
    (b"From: jo@example.org\r\nSubject: =?utf-8?q?Bericht_f=C3=BCr_Zug_7?=\r\n\r\nx",
     "Zug 7: Flak über Ypern — 3 Treffer.\n" + "ä" * 300 + "\n", "Schiedsrichter Ä"),
    (b"From: jo@example.org\r\nSubject: " + b"long subject " * 12 + b"\r\nMessage-ID: <m@x>"
     b"\r\nReferences: " + b" ".join(f"<ref{i}.{'y' * 30}@x>".encode() for i in range(25))
     + b"\r\n\r\nx", "x" * 1200 + "\n" + "a line ending in spaces   \n", ""),
    (b"From: jo@example.org\r\n\r\nno subject", "no newline at the end", "J. Smith, GM"),
    (b"From: jo@example.org\r\nSubject: Re: a\r\n\r\nx", "line\r\nwith CR\rand LF\n",
     "=?utf-8?b?QmNjOiBldmls?="),
]


@pytest.mark.parametrize(("raw", "body", "name"), _REPLIES)
def test_a_reply_written_as_bytes_is_what_make_reply_writes(
        monkeypatch: pytest.MonkeyPatch, raw: bytes, body: str, name: str) -> None:
    written, made = _both(monkeypatch, raw, body, name)
    assert written == made
    assert b"\nIn-Reply-To: " in written or b"Message-ID" not in raw


@pytest.mark.parametrize("length", range(60, 80))
def test_a_reply_written_as_bytes_folds_where_email_folds(
        monkeypatch: pytest.MonkeyPatch, length: int) -> None:
    subject = ("orders " * 20)[:length].strip()
    mid = f"<{'m' * (length - 20)}@players.test>"
    raw = f"From: a@b.c\r\nSubject: {subject}\r\nMessage-ID: {mid}\r\n\r\nx".encode()
    written, made = _both(monkeypatch, raw, "ok\n", "")
    assert written == made


@settings(max_examples=examples(300), deadline=None)
@given(subject=st.text(max_size=200), name=st.text(max_size=60), body=st.text(max_size=1500),
       mid=st.text(max_size=90))
def test_fuzz_a_reply_written_as_bytes_is_what_make_reply_writes(
        subject: str, name: str, body: str, mid: str) -> None:
    raw = (f"From: a@b.c\r\nSubject: {subject}\r\nMessage-ID: {mid}\r\nReferences: <r@x> {mid}"
           "\r\n\r\nx").encode("utf-8", "surrogateescape")
    with pytest.MonkeyPatch.context() as m:
        written, made = _both(m, raw, body, name)
    assert written == made


def test_a_reply_written_as_bytes_takes_its_key_as_message_id() -> None:
    reply = write_reply(ORIGINAL, "jo@example.org", "ok", from_addr=REF)
    reply.replace_header("Message-ID", "<reply-1@game.test>")
    assert reply["Message-ID"] == "<reply-1@game.test>"
    parsed = email.message_from_bytes(reply.as_bytes(), policy=email.policy.default)
    assert parsed["Message-ID"] == "<reply-1@game.test>"
    assert parsed["Subject"] == "Re: zep1 orders"
    with pytest.raises(KeyError):
        reply.replace_header("Cc", "x@y")

@pytest.mark.parametrize("args", _MAILS)
def test_flatten_writes_what_as_bytes_writes(args: tuple) -> None:  # type: ignore[type-arg]
    """The spool's flattening (one write a body) gives the stock bytes, for a
    mail in the referee's policy and in SMTP's (CRLF), a body with a CR too."""
    to, subject, body, name, html, attachments, refs = args
    for text in (body, body + "\r\nand a CR\rin it\n"):
        msg = make_mail(to, subject, text, from_addr=REF, from_name=name, html=html,
                        attachments=[*attachments, Attachment("map.png", bytes(range(256)) * 9,
                                                              "image/png", cid="map@x")],
                        references=refs, in_reply_to="<orig@x>")
        assert flatten(msg) == msg.as_bytes()
        smtp = msg.as_bytes(policy=email.policy.SMTP)
        assert flatten(email.message_from_bytes(smtp, policy=email.policy.SMTP)) == smtp


def test_a_replys_envelope_is_worked_out_once_for_the_same_addresses(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 41, item 5: every reply is from the referee, mail after mail to a player
    from pbmref.mail import base

    seen: list[object] = []
    real = base.getaddresses
    monkeypatch.setattr(base, "getaddresses", lambda v: seen.append(v) or real(v))
    for n in range(3):
        msg = EmailMessage()
        msg["From"] = "Referee <ref@envelope-once.test>"
        msg["To"] = "Anna <anna@envelope-once.test>"
        msg["Subject"] = f"Re: orders {n}"
        assert base.envelope_of(msg) == ("ref@envelope-once.test", ("anna@envelope-once.test",))
    assert len(seen) == 1
