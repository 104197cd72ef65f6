"""The game master's changes to a running game: deadlines, pause, players, observers.

Each takes the game's lock, reads the game again and changes ``game.yaml``
through ``SettingsFile`` (the game master's comments survive); a change to
the players sets the old file aside. Each change is recorded in the open
turn's ``gm.yaml`` (``pbmref.gm.actions``), so ``pbmref rerun`` replays it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pbmref.base.times import format_duration, iso
from pbmref.base.yamlfile import YamlDoc
from pbmref.gm.actions import record
from pbmref.gm.newgame import check_addresses
from pbmref.reports.notices import extend_notice, pause_notice, resume_notice
from pbmref.store import Game, GameStore, StoreError, hash_password, new_password
from pbmref.store.layout import POSITION_FILE

__all__ = ["Notice", "PlayerChange", "add_observer", "extend", "kick", "notice", "pause",
           "replace_in", "replace_player", "reset_password", "resume"]


@dataclass(frozen=True)
class Notice:
    """A short mail to every player of a game (and its observers): what the
    game master changed. The referee sends it; nothing here mails."""

    game_id: str
    subject: str
    body: str
    to: tuple[str, ...]
    key: str  # the same notice is mailed once


def notice(store: GameStore, game_id: str, change: str) -> Notice:
    """The notice of ``change`` (``pause``, ``resume`` or ``extend``), made after it."""
    game = store.open(game_id)
    s = game.settings
    turn = game.ruleset.words.turn(game.turn_label)
    if change == "pause":
        subject, body = f"[{game_id}] paused", pause_notice(game_id, s.title, turn)
    elif change == "resume":
        subject = f"[{game_id}] resumed: orders for {turn}"
        body = resume_notice(game_id, s.title, turn, s.deadline, s.timezone)
    elif change == "extend":
        subject = f"[{game_id}] new deadline for {turn}"
        body = extend_notice(game_id, s.title, turn, s.deadline, s.timezone)
    else:
        raise ValueError(f"no notice for {change!r}")
    to: list[str] = []
    for player in s.players.values():
        if player.active:
            to += [a for a in player.addresses if a not in to]
    to += [a for a in s.observers if a not in to]
    stamp = s.deadline.isoformat() if s.deadline else "-"
    return Notice(game_id, subject, body, tuple(to), f"{change}:{game_id}:{game.turn}:{stamp}")


@dataclass(frozen=True)
class PlayerChange:
    player: str
    password: str | None  # a new password to mail to the new address
    settings_kept_as: Path | None
    position_kept_as: Path | None = None


def extend(store: GameStore, game_id: str, by: timedelta, *,
           now: datetime | None = None) -> datetime:
    """Move the open turn's deadline later by ``by``; returns the new deadline."""
    game = store.open(game_id)
    with game.lock():
        game.reload()
        before = game.settings
        if before.deadline is None:
            raise StoreError(f"{game_id} has no deadline to extend")
        new = before.deadline + by
        game.change_settings({"deadline": new})
        record(game, "extend", before, at=now or datetime.now(UTC), by=format_duration(by))
        return new


def pause(store: GameStore, game_id: str, *, until: datetime | None = None,
          now: datetime | None = None) -> None:
    """Stop adjudication until ``resume``; the referee refuses order mail meanwhile
    (``replies.game_closed``), saying when the game resumes if the game master
    gave ``until`` (``resume`` is still theirs to run)."""
    now = now or datetime.now(UTC)
    if until is not None and until <= now:
        raise StoreError(f"{until.isoformat()} has passed: say when the game resumes")
    game = store.open(game_id)
    with game.lock():
        game.reload()
        if game.settings.status == "finished":
            raise StoreError(f"{game_id} is finished")
        before = game.settings
        game.change_settings({"status": "paused"})
        record(game, "pause", before, at=now, until=iso(until))


def resume(store: GameStore, game_id: str, now: datetime | None = None) -> datetime | None:
    """Adjudicate again; a deadline that passed during the pause becomes now + turn length."""
    now = now or datetime.now(UTC)
    game = store.open(game_id)
    with game.lock():
        game.reload()
        if game.settings.status == "finished":
            raise StoreError(f"{game_id} is finished")
        before = game.settings
        changes: dict[str, object] = {"status": "open"}
        deadline = game.settings.deadline
        if deadline is None or deadline <= now:
            deadline = now + game.settings.turn_length
            changes["deadline"] = deadline
        game.change_settings(changes)
        record(game, "resume", before, at=now)
        return deadline


