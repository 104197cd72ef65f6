"""One mail as the referee answers it, and the game as the answer reads it.

The values every step of the pipeline hands on: what handling one mail did
(``HandledMail``), the sender's other mails of the same second (``Twin``), a
body as the orders layer read it (``BodyRead``) and the mail for one game
being answered (``Letter``); with the few readings of the game the intake,
the handlers and the commands share (the open turn's name, the deadline, each
player's addresses, the orders in force as a reply shows them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pbmref.mail.compose import Attachment, Mail
from pbmref.mail.message import IncomingMail
from pbmref.orders.check import read_mail_body
from pbmref.orders.envelope import Command, OrderMail
from pbmref.orders.errors import OrderMailError, gather
from pbmref.referee import replies
from pbmref.referee.state import Ration
from pbmref.store import Game

# The longest text of one reply, in characters: a mail asking for MAP 25,000
# times (or every report there is) gets what fits and a note.
REPLY_LIMIT = 40_000
# Of it, what the answers to commands may take: the rest is for the head, the
# orders in force and the note about what was left out.
ANSWERS_LIMIT = REPLY_LIMIT - 5_000


@dataclass
class HandledMail:
    """What handling one mail did: replies to queue and a line for the log.

    ``rations``: what the replies use up (``RefereeState.within_budgets``);
    None means REPLY_BUDGET of each address written to, ``()`` nothing (the
    replies to a mail whose password was checked)."""

    replies: list[Mail] = field(default_factory=list)
    summary: str = ""
    game_id: str | None = None
    changed: bool = False
    rations: tuple[Ration, ...] | None = None


@dataclass(frozen=True)
class Twin:
    """Another mail of the same sender that reached the server in the same
    second: when it was sent (its Date header) and whether it is applied
    after this one (the spool's order)."""

    sent: datetime | None
    later: bool


@dataclass(frozen=True)
class BodyRead:
    """A mail's body as the orders layer read it (``read_mail_body``): the
    typed orders (the game's ``Ruleset`` ``O``; None: none), the greeting and
    signature lines left out, every error."""

    orders: object = None
    ignored: tuple[tuple[int, str], ...] = ()
    errors: tuple[OrderMailError, ...] = ()

    @property
    def error(self) -> OrderMailError | None:
        """Every error at once (with the lines left out), or None."""
        return gather(self.errors, self.ignored)


@dataclass
class Letter:
    """One order mail for one game, as it is being answered: the mail, its
    envelope, the game it names, and (once known) the player, the registered
    address the reply goes to, notes for the reply, the commands' answers and
    the pictures the reply carries (MAP's board).
    ``press_done``: its press was relayed (a reply without it says it was not)."""

    mail: IncomingMail
    raw: bytes
    arrived: datetime
    envelope: OrderMail
    game: Game
    player: str = ""
    to: str = ""
    notes: list[str] = field(default_factory=list)
    sections: list[str] = field(default_factory=list)
    twins: tuple[Twin, ...] = ()
    attachments: list[Attachment] = field(default_factory=list)
    press_done: bool = False
    left_out: int = 0  # answers that did not fit in REPLY_LIMIT
    size: int = 0  # characters of the answers in ``sections``

    @property
    def commands(self) -> list[Command]:
        """The mail's commands, each once (``MAP`` 25,000 times is one MAP)."""
        once: dict[tuple[str, int | None, str | None, tuple[str, ...]], Command] = {}
        for command in self.envelope.commands:
            once.setdefault((command.name, command.arg, command.rule, command.args), command)
        return list(once.values())

    @property
    def full(self) -> bool:
        """Whether the reply's answers take all the room REPLY_LIMIT leaves them."""
        return self.size >= ANSWERS_LIMIT

    def add(self, section: str) -> bool:
        """Add one answer to the reply, unless it does not fit (REPLY_LIMIT);
        whether it was added."""
        if self.size + len(section) > ANSWERS_LIMIT:
            self.left_out += 1
            return False
        self.sections.append(section)
        self.size += len(section)
        return True


def turn_name(game: Game, player: str = "") -> replies.TurnName:
    """The open turn as players know it: its number, or for Diplomacy the phase
    (``S1901M``), which ``PHASE`` lines are checked against; with the words of
    the replies to ``player`` (what happens to their side without orders)."""
    words = game.ruleset.words_for(game.open.state, player) if player else game.ruleset.words
    return replies.TurnName(game.turn_label, words)


def deadline_text(game: Game, player: str = "") -> str:
    """The open turn's deadline in the reader's time zone (J12)."""
    return replies.when(game.settings.deadline, game.settings.zone_of(player))


def read_body(game: Game, envelope: OrderMail, player: str) -> BodyRead:
    """The mail's body read for ``player`` on the game's open turn, through the
    orders layer's one path (``read_mail_body``, as ``check_order_mail``):
    greetings and signatures left out, every error found."""
    if not envelope.body:
        return BodyRead()
    state, ruleset = game.open.state, game.ruleset
    orders, ignored, errors = read_mail_body(ruleset.body_reader(state), envelope, player)
    return BodyRead(orders, ignored, tuple(errors))


def shown(game: Game, turn: replies.TurnName, entry: dict[str, Any] | None,
          deadline: str) -> str:
    """The player's orders in force (or what happens without them) and the
    ``deadline`` (the turn's words are the player's own: ``turn_name``)."""
    return replies.orders_shown(game.id, turn, entry, deadline)


def addresses(game: Game) -> dict[str, tuple[str, ...]]:
    """Each player's registered addresses (kicked players left out)."""
    return {pid: tuple(p.addresses) for pid, p in game.settings.players.items()
            if p.status != "kicked"}
