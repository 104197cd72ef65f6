"""Press by real mail (issue 18): Dovecot in, SMTP out, three players, no mocks.

France, England and Germany play a Diplomacy game on the session's private
Dovecot; they mail press to the referee through the SMTP relay and read what
reaches their own mailboxes. White press names its sender; grey press keeps
every trace of the sender out of the mail (no address in any header or in
the body); broadcasts reach every other player. A press-only mail changes no
orders; a mail over the size or rate cap is answered plainly and relays
nothing.
"""

from __future__ import annotations

import email
import email.policy
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path
from typing import Any

import pytest
from mailservers import MailServers

from pbmref import gm
from pbmref.config import load_config
from pbmref.mail.factory import open_intake
from pbmref.referee.pipeline import Referee
from pbmref.store import GameStore

pytestmark = pytest.mark.integration

POWERS = {"fleur": "FRA", "edith": "ENG", "gustav": "GER"}


@dataclass
class PressSite:
    ms: MailServers
    config_path: Path
    referee_user: str
    users: dict[str, str]  # player id -> mailbox user
    passwords: dict[str, str]

    def address(self, pid: str) -> str:
        return self.ms.address(self.users[pid])

    def post(self, pid: str, lines: str) -> None:
        msg = EmailMessage()
        msg["From"] = f"{pid.title()} <{self.address(pid)}>"
        msg["To"] = self.ms.address(self.referee_user)
        msg["Subject"] = "dip1 orders"
        msg["Date"] = format_datetime(datetime.now(UTC))
        msg["Message-ID"] = make_msgid(domain=self.address(pid).split("@")[1])
        msg.set_content(f"GAME dip1\nPASSWORD {self.passwords[pid]}\n{lines}\n\n-- \n"
                        f"{pid.title()}, {self.address(pid)}\n")
        self.ms.send(self.address(pid), [self.ms.address(self.referee_user)], msg.as_bytes())

    def round(self, mails: int) -> None:
        """Let the referee take in ``mails`` mails, answer them and send."""
        self.ms.wait_count(self.referee_user, mails)
        config = load_config(self.config_path)
        referee = Referee(config)
        intake = open_intake(config)
        try:
            referee.take_in(intake)
        finally:
            intake.close()
        referee.deliver(force=True)

    def raw_inbox(self, pid: str) -> list[bytes]:
        return self.ms.fetch_all(self.users[pid])

    def inbox(self, pid: str) -> list[EmailMessage]:
        return [email.message_from_bytes(r, policy=email.policy.default)  # type: ignore[misc]
                for r in self.raw_inbox(pid)]

    def press(self, pid: str) -> list[tuple[str, str]]:
        """(Subject, body) of the press in a player's mailbox (not the replies)."""
        return sorted((str(m["Subject"]), text(m)) for m in self.inbox(pid)
                      if str(m["Subject"]).startswith("[dip1] "))

    def replies(self, pid: str) -> list[str]:
        return [text(m) for m in self.inbox(pid) if str(m["Subject"]).startswith("Re:")]

    def game(self) -> Any:
        return GameStore(load_config(self.config_path).games_dir).open("dip1")


def text(msg: EmailMessage) -> str:
    part = msg.get_body(("plain",))
    return str(part.get_content()).replace("\r\n", "\n") if part is not None else ""


def make_site(ms: MailServers, tmp_path: Path, press: str, **limits: int) -> PressSite:
    ref = ms.fresh_user("ref")
    users = {pid: ms.fresh_user(pid) for pid in POWERS}
    extra = {"limits": limits} if limits else {}
    config_path = ms.write_config(tmp_path, user=ref, **extra)
    store = GameStore(load_config(config_path).games_dir)
    created = gm.new_game(
        store, "dip1", [gm.PlayerSpec(pid, (ms.address(u),), pid.title(), power=POWERS[pid])
                        for pid, u in users.items()],
        title="Press by mail", ruleset="diplomacy", press=press, seed=5,
        deadline=datetime.now(UTC) + timedelta(hours=2), turn_length="48h",
        early_adjudication=False)
    return PressSite(ms, config_path, ref, users, created.passwords)


def test_white_press_to_two_powers_and_a_broadcast(mailservers: MailServers,
                                                   tmp_path: Path) -> None:
    site = make_site(mailservers, tmp_path, "white")
    site.post("fleur", "PRESS TO ENG GER\nShall we share Belgium?\nENDPRESS\n"
                       "PRESS TO ENG\nOnly for you: I move to Picardy.\nENDPRESS\n"
                       "PRESS TO ALL\nFrance wants peace.")
    site.round(1)
    site.ms.wait_count(site.users["gustav"], 2)
    site.ms.wait_count(site.users["edith"], 3)
    head = "Game dip1 (Press by mail), phase S1901M"
    assert [(s, b.split("\n")[:4]) for s, b in site.press("edith")] == [
        ("[dip1] Press from France to England", [
            "Press from France to England", head, "", "Only for you: I move to Picardy."]),
        ("[dip1] Press from France to England, Germany", [
            "Press from France to England, Germany", head, "", "Shall we share Belgium?"]),
        ("[dip1] Press from France to all", [
            "Press from France to all", head, "", "France wants peace."]),
    ]
    assert [s for s, _ in site.press("gustav")] == [
        "[dip1] Press from France to England, Germany", "[dip1] Press from France to all"]
    # the sender gets one reply: its copy with the receivers, and no press of its own
    assert site.press("fleur") == []
    reply = site.replies("fleur")
    assert len(reply) == 1
    assert "Your press was sent to England, Germany. Your copy:" in reply[0]
    assert "Your press was sent to everyone in the game. Your copy:" in reply[0]
    # no press mail reveals any player's address but the receiver's own
    for pid in POWERS:
        for raw in site.raw_inbox(pid):
            for other in POWERS:
                if other != pid:
                    assert site.address(other).encode() not in raw
    # a press-only mail changes no orders; the game folder keeps every message
    game = site.game()
    assert game.book.entries() == {}
    assert [(r.sender, r.broadcast, r.receivers) for r in game.press.records()] == [
        ("fleur", False, ("edith", "gustav")), ("fleur", False, ("edith",)),
        ("fleur", True, ("edith", "gustav"))]


