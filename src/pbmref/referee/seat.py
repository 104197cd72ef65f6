"""A player's own place by mail: RESIGN, SET ABSENCE and SET TIMEZONE (J6, J11, J12).

One ``SeatDesk`` serves one identified player's mail (a pipeline
``Letter``, its password checked) while the game is locked, beside the
press desk (``press.PressDesk`` asks it): ``problems`` checks what the mail
asks before anything is stored (a mistake refuses the mail whole, like an
order error: the game's bounds of J11, a time zone that does not exist,
RESIGN beside orders), ``deliver`` does it through ``gm.seats`` and tells
everyone what they must know: a place open for takeover (J6, J7), an
absence and the deadline it moves (J11), each reader's deadline in their
own time zone (J12). An anonymous game names the player by their place.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from pbmref.archive import shown_players
from pbmref.gm.seats import (
    absence_refused,
    resign,
    set_absence,
    set_timezone,
    zone_refused,
)
from pbmref.orders.envelope import Command
from pbmref.orders.errors import OrderMailError
from pbmref.orders.press import PressError
from pbmref.referee import replies
from pbmref.referee.lobbytext import paragraph
from pbmref.store.lobby import read_standby

if TYPE_CHECKING:
    from pbmref.referee.letter import Letter
    from pbmref.referee.pipeline import Referee

__all__ = ["SEAT_COMMANDS", "SeatDesk"]

SEAT_COMMANDS = ("RESIGN", "SET")


def _days(command: Command) -> tuple[date, date]:
    """SET ABSENCE FROM first TO last: the two days (checked by the envelope)."""
    return date.fromisoformat(command.args[2]), date.fromisoformat(command.args[4])


@dataclass
class SeatDesk:
    """What one mail asks of the sender's own place."""

    referee: Referee
    letter: Letter

    @property
    def commands(self) -> list[Command]:
        return [c for c in self.letter.envelope.commands
                if c.name in SEAT_COMMANDS and not (c.name == "RESIGN" and c.args)]

    def problems(self) -> list[OrderMailError]:
        """Every mistake of the mail's RESIGN and SET lines (J6, J11, J12)."""
        out: list[OrderMailError] = []
        game = self.letter.game
        for c in self.commands:
            why, rule = "", ""
            if c.name == "RESIGN" and (self.letter.envelope.body
                                       or len(self.letter.envelope.commands) > 1):
                why, rule = "RESIGN gives up your place: send it alone, in a mail of its own", \
                    "J6"
            elif c.name == "SET" and c.args[0] == "TIMEZONE":
                why, rule = zone_refused(c.args[1]) or "", "J12"
            elif c.name == "SET":
                first, last = _days(c)
                why = absence_refused(game, self.letter.player, first, last,
                                      self.referee.clock()) or ""
                rule = "J11"
            if why:
                out.append(PressError(why, rule=rule, line_no=c.line_no, line=c.line))
        return out

    def deliver(self) -> list[str]:
        """Do what the mail asks (it is accepted); the sections of the reply."""
        return [self._do(c) for c in self.commands]

    def _do(self, c: Command) -> str:
        letter, referee = self.letter, self.referee
        game, player = letter.game, letter.player
        if c.name == "RESIGN":
            place = resign(game, player, now=referee.clock())
            self._tell_all(f"[{game.id}] {place} is open", (
                f"The player of {place} in game {game.id} has resigned (rule J6). The place "
                f"is open: TAKEOVER {game.id} {place} asks for it (rule J7). Until someone "
                "takes it over it plays without orders."), key=f"resign:{player}",
                standby=True)
            return "\n".join(paragraph(
                f"RESIGN: done. You have given up your place ({place}) in game {game.id} "
                "(rule J6); your orders no longer count. Thank you for playing."))
        if c.args[0] == "TIMEZONE":
            zone = set_timezone(game, player, c.args[1])
            turn = game.ruleset.words.turn(game.turn_label)
            return "\n".join(paragraph(
                f"SET TIMEZONE {zone}: done. Deadlines are given in your time zone from now "
                f"on (rule J12); the deadline of {turn} is "
                f"{replies.when(game.settings.deadline, zone)}."))
        first, last = _days(c)
        done = set_absence(game, player, first, last, now=referee.clock())
        turn = game.ruleset.words.turn(game.turn_label)
        who = shown_players(game).name(player)
        span = f"from {first.isoformat()} to {last.isoformat()}"

        def moved(zone: str) -> str:
            if done.new_deadline is None:
                return f"The deadline of {turn} stays {replies.when(game.settings.deadline, zone)}."
            return (f"The deadline of {turn} moves to {replies.when(done.new_deadline, zone)}; "
                    "later deadlines that fall in the absence move past it too.")

        self._tell_all(f"[{game.id}] {who} is away {span}", lambda zone: (
            f"{who} will be away {span} (rule J11). {moved(zone)}"),
            key=f"absence:{player}:{first.isoformat()}", leave_out=player)
        return "\n".join(paragraph(
            f"SET ABSENCE {span}: done (rule J11). {moved(game.settings.zone_of(player))} "
            "Everyone in the game is told."))

    def _tell_all(self, subject: str, text: str | object, *, key: str,
                  leave_out: str = "", standby: bool = False) -> None:
        """Mail every active player but ``leave_out`` and every observer (and
        the standby list) the notice ``text``: a callable gets the reader's
        time zone (J12)."""
        game, referee = self.letter.game, self.referee
        s = game.settings
        readers: dict[str, str] = {}
        for pid, p in s.players.items():
            if p.active and pid != leave_out and pid != self.letter.player:
                for a in p.addresses:
                    readers.setdefault(a, s.zone_of(pid))
        for a in s.observers:
            readers.setdefault(a, s.timezone)
        if standby:
            for j in read_standby(game.dir).standby:
                readers.setdefault(j.address, s.timezone)
        for address, zone in readers.items():
            body = text(zone) if callable(text) else str(text)
            referee.outgoing.enqueue(referee.mail_to(address, subject, "\n".join(
                paragraph(body))), key=f"seat:{game.id}:{game.turn}:{key}:{address}")
