"""Fuzzing: any text gives orders or one of our errors, never another exception."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hypo import examples
from pbmref.orders.check import check_order_mail
from pbmref.orders.envelope import OrderMail, read_order_mail
from pbmref.orders.errors import OrderMailError
from pbmref.orders.render import render_errors
from pbmref.rulesets.tweedekker.orders import entry_of, entry_to_orders, parse_body

from .conftest import position, reader

STATE = position("zep1")
PLAYERS = [*STATE.pilots(), "nobody"]

# Words of the order language and its near misses, so fuzzing reaches deep.
VOCAB = [
    "PLANE", "ZEPPELIN", "Z1:", "PLANE 1:", "1:", "2:", "3:", "4:", "0:", "Move 2:", "A", "L",
    "R", "LS", "RS", "LT", "RT", "0", "N", "O", "I", "f-A", "f-L", "f-R", "f-B", "f-0", "d-B",
    "FIRE", "fire A", "L+R", "+", "-", "TAKEOFF", "LAND", "BETA", "alpha", "Left", "NE", "N",
    "GAME", "zep1", "PASSWORD", "TURN", "7", "PHASE", "PILOT", "baron", "HELP", "HISTORY",
    "CLEAR", "END", "SIGNOFF", "-- ", ">", "#", "fA", "F-FRONT", "RR", "1)", "J10", ",", ";",
    "\u00a0", "\u2013", "\r\n", "\n", "\r", ".", ":", "::", "[zep1]", "Re:", "\t", "\ufeff",
]

word = st.one_of(st.sampled_from(VOCAB), st.text(max_size=6))
line = st.lists(word, max_size=8).map(" ".join)
text = st.one_of(st.text(max_size=200), st.lists(line, max_size=12).map("\n".join))
FAST = settings(max_examples=examples(300), deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(subject=st.one_of(st.text(max_size=40), line), body=text)
def test_envelope_gives_a_mail_or_our_error(subject: str, body: str) -> None:
    try:
        mail = read_order_mail(subject, body)
    except OrderMailError as exc:
        assert exc.errors and render_errors(exc)
        return
    assert isinstance(mail, OrderMail)
    lines = body.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for no, content in mail.body:
        assert 1 <= no <= len(lines)
        assert lines[no - 1].startswith(content.rstrip()[:1])


@FAST
@given(player=st.sampled_from(PLAYERS), lines=st.lists(line, max_size=10))
def test_body_gives_orders_or_our_error(player: str, lines: list[str]) -> None:
    numbered = list(enumerate(lines, 1))
    try:
        entry = parse_body(STATE, player, numbered)
    except OrderMailError as exc:
        for e in exc.errors:
            assert e.message and isinstance(e.rule, str)
            if e.column is not None and e.line is not None:
                assert 1 <= e.column <= len(e.line) + 1
        assert render_errors(exc)
        return
    # What was accepted reads back the same from its canonical form.
    orders, votes = entry_to_orders(STATE, player, entry)
    assert entry_of(orders, votes, "zeppelin" in entry) == entry


entry_value = st.one_of(st.none(), st.integers(), line, st.lists(
    st.one_of(st.none(), st.integers(-1, 5), line), max_size=5))


@FAST
@given(player=st.sampled_from(PLAYERS),
       entry=st.one_of(st.none(), line, st.dictionaries(
           st.sampled_from(["plane", "zeppelin", "takeoff", "land", "other"]), entry_value,
           max_size=4)))
def test_entries_give_orders_or_our_error(player: str, entry: Any) -> None:
    try:
        orders, votes = entry_to_orders(STATE, player, entry)
    except OrderMailError as exc:
        assert exc.errors
        return
    assert len(votes) == 3


@FAST
@given(subject=st.one_of(st.text(max_size=30), line), body=text,
       player=st.sampled_from([None, "baron", "lander", "gone"]))
def test_whole_mail_gives_orders_or_our_error(subject: str, body: str,
                                              player: str | None) -> None:
    try:
        checked = check_order_mail(subject, body, read_body=reader("zep1"), player=player,
                                   open_turn=7, game_id="zep1")
    except OrderMailError as exc:
        assert render_errors(exc).startswith("Your ")
        return
    assert checked.entry is None or isinstance(checked.entry, dict)
