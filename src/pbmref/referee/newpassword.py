"""The mail that gives a player a new password (``pbmref new-password``).

It is the welcome mail (``referee.welcome``) with its own opening: the game,
the player, that the old password no longer works; then, as in the welcome,
the password, what the player plays, the open turn's deadline with its time
zone and HELP for the player's own game and turn. Like the welcome it goes to
the player's first registered address only, as a secret mail
(``OutgoingSpool.enqueue(secret=True)``): its copy in the spool is deleted
once it is delivered, or once its delivery fails for good (then the game
master runs the command again). In Maildir mode the outbox it is written to
is the delivery itself.
"""

from __future__ import annotations

from pbmref.referee.pipeline import Referee
from pbmref.referee.welcome import welcome_text
from pbmref.store import Game

__all__ = ["mail_new_password", "new_password_text"]


def new_password_text(game: Game, player: str, password: str, referee: str) -> str:
    """The text of the mail giving ``player`` of ``game`` the new ``password``
    (``referee``: the address orders go to)."""
    s = game.settings
    who = s.players[player]
    title = f" ({s.title})" if s.title else ""
    return welcome_text(game, player, password, referee, opening=[
        f"Game {game.id}{title}: the game master has given you, {who.name or player}",
        f"(player id {player}), a new password. Your old one no longer works."])


def mail_new_password(referee: Referee, game: Game, player: str, password: str) -> str:
    """Queue the new-password mail to the player's first registered address and
    try to deliver it at once; returns what became of it: ``sent``, ``queued``
    (the referee tries again later) or ``failed`` (run the command again)."""
    address = game.settings.players[player].addresses[0]
    msg = referee.mail_to(address, f"[{game.id}] your new password",
                          new_password_text(game, player, password, referee.address))
    entry = referee.outgoing.enqueue(msg, secret=True)
    report = referee.outgoing.deliver(referee.sender)
    if entry.id in report.sent:
        return "sent"
    return "failed" if entry.id in report.failed else "queued"
