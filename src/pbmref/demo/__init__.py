"""The demonstration games: computer players through the referee's real pipeline.

``run_demo(root, ruleset=...)`` builds a fresh games directory with the game
the ruleset describes (``Ruleset.demo_game``: tweedekker's six pilots of the
original site on the six airfields, with clouds, wind and a controlled
two-hex zeppelin (Z6); Diplomacy's and Dirigible Diplomacy's seven computer
powers), then plays turn after turn on the local Maildir default: each
player's computer writes its orders (``Ruleset.computer_orders``) as an
order mail (``pbmref.orders.check.order_mail``), the mail goes into the
inbox, the referee takes it in, checks it and answers it into the outbox,
and at the deadline adjudicates the turn and mails every player the report.
Game time runs on a clock of its own, so a seed gives the same reports on
every machine and every day.
"""

from __future__ import annotations

import os
import random
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import Any

from pbmref import gm
from pbmref.archive import write_archive
from pbmref.config import Config, MailConfig, MaildirConfig, RefereeConfig
from pbmref.mail.maildir_in import MaildirIntake
from pbmref.orders.check import mail_lines, order_mail
from pbmref.referee.pipeline import Referee
from pbmref.referee.turns import adjudicate_due
from pbmref.rulesets import RULESETS, DemoGame, Ruleset, UnknownRuleset, get_ruleset
from pbmref.store import Game, GameStore

GAME_ID = "demo"
DOMAIN = "demo.pbmref.test"
MARKER = ".pbmref-demo"
START = datetime(2026, 1, 5, 18, 0, tzinfo=UTC)  # game time of the first deadline - 1 day
TURN_LENGTH = timedelta(hours=24)

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
    players: int = 0


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


def _order_mail(pid: str, name: str, referee: str, turn: str, body: str, seed: int,
                when: datetime) -> bytes:
    msg = EmailMessage()
    msg["From"] = f"{name} <{pid}@{DOMAIN}>"
    msg["To"] = referee
    msg["Subject"] = f"[{GAME_ID}] orders for {turn}"
    msg["Date"] = format_datetime(when)
    msg["Message-ID"] = f"<demo-{seed}-{turn.replace(' ', '-')}-{pid}@{DOMAIN}>"
    msg.set_content(body)
    return msg.as_bytes()


def _demo_of(ruleset: str) -> tuple[Ruleset[Any, Any, Any], DemoGame]:
    with_demo = ", ".join(name for name, r in RULESETS.items() if r.demo_game() is not None)
    try:
        rules = get_ruleset(ruleset)
    except UnknownRuleset:
        raise DemoError(f"unknown ruleset {ruleset!r}; demos: {with_demo}") from None
    game = rules.demo_game()
    if game is None:
        raise DemoError(f"there is no demo of {rules.title}; demos: {with_demo}")
    return rules, game


def _mail_orders(game: Game, intake: MaildirIntake, passwords: dict[str, str], seed: int,
                 referee_address: str, deadline: datetime) -> int:
    """Every computer player's order mail of the open turn, into the inbox."""
    rules = game.ruleset
    label = game.turn_label
    rng = random.Random(seed * 1009 + game.turn)
    sent = 0
    for pid, player in sorted(game.settings.players.items()):
        if not player.active:
            continue
        orders = rules.computer_orders(game.open.state, pid, rng)
        entry = None if orders is None else rules.encode_orders(orders)
        if not entry or not mail_lines(entry):
            continue
        when = deadline - timedelta(hours=12) + timedelta(minutes=sent)
        body = order_mail(GAME_ID, passwords[pid], f"{rules.words.keyword} {label}", entry)
        raw = _order_mail(pid, player.name or pid, referee_address, rules.words.turn(label),
                          body, seed, when)
        key = intake.deliver(raw)
        stamp = when.timestamp()
        os.utime(intake.root / "new" / key, (stamp, stamp))  # the server's arrival time
        sent += 1
    return sent


