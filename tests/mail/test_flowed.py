"""format=flowed (RFC 3676): what the referee mails re-wraps on a phone, and a
reader that knows the format gets the text back (issue 43, item 8)."""

from __future__ import annotations

import pytest

from pbmref.base.flowed import flowed
from pbmref.mail.compose import make_mail
from pbmref.reports.document import Document, Fixed, Para, Section


def unflow(text: str) -> list[str]:
    """What a reader of format=flowed, DelSp=no, makes of the text: stuffing
    taken off, soft-broken lines joined."""
    out: list[str] = []
    joining = False
    for line in text.split("\n"):
        line = line[1:] if line.startswith(" ") else line
        if joining:
            out[-1] += line
        else:
            out.append(line)
        joining = line.endswith(" ") and line != "-- "
    return out


CASES = [
    # (plain text, what a flowed reader shows: the same lines)
    ("GAME zep1\nPASSWORD x\n", ["GAME zep1", "PASSWORD x", ""]),
    ("   A  B  C\n >quoted\nFrom the referee\n", ["   A  B  C", " >quoted", "From the referee", ""]),
    ("trailing spaces   \nkept hard\n", ["trailing spaces", "kept hard", ""]),
]


@pytest.mark.parametrize(("text", "shown"), CASES)
def test_plain_text_reads_back_line_for_line(text: str, shown: list[str]) -> None:
    out = flowed(text)
    assert unflow(out) == shown
    # no line a reader would take for a quote or a From line
    assert not any(line.startswith((">", "From ")) for line in out.split("\n"))


def test_a_reports_paragraphs_flow_and_its_maps_stay_hard() -> None:
    words = "Kiekendief fires at Lone Wolf from E8 and hits for three points. " * 3
    doc = Document([Section("FOR ANNA", [Para(words.strip(), 2, 4),
                                         Fixed(["  A B C", " 1 . * ."])])])
    text, mailed = doc.text(), doc.flowed()
    assert [line.rstrip() for line in mailed.split("\n")] != text.split("\n")  # soft breaks
    shown = unflow(mailed)
    assert "  " + words.strip() in shown  # one paragraph, one line: the phone wraps it
    assert shown[-3:-1] == ["  A B C", " 1 . * ."]  # the fixed block as it was
    assert all(len(line) <= 76 for line in mailed.split("\n"))


def test_the_mail_says_format_flowed_delsp_no() -> None:
    msg = make_mail("p@example.org", "s", "one\ntwo\n", from_addr="r@game.test")
    assert msg.get_content_type() == "text/plain"
    assert msg.get_param("format") == "flowed" and msg.get_param("delsp") == "no"


# Mails that come in flowed (issue 42, item 5): (Content-Type parameters, body
# as sent, the text the referee reads).
INCOMING = [
    ("format=flowed", "Hello referee, here are my \norders.\nA Par - Bur\n",
     "Hello referee, here are my orders.\nA Par - Bur\n"),
    ("format=flowed; delsp=yes", "please confirm re \nceived.\nF Lon - Nth\n",
     "please confirm received.\nF Lon - Nth\n"),
    ("format=Flowed; DelSp=Yes", "ab \ncd\n", "abcd\n"),
    ("format=flowed", " 1: LS\n From here\n", "1: LS\nFrom here\n"),  # stuffing
    ("format=flowed", "-- \nAnna\n", "-- \nAnna\n"),  # a signature's line stays
    ("format=flowed", "> quoted and \n> soft\nmine \n> not joined\n",
     "> quoted and soft\nmine \n> not joined\n"),  # quote depth must match
    ("charset=utf-8", "not flowed \nat all\n", "not flowed \nat all\n"),
]


@pytest.mark.parametrize(("params", "body", "text"), INCOMING)
def test_a_flowed_mail_is_read_as_its_writer_saw_it(params: str, body: str, text: str) -> None:
    from pbmref.mail.message import read_message

    raw = (f"From: a@example.org\r\nTo: r@example.org\r\nSubject: x\r\n"
           f"Content-Type: text/plain; {params}\r\n\r\n{body.replace(chr(10), chr(13) + chr(10))}")
    assert read_message(raw.encode()).text == text
