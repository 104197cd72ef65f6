"""The welcome mail: the one mail that carries a player's password on purpose.

``new-game``, ``new-class`` and ``replace-player`` can mail each (new) player
their game, their password, what they play (aircraft and airfield, plane, or
power: the ruleset's ``player_brief``), the open turn's deadline with its
time zone, and HELP for their own game and turn (``guide.help_text``).

Everything about it is composed and queued here, and only here:
``welcome_text`` writes it, ``queue_welcome`` puts one mail per player in the
outgoing spool (keyed, so running it twice sends nothing twice, while a new
password is a new mail), and ``mail_welcome`` is what the command line calls.
It is queued as a secret mail (issue 15): its copy in the spool is deleted
once it is delivered, or once it fails for good. In Maildir mode the outbox
it is written to is its delivery. ``pbmref new-password`` sends the same mail
with another opening (``referee.newpassword``).
"""

from __future__ import annotations

import hashlib
import textwrap
from collections.abc import Mapping, Sequence

from pbmref.config import Config, load_config
from pbmref.referee import guide, replies
from pbmref.referee.pipeline import Referee
from pbmref.reports.common import wrap
from pbmref.store import Game, GameStore

__all__ = ["mail_welcome", "queue_welcome", "welcome_subject", "welcome_text"]


def welcome_subject(game: Game) -> str:
    return f"[{game.id}] welcome: your password and how to send orders"


def welcome_text(game: Game, player: str, password: str | None, referee: str, *,
                 opening: Sequence[str] = (), note: str = "") -> str:
    """The welcome mail of ``player`` (``password``: theirs, None when the game
    needs none); ``referee`` is the address orders go to. ``opening``: other
    first lines than the welcome's own (a new password's); ``note``: a line
    after them (why the mail comes now: a game that starts, J4; a place
    taken over, J7). The deadline is in the player's own time zone (J12)."""
    s = game.settings
    who = s.players[player]
    title = f" ({s.title})" if s.title else ""
    lines = list(opening) or [
        f"Welcome to game {game.id}{title}, a game of {game.ruleset.title} played",
        f"by mail. You play as {who.name or player} (player id {player})."]
    if note:
        lines += ["", *wrap(note)]
    lines.append("")
    if password is not None:
        lines += [f"Your password: {password}", "",
                  "Keep it secret and keep this mail: every order mail needs the line",
                  "PASSWORD and your password (HELP, HELP <rule> and STATUS do not)."]
    elif who.password_hash is not None:
        lines.append("Your password is the one the game master gave you.")
    else:
        lines.append("This game needs no password.")
    brief = game.ruleset.player_brief(game.open.state, player)
    if brief:
        lines += ["", brief]
    turn = replies.TurnName(game.turn_label, game.ruleset.words)
    lines += ["", f"{turn.title()} is open; its deadline is",
              f"{replies.when(s.deadline, s.zone_of(player))}.",
              f"Mail your orders to {referee}.", "", replies.RULE, ""]
    return _fitted("\n".join(lines) + guide.help_text(game, player))


def _fitted(text: str, width: int = 70) -> str:
    """Every line at most ``width`` columns (a longer one wrapped at its spaces,
    its indent kept), as the reports are: a phone shows no 125-column line.

    >>> _fitted("  one two three", 9).split("\\n")
    ['  one two', '  three']
    """
    out: list[str] = []
    for line in text.split("\n"):
        indent = line[:len(line) - len(line.lstrip(" "))]
        out += textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=False,
                             break_on_hyphens=False) if len(line) > width else [line]
    return "\n".join(out)


def queue_welcome(referee: Referee, game: Game, passwords: Mapping[str, str | None],
                  players: list[str] | None = None, *, note: str = "") -> int:
    """Queue the welcome mail of each of ``players`` (default: every human with
    an address) to their first address, with ``note`` (``welcome_text``);
    returns how many were queued."""
    count = 0
    wanted = players if players is not None else [p.id for p in game.settings.humans()]
    for pid in wanted:
        player = game.settings.players[pid]
        if player.computer or not player.addresses:
            continue
        password = passwords.get(pid)
        body = welcome_text(game, pid, password, referee.address, note=note)
        address = player.addresses[0]
        digest = hashlib.sha256((password or "").encode()).hexdigest()[:12]
        referee.outgoing.enqueue(referee.mail_to(address, welcome_subject(game), body),
                                 key=f"welcome:{game.id}:{pid}:{address}:{digest}",
                                 secret=password is not None)
        count += 1
    return count


def mail_welcome(store: GameStore, game_id: str, passwords: Mapping[str, str | None], *,
                 players: list[str] | None = None, config: Config | None = None) -> int:
    """Queue and send the welcome mails of a game's players (``pbmref new-game``,
    ``new-class``, ``replace-player``); what is not delivered now stays in the
    outgoing spool for the referee's next round."""
    referee = Referee(config or load_config(), store=store)
    count = queue_welcome(referee, store.open(game_id), passwords, players)
    referee.deliver()
    return count
