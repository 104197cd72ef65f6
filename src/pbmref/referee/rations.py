"""Rations: how many replies the referee writes, to whom, and how often.

Nobody can make the referee write without end, and nobody without a password
can silence a player (issue 15):

- a reply to a mail whose password was checked is never withheld;
- the warning about a wrong or missing password goes to the registered
  address once an hour per player; from ``PASSWORD_FLOOD`` such mails within
  an hour on, one summary goes to the player and one notice to the game master
  (a day), and ``pbmref status`` shows the count -- the right password is
  accepted all the while (no lockout);
- a registered player's mail without a password that asks a question
  (``questions``) is answered: a command within the replies per address, words
  alone once an hour with the warning, a reply to a press relay always;
- the "how to join" note goes to a stranger once a day, to all strangers at
  most ``STRANGER_BUDGET`` times an hour, and is recorded only when sent;
- every other reply counts against ``REPLY_BUDGET`` per address (the loop
  breaker for robots that answer every mail).

What a reply uses up is counted in ``RefereeState`` under the answered mail's
key, so a mail handled again after a crash counts nothing twice.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import TYPE_CHECKING

from pbmref.mail.compose import Mail
from pbmref.mail.message import IncomingMail
from pbmref.orders.envelope import OrderMail
from pbmref.referee import guide, replies
from pbmref.referee.answers import answer
from pbmref.referee.letter import HandledMail, Letter
from pbmref.referee.state import Ration

if TYPE_CHECKING:
    from pbmref.referee.pipeline import Referee

log = logging.getLogger("pbmref.referee")

# At most this many replies to one address within REPLY_WINDOW: a robot that
# answers every mail without the auto-reply headers (a naive vacation responder)
# and the referee would otherwise write to each other for ever.
REPLY_BUDGET = 30
REPLY_WINDOW = timedelta(hours=1)
# At most this many "how to join" notes in all within REPLY_WINDOW: a flood of
# mail with forged senders must not make the referee a source of backscatter.
STRANGER_BUDGET = 50
# From this many mails with a wrong or missing password for one player within
# REPLY_WINDOW on, they are a flood: no more answers one by one, one summary.
PASSWORD_FLOOD = 5


def ration(referee: Referee, result: HandledMail, token: str | None = None) -> None:
    """Withhold the replies when what they use up is used up (HandledMail.rations)."""
    rations = result.rations
    if rations is None:
        to = dict.fromkeys(str(m.get("To", "")).strip().lower() for m in result.replies)
        rations = tuple(Ration("replies", a, REPLY_BUDGET, REPLY_WINDOW) for a in to)
    if not result.replies or not rations:
        return
    if not referee.state.within_budgets(referee.clock(), rations, token=token):
        log.warning("not answering %s: %s used up (a mail loop, or a flood?)",
                    ", ".join(str(m.get("To", "")) for m in result.replies),
                    ", ".join(f"{r.kind} {r.key}" for r in rations))
        result.summary += "; reply withheld: " + ", ".join(r.kind for r in rations) + \
            " used up"
        result.replies = []


def how_to_join(referee: Referee, mail: IncomingMail,
                envelope: OrderMail | None = None) -> HandledMail:
    """The how-to-join note to a stranger (with how an order mail looks when the
    mail asked for HELP); it quotes nothing of the stranger's mail. Once a day
    per address, STRANGER_BUDGET an hour in all; recorded only when it is sent
    (``ration``)."""
    sender = mail.from_addr
    body = replies.how_to_join(referee.address)
    if envelope is not None and envelope.command("HELP") is not None:
        body += "\n\n" + guide.stranger_help()
    return HandledMail([referee.reply(mail, sender, body)],
                       "unknown sender: told how to join", rations=(
                           Ration("joined", sender, 1, timedelta(days=1)),
                           Ration("strangers", "*", STRANGER_BUDGET, REPLY_WINDOW),
                           Ration("replies", sender, REPLY_BUDGET, REPLY_WINDOW)))


def password_warned(gid: str, pid: str) -> tuple[Ration, ...]:
    """The ration of a mail answered without the password: once an hour a player."""
    return (Ration("password-warned", f"{gid}/{pid}", 1, REPLY_WINDOW),)


def wrong_password(referee: Referee, letter: Letter) -> HandledMail:
    """A mail for a player with a wrong or missing password: counted for the
    GM (``pbmref status``); the player is warned once an hour, and from
    PASSWORD_FLOOD such mails within an hour on the player gets one summary and
    the game master one notice a day instead."""
    gid, pid, sender = letter.game.id, letter.player, letter.mail.from_addr
    now = referee.clock()
    count = referee.state.password_failure(gid, pid, sender, now)
    if count < PASSWORD_FLOOD:
        warning = answer(referee, letter, replies.wrong_password(gid, sender),
                         "rejected: wrong password")
        warning.rations = password_warned(gid, pid)
        return warning
    summary = f"rejected: wrong password, {count} for {pid} within an hour"
    notes: list[Mail] = [referee.mail_to(letter.to, f"[{gid}] mails with a wrong password",
                             replies.password_flood(gid, pid, count))]
    gm_address = referee.config.referee.game_master
    if gm_address:
        notes.append(referee.mail_to(gm_address, f"[{gid}] wrong passwords for {pid}",
                                     replies.password_flood_gm(gid, pid, count, sender)))
    return HandledMail(notes, summary, gid, rations=(
        Ration("password-flood", f"{gid}/{pid}", 1, timedelta(days=1)),))
