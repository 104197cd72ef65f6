"""Press in a Diplomacy game, through the pipeline on the local Maildir (issue 18).

The rules of reading press (where a message ends, what is left out), what a
mail with press and orders does, when press goes (any phase, while paused;
after the end only to everyone), what the game's ``press`` setting allows,
and how mistakes are answered: all at once, the mail refused whole, no press
relayed. The same mail handled twice relays its press once.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from dipkit import REFEREE, DipTable, address, body_of, make_table

from pbmref import gm


@pytest.fixture
def dip(tmp_path: Path) -> DipTable:
    return make_table(tmp_path)


def press_of(out: list, player: str) -> list[str]:
    """The bodies of the press mails ``player`` got."""
    return [body_of(m) for m in out if m["To"] == address(player)
            and str(m["Subject"]).startswith("[dip1] ")]


def reply_of(out: list, player: str) -> str:
    replies = [body_of(m) for m in out if m["To"] == address(player)
               and str(m["Subject"]).startswith("Re:")]
    assert len(replies) == 1
    return replies[0]


def test_a_message_ends_where_the_mail_says_and_quotes_are_left_out(dip: DipTable) -> None:
    out = dip.send("fleur", "PRESS TO ENG", "Dear Edith,", "> your last letter said",
                   "> something", "", "I agree.", "Sent from my phone", "ENDPRESS",
                   "A Par - Bur", "PRESS TO GER, ITA", "Two of you.")
    edith, = press_of(out, "edith")
    assert edith.split("\n")[3:7] == ["Dear Edith,", "", "I agree.", ""]
    assert "your last letter" not in edith and "Sent from" not in edith
    assert press_of(out, "gustav") == press_of(out, "ilaria")
    assert "Two of you." in press_of(out, "gustav")[0]
    # the mail ended at END: the signature and what follows are no press
    assert "sent from my phone" not in press_of(out, "gustav")[0]
    assert "Press from France to Germany, Italy" in press_of(out, "gustav")[0]
    assert dip.game().book.entries() == {"fleur": {"orders": ["A Par - Bur"]}}
    reply = reply_of(out, "fleur")
    assert "your orders are accepted" in reply and "A Par - Bur: the army in Paris" in reply


def test_a_quoted_reply_ends_the_message(dip: DipTable) -> None:
    out = dip.send("edith", "PRESS TO FRA", "Yes.",
                   "On Mon, 2 Mar 2026, Referee <referee@test.invalid> wrote:",
                   "> Press from France to England", "> Dear Edith,")
    body, = press_of(out, "fleur")
    assert "Yes." in body and "wrote" not in body and "Dear Edith" not in body


def test_a_press_only_mail_leaves_the_orders_in_force(dip: DipTable) -> None:
    dip.reply("fleur", "A Par - Bur", "A Mar - Spa")
    out = dip.send("fleur", "PRESS TO ENG", "Just talk.")
    assert dip.game().book.entries() == {"fleur": {"orders": ["A Par - Bur", "A Mar - Spa"]}}
    reply = reply_of(out, "fleur")
    assert "Your press was sent to England. Your copy:" in reply
    assert "your orders in force." in reply and "A Par - Bur" in reply


def test_an_order_error_refuses_the_press_too(dip: DipTable) -> None:
    out = dip.send("fleur", "A Par - Mun", "PRESS TO ENG", "Hello.")
    assert press_of(out, "edith") == []
    reply = reply_of(out, "fleur")
    assert "NOT accepted" in reply
    assert "Your press message was not sent: a refused mail delivers no press." in reply
    assert dip.game().press.records() == []


def test_press_mistakes_are_answered_together_with_order_errors(dip: DipTable) -> None:
    out = dip.send("fleur", "A Par - Mun", "PRESS TO ENG XYZ FRA", "Hello.", "ENDPRESS",
                   "PRESS GREY TO ALL", "Anonymous?", "ENDPRESS", "PRESS", "Nothing?")
    reply = " ".join(reply_of(out, "fleur").split())
    low = reply.lower()
    assert "nobody called xyz can get press in this game" in low
    assert "Expected: Austria (AUS), England (ENG), Germany (GER)" in reply
    assert "fra is you: press goes to other players" in low
    assert "this game has white press: the sender is always named" in low
    assert "a press line names who the message is for" in low
    assert "Line 3: A Par - Mun" in reply and "Mun is not next to Par (rule DD2)" in reply
    assert "the mail has 5 problems" in low
    assert "Your 3 press messages were not sent" in reply
    assert [m["To"] for m in out] == [address("fleur")]


def test_a_judges_broadcast_is_answered_with_press_to_all_and_not_sent(dip: DipTable) -> None:
    """njudge's BROADCAST ... ENDPRESS (issue 42, item 2): never a greeting, never
    believed sent; the reply names PRESS TO ALL, and nothing goes to anyone."""
    out = dip.send("fleur", "A Par - Bur", "BROADCAST", "France wants peace.", "ENDPRESS")
    reply = " ".join(reply_of(out, "fleur").split())
    assert "BROADCAST is a judge's word: this press was not sent" in reply
    assert "PRESS TO ALL" in reply and "greeting" not in reply.lower()
    assert [m["To"] for m in out] == [address("fleur")]
    assert dip.game().press.records() == []


def test_press_goes_while_the_game_is_paused_but_orders_do_not(dip: DipTable) -> None:
    gm.pause(dip.store, "dip1")
    out = dip.send("fleur", "PRESS TO ENG", "Paused, but we can talk.")
    assert len(press_of(out, "edith")) == 1
    reply = reply_of(out, "fleur")
    assert "paused" in reply and "Your press was sent to England." in reply
    out = dip.send("fleur", "A Par - Bur", "PRESS TO ENG", "And an order.")
    assert press_of(out, "edith") == []
    assert "not sent" in reply_of(out, "fleur")


def test_no_press_in_a_game_without_it(tmp_path: Path) -> None:
    dip = make_table(tmp_path)
    dip.game().change_settings({"press": "none"})
    out = dip.send("fleur", "PRESS TO ENG", "Hello?")
    assert press_of(out, "edith") == []
    reply = " ".join(reply_of(out, "fleur").split())
    assert "this game relays no press between players (the game master set press: none)" \
        in reply.lower()


def test_grey_press_names_nobody(tmp_path: Path) -> None:
    dip = make_table(tmp_path)
    dip.game().change_settings({"press": "grey"})
    out = dip.send("fleur", "PRESS GREY TO ENG GER", "Guess who.")
    for pid in ("edith", "gustav"):
        body, = press_of(out, pid)
        assert body.startswith("Anonymous press to England, Germany\n")
        assert "France" not in body and "FRA" not in body and "fleur" not in body
    mails = [m for m in out if str(m["Subject"]).startswith("[dip1] ")]
    assert {m["Subject"] for m in mails} == {"[dip1] Anonymous press to England, Germany"}
    assert all(m["From"] == f"Referee <{REFEREE}>" for m in mails)
    record, = dip.game().press.records()
    assert (record.sender, record.grey, record.receivers) == ("fleur", True,
                                                             ("edith", "gustav"))


def test_the_same_mail_handled_twice_relays_its_press_once(dip: DipTable) -> None:
    from email.message import EmailMessage
    from email.utils import format_datetime, make_msgid

    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = address("fleur"), REFEREE, "orders"
    msg["Date"] = format_datetime(dip.clock())
    msg["Message-ID"] = make_msgid(domain="example.org")
    msg.set_content(dip.mail_text("fleur", "PRESS TO ENG", "Once only."))
    for _ in range(2):
        dip.intake.deliver(msg.as_bytes())
        dip.referee.take_in(dip.intake)
        dip.referee.deliver(force=True)
    out = dip.new_outbox()
    assert len(press_of(out, "edith")) == 1
    assert len(dip.game().press.records()) == 1


def test_the_archive_shows_broadcast_press_only(dip: DipTable, tmp_path: Path) -> None:
    from pbmref.archive import write_archive

    dip.send("fleur", "PRESS TO ALL", "To everyone: peace in our time.", "ENDPRESS",
             "PRESS TO ENG", "Secret plans.")
    dip.deadline()
    dip.send("edith", "PRESS TO ALL", "Said in the Fall.")
    pages = {p.name: p.read_text() for p in write_archive(dip.game(), tmp_path / "site")}
    turn = pages["turn-001.html"]
    assert "Press from France to all (S1901M)" in turn and "peace in our time" in turn
    assert "Secret plans" not in turn and "Said in the Fall" not in turn
    assert "Said in the Fall" in pages["index.html"]
    assert all("Secret plans" not in page for page in pages.values())


def test_the_game_master_reads_all_press_with_the_real_senders(
        dip: DipTable, capsys: pytest.CaptureFixture[str]) -> None:
    from pbmref.cli import main

    dip.game().change_settings({"press": "grey"})
    dip.send("fleur", "PRESS GREY TO ENG", "An offer nobody signs.")
    dip.send("edith", "PRESS TO ALL", "Peace in our time.")
    games = str(dip.game().dir.parent)
    assert main(["press", "--games", games, "dip1"]) == 0
    out = capsys.readouterr().out
    assert "fleur to edith (grey" in out and "An offer nobody signs." in out
    assert "edith to everyone" in out and "2 messages" in out
    assert main(["press", "--games", games, "dip1", "--from", "edith"]) == 0
    out = capsys.readouterr().out
    assert "Peace in our time." in out and "An offer" not in out and "1 message" in out
