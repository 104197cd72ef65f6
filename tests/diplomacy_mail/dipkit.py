"""A Diplomacy game on the referee's local Maildir default, and a way to mail it.

On the one harness (``tests/refereekit.py``): the real pipeline (spool, store,
replies, deadline job, reports) with a clock the test moves.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from pbmref import gm
from pbmref.archive import stored_report
from pbmref.referee.turns import DueReport, adjudicate_due
from pbmref.store import Game, GameStore
from refereekit import REFEREE, T0, Clock, RefereeTable, body_of, maildir_config

__all__ = ["PLAYERS", "REFEREE", "T0", "TURN", "Clock", "DipTable", "address", "body_of",
           "make_table", "svg_of", "svgs_of", "table_on"]

PLAYERS = {  # player id -> power (DD4: seven powers)
    "anton": "AUS", "edith": "ENG", "fleur": "FRA", "gustav": "GER",
    "ilaria": "ITA", "raisa": "RUS", "tarik": "TUR",
}
TURN = timedelta(hours=24)


def address(player: str) -> str:
    return f"{player}@example.org"


@dataclass
class DipTable(RefereeTable):
    game_id: str = "dip1"
    passwords: dict[str, str] = field(default_factory=dict)
    due: DueReport | None = None

    def game(self, gid: str | None = None) -> Game:
        return self.store.open(gid or self.game_id)

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
        self.deliver(self.mail(self.mail_text(player, *lines, phase=phase, password=password),
                               sender=address(player), subject=subject))
        self.take_in()
        return self.new_outbox()

    def reply(self, player: str, *lines: str, phase: str | None = None) -> str:
        """The body of the one reply to a mail."""
        out = self.send(player, *lines, phase=phase)
        assert len(out) == 1, [m["Subject"] for m in out]
        assert out[0]["To"] == address(player)
        return body_of(out[0])

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


def shared_part(text: str) -> str:
    """A copy of the report without the reader's own block (issue 43, item 3),
    its closing words (a reader with nothing to order next is told so there)
    and their next orders (item 4): its head, then from POWERS to the foot."""
    assert "\nFOR " in text  # each player's copy opens with their power's block
    end = max(text.find("\nYOUR NEXT ORDERS\n"), text.find("\nNEXT\n"))
    body = text[text.index("\nPOWERS\n"):end if end > 0 else None]
    rule = "\n" + "=" * 70 + "\n"
    foot = body.rfind(rule, 0, body.rstrip("\n").rfind("=" * 70) - 1)
    return text[:text.index("\nFOR ")] + body[:foot if foot > 0 else None]


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
    # the boards shown (not the move panels, nor the reader's own part of a board)
    shown = [str(part.get_filename()) for part in msg.walk()
             if part.get_content_type() == "image/png" and "-move-" not in str(part.get_filename())
             and not str(part.get_filename()).endswith("-you.png")]
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
    config = maildir_config(tmp_path)
    clock = Clock(T0)
    store = GameStore(config.games_dir)
    players = [gm.PlayerSpec(pid, (address(pid),), pid.title(), power=power)
               for pid, power in PLAYERS.items()]
    created = gm.new_game(store, game_id, players, title="Test Diplomacy", ruleset=ruleset,
                          position=position, seed=5, deadline=T0 + TURN, turn_length="24h",
                          early_adjudication=False, reminder_hours=0, now=T0)
    return DipTable.start(tmp_path, config, store, clock, game_id=game_id,
                          passwords=created.passwords)


def table_on(root: Path, store: GameStore, game_id: str, passwords: dict[str, str],
             now: datetime = T0) -> DipTable:
    """The table of a game made already (by ``pbmref new-game``) in ``store``."""
    return DipTable.start(root, maildir_config(root), store, Clock(now), game_id=game_id,
                          passwords=passwords)
