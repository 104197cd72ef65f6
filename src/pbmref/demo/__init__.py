"""The demonstration game: six computer pilots and a zeppelin they steer by vote.

``run_demo`` builds a fresh games directory with the original site's six
pilots on the six airfields, clouds, wind and a controlled two-hex zeppelin
(Z6), then plays turn after turn through the referee's real pipeline on the
local Maildir default: each pilot writes an order mail, the mail goes into
the inbox, the referee takes it in, checks it and answers it into the
outbox, and at the deadline adjudicates the turn and mails every pilot the
report. Game time runs on a clock of its own, so a seed gives the same
reports on every machine and every day.
"""

from __future__ import annotations

import os
import random
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

from pbmref import gm
from pbmref.archive import write_archive
from pbmref.config import Config, MailConfig, MaildirConfig, RefereeConfig
from pbmref.mail.maildir_in import MaildirIntake
from pbmref.orders.check import order_mail
from pbmref.referee.pipeline import Referee
from pbmref.referee.turns import adjudicate_due
from pbmref.store import GameStore

GAME_ID = "demo"
DOMAIN = "demo.pbmref.test"
MARKER = ".pbmref-demo"
START = datetime(2026, 1, 5, 18, 0, tzinfo=UTC)  # game time of the first deadline - 1 day
TURN_LENGTH = timedelta(hours=24)

PILOTS = (  # id, name, airfield
    ("rode_baron", "Rode Baron", "N"),
    ("zwarte_valk", "Zwarte Valk", "NE"),
    ("lone_wolf", "Lone Wolf", "SE"),
    ("kiekendief", "Kiekendief", "S"),
    ("staartschot", "Staartschot", "SW"),
    ("downing_john", "Downing John", "NW"),
)

CLOUDS = (
    {"kind": "cloud", "hexes": ["F12", "F13", "G13"]},
    {"kind": "cloud", "hexes": ["N8", "O8", "O7"]},
    {"kind": "storm", "hexes": ["K5", "L5"]},
)


class DemoError(Exception):
    """The demo cannot run (for example: its folder holds something else)."""


