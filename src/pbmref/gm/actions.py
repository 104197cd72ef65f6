"""The game master's actions on a running game, recorded per turn, so a re-run
replays them.

Every command that changes a game between two adjudications (``kick``,
``replace-player``, ``extend``, ``pause``, ``resume``, ``add-observer``, a
class's pilot moved by ``roster rebalance --apply``; by mail, a player's
``RESIGN``, J6, and an absence that moves the deadline, J11) appends one entry to
``turns/NNN/gm.yaml`` of the turn open at the time: when, what, for whom, and
the values of ``game.yaml`` it changed, before and after (password hashes
left out)::

    - at: '2026-12-03T13:00:00+00:00'
      action: kick
      player: carl
      before: {players: {carl: {status: active}}}
      after: {players: {carl: {status: kicked}}}

The file only grows: each entry is added to the end, and the new file is put
in place whole (``base.files.replace_file``), so what was written stays as it
was. ``pbmref rerun`` reads these files back (``GmLog``): a turn is played
again with the settings as they were when it was adjudicated
(``settings_at``: the actions of later turns undone), and the position it
leads to gets the actions of the next turn applied again (``replay``: a kick
takes the plane out of play, ``Ruleset.remove_player``), so an unedited
re-run changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from pbmref.base.errors import GameFileError
from pbmref.base.files import replace_file
from pbmref.base.times import iso, moment
from pbmref.base.yamlfile import YamlDoc, dump_yaml, load_text, read_yaml
from pbmref.rules.plaindata import mapping
from pbmref.store import Game, GameSettings
from pbmref.store.errors import DataError, TurnError
from pbmref.store.settings import Player, player_to_dict, settings_from_dict, settings_to_dict

__all__ = ["ACTIONS", "GM_FILE", "GmAction", "GmLog", "actions_of", "paused_until", "record"]

GM_FILE = "gm.yaml"
ACTIONS = ("kick", "replace-player", "extend", "pause", "resume", "add-observer",
           "transfer-in", "transfer-out", "resign", "absence")
_DETAILS = ("player", "address", "by", "until", "from_game", "to_game", "aircraft")
_KEYS = {"at", "action", "before", "after", *_DETAILS}
_SECRET = "password_hash"  # never copied into the record


@dataclass(frozen=True)
class GmAction:
    """One recorded action of the game master."""

    turn: int  # the turn open when it was done
    at: datetime
    action: str
    before: dict[str, object]  # game.yaml values it changed, as they were
    after: dict[str, object]  # ... and as it left them
    player: str | None = None
    details: Mapping[str, object] | None = None  # address, by, until, from_game, to_game, ...


# ------------------------------------------------------------------ writing


def _player_data(player: Player | None) -> dict[str, object] | None:
    """A player as ``game.yaml`` keeps them, without the password's hash."""
    return None if player is None else {
        k: v for k, v in player_to_dict(player).items() if k != _SECRET}


def _changes(old: GameSettings, new: GameSettings) -> tuple[dict[str, object],
                                                           dict[str, object]]:
    """What differs between two versions of the settings: (before, after), in
    ``game.yaml``'s own keys; a player added or removed is None on one side."""
    a, b = settings_to_dict(old), settings_to_dict(new)
    before: dict[str, object] = {}
    after: dict[str, object] = {}
    for key in dict.fromkeys([*a, *b]):
        if key != "players" and a.get(key) != b.get(key):
            before[key], after[key] = a.get(key), b.get(key)
    was, now = old.players, new.players
    players_before: dict[str, object] = {}
    players_after: dict[str, object] = {}
    for pid in dict.fromkeys([*was, *now]):
        old_p, new_p = _player_data(was.get(pid)), _player_data(now.get(pid))
        if old_p is None or new_p is None:
            if old_p != new_p:
                players_before[pid], players_after[pid] = old_p, new_p
            continue
        fields = [f for f in dict.fromkeys([*old_p, *new_p]) if old_p.get(f) != new_p.get(f)]
        if fields:
            players_before[pid] = {f: old_p.get(f) for f in fields}
            players_after[pid] = {f: new_p.get(f) for f in fields}
    if players_before:
        before["players"], after["players"] = players_before, players_after
    return before, after


def record(game: Game, action: str, settings_before: GameSettings, *, at: datetime,
           **details: Any) -> Path:
    """Append one action to ``gm.yaml`` of the open turn; ``settings_before`` are
    the settings before the action, ``game.settings`` those after it. Call it
    holding the game's lock. Returns the file."""
    if action not in ACTIONS:
        raise ValueError(f"unknown game master action {action!r}")
    before, after = _changes(settings_before, game.settings)
    entry: dict[str, object] = {"at": iso(at), "action": action,
                             **{k: v for k, v in details.items() if v is not None}}
    entry.update(before=before, after=after)
    path = game.turn_dir(game.turn) / GM_FILE
    old = path.read_text(encoding="utf-8") if path.is_file() else (
        f"# What the game master did while turn {game.turn} of {game.id} was open, in\n"
        "# order (pbmref rerun replays it). Written by pbmref: do not edit.\n")
    text = old + dump_yaml([entry])
    # what was there stays as it was: the new file is the old one and one entry more
    _check(YamlDoc(path, text, load_text(text, path)), game.turn)
    replace_file(path, text)
    return path


