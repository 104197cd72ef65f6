"""The one referee test harness: a referee on the local Maildir default with a
clock the test moves, and a way to mail it and read what it sent.

The kits of the test folders (``referee/tablekit.py``, ``hardening/hardkit.py``,
``diplomacy_mail/dipkit.py``, ``conformance/speckit.py``) set up their games
on it; none builds a referee, an inbox or an outbox reader of its own.
"""

from __future__ import annotations

import email
import email.policy
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path
from typing import Any

from pbmref.base.flowed import unflowed
from pbmref.config import Config, LimitsConfig, MailConfig, MaildirConfig, RefereeConfig
from pbmref.mail.maildir_in import MaildirIntake
from pbmref.mail.outbox import read_maildir
from pbmref.referee.pipeline import Referee
from pbmref.store import Game, GameStore

REFEREE = "referee@test.invalid"
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


class Clock:
    """The referee's clock: it says ``now`` until the test moves it."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def maildir_config(root: Path, *, game_master: str = "", archive_url: str = "",
                   **limits: Any) -> Config:
    """A referee on Maildir folders under ``root`` (games, spool, inbox, outbox)."""
    return Config(
        games_dir=root / "games", spool_dir=root / "spool",
        referee=RefereeConfig(address=REFEREE, name="Referee", game_master=game_master,
                              archive_url=archive_url),
        mail=MailConfig(mode="maildir", maildir=MaildirConfig(
            inbox=root / "inbox", outbox=root / "outbox")),
        limits=LimitsConfig(**limits))


def parse(raw: bytes) -> EmailMessage:
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def body_of(msg: EmailMessage) -> str:
    """The plain text of a mail as a phone shows it (format=flowed joined)."""
    part = msg.get_body(("plain",))
    assert part is not None
    return unflowed(str(part.get_content()))


@dataclass
class RefereeTable:
    """A referee, its inbox and outbox, the store and the clock; ``seen``: how
    many outbox mails the test has read."""

    root: Path
    referee: Referee
    intake: MaildirIntake
    clock: Clock
    store: GameStore
    seen: int = 0

    @classmethod
    def start(cls, root: Path, config: Config, store: GameStore, clock: Clock, *,
              max_fetch_bytes: int | None = None, **fields: Any) -> Any:
        """The table of a referee on ``config`` (its Maildir folders)."""
        referee = Referee(config, store=store, clock=clock)
        intake = MaildirIntake(config.mail.maildir.inbox, max_fetch_bytes=max_fetch_bytes)
        return cls(root=root, referee=referee, intake=intake, clock=clock, store=store,
                   **fields)

    @property
    def games(self) -> Path:
        return self.root / "games"

    @property
    def outbox(self) -> Path:
        return self.root / "outbox"

    def game(self, gid: str = "zep1") -> Game:
        return self.store.open(gid)

    def mail(self, body: str, *, sender: str = "anna@example.org", subject: str = "orders",
             headers: dict[str, str] | None = None, arrived: datetime | None = None,
             message_id: str | None = None) -> bytes:
        """A mail to the referee, as a player's program sends it."""
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = self.referee.config.referee.address
        msg["Subject"] = subject
        msg["Date"] = format_datetime(arrived or self.clock())
        msg["Message-ID"] = message_id or make_msgid(domain="example.org")
        for k, v in (headers or {}).items():
            msg[k] = v
        msg.set_content(body)
        return msg.as_bytes()

    def deliver(self, raw: bytes, *, arrived: datetime | None = None) -> None:
        """Drop a mail in the inbox, arrived at ``arrived`` (else the clock's now)."""
        key = self.intake.deliver(raw)
        stamp = (arrived or self.clock()).timestamp()
        os.utime(self.intake.root / "new" / key, (stamp, stamp))

    def take_in(self) -> None:
        """Let the referee take in its inbox and send what it has to."""
        self.referee.take_in(self.intake)
        self.referee.deliver(force=True)

    def new_raw(self) -> list[bytes]:
        """The outbox mails the test has not read yet, oldest first, as sent."""
        files: list[tuple[int, str, Path]] = []
        for sub in ("new", "cur"):
            folder = self.outbox / sub
            if folder.is_dir():
                files += [(p.stat().st_mtime_ns, p.name, p) for p in folder.iterdir()
                          if p.is_file()]
        files.sort()
        fresh = [p.read_bytes() for _, _, p in files[self.seen:]]
        self.seen = len(files)
        return fresh

    def new_outbox(self) -> list[EmailMessage]:
        return [parse(raw) for raw in self.new_raw()]

    def sent_mail(self) -> list[EmailMessage]:
        """Every mail the referee wrote so far (the outbox)."""
        return read_maildir(self.outbox)
