"""One mail costs the referee a bounded few times a normal one, whoever sends it
(issue 40, item 5): a 1 MB line of orders once cost 48 s of CPU, misspelt lines
20 s, a stranger's mail 10 s, and mails are answered one at a time.

Each hostile mail here passes one bound of what the referee reads (a line too
long, too many lines or words of orders, a mail that goes on too far, a
Subject too long, too many lines or parts or HTML tags in all):
its registered sender gets one reply that names the limit, nothing changes
(the orders in force stay), and a stranger gets the note for strangers. The
whole corpus, each mail as big as ``limits.max_message_bytes`` lets it be, is
answered by a process allowed a minute of CPU (it took hours before).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from hardkit import PASSWORDS, PLAYERS, REFEREE, Table, body_of, make_table, parse

from pbmref.mail.message import MAX_LINES, MAX_PARTS, MAX_TAGS
from pbmref.orders.envelope import MAX_LINE, MAX_READ, MAX_SUBJECT, MAX_WORDS
from pbmref.orders.envelope import MAX_LINES as MAX_LOOKED_AT

STRANGER = "walk-in@elsewhere.example"
ORDERS = ["PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: L"]


def _head(sender: str, subject: str = "orders", extra: str = "") -> str:
    return (f"From: {sender}\r\nTo: {REFEREE}\r\nSubject: {subject}\r\n"
            f"Message-ID: <{abs(hash((sender, subject, extra))) % 10**12}@x>\r\n{extra}")


def _plain(sender: str, body: str, *, subject: str = "orders", extra: str = "") -> bytes:
    return (_head(sender, subject, extra) + "Content-Type: text/plain; charset=utf-8\r\n\r\n"
            + body.replace("\n", "\r\n")).encode()


def _envelope(sender: str) -> str:
    """GAME and, from a player, the player's password."""
    player = next((p for p, a in PLAYERS.items() if a == sender), None)
    return "GAME zep1\n" + (f"PASSWORD {PASSWORDS[player]}\n" if player else "")


LONG = "1: " + "LS " * 300_000  # 1 MB of orders on one line


def _raw(kind: str, sender: str) -> bytes:
    """The hostile mail of ``kind`` from ``sender``."""
    env = _envelope(sender)
    if kind == "long-line":
        return _plain(sender, env + "PLANE\n" + LONG + "\n")
    if kind == "many-lines":
        return _plain(sender, env + "PLANE\n" + "1: A\n" * (MAX_READ + 10))
    if kind == "many-words":
        return _plain(sender, env + ("1: " + "LS " * 90 + "\n") * (MAX_WORDS // 80))
    if kind == "goes-on":
        return _plain(sender, env + "PLANE\n" + "> quoted\n" * MAX_LOOKED_AT + "1: A\n")
    if kind == "subject":
        return _plain(sender, env + "\n".join(ORDERS) + "\n", subject="zep1-" * MAX_SUBJECT)
    if kind == "mail-lines":
        return _plain(sender, env + "\n".join(ORDERS) + "\n" + "\n" * MAX_LINES)
    if kind == "parts":
        parts = "".join("--b\r\nContent-Type: text/plain\r\n\r\nx\r\n" for _ in range(MAX_PARTS))
        return (_head(sender, extra='Content-Type: multipart/mixed; boundary="b"\r\n\r\n')
                + f"--b\r\nContent-Type: text/plain\r\n\r\n{env}\r\n" + parts
                + "--b--\r\n").encode()
    if kind == "html":
        markup = "<p>" * MAX_TAGS + env.replace("\n", "<br>") + "</p>" * MAX_TAGS
        return (_head(sender, extra="Content-Type: text/html\r\n\r\n") + markup).encode()
    # within the bounds, and each once cost the referee minutes
    if kind == "misspelt":
        return _plain(sender, env + "TAKEOF BETAA\nPLAEN\n1: LSS f-AA\n" * 6_000)
    if kind == "passwords":
        return _plain(sender, "GAME zep1\n" + "".join(f"PASSWORD wrong-{i}\n"
                                                       for i in range(MAX_LINES - 100)))
    raise AssertionError(kind)


# kind: words of the one reply to a registered sender
NAMED = {
    "long-line": f"{len(LONG):,} characters long.*at most {MAX_LINE:,} characters",
    "many-lines": f"more than {MAX_READ} lines",
    "many-words": f"more than {MAX_WORDS} words",
    "goes-on": f"goes on past line {MAX_LOOKED_AT:,}",
    "subject": f"Subject has more than {MAX_SUBJECT:,} characters.*at most {MAX_SUBJECT:,}",
    "mail-lines": f"at most {MAX_LINES:,} lines",
    "parts": f"more than {MAX_PARTS} parts",
    "html": f"more than {MAX_TAGS:,} tags",
}


@pytest.fixture
def table(tmp_path: Path) -> Table:
    table = make_table(tmp_path)
    first = table.send(table.order_mail("anna", *ORDERS))
    assert len(first) == 1 and "accepted" in body_of(first[0]), body_of(first[0])
    return table


@pytest.mark.parametrize("kind", sorted(NAMED))
def test_a_players_mail_past_a_bound_gets_one_reply_naming_it(table: Table, kind: str) -> None:
    before = table.game().book.entry_of("anna")
    replies = [parse(r) for r in table.send_raw(_raw(kind, PLAYERS["anna"]))]
    assert len(replies) == 1 and replies[0]["To"] == PLAYERS["anna"]
    text = " ".join(body_of(replies[0]).split())
    assert re.search(NAMED[kind], text), text[:2000]
    assert "not" in text.lower() and "Traceback" not in text and len(text) < 20_000
    assert PASSWORDS["anna"] not in text
    assert table.game().book.entry_of("anna") == before
    assert table.referee.incoming.shunted() == []


@pytest.mark.parametrize("kind", sorted(NAMED))
def test_a_strangers_mail_past_a_bound_gets_the_note_for_strangers(table: Table,
                                                                  kind: str) -> None:
    replies = [parse(r) for r in table.send_raw(_raw(kind, STRANGER))]
    assert len(replies) == 1 and replies[0]["To"] == STRANGER
    assert "not registered" in " ".join(body_of(replies[0]).split())
    assert table.referee.incoming.shunted() == []


_CHILD = """
import resource, sys, tempfile
from pathlib import Path
sys.path[:0] = [{here!r}, {tests!r}]  # hardkit, and the harness it stands on
from hardkit import PLAYERS, make_table
from test_hostile_mails import NAMED, STRANGER, _raw
table = make_table(Path(tempfile.mkdtemp()))
mails = [_raw(kind, who) for kind in [*NAMED, "misspelt", "passwords"]
         for who in (PLAYERS["anna"], STRANGER)]
resource.setrlimit(resource.RLIMIT_CPU, (60, 60))
for raw in mails:
    assert len(raw) <= 1_000_000, len(raw)
    for path in table.referee.state.files():
        path.unlink(missing_ok=True)
    assert table.send_raw(raw)
print("answered", len(mails))
"""


def test_the_hostile_corpus_is_answered_within_a_minute_of_cpu() -> None:
    """A bound of resources, not a stopwatch: before, one of these mails took
    minutes of CPU (a megabyte of commands, of misspelt lines, of passwords)."""
    here = str(Path(__file__).resolve().parent)
    done = subprocess.run([sys.executable, "-c", _CHILD.format(here=here, tests=str(Path(here).parent))],
                          capture_output=True, text=True, check=False, cwd=here)
    assert done.returncode == 0 and f"answered {2 * len(NAMED) + 4}" in done.stdout, \
        done.stderr[-3000:]