# ------------------------------------------------------------------ reading


def _check(doc: YamlDoc, turn: int) -> list[GmAction]:
    data = doc.data if doc.data is not None else []
    if not isinstance(data, list):
        raise GameFileError(doc.path, "expected a list of the game master's actions", line=1)
    return [_action(doc, i, item, turn) for i, item in enumerate(data)]


def _action(doc: YamlDoc, i: int, item: object, turn: int) -> GmAction:
    """Action ``i`` of the file, checked (file and line in the error)."""
    if not isinstance(item, Mapping):
        raise doc.error((i,), "expected an action: at, action, before, after")
    for key in item:
        if key not in _KEYS:
            raise doc.error((i, key), f"unknown key {key!r}; known keys: "
                                      f"{', '.join(sorted(_KEYS))}")
    at = moment(item.get("at"))
    if at is None:
        raise doc.error((i, "at"), f"at must be a date and time, found {item.get('at')!r}")
    action = item.get("action")
    if action not in ACTIONS:
        raise doc.error((i, "action"), f"action {action!r} is not one of: "
                                       f"{', '.join(ACTIONS)}")
    before, after = (_side(doc, i, item, side) for side in ("before", "after"))
    player = item.get("player")
    if player is not None and not isinstance(player, str):
        raise doc.error((i, "player"), f"player must be a player id, found {player!r}")
    details = {k: item[k] for k in _DETAILS if k in item and k != "player"}
    return GmAction(turn, at, str(action), before, after, player, details)


def _side(doc: YamlDoc, i: int, item: Mapping[str, object], side: str) -> dict[str, object]:
    """The ``before`` or ``after`` of an action: game.yaml keys and their values."""
    value = item.get(side) or {}
    if not isinstance(value, Mapping) or not isinstance(value.get("players") or {}, Mapping):
        raise doc.error((i, side), f"{side} must map game.yaml keys to their values")
    return dict(value)


def actions_of(game: Game, turn: int) -> list[GmAction]:
    """The actions recorded while ``turn`` was open, in order (checked)."""
    path = game.turn_dir(turn) / GM_FILE
    if not path.is_file():
        return []
    return _check(read_yaml(path), turn)


def paused_until(game: Game) -> datetime | None:
    """When the game master means to resume a paused game, if they said so
    (``pause --until``; it may have passed)."""
    if game.settings.status != "paused":
        return None
    pauses = [a for a in actions_of(game, game.turn) if a.action == "pause"]
    return moment((pauses[-1].details or {}).get("until")) if pauses else None


def _undo(data: dict[str, object], before: Mapping[str, object]) -> None:
    """Put the ``before`` values of one action back into settings data."""
    for key, value in before.items():
        if key != "players":
            data[key] = value
            continue
        players = dict(mapping(data.get("players"), ("players",)))
        for pid, fields in mapping(value, ("players",)).items():
            if fields is None:
                players.pop(pid, None)
            else:
                players[pid] = {**mapping(players.get(pid), ("players", pid)),
                                **mapping(fields, ("players", pid))}
        data["players"] = players


class GmLog:
    """The recorded actions of one game, read once (for a re-run)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.by_turn = {t: actions_of(game, t) for t in game.turn_numbers()}

    def settings_at(self, turn: int) -> GameSettings:
        """The settings as they were when ``turn`` was adjudicated: today's, with
        every action recorded in a later turn undone, the latest first."""
        later = [a for t in sorted(self.by_turn, reverse=True) if t > turn
                 for a in reversed(self.by_turn[t])]
        if not later:
            return self.game.settings
        data = settings_to_dict(self.game.settings)
        for action in later:
            _undo(data, action.before)
        try:
            return settings_from_dict(data, self.game.id)
        except DataError as exc:  # game.yaml was edited by hand against the record
            raise TurnError(f"the settings of turn {turn} of {self.game.id} cannot be "
                            f"rebuilt from turns/*/{GM_FILE}: {exc}") from None

    def refuse_before(self, from_turn: int) -> None:
        """A pilot who left for another game (a class's rebalance) took their player
        entry along: turns before that cannot be played again here."""
        for turn, actions in self.by_turn.items():
            for a in actions:
                if a.action == "transfer-out" and turn > from_turn:
                    to = (a.details or {}).get("to_game", "another game")
                    raise TurnError(f"{a.player} moved to {to} in turn {turn} of "
                                    f"{self.game.id}; turns before {turn} cannot be re-run")

    def replay(self, turn: int, position: dict[str, object]) -> dict[str, object]:
        """The position at the start of ``turn`` as the game master's actions of
        that turn left it (a re-run rebuilds it from the turn before)."""
        for a in self.by_turn.get(turn, []):
            if a.action == "kick" and a.player:
                position = self.game.ruleset.remove_player(position, a.player) or position
            elif a.action in ("transfer-in", "transfer-out") and a.player:
                aircraft = dict(mapping(position.get("aircraft"), ("aircraft",)))
                if a.action == "transfer-out":
                    aircraft.pop(a.player, None)
                else:
                    aircraft[a.player] = dict(mapping((a.details or {}).get("aircraft"),
                                                      ("aircraft", a.player)))
                position = {**position, "aircraft": aircraft}
        return position
