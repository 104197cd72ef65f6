"""The answers to an identified player's commands: HELP, HISTORY, ORDERS,
PLAN, STATUS and MAP.

Each command is answered once a mail (``Letter.commands``), in the room
REPLY_LIMIT leaves (``Letter.add``; what does not fit is counted and said);
HELP and HISTORY are answered before the game is locked, the others with the
orders the mail leaves in force. STATUS alone and HELP are also the answers a
player without the password may have (``handlers``). Pictures go beside the
text: MAP's board, a HISTORY turn's pictures.
"""

from __future__ import annotations

from typing import Any

from pbmref.archive import shown_players, stored_report
from pbmref.mail.compose import Attachment
from pbmref.orders.envelope import Command
from pbmref.referee import guide, replies
from pbmref.referee.letter import REPLY_LIMIT, Letter, shown
from pbmref.reports.status import render_status
from pbmref.store import Game


def help_text(letter: Letter, command: Command) -> str:
    """The answer to HELP (for the player's own game and turn) or HELP <rule>."""
    if command.rule is not None:
        return guide.rule_reply(command.rule)
    return guide.help_text(letter.game, letter.player)


def status(game: Game, turn: replies.TurnName) -> str:
    """The answer to STATUS: the open turn, its deadline, who has orders in and
    who asks the referee to wait (never the orders or the votes), each player
    as the game shows them (``shown_players``)."""
    s = game.settings
    players = shown_players(game)
    return render_status(
        game_id=game.id, title=s.title, turn=turn.title(), deadline=s.deadline,
        timezone=s.timezone, players=players.shown_names(),
        sent=players.readers(game.book.in_force()),
        inactive=players.readers(p for p, q in s.players.items() if not q.active),
        status=s.status, waits=players.readers(game.votes.waiting(game.turn)),
        computers=players.readers(p for p, q in s.players.items() if q.computer),
        owing=players.readers(game.waiting_for()))


def help_and_history(letter: Letter) -> None:
    """HELP and HISTORY answered, before the game is locked (they change nothing)."""
    game = letter.game
    for command in letter.commands:
        if command.name not in ("HELP", "HISTORY"):
            continue
        if letter.full:
            letter.left_out += 1
        elif command.name == "HELP":
            letter.add(help_text(letter, command))
        else:
            wanted = command.arg or max(1, game.turn - 1)
            text = game.history.report(wanted) if game.history.is_adjudicated(wanted) \
                else None
            letter.add(text or f"There is no report of turn {wanted} yet.")
            if text is not None:  # the turn's pictures, as its report mail had them
                attach_turn(letter, wanted)


def attach_turn(letter: Letter, turn: int) -> None:
    """The pictures of a played turn beside its report (HISTORY), each once."""
    game = letter.game
    report = stored_report(game, turn)
    label = game.ruleset.file_label(report)
    have = {a.filename for a in letter.attachments}
    letter.attachments += [
        Attachment(p.filename(game.id, label), p.svg.encode(), "image/svg+xml")
        for p in game.ruleset.render_pictures(report) if p.filename(game.id, label) not in have]


def sections(letter: Letter, turn: replies.TurnName, current: dict[str, Any] | None,
             deadline: str) -> list[str]:
    """HELP and HISTORY answered already, then ORDERS, PLAN, STATUS and MAP."""
    game, player = letter.game, letter.player
    out = letter.sections
    for command in letter.commands:
        if command.name not in ("ORDERS", "PLAN", "STATUS", "MAP"):
            continue
        if letter.full:
            letter.left_out += 1
        elif command.name == "ORDERS":
            letter.add(shown(game, turn, current, deadline))
        elif command.name == "STATUS":
            letter.add(status(game, turn))
        elif command.name == "PLAN":
            letter.add(replies.orders_planned(
                game.id, turn, current, deadline,
                game.ruleset.preview(game.open.state, player, in_force(game, player)[1])))
        elif letter.add(game.ruleset.map_reply(*board(game), game.settings.title)):
            # MAP is answered once a mail (Letter.commands), its picture with it
            svg = game.ruleset.render_position_svg(*board(game))
            if svg is not None:  # the picture of the board beside its text
                letter.attachments.append(Attachment(
                    f"{game.id}-map-{turn.label}.svg", svg.encode(), "image/svg+xml"))
    if letter.left_out:
        out.append(replies.left_out(letter.left_out, REPLY_LIMIT))
    return out


def in_force(game: Game, player: str) -> tuple[dict[str, object] | None, object]:
    """The player's orders in force for the open turn: their entry (None: none)
    and their typed orders as the book decoded them (PLAN previews them; after
    an accepted mail, the mail's orders merged)."""
    f = game.book.in_force_of(player)
    return (None, None) if f is None else (dict(f.entry or {}), f.orders)


def board(game: Game) -> tuple[dict[str, Any], dict[str, str]]:
    """The open position and the names of its players, as players are shown them."""
    players = shown_players(game)
    return players.position(game.position), players.shown_names()
