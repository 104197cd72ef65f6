"""Lateness notices (J10): when a deadline passes while orders are missing.

A game with a grace period is not played at its deadline while a player who
has something to order has sent no orders (``Schedule.due_at``). At the
deadline, once a turn, each late player gets a lateness notice (their orders
are late, what happens without them, when the grace period ends) and every
other player and observer a note of who is late and until when the referee
waits; each reader's times in their own time zone (J12), each late player
named as the game shows them (an anonymous game: by their place).

The games to look at come from the store's index (``lates_due``: those past
their deadline, within their grace period, with someone late), so a round
opens only those, and only until their notices are recorded in the
referee's state (``late-notices``: the last turn told, per game).
"""

from __future__ import annotations

import logging

from pbmref.archive import shown_players
from pbmref.referee import replies
from pbmref.referee.lobbytext import paragraph
from pbmref.referee.pipeline import Referee
from pbmref.store import Game, StoreError
from pbmref.store.schedule import grace_end

__all__ = ["KIND", "send_lateness_notices"]

log = logging.getLogger("pbmref.referee")
KIND = "late-notices"


def send_lateness_notices(referee: Referee) -> int:
    """Queue the lateness notices of every game whose grace period has begun
    (J10), once a turn; returns how many mails were queued."""
    now = referee.clock()
    index = referee.store.index
    with referee.round():
        games = index.lates_due(now)
        if not games:
            return 0
        turns = index.turns(games)
    told = referee.state.values(KIND, games)
    count = 0
    for gid in games:
        if told.get(gid) == turns.get(gid):
            continue
        try:
            game = referee.store.open(gid)
        except StoreError as exc:
            log.error("game %s: no lateness notices: %s", gid, exc)
            continue
        if not game.schedule.in_grace(now):
            continue
        count += _notices(referee, game)
        referee.state.raise_to(KIND, gid, game.turn)
    return count


def _notices(referee: Referee, game: Game) -> int:
    s = game.settings
    late = game.waiting_for()
    end = grace_end(s)
    shown = shown_players(game)
    names = ", ".join(shown.name(p) for p in late)
    count = 0
    readers: dict[str, str] = {}  # address -> the player reading ("": an observer)
    for player, p in s.players.items():
        if p.active and not p.computer:
            for address in p.addresses:
                readers.setdefault(address, player)
    for address in s.observers:
        readers.setdefault(address, "")
    for address, pid in readers.items():
        zone = s.zone_of(pid)
        turn = replies.TurnName(game.turn_label, game.ruleset.words_for(game.open.state, pid)
                                if pid else game.ruleset.words)
        if pid in late:
            subject = f"[{game.id}] your orders for {turn} are late"
            text = [*paragraph(
                f"Game {game.id}: the deadline of {turn} passed at "
                f"{replies.when(s.deadline, zone)} and the referee has no orders from you "
                f"(rule J10). It waits for them until {replies.when(end, zone)}; {turn} is "
                "played as soon as they are in, or then at the latest."),
                "", *turn.words.reminder]
        else:
            subject = f"[{game.id}] waiting for late orders"
            text = paragraph(
                f"Game {game.id}: the deadline of {turn} has passed; orders are missing "
                f"from {names} (rule J10). {turn.title()} is played when they are in, or at "
                f"{replies.when(end, zone)} at the latest.")
        referee.outgoing.enqueue(referee.mail_to(address, subject, "\n".join(text)),
                                 key=f"late:{game.id}:{game.turn}:{address}")
        count += 1
    return count
