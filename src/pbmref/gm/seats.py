"""A player's place in a running game: resigning, the standby list, taking over,
absences and a player's time zone (rules J6, J7, J11, J12).

The referee calls these when a player mails ``RESIGN``, ``JOIN`` (a game
being played: the standby list), ``TAKEOVER``, ``SET ABSENCE`` or ``SET
TIMEZONE``; each takes the lock of the ``Game`` it is given (the referee
may hold it already: it is re-entrant for that object), reads it again and
changes it through the store, records what adjudication reads in the open turn's
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
from pbmref.store import Game, StoreError
from pbmref.store.absences import Absence
from pbmref.store.deadlines import on_allowed_day, pushed_past
from pbmref.store.lobby import Joined, read_standby, write_standby

__all__ = ["AbsenceSet", "SeatRefused", "TakenOver", "absence_refused", "join_standby",
           "open_place_of", "resign", "set_absence", "set_timezone", "take_over",
           "zone_refused"]


class SeatRefused(StoreError):
    """What a player asked cannot be done (``rule``: the rule that says so)."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule


def _place(game: Game, player: str) -> str:
    """The place a player holds, as the game kind names it (their id when it has none)."""
    return game.ruleset.place_of(game.open.position, player) or player


def resign(game: Game, player: str, *, now: datetime | None = None) -> str:
    """``player`` gives up their place (J6); returns the place, now open (J7)."""
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


def join_standby(game: Game, joined: Joined, *,
                 refused_addresses: Sequence[str] = ()) -> bool:
    """Put an address on a running game's standby list (J2, J7); False when it
    is there already."""
    check_addresses([joined.address], refused_addresses)
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


def take_over(game: Game, place: str, joined: Joined, *, now: datetime | None = None,
              refused_addresses: Sequence[str] = ()) -> TakenOver:
    """Give the open ``place`` to ``joined`` (J7): a new password, the address
    off the standby list."""
    check_addresses([joined.address], refused_addresses)
    game_id = game.id
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


def absence_refused(game: Game, player: str, first: date, last: date,
                    now: datetime) -> str | None:
    """Why an absence cannot be set (J11: the game's bounds, a day past), or None."""
    s = game.settings
    p = s.players.get(player)
    if p is None or not p.active:
        return "you hold no place in this game"
    days = (last - first).days + 1
    longest = s.deadlines.absence_longest.days
    if longest <= 0:
        return "this game takes no absences"
    if days > longest:
        return f"an absence may be {longest} days long at most in this game; this one is {days}"
    taken = game.absences.days_taken(player)
    total = s.deadlines.absence_total.days
    if taken + days > total:
        return (f"you have {max(0, total - taken)} days of absence left in this game (of "
                f"{total}); this one is {days}")
    if first < now.astimezone(ZoneInfo(s.zone_of(player))).date():
        return f"{first.isoformat()} has passed"
    return None


def set_absence(game: Game, player: str, first: date, last: date, *,
                now: datetime | None = None) -> AbsenceSet:
    """Record ``player``'s absence from ``first`` to ``last`` (J11) within the
    game's bounds; the open deadline moves past it when it falls within."""
    now = now or datetime.now(UTC)
    with game.lock():
        game.reload()
        refused = absence_refused(game, player, first, last, now)
        if refused is not None:
            raise SeatRefused(refused, "J11")
        s = game.settings
        absence = Absence(player, first, last, s.zone_of(player), now)
        game.absences.add(absence)
        old = s.deadline
        new = None
        if old is not None and s.status == "open":
            moved = on_allowed_day(pushed_past(old, [absence.span], s.zone), s.deadlines.days,
                                   s.zone)
            if moved != old:
                new = moved
                game.change_settings({"deadline": moved})
                record(game, "absence", s, at=now, player=player)
        return AbsenceSet(absence, old, new)


def zone_refused(zone: str) -> str | None:
    """Why ``zone`` is no time zone this machine knows (J12), or None."""
    try:
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        return f"{zone} is not a time zone name like Europe/Paris or America/New_York"
    return None


def set_timezone(game: Game, player: str, zone: str) -> str:
    """The time zone ``player`` reads deadlines in (J12); returns it as written."""
    refused = zone_refused(zone)
    if refused is not None:
        raise SeatRefused(refused, "J12")
    with game.lock():
        game.reload()
        if player not in game.settings.players:
            raise SeatRefused("you hold no place in this game", "J12")

        def change(data: Any) -> None:
            data["players"][player]["timezone"] = zone

        game.update_settings(change)
        return zone

