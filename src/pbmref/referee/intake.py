"""The intake: who sent a mail and which game it is for.

A mail read from the spool is first looked at as a whole: one never to be
answered (an auto-reply, a bounce, the referee's own) gets nothing; one too
big or unreadable gets a short refusal when its sender plays here. Then its
envelope (``GAME``, ``PASSWORD``, ``TURN`` lines and the Subject) is read
once, the game it names picked and opened, and the mail handed to the
handlers (``handlers.for_game``). A stranger learns only how to join
(``rations.how_to_join``); a broken game is said unavailable to its players
and stops only itself.
"""

from __future__ import annotations

import logging
import re
from datetime import datetime
from typing import TYPE_CHECKING

from pbmref.mail.message import IncomingMail, never_answer_reason
from pbmref.orders.check import password_line_mistaken
from pbmref.orders.envelope import OrderMail, check_password, identify_player, scan_order_mail
from pbmref.orders.errors import OrderMailError, gather
from pbmref.referee import handlers, kept, rations, replies
from pbmref.referee.answers import errors_text
from pbmref.referee.letter import (
    HandledMail,
    Letter,
    Twin,
    addresses,
    deadline_text,
    read_body,
    turn_name,
)
from pbmref.store import Game, GameFileError, StoreError, check_id

if TYPE_CHECKING:
    from pbmref.referee.pipeline import Referee

log = logging.getLogger("pbmref.referee")


def _whole_address(address: str) -> re.Pattern[str]:
    """A pattern finding ``address`` as a whole address, in any case."""
    return re.compile(r"(?<![\w.+-])" + re.escape(address) + r"(?![\w.-])", re.IGNORECASE)


def handle(referee: Referee, mail: IncomingMail, raw: bytes, *, arrived: datetime,
           twins: tuple[Twin, ...] = ()) -> HandledMail:
    """Read one mail and act on it; returns the replies (nothing sent yet).
    ``twins``: the sender's other mails of the same second (``process_spool``)."""
    why = never_answer_reason(mail, [referee.address])
    if why:
        return HandledMail(summary=f"not answered: {why}")
    sender = mail.from_addr
    if mail.oversized or mail.unread:
        if referee.games_of(sender):
            words = (replies.oversized(referee.config.limits.max_message_bytes)
                     if mail.oversized else replies.unread(mail.unread))
            return HandledMail([referee.reply(mail, sender, words)],
                               "refused: " + ("oversized" if mail.oversized else "unread"))
        return rations.how_to_join(referee, mail)
    envelope, envelope_errors = scan_order_mail(mail.subject, mail.text)
    if envelope.for_lobby:  # LIST, JOIN, OBSERVE, TAKEOVER, CONFIRM (J1-J7)
        from pbmref.referee import lobby  # it builds on the pipeline

        return lobby.answer(referee, mail, envelope, envelope_errors)
    if envelope_errors:
        if not referee.games_of(sender):
            return rations.how_to_join(referee, mail)
        return envelope_refused(referee, mail, envelope, envelope_errors)
    game_id = pick_game(referee, envelope, sender)
    if game_id is None:
        mine = referee.games_of(sender)
        if not mine:
            return rations.how_to_join(referee, mail, envelope)
        return HandledMail([referee.reply(mail, sender, replies.unknown_game(
            envelope.game_id, mine))], "rejected: unknown game")
    try:
        game = referee.store.open(game_id)
    except StoreError as exc:
        log.error("game %s cannot be opened: %s", game_id, exc)
        if not referee.games_of(sender) and not registered_in_dir(referee, game_id, sender):
            return rations.how_to_join(referee, mail)
        return keep(referee, mail, raw, arrived, sender, game_id, exc)
    letter = Letter(mail, raw, arrived, envelope, game, twins=twins)
    try:
        return handlers.for_game(referee, letter)
    except GameFileError as exc:  # e.g. an orders file the game master broke
        log.error("game %s cannot take orders: %s", game_id, exc)
        player = game.settings.player_by_address(sender)
        to = player.addresses[0] if player is not None else sender
        return keep(referee, mail, raw, arrived, to, game_id, exc)


