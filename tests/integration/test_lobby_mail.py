"""The lobby and the judge's deadlines by real mail (issue 45): Dovecot in,
SMTP out, no mocks.

A game master makes a forming Diplomacy game of two places (a grace period
of two hours, a standby list for takeovers). Two strangers LIST the games,
JOIN, get a code each and CONFIRM it by replying; the second confirmation
fills the game, which starts: each gets their place and password. One sets
an absence (the deadline moves, the other is told), a third stranger joins
the standby list, a player resigns and the standby takes the place over
with a new password. At the deadline one player's orders are missing: the
late player gets a lateness notice, the other a note of who is late; when
the grace period runs out the phase is played and both get the report.
The referee's clock is moved by the test; the mail is real.
"""

from __future__ import annotations

import email
import email.policy
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path

import pytest
from mailservers import MailServers

from pbmref.base.flowed import unflowed
from pbmref.config import load_config
from pbmref.gm.forming import new_forming
from pbmref.mail.factory import open_intake
from pbmref.referee.pipeline import Referee
from pbmref.referee.turns import adjudicate_due
from pbmref.store import GameStore

pytestmark = pytest.mark.integration

_CODE = re.compile(r"CONFIRM ([A-Z0-9]{4}-[A-Z0-9]{4})")
_PASSWORD = re.compile(r"Your password: (\S+)")


class Clock:
    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now


@dataclass
class Lobby:
    ms: MailServers
    config_path: Path
    referee_user: str
    clock: Clock = field(default_factory=Clock)
    seen: dict[str, int] = field(default_factory=dict)  # mailbox -> mails read so far

    @property
    def referee(self) -> str:
        return self.ms.address(self.referee_user)

    def store(self) -> GameStore:
        return GameStore(load_config(self.config_path).games_dir)

    def mail(self, user: str, text: str, subject: str = "games") -> None:
        msg = EmailMessage()
        msg["From"] = f"{user.title()} <{self.ms.address(user)}>"
        msg["To"] = self.referee
        msg["Subject"] = subject
        msg["Date"] = format_datetime(datetime.now(UTC))
        msg["Message-ID"] = make_msgid(domain="players.test")
        msg.set_content(text)
        # the referee moves the mails it handled out of its INBOX: what waits
        # there is what was sent since its last run
        before = self.ms.count(self.referee_user)
        self.ms.send(self.ms.address(user), [self.referee], msg.as_bytes())
        assert self.ms.wait_count(self.referee_user, before + 1) == before + 1

    def run(self, *, due: bool = False) -> None:
        """The referee takes in every mail sent to it so far, answers and sends;
        with ``due``, the deadline job too (at the test's clock)."""
        config = load_config(self.config_path)
        referee = Referee(config, clock=self.clock)
        intake = open_intake(config)
        try:
            if due:
                adjudicate_due(referee, intake)
            else:
                referee.take_in(intake)
        finally:
            intake.close()
        referee.deliver(force=True)

    def new(self, user: str, count: int) -> list[tuple[str, str]]:
        """The next ``count`` mails of a mailbox: (Subject, text as a phone shows it)."""
        have = self.seen.get(user, 0)
        self.ms.wait_count(user, have + count)
        raws = self.ms.fetch_all(user)
        assert len(raws) == have + count, [self._subject(r) for r in raws[have:]]
        self.seen[user] = len(raws)
        out = []
        for raw in raws[have:]:
            msg = email.message_from_bytes(raw, policy=email.policy.default)
            part = msg.get_body(("plain",))  # type: ignore[attr-defined]
            assert part is not None
            text = str(part.get_content()).replace("\r\n", "\n")
            flowed = part.get_param("format") == "flowed"
            out.append((str(msg["Subject"]), unflowed(text) if flowed else text))
        return out

    @staticmethod
    def _subject(raw: bytes) -> str:
        return str(email.message_from_bytes(raw, policy=email.policy.default)["Subject"])

    def confirm(self, user: str, request: str) -> None:
        """``user`` mails ``request``, gets the code and replies with it."""
        self.mail(user, f"Hello,\n{request}\nThanks!\n")
        self.run()
        [(subject, text)] = self.new(user, 1)
        assert "(rule J3)" in " ".join(text.split()), text
        code = _CODE.search(text)
        assert code is not None, text
        quoted = "\n".join("> " + line for line in text.splitlines())
        self.mail(user, f"CONFIRM {code.group(1)}\n\nOn Monday the referee wrote:\n{quoted}\n",
                  subject=subject if subject.startswith("Re:") else f"Re: {subject}")
        self.run()


def flat(text: str) -> str:
    return " ".join(text.split())