def _player_of(game: Game, player: str) -> None:
    if player not in game.settings.players:
        raise StoreError(f"{player!r} is not a player of {game.id}")


def replace_player(store: GameStore, game_id: str, player: str, *,
                   address: str | None = None, name: str | None = None,
                   computer: bool | None = None, new_pw: bool | None = None,
                   now: datetime | None = None,
                   refused_addresses: Sequence[str] = ()) -> PlayerChange:
    """Hand a player's place to someone else (new address/name) or to the computer.

    A new address gets a new password (returned for the referee to mail)
    unless ``new_pw`` is False. The referee's own addresses are refused.
    """
    if address is None and name is None and computer is None and not new_pw:
        raise ValueError(f"nothing to change: say who takes {player}'s place (--address "
                         "ADDRESS, --name NAME) or give it to the computer (--computer)")
    if address is not None:
        check_addresses([address], refused_addresses)
    game = store.open(game_id)
    with game.lock():
        game.reload()
        return replace_in(game, player, address=address, name=name, computer=computer,
                          new_pw=new_pw, now=now)


def replace_in(game: Game, player: str, *, address: str | None = None,
               name: str | None = None, computer: bool | None = None,
               new_pw: bool | None = None, now: datetime | None = None) -> PlayerChange:
    """``replace_player`` on a game whose lock the caller holds (read again)."""
    _player_of(game, player)
    password = None
    if new_pw or (new_pw is None and address is not None and not computer):
        password = new_password()

    def change(data: Any) -> None:
        p = data["players"][player]
        if address is not None:
            p["addresses"] = [address]
        if name is not None:
            p["name"] = name
        if computer is not None:
            p["computer"] = computer
        if password is not None:
            p["password_hash"] = hash_password(password)
        p["status"] = "active"

    before = game.settings
    kept = game.update_settings(change)
    record(game, "replace-player", before, at=now or datetime.now(UTC), player=player)
    return PlayerChange(player, password, kept)


def reset_password(store: GameStore, game_id: str, player: str) -> PlayerChange:
    """Give a player a new default password (``store.passwords``), returned once
    for the referee to mail; only its hash is written, and the old one no longer
    works. This is how a game made with the older, weaker passwords moves on.
    Nothing adjudication reads changes (hashes are never in ``gm.yaml``): no
    action is recorded."""
    game = store.open(game_id)
    with game.lock():
        game.reload()
        _player_of(game, player)
        p = game.settings.players[player]
        if p.status == "kicked" or p.computer or not p.addresses:
            raise StoreError(f"{player} of {game_id} plays by no mail (kicked, or played by "
                             "the computer): there is nobody to mail a password to")
        password = new_password()

        def change(data: Any) -> None:
            data["players"][player]["password_hash"] = hash_password(password)

        return PlayerChange(player, password, game.update_settings(change))


def kick(store: GameStore, game_id: str, player: str, *,
         now: datetime | None = None) -> PlayerChange:
    """Remove a player: mails ignored from now on, their side out of play."""
    game = store.open(game_id)
    with game.lock():
        game.reload()
        _player_of(game, player)

        def change(data: Any) -> None:
            data["players"][player]["status"] = "kicked"

        before = game.settings
        kept = game.update_settings(change)
        position = game.ruleset.remove_player(game.position, player)
        pos_kept = None
        if position is not None:
            path = game.turn_dir(game.turn) / POSITION_FILE
            game.check_position(YamlDoc(path, "", position))
            pos_kept = game.history.replace(game.turn, POSITION_FILE,
                                            game.history.position_text(game.turn, position))
            game.reload()
        game.write_schedule()
        record(game, "kick", before, at=now or datetime.now(UTC), player=player)
        return PlayerChange(player, None, kept, pos_kept)


def add_observer(store: GameStore, game_id: str, address: str, *,
                 now: datetime | None = None,
                 refused_addresses: Sequence[str] = ()) -> PlayerChange | None:
    """Add an address that receives every report (None if it is there already)."""
    check_addresses([address], refused_addresses)
    game = store.open(game_id)
    with game.lock():
        game.reload()
        if game.settings.is_observer(address):
            return None

        def change(data: Any) -> None:
            if data.get("observers") is None:
                data["observers"] = []
            data["observers"].append(address)

        before = game.settings
        kept = game.update_settings(change)
        record(game, "add-observer", before, at=now or datetime.now(UTC), address=address)
        return PlayerChange("", None, kept)
