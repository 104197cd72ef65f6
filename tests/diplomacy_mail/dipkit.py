"""A Diplomacy game on the referee's local Maildir default, and a way to mail it.

Like ``tests/referee/tablekit.py``: the real pipeline (spool, store, replies,
deadline job, reports) with a clock the test moves.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path
from typing import Any

from pbmref import gm
from pbmref.archive import stored_report
from pbmref.base.flowed import unflowed
from pbmref.config import Config, MailConfig, MaildirConfig, RefereeConfig
from pbmref.mail.maildir_in import MaildirIntake
from pbmref.mail.outbox import read_maildir
from pbmref.referee.pipeline import Referee
from pbmref.referee.turns import DueReport, adjudicate_due
from pbmref.store import Game, GameStore

REFEREE = "referee@test.invalid"
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
PLAYERS = {  # player id -> power (DD4: seven powers)
    "anton": "AUS", "edith": "ENG", "fleur": "FRA", "gustav": "GER",
    "ilaria": "ITA", "raisa": "RUS", "tarik": "TUR",
}
TURN = timedelta(hours=24)


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def address(player: str) -> str:
    return f"{player}@example.org"


@dataclass
class DipTable:
    root: Path
    game_id: str
    referee: Referee
    intake: MaildirIntake
    clock: Clock
    passwords: dict[str, str]
    store: GameStore
    seen: int = 0
    due: DueReport | None = None

    def game(self) -> Game:
        return self.store.open(self.game_id)

    def mail_text(self, player: str, *lines: str, phase: str | None = None,
                  password: str | None = None) -> str:
        head = [f"GAME {self.game_id}",
                f"PASSWORD {password if password is not None else self.passwords[player]}"]
        if phase is not None:
            head.append(f"PHASE {phase}")
        return "\n".join([*head, *lines, "END", "", "-- ", "sent from my phone"])

    def send(self, player: str, *lines: str, phase: str | None = None,
             subject: str = "orders", password: str | None = None) -> list[EmailMessage]:
        """``player`` mails ``lines``; returns the referee's new outgoing mail."""
        msg = EmailMessage()
        msg["From"] = address(player)
        msg["To"] = REFEREE
        msg["Subject"] = subject
        msg["Date"] = format_datetime(self.clock())
        msg["Message-ID"] = make_msgid(domain="example.org")
        msg.set_content(self.mail_text(player, *lines, phase=phase, password=password))
        key = self.intake.deliver(msg.as_bytes())
        stamp = self.clock().timestamp()
        os.utime(self.intake.root / "new" / key, (stamp, stamp))
        self.referee.take_in(self.intake)
        self.referee.deliver(force=True)
        return self.new_outbox()

    def reply(self, player: str, *lines: str, phase: str | None = None) -> str:
        """The body of the one reply to a mail."""
        out = self.send(player, *lines, phase=phase)
        assert len(out) == 1, [m["Subject"] for m in out]
        assert out[0]["To"] == address(player)
        return body_of(out[0])

    def new_outbox(self) -> list[EmailMessage]:
        all_mail = read_maildir(self.root / "outbox")
        fresh = all_mail[self.seen:]
        self.seen = len(all_mail)
        return fresh

    def deadline(self) -> list[EmailMessage]:
        """Let the game's deadline pass, run the cron job once; the mail it sent
        (its DueReport is kept in ``self.due``)."""
        deadline = self.game().settings.deadline
        assert deadline is not None
        self.clock.now = max(self.clock.now, deadline + timedelta(minutes=1))
        self.due = adjudicate_due(self.referee, self.intake)
        return self.new_outbox()

    def phase(self) -> str:
        return str(self.game().position["phase"])


def body_of(msg: EmailMessage) -> str:
    part = msg.get_body(("plain",))
    assert part is not None
    return unflowed(str(part.get_content()))  # as a phone shows it (format=flowed)


def svgs_of(msg: EmailMessage, game: Game | None = None) -> dict[str, str]:
    """The pictures of a mail by file name, as SVG: those attached (a MAP or
    HISTORY reply, which the player asked for); for a report, which shows its
    pictures as PNG only (issue 43), the SVG the archive keeps of each, from
    ``game``."""
    out = {}
    for part in msg.iter_attachments():
        if part.get_content_type() == "image/svg+xml":
            content = part.get_content()
            out[str(part.get_filename())] = (content.decode() if isinstance(content, bytes)
                                             else str(content))
    shown = [str(part.get_filename()) for part in msg.walk()
             if part.get_content_type() == "image/png" and "-move-" not in str(part.get_filename())]
    if out or game is None or not shown:
        return out
    drawn = {}
    for turn in game.turn_numbers():
        if not game.history.is_adjudicated(turn):
            continue
        report = stored_report(game, turn)
        label = game.ruleset.file_label(report)
        for picture in game.ruleset.render_pictures(report):
            drawn[picture.filename(game.id, label)] = picture.svg
    return {name.removesuffix(".png") + ".svg": drawn[name.removesuffix(".png") + ".svg"]
            for name in shown}


def svg_of(msg: EmailMessage, picture: str = "after", game: Game | None = None) -> str | None:
    """A report's picture (``orders``, or the board ``after`` the phase)."""
    return next((svg for name, svg in svgs_of(msg, game).items()
                 if name.endswith(f"-{picture}.svg")), None)


def make_table(tmp_path: Path, *, ruleset: str = "diplomacy",
               position: Mapping[str, Any] | None = None, game_id: str = "dip1") -> DipTable:
    config = Config(
        games_dir=tmp_path / "games", spool_dir=tmp_path / "spool",
        referee=RefereeConfig(address=REFEREE, name="Referee"),
        mail=MailConfig(mode="maildir", maildir=MaildirConfig(
            inbox=tmp_path / "inbox", outbox=tmp_path / "outbox")))
    clock = Clock(T0)
    store = GameStore(config.games_dir)
    players = [gm.PlayerSpec(pid, (address(pid),), pid.title(), power=power)
               for pid, power in PLAYERS.items()]
    created = gm.new_game(store, game_id, players, title="Test Diplomacy", ruleset=ruleset,
                          position=position, seed=5, deadline=T0 + TURN, turn_length="24h",
                          early_adjudication=False, reminder_hours=0, now=T0)
    referee = Referee(config, store=store, clock=clock)
    return DipTable(tmp_path, game_id, referee, MaildirIntake(config.mail.maildir.inbox),
                    clock, created.passwords, store)
