"""A player's place in a running game: resigning, the standby list, taking over,
absences and a player's time zone (rules J6, J7, J11, J12).

The referee calls these when a player mails ``RESIGN``, ``JOIN`` (a game
being played: the standby list), ``TAKEOVER``, ``SET ABSENCE`` or ``SET
TIMEZONE``; each takes the game's lock, reads it again and changes it
through the store, records what adjudication reads in the open turn's
``gm.yaml`` (a re-run replays it) and returns what the referee tells the
players. Nothing here mails. A request the rules refuse raises
``SeatRefused`` with the rule and plain words, and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pbmref.gm.actions import record
from pbmref.gm.newgame import check_addresses
from pbmref.gm.players import PlayerChange, replace_in
from pbmref.store import Game, GameStore, StoreError
from pbmref.store.absences import Absence
from pbmref.store.deadlines import on_allowed_day, pushed_past
from pbmref.store.lobby import Joined, read_standby, write_standby

__all__ = ["AbsenceSet", "SeatRefused", "TakenOver", "join_standby", "open_place_of",
           "resign", "set_absence", "set_timezone", "take_over"]


class SeatRefused(StoreError):
    """What a player asked cannot be done (``rule``: the rule that says so)."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule


def _place(game: Game, player: str) -> str:
    """The place a player holds, as the game kind names it (their id when it has none)."""
    return game.ruleset.place_of(game.open.position, player) or player


def resign(store: GameStore, game_id: str, player: str, *,
           now: datetime | None = None) -> str:
    """``player`` gives up their place (J6); returns the place, now open (J7)."""
    game = store.open(game_id)
    with game.lock():
        game.reload()
        p = game.settings.players.get(player)
        if p is None or not p.active:
            raise SeatRefused("you hold no place in this game", "J6")
        if game.settings.status == "finished":
            raise SeatRefused("the game has ended", "J6")

        def change(data: Any) -> None:
            data["players"][player]["status"] = "resigned"

        before = game.settings
        game.update_settings(change)
        record(game, "resign", before, at=now or datetime.now(UTC), player=player)
        return _place(game, player)


def join_standby(store: GameStore, game_id: str, joined: Joined, *,
                 refused_addresses: Sequence[str] = ()) -> bool:
    """Put an address on a running game's standby list (J2, J7); False when it
    is there already."""
    check_addresses([joined.address], refused_addresses)
    game = store.open(game_id)
    with game.lock():
        game.reload()
        if game.settings.status == "finished":
            raise SeatRefused("the game has ended", "J2")
        held = game.settings.player_by_address(joined.address)
        if held is not None and held.active:
            raise SeatRefused("you play in this game already", "J2")
        kept = read_standby(game.dir)
        if kept.on_standby(joined.address):
            return False
        write_standby(game.dir, kept, (*kept.standby, joined))
        return True


def open_place_of(game: Game, place: str) -> str | None:
    """The player whose open place (J7) is ``place`` (its code, any case), or None."""
    wanted = place.strip().upper()
    for pid, p in game.settings.players.items():
        if p.open_place and _place(game, pid).upper() == wanted:
            return pid
    return None


@dataclass(frozen=True)
class TakenOver:
    player: str
    place: str
    change: PlayerChange  # with the new password, to mail once


def take_over(store: GameStore, game_id: str, place: str, joined: Joined, *,
              now: datetime | None = None,
              refused_addresses: Sequence[str] = ()) -> TakenOver:
    """Give the open ``place`` to ``joined`` (J7): a new password, the address
    off the standby list."""
    check_addresses([joined.address], refused_addresses)
    game = store.open(game_id)
    with game.lock():
        game.reload()
        s = game.settings
        if s.status == "finished":
            raise SeatRefused("the game has ended", "J7")
        pid = open_place_of(game, place)
        if pid is None:
            open_ = [_place(game, p) for p, q in s.players.items() if q.open_place]
            raise SeatRefused(f"{place} is not an open place of {game_id}"
                              + (f" (open: {', '.join(open_)})" if open_
                                 else " (no place is open)"), "J7")
        held = s.player_by_address(joined.address)
        if held is not None and held.active:
            raise SeatRefused("you play in this game already", "J7")
        kept = read_standby(game.dir)
        if s.takeover == "standby" and not kept.on_standby(joined.address):
            raise SeatRefused(f"{game_id} gives open places to its standby list only: "
                              f"send JOIN {game_id} first", "J7")
        change = replace_in(game, pid, address=joined.address, name=joined.name or None,
                            now=now)
        if kept.on_standby(joined.address):
            write_standby(game.dir, kept, [j for j in kept.standby
                                           if j.address.lower() != joined.address.lower()])
        return TakenOver(pid, place.upper(), change)


@dataclass(frozen=True)
class AbsenceSet:
    absence: Absence
    old_deadline: datetime | None
    new_deadline: datetime | None  # None: the open deadline did not move

    @property
    def moved(self) -> bool:
        return self.new_deadline is not None


def set_absence(store: GameStore, game_id: str, player: str, first: date, last: date, *,
                now: datetime | None = None) -> AbsenceSet:
    """Record ``player``'s absence from ``first`` to ``last`` (J11) within the
    game's bounds; the open deadline moves past it when it falls within."""
    now = now or datetime.now(UTC)
    game = store.open(game_id)
    with game.lock():
        game.reload()
        s = game.settings
        p = s.players.get(player)
        if p is None or not p.active:
            raise SeatRefused("you hold no place in this game", "J11")
        zone_name = s.zone_of(player)
        zone = ZoneInfo(zone_name)
        absence = Absence(player, first, last, zone_name, now)
        rules = s.deadlines
        longest = rules.absence_longest.days
        if longest <= 0:
            raise SeatRefused("this game takes no absences", "J11")
        if absence.days > longest:
            raise SeatRefused(f"an absence may be {longest} days long at most in this game; "
                              f"this one is {absence.days}", "J11")
        taken = game.absences.days_taken(player)
        if taken + absence.days > rules.absence_total.days:
            left = max(0, rules.absence_total.days - taken)
            raise SeatRefused(f"you have {left} days of absence left in this game (of "
                              f"{rules.absence_total.days}); this one is {absence.days}",
                              "J11")
        if first < now.astimezone(zone).date():
            raise SeatRefused(f"{first.isoformat()} has passed", "J11")
        game.absences.add(absence)
        old = s.deadline
        new = None
        if old is not None and s.status == "open":
            moved = on_allowed_day(pushed_past(old, [absence.span], s.zone), rules.days, s.zone)
            if moved != old:
                new = moved
                game.change_settings({"deadline": moved})
                record(game, "absence", s, at=now, player=player)
        return AbsenceSet(absence, old, new)


def set_timezone(store: GameStore, game_id: str, player: str, zone: str) -> str:
    """The time zone ``player`` reads deadlines in (J12); returns it as written."""
    try:
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise SeatRefused(f"{zone} is not a time zone name like Europe/Paris or "
                          "America/New_York", "J12") from None
    game = store.open(game_id)
    with game.lock():
        game.reload()
        if player not in game.settings.players:
            raise SeatRefused("you hold no place in this game", "J12")

        def change(data: Any) -> None:
            data["players"][player]["timezone"] = zone

        game.update_settings(change)
        return zone