def run_demo(root: Path | str = "demo-games", *, ruleset: str = "tweedekker",
             turns: int | None = None, seed: int = 1916,
             say: Callable[[str], None] = print) -> DemoResult:
    """Play the demonstration game of ``ruleset`` for ``turns`` turns (default:
    the ruleset's), or to its end; ``say`` receives the progress and reports."""
    rules, demo = _demo_of(ruleset)
    length = demo.length if turns is None and demo.length else \
        f"{demo.turns if turns is None else turns} turns"
    turns = demo.turns if turns is None else turns
    root = Path(root).resolve()
    _fresh(root)
    config = demo_config(root)
    clock = Clock(START)
    store = GameStore(config.games_dir)
    players = [replace(p, addresses=(f"{p.id}@{DOMAIN}",)) for p in demo.players]
    created = gm.new_game(
        store, GAME_ID, players, title=demo.title, ruleset=rules.name,
        timezone="Europe/Amsterdam", deadline=START + TURN_LENGTH, turn_length=TURN_LENGTH,
        reminder_hours=0, early_adjudication=False, seed=seed, now=clock(), **demo.settings)
    referee = Referee(config, store=store, clock=clock)
    intake = MaildirIntake(config.mail.maildir.inbox)
    result = DemoResult(root, inbox=config.mail.maildir.inbox,
                        outbox=config.mail.maildir.outbox, players=len(players))
    say(f"pbmref demo: {rules.title} game '{GAME_ID}' with {len(players)} computer "
        f"{demo.players_noun}, {length}, seed {seed}")
    say(f"  {created.placement}")
    for _ in range(turns):
        game = store.open(GAME_ID)
        if game.settings.status != "open" or demo.over(game.position):
            break
        deadline = game.settings.deadline or clock() + TURN_LENGTH
        sent = _mail_orders(game, intake, created.passwords, seed, config.referee.address,
                            deadline)
        clock.now = deadline - timedelta(hours=11)
        referee.take_in(intake)
        clock.now = deadline + timedelta(minutes=1)
        due = adjudicate_due(referee, intake, games=[GAME_ID], force=True)
        result.order_mails += sent
        for gid, why in due.broken.items():
            raise DemoError(f"game {gid} could not be adjudicated: {why}")
        for record in due.adjudicated:
            result.turns_played += 1
            result.reports.append(record.report_text)
            say("")
            say(f"=== {_turn_heading(rules, game, record.turn, turns)}: {sent} order mails "
                f"in, {sent} replies out, reports mailed to {len(players)} "
                f"{demo.players_noun} ===")
            say(record.report_text.rstrip())
            if record.game_over:
                result.winners = list(record.winners)
    referee.deliver(force=True)
    # The outbox holds every mail sent; the spool's copies of them (its record
    # of what went out) would double the folder: a long demo mails hundreds.
    referee.outgoing.prune(timedelta(0))
    game = store.open(GAME_ID)
    archive = root / "archive" / GAME_ID
    write_archive(game, archive)
    result.archive = archive / "index.html"
    say("")
    say(f"Played {result.turns_played} turn(s); {result.order_mails} order mails handled.")
    say(f"  HTML archive: {result.archive}")
    say(f"  Game files:   {config.games_dir / GAME_ID}")
    say(f"  Inbox:        {config.mail.maildir.inbox}  (the {demo.players_noun}' order mails)")
    say(f"  Outbox:       {config.mail.maildir.outbox}  (replies and reports)")
    say(f"Open the archive in a browser: {result.archive.resolve().as_uri()}")
    return result


def _turn_heading(rules: Ruleset[Any, Any, Any], game: Game, turn: int, turns: int) -> str:
    """``turn 3/10``; a game whose turns are named (Diplomacy) by name and number:
    ``phase S1901M (turn 1)``."""
    label = game.turn_label
    if isinstance(label, int):
        return f"{rules.words.turn(turn)}/{turns}"
    return f"{rules.words.turn(label)} (turn {turn})"
