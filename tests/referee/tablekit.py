"""A small game on the local Maildir default, and a way to mail the referee."""

from __future__ import annotations

import email
import email.policy
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path

import pytest

from pbmref import gm
from pbmref.base.flowed import unflowed
from pbmref.config import Config, MailConfig, MaildirConfig, RefereeConfig
from pbmref.mail.maildir_in import MaildirIntake
from pbmref.mail.outbox import read_maildir
from pbmref.referee.pipeline import Referee
from pbmref.store import GameStore

REFEREE = "referee@test.invalid"
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@dataclass
class Table:
    """A referee on a Maildir, one game ``zep1`` with three players."""

    root: Path
    referee: Referee
    intake: MaildirIntake
    clock: Clock
    passwords: dict[str, str]
    store: GameStore
    seen: int = 0
    sent: list[bytes] = field(default_factory=list)

    def send(self, body: str, *, sender: str = "anna@example.org", subject: str = "orders",
             headers: dict[str, str] | None = None, arrived: datetime | None = None,
             message_id: str | None = None) -> list[EmailMessage]:
        """Deliver a mail to the inbox, let the referee take it in; the new outbox mail."""
        return self.send_raw(self.mail(body, sender=sender, subject=subject, headers=headers,
                                       arrived=arrived, message_id=message_id), arrived=arrived)

    def mail(self, body: str, *, sender: str = "anna@example.org", subject: str = "orders",
             headers: dict[str, str] | None = None, arrived: datetime | None = None,
             message_id: str | None = None) -> bytes:
        """A mail to the referee, as a player's program sends it."""
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = REFEREE
        msg["Subject"] = subject
        msg["Date"] = format_datetime(arrived or self.clock())
        msg["Message-ID"] = message_id or make_msgid(domain="example.org")
        for k, v in (headers or {}).items():
            msg[k] = v
        msg.set_content(body)
        return msg.as_bytes()

    def send_raw(self, raw: bytes, *, arrived: datetime | None = None) -> list[EmailMessage]:
        self.deliver(raw, arrived=arrived)
        self.referee.take_in(self.intake)
        self.referee.deliver(force=True)
        return self.new_outbox()

    def deliver(self, raw: bytes, *, arrived: datetime | None = None) -> None:
        """Drop a mail in the inbox, arrived at ``arrived`` (else the table's now)."""
        import os

        key = self.intake.deliver(raw)
        stamp = (arrived or self.clock()).timestamp()
        os.utime(self.intake.root / "new" / key, (stamp, stamp))

    def new_outbox(self) -> list[EmailMessage]:
        all_mail = read_maildir(self.root / "outbox")
        fresh = all_mail[self.seen:]
        self.seen = len(all_mail)
        return fresh

    def game(self):
        return self.store.open("zep1")

    def sent_mail(self) -> list[EmailMessage]:
        """Every mail the referee wrote so far (the outbox)."""
        return read_maildir(self.root / "outbox")


def body_of(msg: EmailMessage) -> str:
    part = msg.get_body(("plain",))
    assert part is not None
    return unflowed(str(part.get_content()))  # as a phone shows it (format=flowed)


@pytest.fixture
def table(tmp_path: Path) -> Table:
    config = Config(
        games_dir=tmp_path / "games", spool_dir=tmp_path / "spool",
        referee=RefereeConfig(address=REFEREE, name="Referee"),
        mail=MailConfig(mode="maildir", maildir=MaildirConfig(
            inbox=tmp_path / "inbox", outbox=tmp_path / "outbox")))
    clock = Clock(T0)
    store = GameStore(config.games_dir)
    players = [
        gm.PlayerSpec("anna", ("anna@example.org",), "Anna", airfield="N"),
        gm.PlayerSpec("bert", ("bert@example.org",), "Bert", airfield="SE"),
        gm.PlayerSpec("cora", ("cora@example.org",), "Cora", airfield="SW"),
    ]
    created = gm.new_game(store, "zep1", players, title="Zeppelin test", seed=11,
                          deadline=T0 + timedelta(hours=48), turn_length="48h",
                          early_adjudication=False, reminder_hours=12, now=T0)
    referee = Referee(config, store=store, clock=clock)
    return Table(tmp_path, referee, MaildirIntake(config.mail.maildir.inbox), clock,
                 created.passwords, store)


def parse(raw: bytes) -> EmailMessage:
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    return msg
