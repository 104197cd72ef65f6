"""Composing the referee's mails: threading, loop protection, no header injection."""

from __future__ import annotations

import email
import email.policy
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbmref.mail.compose import Attachment, make_mail, make_reply, reply_subject
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


@settings(max_examples=300, deadline=None)
@given(subject=st.text(max_size=200), name=st.text(max_size=60), body=st.text(max_size=500))
def test_fuzz_compose_never_injects_headers(subject: str, name: str, body: str) -> None:
    original = read_message(f"From: a@b.c\r\nSubject: {subject}\r\n\r\nx".encode(
        "utf-8", "surrogateescape"))
    msg = make_reply(original, "jo@example.org", body, from_addr=REF, from_name=name)
    parsed = email.message_from_bytes(msg.as_bytes(), policy=email.policy.default)
    assert sorted(parsed.keys()) == sorted(msg.keys())
    assert parsed["To"] == "jo@example.org"
    assert parsed["Auto-Submitted"] == "auto-replied"
