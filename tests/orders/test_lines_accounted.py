"""Every line of an order mail is accounted for (issue 42): prose around a
valid mail leaves its orders as they were, and a line that is an order of the
game is never left out as a greeting or signature."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hypo import examples
from pbmref.orders.errors import OrderMailError

from .humankit import MAILS, check

# Valid plain mails of the table, one ruleset or another (raw mails have headers).
VALID = [c for c in MAILS
         if "ok" in c and "raw" not in c and "todo" not in c and c["ok"]["entry"]]
ABOVE = ["Hi referee,", "Hallo,", "Bonjour !", "Good morning,\nhere are my orders:",
         "\u00a1Hola!", "Hoi scheidsrechter,", "Dear GM,", "Hi, I hope this is right:",
         "Hi referee, I am away this weekend so here are\nmy orders a bit early."]
BELOW = ["Thanks!\nManfred", "Viele Gr\u00fc\u00dfe\nAnna", "Cheers,", "-- \nBert van Dam",
         "Sent from my iPhone", "Get Outlook for Android", "Groetjes,\nJan",
         "On Sat, 5 Dec 2026 at 18:00, Referee <referee@example.org> wrote:\n> PLANE\n> 1: I f-Z",
         "-----Original Message-----\nFrom: referee@example.org\nA Par - Bur",
         "Bises\nAnnick\nEnvoy\u00e9 de mon iPhone", "END\nanything at all", "Fire at will!",
         "Bert van Dam | Senior Analyst\nAcme B.V. | +31 20 123 4567"]
SETTINGS = settings(max_examples=examples(200), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _entry(case: dict[str, Any], text: str) -> Any:
    return check(case, text).entry


@SETTINGS
@given(case=st.sampled_from(VALID), above=st.sampled_from(["", *ABOVE]),
       below=st.sampled_from(["", *BELOW]))
def test_prose_around_a_valid_mail_leaves_its_orders(case: dict[str, Any], above: str,
                                                    below: str) -> None:
    text = case["text"].rstrip("\n")
    wrapped = "\n".join(x for x in (above, text, below) if x) + "\n"
    assert _entry(case, wrapped) == case["ok"]["entry"], wrapped


# Lines of each game's orders as people write them (right or wrong for the
# position: orders of the game all the same), and lines that are no orders of
# any game: the one reader (issue 42, item 3) tells them apart alike in all.
ORDERS = {
    "dd1": ("fleur", ["A Par - Bur", "1. A Par - Bur", "2) A Gas - Spa", "Hold A Par",
                      "A Par holds", "A Gas H", "F Bre -> Mao", "F Bre -- Mao", "D Bur - Mun",
                      "F Bre \u2192 Mao", "A Par - Gas", "A Gas - Mun", "F Bre - Spa nc",
                      "(4) D Bur S A Par - Bur", "A Lvp-Nth-Nwy", "F Bre-Mao-Spa",
                      "A Par - Bru", "Build A Par"]),
    "zep1": ("baron", ["PLANE", "1: LS f-A", "2: A", "3 R", "RR", "LS f-A", "A d-B", "Z1: L",
                       "ZEPPELIN", "FIRE L+R", "Fire A", "TAKEOFF BETA", "LAND ALPHA",
                       "Zeplin", "1: Q", "2: A f-Z", "fA", "I"]),
    "class1": ("anna", ["PLANE", "1: STL", "2: A f-A", "3: RS", "LS A RS", "ENTER E5 S",
                        "DUEL bert", "BURN CARD", "Fire A", "1: LT", "2: f-R", "TAKEOFF",
                        "Duell bert", "f-0", "AF"]),
}
PROSE = ["Hi all,", "Cheers,", "Fleur", "Thanks!", "See you", "A bient\u00f4t",
         "Have a nice day", "Best regards", "Hi, I hope this is right:", "Fire at will!",
         "All the best", "Bert van Dam | Senior Analyst", "Acme B.V. | +31 20 123 4567",
         "I am away this weekend so here are", "my orders a bit early.", "Al", "Lara"]


def _alone(case: dict[str, Any], line: str) -> bool:
    """Whether ``line`` alone is read as orders of the case's game (right or wrong
    for the position: an order of the game all the same)."""
    try:
        checked = check(case, line + "\n")
    except OrderMailError as exc:
        return any(not e.prose for e in exc.errors)
    return not checked.ignored


@SETTINGS
@given(game=st.sampled_from(sorted(ORDERS)), data=st.data())
def test_an_order_line_is_never_left_out(game: str, data: st.DataObject) -> None:
    player, orders = ORDERS[game]
    lines = data.draw(st.lists(st.sampled_from(orders + PROSE), min_size=1, max_size=8))
    case = {"game": game, "player": player, "text": "\n".join(lines) + "\n"}
    try:
        left_out = check(case).ignored
    except OrderMailError as exc:
        left_out = getattr(exc, "ignored", ())
    for _, text in left_out:
        assert text in PROSE and not _alone(case, text), text


@pytest.mark.parametrize("game", sorted(ORDERS))
def test_every_order_form_is_an_order_and_no_prose_is(game: str) -> None:
    player, orders = ORDERS[game]
    case = {"game": game, "player": player, "text": ""}
    assert [line for line in orders if not _alone(case, line)] == []
    assert [line for line in PROSE if _alone(case, line)] == []