class Clock:
    """Game time for the demo: moves only when told to."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now


@dataclass
class DemoResult:
    root: Path
    turns_played: int = 0
    order_mails: int = 0
    reports: list[str] = field(default_factory=list)  # report text per turn
    archive: Path | None = None
    inbox: Path | None = None
    outbox: Path | None = None
    winners: list[str] = field(default_factory=list)


def demo_config(root: Path) -> Config:
    """The embedded default, inside the demo folder: local Maildirs, no servers."""
    return Config(
        games_dir=root / "games",
        spool_dir=root / "spool",
        referee=RefereeConfig(address=f"referee@{DOMAIN}", name="pbmref demo referee"),
        mail=MailConfig(mode="maildir", maildir=MaildirConfig(
            inbox=root / "mail" / "inbox", outbox=root / "mail" / "outbox")),
    )


def _fresh(root: Path) -> None:
    if root.exists():
        if not (root / MARKER).exists() and any(root.iterdir()):
            raise DemoError(f"{root} exists and was not made by the demo; choose another --dir")
        shutil.rmtree(root)
    root.mkdir(parents=True)
    (root / MARKER).write_text("made by pbmref demo; deleted by the next demo run\n")


def _order_mail(pid: str, name: str, referee: str, turn: int, body: str, seed: int,
                when: datetime) -> bytes:
    msg = EmailMessage()
    msg["From"] = f"{name} <{pid}@{DOMAIN}>"
    msg["To"] = referee
    msg["Subject"] = f"[{GAME_ID}] orders for turn {turn}"
    msg["Date"] = format_datetime(when)
    msg["Message-ID"] = f"<demo-{seed}-{turn}-{pid}@{DOMAIN}>"
    msg.set_content(body)
    return msg.as_bytes()


def run_demo(root: Path | str = "demo-games", *, turns: int = 10, seed: int = 1916,
             say: Callable[[str], None] = print) -> DemoResult:
    """Play the demonstration game; ``say`` receives the progress and reports."""
    root = Path(root).resolve()
    _fresh(root)
    config = demo_config(root)
    clock = Clock(START)
    store = GameStore(config.games_dir)
    players = [gm.PlayerSpec(pid, (f"{pid}@{DOMAIN}",), name, airfield=field_name)
               for pid, name, field_name in PILOTS]
    created = gm.new_game(
        store, GAME_ID, players, title="The demonstration game", clouds=CLOUDS,
        wind={"to": "SE", "strength": 1, "changes": True}, zeppelin="controlled",
        zeppelin_length=2, timezone="Europe/Amsterdam", deadline=START + TURN_LENGTH,
        turn_length=TURN_LENGTH, reminder_hours=0, early_adjudication=False, seed=seed,
        now=clock())
    passwords = created.passwords
    referee = Referee(config, store=store, clock=clock)
    intake = MaildirIntake(config.mail.maildir.inbox)
    result = DemoResult(root, inbox=config.mail.maildir.inbox,
                        outbox=config.mail.maildir.outbox)
    say(f"pbmref demo: game '{GAME_ID}' with {len(PILOTS)} computer pilots, "
        f"{turns} turns, seed {seed}")
    say(f"  {created.placement}")
    names = dict((pid, name) for pid, name, _ in PILOTS)
    for _ in range(turns):
        game = store.open(GAME_ID)
        if game.settings.status != "open":
            break
        turn = game.turn
        deadline = game.settings.deadline or clock() + TURN_LENGTH
        rng = random.Random(seed * 1009 + turn)
        sent = 0
        for pid, player in sorted(game.settings.players.items()):
            if not player.active:
                continue
            entry = game.ruleset.computer_orders(game.open.state, pid, rng)
            if not entry:
                continue
            when = deadline - timedelta(hours=12) + timedelta(minutes=sent)
            body = order_mail(GAME_ID, passwords[pid], f"TURN {turn}", entry)
            raw = _order_mail(pid, names.get(pid, pid), config.referee.address, turn, body,
                              seed, when)
            key = intake.deliver(raw)
            stamp = when.timestamp()
            os.utime(intake.root / "new" / key, (stamp, stamp))  # the server's arrival time
            sent += 1
        clock.now = deadline - timedelta(hours=11)
        referee.take_in(intake)
        clock.now = deadline + timedelta(minutes=1)
        due = adjudicate_due(referee, intake, games=[GAME_ID], force=True)
        result.order_mails += sent
        for record in due.adjudicated:
            result.turns_played += 1
            result.reports.append(record.report_text)
            say("")
            say(f"=== turn {record.turn}/{turns}: {sent} order mails in, "
                f"{sent} replies out, reports mailed to {len(PILOTS)} pilots ===")
            say(record.report_text.rstrip())
            if record.game_over:
                result.winners = list(record.winners)
        for gid, why in due.broken.items():
            raise DemoError(f"game {gid} could not be adjudicated: {why}")
        if store.open(GAME_ID).settings.status != "open":
            break
    referee.deliver(force=True)
    game = store.open(GAME_ID)
    archive = root / "archive" / GAME_ID
    write_archive(game, archive)
    result.archive = archive / "index.html"
    say("")
    say(f"Played {result.turns_played} turn(s); {result.order_mails} order mails handled.")
    say(f"  HTML archive: {result.archive}")
    say(f"  Game files:   {config.games_dir / GAME_ID}")
    say(f"  Inbox:        {config.mail.maildir.inbox}  (the pilots' order mails)")
    say(f"  Outbox:       {config.mail.maildir.outbox}  (replies and reports)")
    say(f"Open the archive in a browser: {result.archive.resolve().as_uri()}")
    return result