def test_grey_press_keeps_the_sender_out_of_headers_and_body(mailservers: MailServers,
                                                             tmp_path: Path) -> None:
    site = make_site(mailservers, tmp_path, "grey")
    site.post("edith", "A Lvp - Yor\nPRESS GREY TO FRA\nBeware of the Channel.\nENDPRESS\n"
                       "PRESS GREY TO ALL\nSomeone is lying.\nENDPRESS\n"
                       "PRESS TO GER\nThis one is signed.")
    site.round(1)
    site.ms.wait_count(site.users["fleur"], 2)
    site.ms.wait_count(site.users["gustav"], 2)
    assert [s for s, _ in site.press("fleur")] == [
        "[dip1] Anonymous press to France", "[dip1] Anonymous press to all"]
    assert [s for s, _ in site.press("gustav")] == [
        "[dip1] Anonymous press to all", "[dip1] Press from England to Germany"]
    sender = site.address("edith")
    for pid in ("fleur", "gustav"):
        for raw in site.raw_inbox(pid):
            msg = email.message_from_bytes(raw, policy=email.policy.default)
            if "Anonymous" not in str(msg["Subject"]):
                continue
            assert sender.encode() not in raw
            assert site.users["edith"].encode() not in raw  # not even the local part
            assert b"England" not in raw and b"ENG" not in raw.replace(b"ENGLISH", b"")
            assert "The sender is not named (grey press)." in text(msg)  # type: ignore[arg-type]
    # the orders of the mail are in force; the game master sees the real sender
    game = site.game()
    assert game.book.entries()["edith"] == {"orders": ["A Lvp - Yor"]}
    assert [(r.sender, r.grey) for r in game.press.records()] == [
        ("edith", True), ("edith", True), ("edith", False)]
    reply = site.replies("edith")[0]
    assert "your orders are accepted" in reply
    assert "Anonymous press to France" in reply and "(grey: they are not told" in reply


def test_broadcast_only_game_and_a_refused_mail_deliver_no_press(
        mailservers: MailServers, tmp_path: Path) -> None:
    site = make_site(mailservers, tmp_path, "broadcast")
    site.post("gustav", "PRESS TO FRA\nJust between us.")
    site.post("gustav", "A Mun - Tyr\nPRESS TO ALL\nGermany moves south.")
    site.post("fleur", "A Par - Mars\nPRESS TO ALL\nThis mail has a bad order.")
    site.round(3)
    site.ms.wait_count(site.users["fleur"], 2)
    assert site.press("fleur") == [("[dip1] Press from Germany to all", site.press(
        "fleur")[0][1])]
    assert [s for s, _ in site.press("edith")] == ["[dip1] Press from Germany to all"]
    gustav = site.replies("gustav")
    refused = next(r for r in gustav if "NOT accepted" in r)
    assert "broadcast press only" in refused and "PRESS TO ALL" in refused
    assert "Your press message was not sent: a refused mail delivers no press." in refused
    fleur = site.replies("fleur")[0]
    assert "NOT accepted" in fleur and "not sent" in fleur
    assert site.game().book.entries() == {"gustav": {"orders": ["A Mun - Tyr"]}}


def test_the_caps_answer_plainly(mailservers: MailServers, tmp_path: Path) -> None:
    site = make_site(mailservers, tmp_path, "white", press_chars=40, press_per_day=2)
    site.post("fleur", "PRESS TO ENG\n" + "Long words make a long message indeed. " * 3)
    site.round(1)
    site.post("fleur", "PRESS TO ENG\nOne.\nENDPRESS\nPRESS TO GER\nTwo.")
    site.round(2)
    site.post("fleur", "PRESS TO ENG\nThree.")
    site.round(3)
    site.ms.wait_count(site.users["fleur"], 3)
    replies = site.replies("fleur")
    assert len(replies) == 3
    size, ok, rate = (" ".join(r.split()) for r in replies)
    assert "press is 116 characters long; one message may have 40 at most" in size
    assert "not sent" in size
    assert "Your press was sent to England" in ok and "Your press was sent to Germany" in ok
    assert "have sent 2 press messages in this game in the last 24 hours; " \
           "the limit is 2, so 0 more can go now" in rate
    assert [s for s, _ in site.press("edith")] == ["[dip1] Press from France to England"]
    assert [s for s, _ in site.press("gustav")] == ["[dip1] Press from France to Germany"]
