"""Fuzz targets and strategies shared by tests/hardening/test_fuzz_readers.py (short
runs in the suite) and bench/fuzz.py (long runs, examples per second).

Each target raises AssertionError (or any unexpected exception) on a finding and
returns normally otherwise. What they promise:

- the envelope reader and every ruleset's body parser give orders or one of our
  ``OrderMailError``s, never another exception; accepted orders pass the
  ruleset's own check and come back unchanged from the YAML the store writes;
- ``read_message`` never raises on any bytes, gives one-line header fields,
  and a reply built from what it read has clean headers.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

from pbmref.base.yamlfile import dump_yaml, load_text
from pbmref.mail.compose import make_reply
from pbmref.mail.message import IncomingMail, read_message
from pbmref.orders.envelope import OrderMail, read_order_mail
from pbmref.orders.errors import OrderMailError
from pbmref.orders.render import render_errors
from pbmref.rulesets import get_ruleset

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "tests" / "mail_corpus"

VOCAB = [
    # envelope and commands
    "GAME", "zep1", "PASSWORD", "TURN", "7", "PHASE", "S1901M", "PILOT", "HELP", "ORDERS",
    "STATUS", "MAP", "HISTORY", "CLEAR", "END", "SIGNOFF", "-- ", ">", "#", "[zep1]", "Re:",
    # tweedekker and fast play
    "PLANE", "ZEPPELIN", "Z1:", "PLANE 1:", "1:", "2:", "3:", "4:", "A", "L", "R", "LS", "RS",
    "LT", "RT", "0", "N", "O", "I", "AF", "ST", "STL", "STR", "f-A", "f-L", "f-R", "f-B",
    "f-0", "d-B", "FIRE", "L+R", "TAKEOFF", "LAND", "BETA", "ENTER", "A5", "DUEL", "bert",
    # diplomacy
    "A", "F", "D", "Par", "Bur", "Mar", "-", "S", "C", "via convoy", "Build", "Disband",
    "Waive", "devastate", "StP/sc", "Lon", "Nth", "Eng", "Bel", "Mun", "Ber", "hold", "H",
    # noise
    "\u00a0", "\u2013", "\r\n", "\n", "\r", ".", ":", ",", ";", "\t", "\ufeff", "&a", "*a",
    "!!python/object", "{a: b}", "[", "]", "'", '"', "%", "@",
]

word = st.one_of(st.sampled_from(VOCAB), st.text(max_size=8))
line = st.lists(word, max_size=8).map(" ".join)
body_lines = st.lists(line, max_size=12)
mail_text = st.one_of(st.text(max_size=300), body_lines.map("\n".join))


@cache
def positions() -> dict[str, tuple[dict[str, Any], list[str]]]:
    """ruleset -> (a position of it, its players (and one stranger))."""
    tweed = yaml.safe_load((REPO / "docs/example-game/turns/002/position.yaml").read_text())
    fast = yaml.safe_load((REPO / "tests/scenarios/fastplay/fp01_board_names.yaml").read_text())
    fast = {k: v for k, v in fast.items()
            if k not in ("orders", "expect", "title", "description", "seed")}
    return {
        "tweedekker": (tweed, [*tweed["aircraft"], "nobody"]),
        "fastplay": (fast, [*fast["aircraft"], "nobody"]),
        "diplomacy": ({"ruleset": "diplomacy", "phase": "S1901M"},
                      ["FRA", "GER", "ENG", "RUS", "nobody"]),
        "dirigible": ({"ruleset": "dirigible", "phase": "S1901M"}, ["FRA", "GER", "TUR"]),
    }


RULESETS = ("tweedekker", "fastplay", "diplomacy", "dirigible")


def envelope_target(subject: str, body: str) -> str:
    try:
        mail = read_order_mail(subject, body)
    except OrderMailError as exc:
        assert exc.errors and render_errors(exc)
        assert len(render_errors(exc)) < 20_000 + 2 * len(body)
        return "error"
    assert isinstance(mail, OrderMail)
    return "mail"


def body_target(ruleset: str, player: str, lines: list[str]) -> str:
    rules = get_ruleset(ruleset)
    position = positions()[ruleset][0]
    numbered = list(enumerate(lines, 1))
    try:
        entry = rules.encode_orders(rules.read_orders(rules.decode(position), player, numbered))
    except OrderMailError as exc:
        for e in exc.errors:
            assert e.message
        assert render_errors(exc)
        return "error"
    # what the referee stores passes the ruleset's check and reads back the same
    rules.decode_orders(rules.decode(position), player, entry)
    stored = dump_yaml({"entry": entry})
    assert load_text(stored, "orders.yaml") == {"entry": entry}, stored
    return "orders"


def _one_line(value: str) -> None:
    assert "\n" not in value and "\r" not in value, repr(value)


def message_target(raw: bytes) -> str:
    mail = read_message(raw, max_bytes=200_000)
    assert isinstance(mail, IncomingMail)
    for value in (mail.message_id, mail.from_addr, mail.from_name, mail.reply_to, mail.subject,
                  mail.in_reply_to, *mail.to, *mail.references):
        _one_line(value)
    assert " " not in mail.from_addr
    reply = make_reply(mail, "player@example.org", "ok", from_addr="referee@example.org")
    data = reply.as_bytes()
    head = data.split(b"\n\n", 1)[0]
    names = [ln.split(b":", 1)[0].lower() for ln in head.split(b"\n")
             if ln and ln[:1] not in (b" ", b"\t")]
    assert b"bcc" not in names and names.count(b"to") == 1, head[:500]
    return "mail" if mail.text else "empty"


@cache
def corpus_mails() -> list[bytes]:
    return [p.read_bytes() for p in sorted(CORPUS.glob("*.eml")) if p.stat().st_size < 300_000]


def mutate(raw: bytes, seed: int, n: int) -> bytes:
    """`n` random byte edits of `raw` (flip, insert, delete, duplicate a slice)."""
    rng = random.Random(seed)
    data = bytearray(raw)
    for _ in range(n):
        if not data:
            data += bytes([rng.randrange(256)])
            continue
        at = rng.randrange(len(data))
        kind = rng.randrange(5)
        if kind == 0:
            data[at] = rng.randrange(256)
        elif kind == 1:
            data[at:at] = rng.choice([b"\r\n", b"\n\n", b":", b"=?utf-8?b?", b"?=", b"--",
                                      b"boundary=", b"\x00", b"<", b">", b"Content-Type: "])
        elif kind == 2:
            del data[at:at + rng.randrange(1, 40)]
        elif kind == 3:
            end = min(len(data), at + rng.randrange(1, 200))
            data[at:at] = data[at:end]
        else:
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 10)))
    return bytes(data)


raw_bytes = st.one_of(
    st.binary(max_size=2000),
    st.lists(st.one_of(st.sampled_from([
        b"From: ", b"To: ", b"Subject: ", b"Message-ID: ", b"Content-Type: ",
        b"multipart/mixed; boundary=x", b"text/plain; charset=", b"utf-16", b"x-unknown",
        b"Content-Transfer-Encoding: ", b"base64", b"quoted-printable", b"\r\n", b"\n",
        b"--x", b"--x--", b"=?utf-8?q?", b"?=", b"=0D=0A", b"anna@example.org", b"<a@b>",
        b"\x00", b"\xff\xfe", b"GAME zep1", b"\t", b" ", b":",
        # text that looks like an encoded word, also inside a Message-ID or double-encoded
        b"<x=?utf-8?q?=0D=0ABcc:_v@evil.example?=@b>",
        b"=?utf-8?b?PT91dGYtOD9xPz0wRD0wQUJjYzpfdkBldmlsLmV4YW1wbGU/PQ==?="]),
        st.binary(max_size=20)),
        max_size=60).map(b"".join),
)