def keep(referee: Referee, mail: IncomingMail, raw: bytes, arrived: datetime, to: str,
         game_id: str, exc: StoreError) -> HandledMail:
    """A mail for a game that cannot be read: kept until the game master
    repairs it, who is told once (``referee.kept``)."""
    count = referee.kept.keep(game_id, mail.message_id, raw, arrived)
    notes = [referee.reply(mail, to, kept.player_reply(game_id))]
    gm_address = referee.config.referee.game_master
    if gm_address and referee.kept.first_told(game_id, str(exc)):
        notes.append(referee.mail_to(gm_address, f"[{game_id}] the game cannot be read",
                                     kept.gm_notice(game_id, str(exc), count)))
    return HandledMail(notes, f"kept: game {game_id} unavailable: {exc}", game_id)


def envelope_refused(referee: Referee, mail: IncomingMail, envelope: OrderMail,
                     errors: list[OrderMailError]) -> HandledMail:
    """A mail whose envelope has a mistake (a bad GAME or PASSWORD line): when
    its game and player can still be told, every mistake of the body too, and
    with the password the orders in force (orders.md: every reply shows them;
    they stay secret from anyone without the password); else the envelope's
    mistakes alone."""
    sender = mail.from_addr
    told = identify(referee, envelope, sender)
    if told is None:
        return HandledMail([referee.reply(mail, sender, replies.mail_refused(
            errors_text(errors, mail)))], "rejected: envelope")
    game, player_id = told
    player = game.settings.players[player_id]
    try:
        check_password(envelope, lambda pw: game.settings.check_password(player_id, pw),
                       required=player.password_hash is not None)
    except OrderMailError:
        if not password_line_mistaken(envelope, errors):
            return HandledMail([referee.reply(mail, sender, replies.mail_refused(
                errors_text(errors, mail)))], "rejected: envelope")
        secret = True  # the PASSWORD line itself is the mistake: list, show nothing
    else:
        secret = False
    read = read_body(game, envelope, player_id)
    every = gather([*errors, *read.errors], read.ignored)
    assert every is not None  # the envelope's errors are there
    turn = turn_name(game, player_id)
    if secret:
        body = replies.refused_without_password(game.id, turn, errors_text(every, mail))
    else:
        body = replies.orders_rejected(game.id, turn, errors_text(every, mail),
                                       game.book.entry_of(player_id),
                                       deadline_text(game, player_id))
    # with its password checked, the refusal is never withheld
    checked = not secret and player.password_hash is not None
    return HandledMail([referee.reply(mail, sender, body)], "rejected: envelope", game.id,
                       rations=() if checked else None)


def identify(referee: Referee, envelope: OrderMail, sender: str) -> tuple[Game, str] | None:
    """The game and player of a mail whose envelope has an error, when both can
    still be told from it."""
    game_id = pick_game(referee, envelope, sender)
    if game_id is None:
        return None
    try:
        game = referee.store.open(game_id)
        return game, identify_player(envelope, sender, addresses(game))
    except (OrderMailError, StoreError):
        return None


def registered_in_dir(referee: Referee, game_id: str, sender: str) -> bool:
    """Whether ``sender`` stands as a whole address in a broken game's settings
    file (a text search: the file cannot be read as YAML). ``a@example.org``
    inside ``anna@example.org`` does not count, so a stranger learns nothing.

    >>> bool(_whole_address("a@example.org").search("- anna@example.org"))
    False
    """
    try:
        text = (referee.store.path(game_id) / "game.yaml").read_text(encoding="utf-8")
    except OSError:
        return False
    return bool(sender) and bool(_whole_address(sender).search(text))


def pick_game(referee: Referee, envelope: OrderMail, sender: str) -> str | None:
    """The game a mail is for: the one its envelope names (known here), or the
    sender's only game."""
    if envelope.game_id:
        try:
            check_id(envelope.game_id.lower())
        except StoreError:
            return None
        return referee.game_names().get(envelope.game_id.casefold())
    mine = referee.games_of(sender)
    return mine[0] if len(mine) == 1 else None