def test_strangers_join_play_with_absence_takeover_and_grace(mailservers: MailServers,
                                                             tmp_path: Path) -> None:
    ms = mailservers
    ref = ms.fresh_user("ref")
    ann, bob, cyd = (ms.fresh_user(name) for name in ("ann", "bob", "cyd"))
    site = Lobby(ms, ms.write_config(tmp_path, user=ref), ref)
    store = site.store()
    new_forming(store, "dip7", ruleset="diplomacy", places=2, title="Summer league",
                game={"turn_length": "48h", "takeover": "standby",
                      "deadlines": {"grace": "2h"}, "early_adjudication": False},
                seed=7)

    # two strangers list the games (J1)
    for user in (ann, bob):
        site.mail(user, "LIST\n")
    site.run()
    for user in (ann, bob):
        [(_, text)] = site.new(user, 1)
        assert "dip7: Summer league, Diplomacy, white press, 48h a turn; grace 2h; 2 of 2 " \
               "places open." in flat(text)

    # they join and confirm (J2, J3); the second confirmation starts the game (J4)
    site.confirm(ann, "JOIN dip7 fra eng")
    [(_, text)] = site.new(ann, 1)
    assert "JOIN dip7: done; you have a place (rule J2)" in flat(text)
    site.confirm(bob, "JOIN dip7 fra")
    mails = dict(site.new(bob, 2))
    assert "dip7 starts now (rule J4)" in flat(mails[next(s for s in mails if s.startswith(
        "Re:"))])
    welcome_bob = mails["[dip7] welcome: your password and how to send orders"]
    [(subject, welcome_ann)] = site.new(ann, 1)
    assert subject == "[dip7] welcome: your password and how to send orders"
    passwords = {}
    for user, text in ((ann, welcome_ann), (bob, welcome_bob)):
        found = _PASSWORD.search(text)
        assert found is not None and "(rule J4)" in flat(text)
        passwords[user] = found.group(1)
    game = store.open("dip7")
    ids = {user: game.settings.player_by_address(ms.address(user)).id  # type: ignore[union-attr]
           for user in (ann, bob)}
    powers = game.position["players"]
    assert {powers[ids[ann]], powers[ids[bob]]} == {"FRA", "ENG"}  # both wanted France
    deadline = game.settings.deadline
    assert deadline is not None

    def order_mail(user: str, *lines: str) -> None:
        site.mail(user, "\n".join(["GAME dip7", f"PASSWORD {passwords[user]}", *lines, "END"]),
                  subject="dip7 orders")

    # ann is away over the deadline: it moves, bob is told (J11)
    first, last = deadline.date() - timedelta(days=1), deadline.date()
    order_mail(ann, f"SET ABSENCE FROM {first.isoformat()} TO {last.isoformat()}")
    site.run()
    [(_, reply)] = site.new(ann, 1)
    moved = deadline + timedelta(days=1)
    assert "SET ABSENCE" in reply and "(rule J11)" in flat(reply)
    [(subject, notice)] = site.new(bob, 1)
    assert "is away" in subject and "(rule J11)" in flat(notice)
    assert store.open("dip7").settings.deadline == moved

    # cyd joins the standby list; bob resigns; cyd takes bob's place over (J6, J7)
    site.confirm(cyd, "JOIN dip7")
    [(_, text)] = site.new(cyd, 1)
    assert "you are on the game's standby list (rule J7)" in flat(text)
    order_mail(bob, "RESIGN")
    site.run()
    [(_, reply)] = site.new(bob, 1)
    assert "RESIGN: done" in reply
    place = powers[ids[bob]]
    [(subject, _)] = site.new(ann, 1)
    [(subject_cyd, text)] = site.new(cyd, 1)
    assert subject == subject_cyd == f"[dip7] {place} is open"
    assert f"TAKEOVER dip7 {place}" in flat(text)
    site.confirm(cyd, f"TAKEOVER dip7 {place.lower()}")
    mails = dict(site.new(cyd, 2))
    welcome_cyd = mails["[dip7] welcome: your password and how to send orders"]
    found = _PASSWORD.search(welcome_cyd)
    assert found is not None and "You take over" in welcome_cyd
    passwords[cyd] = found.group(1)
    [(subject, _)] = site.new(ann, 1)
    assert subject == f"[dip7] {place} is played again"
    assert store.open("dip7").settings.players[ids[bob]].addresses == (ms.address(cyd),)

    # cyd orders; ann sends nothing: at the deadline ann is late (J10)
    unit = store.open("dip7").position["units"][place][0]
    order_mail(cyd, f"{unit} H")
    site.run()
    [(_, reply)] = site.new(cyd, 1)
    assert "accepted" in reply
    site.clock.now = moved + timedelta(minutes=1)
    site.run(due=True)
    [(subject, late)] = site.new(ann, 1)
    assert subject.endswith("are late") and "(rule J10)" in flat(late)
    [(subject, note)] = site.new(cyd, 1)
    assert subject == "[dip7] waiting for late orders" and "(rule J10)" in flat(note)
    assert store.open("dip7").history.is_adjudicated(1) is False
    # the grace period runs out: the phase is played, both get the report
    site.clock.now = moved + timedelta(hours=2, minutes=1)
    site.run(due=True)
    assert store.open("dip7").history.is_adjudicated(1)
    for user in (ann, cyd):
        [(subject, _)] = site.new(user, 1)
        assert subject == "[dip7] S1901M report"
