"""Every line of an order mail is accounted for (issue 42): prose around a
valid mail leaves its orders as they were, and a line that is an order of the
game is never left out as a greeting or signature."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hypo import examples
from pbmref.orders.errors import OrderMailError

from .humankit import MAILS, POSITIONS, check
from .test_human_mails import _ruleset

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


# Lines of Diplomacy mails as people write orders, and lines that are not orders.
DIP_ORDERS = ["A Par - Bur", "1. A Par - Bur", "2) A Gas - Spa", "Hold A Par", "A Par holds",
              "A Gas H", "F Bre -> Mao", "F Bre -- Mao", "D Bur - Mun", "F Bre \u2192 Mao",
              "A Par - Gas", "A Gas - Mun", "F Bre - Spa nc", "(4) D Bur S A Par - Bur",
              "A Lvp-Nth-Nwy", "F Bre-Mao-Spa", "A Par - Bru", "Build A Par"]
PROSE = ["Hi all,", "Cheers,", "Fleur", "Thanks!", "See you", "A bient\u00f4t",
         "Have a nice day", "Best regards"]


def _alone(case: dict[str, Any], line: str) -> bool:
    """Whether ``line`` alone is read as orders of the case's game (right or wrong
    for the position: an order of the game all the same)."""
    try:
        checked = check(case, line + "\n")
    except OrderMailError as exc:
        return any(not e.prose for e in exc.errors)
    return not checked.ignored


@SETTINGS
@given(lines=st.lists(st.sampled_from(DIP_ORDERS + PROSE), min_size=1, max_size=8))
def test_an_order_line_is_never_left_out(lines: list[str]) -> None:
    case = {"game": "dd1", "player": "fleur", "text": "\n".join(lines) + "\n"}
    assert POSITIONS["dd1"]["ruleset"] == "dirigible" and _ruleset(case) == "dirigible"
    try:
        left_out = check(case).ignored
    except OrderMailError as exc:
        left_out = getattr(exc, "ignored", ())
    for _, text in left_out:
        assert text in PROSE and not _alone(case, text), text


def test_every_order_form_is_an_order_and_no_prose_is() -> None:
    case = {"game": "dd1", "player": "fleur", "text": ""}
    assert all(_alone(case, line) for line in DIP_ORDERS)
    assert not any(_alone(case, line) for line in PROSE)
