"""Short fuzzing runs (hypothesis) of every grammar and of the message reader;
``bench/fuzz.py`` runs the same targets for longer (tests/hardening/fuzzkit.py)."""

from __future__ import annotations

import base64

from fuzzkit import (
    RULESETS,
    body_lines,
    body_target,
    corpus_mails,
    envelope_target,
    line,
    mail_text,
    message_target,
    mutate,
    positions,
    raw_bytes,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hypo import examples

SHORT = settings(max_examples=examples(150), deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@SHORT
@given(subject=st.one_of(st.text(max_size=40), line), body=mail_text)
def test_envelope_never_escapes(subject: str, body: str) -> None:
    assert envelope_target(subject, body) in ("mail", "error")


@SHORT
@given(data=st.data(), ruleset=st.sampled_from(RULESETS), lines=body_lines)
def test_every_body_grammar_gives_orders_or_our_error(data: st.DataObject, ruleset: str,
                                                      lines: list[str]) -> None:
    player = data.draw(st.sampled_from(positions()[ruleset][1]))
    assert body_target(ruleset, player, lines) in ("orders", "error")


@SHORT
@given(raw=raw_bytes)
def test_message_reader_on_any_bytes(raw: bytes) -> None:
    assert message_target(raw) in ("mail", "empty")


@SHORT
@given(which=st.integers(0, 10_000), seed=st.integers(0, 2**32), edits=st.integers(1, 30))
def test_message_reader_on_mutated_real_mails(which: int, seed: int, edits: int) -> None:
    mails = corpus_mails()
    raw = mutate(mails[which % len(mails)], seed, edits)
    assert message_target(raw) in ("mail", "empty")


def test_known_good_bodies_are_accepted() -> None:
    """The targets are not vacuous: a valid body of every ruleset gives orders."""
    cases = {
        "tweedekker": ("baron", ["PLANE", "1: A", "2: L f-A", "3: A"]),
        "fastplay": ("anna", ["PLANE", "1: A", "2: A", "3: A"]),
        "diplomacy": ("FRA", ["A Par - Bur", "F Bre - Mao"]),
    }
    for ruleset, (player, lines) in cases.items():
        assert body_target(ruleset, player, lines) == "orders", ruleset
    assert envelope_target("orders", "GAME zep1\nPASSWORD x\nPLANE\n1: A\n") == "mail"


header_piece = st.sampled_from([
    "=?utf-8?q?", "=?utf-8?b?", "=?iso-8859-1?q?", "?=", "=0A", "=0D", "=0D=0A", "Bcc:", "To:",
    "_", " ", "victim@evil.example", "PT0/", "Cg==", "DQo=", "<", ">", "@", "x", "Re:",
    "=3D=3Futf-8=3Fq=3F", "=3F=3D", "\t"])


payload = st.lists(st.sampled_from(["=0A", "=0D", "Bcc:", "_", "victim@evil.example", "x",
                                     "=20", ":"]), max_size=8).map("".join)
encoded_word = st.builds("=?utf-8?q?{}?=".format, payload)
double_encoded = encoded_word.map(
    lambda w: "=?utf-8?b?" + base64.b64encode(w.encode()).decode() + "?=")
value = st.one_of(st.lists(header_piece, max_size=14).map("".join), encoded_word,
                  double_encoded,
                  st.tuples(st.text(max_size=5), encoded_word).map("".join))


@settings(max_examples=examples(300), deadline=None, derandomize=True)
@given(subject=value, mid=value)
def test_reply_headers_stay_clean_for_any_subject_and_message_id(subject: str,
                                                                  mid: str) -> None:
    """Header values built of encoded-word pieces (the class of the Bcc: injection
    bench/fuzz.py found) never give the referee's reply a header of its own."""
    raw = (f"From: anna@example.org\r\nSubject: {subject}\r\n"
           f"Message-ID: <{mid.replace(' ', '')}@example.org>\r\n\r\nhello\r\n").encode()
    assert message_target(raw) in ("mail", "empty")
