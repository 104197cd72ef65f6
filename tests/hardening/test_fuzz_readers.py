"""Short fuzzing runs (hypothesis) of every grammar and of the message reader;
``bench/fuzz.py`` runs the same targets for longer (tests/hardening/fuzzkit.py)."""

from __future__ import annotations

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

SHORT = settings(max_examples=150, deadline=None, derandomize=True,
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
