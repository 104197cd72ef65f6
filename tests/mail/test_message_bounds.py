"""What reading one mail may cost is bounded before its body is parsed (issue
40, item 5): a mail of too many lines, MIME parts or HTML tags is not read,
and ``IncomingMail.unread`` says why in plain words naming the limit (the
referee tells the sender); its headers are read all the same. Mails within
the bounds read as before."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest

from pbmref.mail import message
from pbmref.mail.message import MAX_HEADER, MAX_LINES, MAX_PARTS, MAX_TAGS, read_message

HEAD = "From: Anna <anna@example.org>\r\nSubject: zep1 orders\r\nMessage-ID: <m@x>\r\n"


def _plain(body: str, cte: str = "8bit") -> bytes:
    data = body.replace("\n", "\r\n").encode()
    if cte == "base64":
        data = base64.encodebytes(body.encode()).replace(b"\n", b"\r\n")
    return (HEAD + f"Content-Type: text/plain; charset=utf-8\r\n"
            f"Content-Transfer-Encoding: {cte}\r\n\r\n").encode() + data


def _parts(count: int) -> bytes:
    parts = "".join("--b\r\nContent-Type: text/plain\r\n\r\nx\r\n" for _ in range(count))
    return (HEAD + 'Content-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\n'
            "Content-Type: text/plain\r\n\r\nGAME zep1\r\n" + parts + "--b--\r\n").encode()


def _html(tags: int, alternative: bool = False) -> bytes:
    markup = "<div>" * tags + "GAME zep1" + "</div>" * tags
    if not alternative:
        return (HEAD + "Content-Type: text/html\r\n\r\n" + markup).encode()
    return (HEAD + 'Content-Type: multipart/alternative; boundary="b"\r\n\r\n'
            "--b\r\nContent-Type: text/plain\r\n\r\nGAME zep1\r\n"
            f"--b\r\nContent-Type: text/html\r\n\r\n{markup}\r\n--b--\r\n").encode()


# name: (the mail, words of its ``unread``)
UNREAD = {
    "lines": (_plain("1: A\n" * (MAX_LINES + 1)), f"at most {MAX_LINES:,} lines"),
    "lines-in-base64": (_plain("1: A\n" * (MAX_LINES + 1), "base64"),
                        f"at most {MAX_LINES:,} lines"),
    "parts": (_parts(MAX_PARTS + 1), f"more than {MAX_PARTS} parts"),
    "html-tags": (_html(MAX_TAGS), f"more than {MAX_TAGS:,} tags"),
}


@pytest.mark.parametrize("name", sorted(UNREAD))
def test_a_mail_past_a_bound_is_not_read_and_says_why(name: str) -> None:
    raw, words = UNREAD[name]
    assert len(raw) < 1_000_000
    mail = read_message(raw)
    assert mail.text == "" and not mail.oversized
    assert re.search(words, mail.unread), mail.unread
    assert mail.from_addr == "anna@example.org" and mail.subject == "zep1 orders"


def test_past_the_raw_bounds_the_body_is_never_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Counted on the raw bytes first: the mail parser gets the headers alone."""
    parsed: list[int] = []
    real = message.email.message_from_bytes

    def watching(data: bytes) -> object:
        parsed.append(len(data))
        return real(data)

    monkeypatch.setattr(message.email, "message_from_bytes", watching)
    for name in ("lines", "parts"):
        raw = UNREAD[name][0]
        parsed.clear()
        read_message(raw)
        assert parsed and set(parsed) == {raw.index(b"\r\n\r\n") + 4}, (name, parsed)


def test_no_header_is_read_past_its_bound() -> None:
    """A References of a long thread, a header line of 100,000 characters: cut,
    the mail read (no player writes one; a Subject's bound is the envelope's)."""
    raw = _plain("GAME zep1\n").replace(b"Message-ID", b"References: " + b"<a@b> " * 20_000
                                          + b"\r\nSubject: " + b"s" * 100_000 + b"\r\nMessage-ID")
    mail = read_message(raw)
    assert mail.unread == "" and mail.text == "GAME zep1\n"
    assert max(len(v) for _, v in mail.headers) <= MAX_HEADER
    assert len(mail.references) <= MAX_HEADER // 5


def test_mails_within_the_bounds_read_as_before() -> None:
    for raw in (_plain("1: A\n" * (MAX_LINES - 10)), _parts(MAX_PARTS // 2 - 5),
                _html(MAX_TAGS // 2 - 5), _html(MAX_TAGS * 10, alternative=True)):
        mail = read_message(raw)
        assert mail.unread == "" and mail.text.startswith(("1: A", "GAME zep1")), mail.unread


CORPUS = Path(__file__).resolve().parents[1] / "mail_corpus"
EDGES = [
    b"From: a@b.c\r\nSubject: s\r\n\r\nGAME zep1\r\n\r\nPLANE\r\n",
    b"From: a@b.c\nSubject: s\n\nGAME zep1\r\n\r\nPLANE\n",  # the body's CRLF pairs
    b"From: a@b.c\r\n\nbody\r\n\r\nmore",  # the header block ends in CRLF LF
    b"From: a@b.c\r\rbody\n\nmore",  # old Mac line ends: the parser ends at CR CR
    b"From: a@b.c\r\nnot a header line\r\nSubject: s\r\n\r\nbody",  # a defect
    b"From: a@b.c\r\n  folded\r\nSubject: \xc3\xa9t\xe9\r\n\r\n\xff\xfe8-bit body\r\n",
    b"From: a@b.c\r\nContent-Transfer-Encoding: base64\r\n\r\nR0FNRSB6ZXAx\r\n",
    b"From: a@b.c\r\nContent-Type: message/rfc822\r\n\r\nSubject: inner\r\n\r\nGAME zep1\r\n",
    b"From a@b.c Mon Jan  1 00:00:00 2026\r\nFrom: a@b.c\r\n\r\nbody",  # an mbox line
    b"From: a@b.c\r\n\r\n", b"From: a@b.c", b"\r\n\r\nbody only", b"",
]


def _whole(raw: bytes) -> list[object]:
    msg = message._parsed(raw)
    return [msg.get_unixfrom(), [(p.items(), p.get_content_type(),
                                  None if p.is_multipart() else p.get_payload(),
                                  [type(d) for d in p.defects]) for p in msg.walk()]]


@pytest.mark.parametrize("raw", [*EDGES, *(p.read_bytes() for p in sorted(CORPUS.glob("*.eml")))])
def test_a_mail_of_one_part_is_read_as_the_parser_reads_it(raw: bytes,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """The shortcut for a mail of one part gives what the mail parser gives."""
    shortcut, mail = _whole(raw), read_message(raw)
    monkeypatch.setattr(message, "_parsed", message.email.message_from_bytes)
    assert _whole(raw) == shortcut
    assert read_message(raw) == mail
