"""A registered player's mail without a password is a question, not an attack,
unless it tries to change something (issue 42, item 9).

Each mail of the table comes from anna's registered address with no PASSWORD
line. A question ("staus", "hepl", "how do I play?", "thanks!", a reply to a
press mail, a forward of her own orders, orders in the Subject) gets an
answer that helps (HELP, STATUS, how to give the password, how to answer
press); the warning about a wrong or missing password is for mails that carry
orders or commands. Every mail gets a reply.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hardkit import body_of, make_table

WARNING = "wrong or missing PASSWORD"

# (name, Subject, body, phrases the reply holds, whether it is the warning)
MAILS = [
    ("staus", "zep1", "GAME zep1\nstaus\n", ["Turn 1 is open"], False),
    ("hepl", "zep1", "GAME zep1\nhepl\n", ["PASSWORD"], False),
    ("how do I play", "[zep1] how do I play?",
     "Hi, how do I play? I lost my mail with the rules.\nAnna\n", ["PASSWORD", "HELP"], False),
    ("thanks", "Re: [zep1] orders accepted", "thanks!\n", ["PASSWORD"], False),
    ("a reply to a press mail", "Re: [zep1] Press from Bert to Anna",
     "Sounds good, let's do it!\n\nOn Mon, 2 Mar 2026, Referee wrote:\n> Shall we?\n",
     ["PRESS TO", "Turn 1 is open"], False),
    ("orders in the subject", "[zep1] PLANE 1: A 2: A 3: L", "", ["PASSWORD"], False),
    ("a forward of her own orders", "Fwd: [zep1] orders",
     "See below, did this arrive?\n\n---------- Forwarded message ---------\n"
     "From: anna@example.org\nGAME zep1\nPASSWORD anna-pass-1\nPLANE\n1: A\n",
     ["PASSWORD"], False),
    ("orders without a password", "zep1", "GAME zep1\nPLANE\n1: A\n2: A\n3: L\n", [WARNING], True),
    ("CLEAR without a password", "zep1", "GAME zep1\nCLEAR\n", [WARNING], True),
]


@pytest.mark.parametrize(("name", "subject", "body", "phrases", "warned"), MAILS,
                         ids=[m[0] for m in MAILS])
def test_a_players_mail_without_a_password_gets_a_useful_answer(
        tmp_path: Path, name: str, subject: str, body: str, phrases: list[str],
        warned: bool) -> None:
    table = make_table(tmp_path)
    out = table.send(body, subject=subject)
    assert len(out) == 1, name
    reply = body_of(out[0])
    for phrase in phrases:
        assert phrase in reply, (phrase, reply)
    assert (WARNING in reply) is warned, reply
    assert "anna-pass-1" not in reply


PRESS_REPLY = ("Re: [zep1] Press from Bert to Anna",
               "Sounds good, let's do it!\n\nOn Mon, 2 Mar 2026, Referee wrote:\n> Shall we?\n")


def test_the_ration_of_questions_is_the_players_own(tmp_path: Path) -> None:
    """What strangers and other players send spends nothing of anna's: her
    question is answered after a stranger's flood and bert's warnings."""
    table = make_table(tmp_path)
    for n in range(40):
        table.send(f"GAME zep1\nPASSWORD guess-{n}\nPLANE\n1: A\n",
                   sender="mallory@example.net", subject="zep1")
    for _ in range(3):
        table.send("GAME zep1\nPLANE\n1: A\n", sender="bert@example.org", subject="zep1")
    out = table.send("GAME zep1\nstaus\n", subject="zep1")
    assert len(out) == 1 and "Turn 1 is open" in body_of(out[0])
    out = table.send("thanks!\n", subject="Re: [zep1] orders accepted")
    assert len(out) == 1 and "PASSWORD" in body_of(out[0])


def test_no_reply_to_a_press_mail_is_dropped_without_a_word(tmp_path: Path) -> None:
    """Each reply to a press mail is answered with how to answer press, also
    after another mail without a password within the hour (each of these was
    rationed to one answer an hour with the password warning)."""
    table = make_table(tmp_path)
    table.send("GAME zep1\nPLANE\n1: A\n", subject="zep1")  # the password warning
    subject, body = PRESS_REPLY
    for n in range(3):
        out = table.send(body, subject=subject)
        assert len(out) == 1, n
        assert "PRESS TO" in body_of(out[0])
    out = table.send("Deal, and I fly\n1: A\nthen?\n", subject=subject)  # orders in it
    assert len(out) == 1 and "PRESS TO" in body_of(out[0])
