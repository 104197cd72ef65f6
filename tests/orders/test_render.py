"""The reply text for rejected mails, and the HELP text."""

from __future__ import annotations

import re

import pytest

from pbmref.orders.check import check_order_mail
from pbmref.orders.errors import IllegalOrderError, OrderErrors, OrderMailError
from pbmref.orders.render import render_error, render_errors

from .conftest import reader


def test_caret_sits_under_the_bad_word() -> None:
    err = IllegalOrderError("a move takes one fire vote", rule="Z14", line_no=9,
                            line="2: LS f-A d-B", column=11, width=3, hint="keep one")
    block = render_error(err).splitlines()
    assert block[0] == "Line 9:"
    text, caret = block[1], block[2]
    assert text.strip() == "2: LS f-A d-B"
    assert text[caret.index("^"):caret.index("^") + 3] == "d-B"
    assert "(rule Z14)" in block[3] and block[-1].startswith("    How to fix: Keep one")


@pytest.mark.parametrize(("line", "column", "width", "word"), [
    ("2: LS f-A d-B", 11, 3, "d-B"),
    ("1: LS Q f-A", 7, 1, "Q"),  # the word as written, however short
    ("3: LSX", 4, 1, "LSX"),  # a caret inside a word names the whole word
])
def test_the_problem_names_the_word_the_caret_points_at(line: str, column: int, width: int,
                                                        word: str) -> None:
    """Issue 43: in a phone's proportional font the caret lands elsewhere; the
    problem line names the word too, and the caret stays for a fixed font."""
    err = IllegalOrderError("not a manoeuvre", rule="M3", line_no=3, line=line,
                            column=column, width=width)
    block = render_error(err).splitlines()
    assert block[0] == "Line 3:" and "^" in block[2]
    assert block[3].startswith(f"    Problem with '{word}': ")


def test_reply_lists_every_error_in_mail_order() -> None:
    errors = OrderErrors([
        IllegalOrderError("second", rule="F1", line_no=7, line="x"),
        IllegalOrderError("first", rule="M3", line_no=3, line="y"),
    ])
    reply = render_errors(errors)
    assert reply.index("Line 3:") < reply.index("Line 7:")
    assert "2 problems" in reply and "earlier orders" in reply


def test_reply_never_shows_lark_internals() -> None:
    with pytest.raises(OrderMailError) as info:
        check_order_mail("", "GAME zep1\nPLANE\n1: A FIRE\n2: %%\nLAND\n",
                         read_body=reader("zep1"), player="baron")
    reply = render_errors(info.value)
    assert not re.search(r"Token|\$END|MANOEUVRE|FIRE_KW|Expected one of", reply)
    assert reply.count("Line ") == 3


def test_help_text_examples_are_accepted() -> None:
    """The zeppelin votes HELP shows are a good ZEPPELIN section (its example
    mail is the player's own: pbmref.referee.guide, tests/referee)."""
    from pbmref.rulesets.tweedekker.ruleset import HELP

    lines = HELP.splitlines()
    start = next(n for n, line in enumerate(lines) if line.strip() == "ZEPPELIN")
    votes = [line.strip() for line in lines[start:start + 4]]
    checked = check_order_mail("", "\n".join(votes), read_body=reader("zep1"),
                               player="baron", open_turn=7)
    assert checked.entry == {"zeppelin": ["L f-B", "A d-B", "f-0"]}


def test_a_new_mail_replaces_orders_section_by_section() -> None:
    from pbmref.rulesets.base import PlayerOrders
    from pbmref.rulesets.tweedekker.ruleset import TweedekkerRuleset

    rules = TweedekkerRuleset()

    def merge(old: dict[str, object], new: dict[str, object]) -> dict[str, object]:
        return rules.merged_entry(old, new)[0]

    old = {"plane": ["A", "L"], "takeoff": "BETA", "zeppelin": ["L", "", "f-0"]}
    assert merge(old, {"plane": ["R"]}) == {"plane": ["R"], "zeppelin": ["L", "", "f-0"]}
    assert merge(old, {"zeppelin": ["A", "", ""]}) == {
        "plane": ["A", "L"], "takeoff": "BETA", "zeppelin": ["A", "", ""]}
    new = PlayerOrders({"plane": []}, (None, ()))
    assert rules.merge_orders(None, new) is new  # CLEAR beside orders: old is None


def test_doctests() -> None:
    import doctest

    from pbmref.orders import check, envelope, lines

    for module in (check, envelope, lines):
        assert doctest.testmod(module).failed == 0
