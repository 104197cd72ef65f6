"""The lobby's records in the games folder: forming games and standby lists (J2-J7).

A forming game (``pbmref new-game --forming``) is not a game yet: it has no
players, no position and no turn. It is one file in the games folder's
``.lobby`` folder, ``.lobby/<id>.yaml``, which the game master may read and
edit like any game file (a bad value is reported with its line)::

    title: Spring league
    ruleset: diplomacy
    places: 7                    # how many players start the game
    choice: preference           # J4: preference | gm
    seed: 81237                  # the draw of J4 and the game's dice seed
    created: '2026-07-01T10:00:00+00:00'
    game: {variant: standard, turn_length: 48h, press: white, deadlines: {grace: 24h}}
    players:                     # who joined (J2, after J3), in order
    - {address: anna@example.org, name: Anna, wants: [FRA, ENG], joined: '...'}
    observers: [press@example.org]
    seats: {anna@example.org: FRA}   # the game master's choice (choice: gm)

``game`` holds the settings ``pbmref.gm.new_game`` is called with when the
game starts (``class`` instead, for a Fast Play class: the class file's
keys but its pilots). The ``.lobby`` folder starts with a dot, so the store's
index never takes it for a game; the list of games reads its few files.
When the game starts, the file moves into the game's folder as
``lobby.yaml``, the record of who joined; there the game's standby list
(J7) is kept too::

    standby:
    - {address: carl@example.org, name: Carl, since: '...'}

Each forming game has its own lock (``.lobby/<id>.lock``); the standby list
of a running game is changed under the game's lock.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from pbmref.base.files import replace_file
from pbmref.base.locks import FileLock
from pbmref.base.times import iso, moment
from pbmref.base.yamlfile import YamlDoc, dump_yaml, stored_value
from pbmref.store.errors import DataError, GameNotFound, KeyPath
from pbmref.store.settings import ID_RE, check_id, mail_address, text_value

__all__ = ["CHOICES", "LOBBY_DIR", "LOBBY_FILE", "Forming", "Joined", "Lobby", "Standby",
           "read_standby", "write_standby"]

LOBBY_DIR = ".lobby"
LOBBY_FILE = "lobby.yaml"  # in a started game's folder: who joined, the standby list
CHOICES = ("preference", "gm")  # J4: who gives the places
_KEYS = ("title", "ruleset", "places", "choice", "seed", "created", "game", "class", "players",
         "observers", "seats")
_JOINED_KEYS = ("address", "name", "wants", "joined")


@dataclass(frozen=True)
class Joined:
    """Someone who joined a forming game (or a standby list), after J3."""

    address: str
    name: str = ""
    wants: tuple[str, ...] = ()  # the places wanted, the most wanted first (J2)
    joined: datetime | None = None

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"address": self.address, "name": self.name}
        if self.wants:
            out["wants"] = list(self.wants)
        out["joined"] = iso(self.joined)
        return out


@dataclass(frozen=True)
class Forming:
    """A forming game (see the module)."""

    id: str
    ruleset: str
    places: int
    title: str = ""
    choice: str = "preference"
    seed: int = 0
    created: datetime | None = None
    game: Mapping[str, object] = field(default_factory=dict)  # gm.new_game's settings
    klass: Mapping[str, object] | None = None  # a Fast Play class's file, but its pilots
    players: tuple[Joined, ...] = ()
    observers: tuple[str, ...] = ()
    seats: Mapping[str, str] = field(default_factory=dict)  # address -> place (choice: gm)

    @property
    def full(self) -> bool:
        return len(self.players) >= self.places

    @property
    def open_places(self) -> int:
        return max(0, self.places - len(self.players))

    def player(self, address: str) -> Joined | None:
        bare = address.strip().lower()
        return next((p for p in self.players if p.address.lower() == bare), None)

    def with_player(self, joined: Joined) -> Forming:
        return replace(self, players=(*self.players, joined))

    def without(self, address: str) -> Forming:
        bare = address.strip().lower()
        return replace(self, players=tuple(p for p in self.players
                                           if p.address.lower() != bare))

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"title": self.title, "ruleset": self.ruleset,
                               "places": self.places, "choice": self.choice, "seed": self.seed,
                               "created": iso(self.created), "game": dict(self.game)}
        if self.klass is not None:
            out["class"] = dict(self.klass)
        out["players"] = [p.to_dict() for p in self.players]
        out["observers"] = list(self.observers)
        if self.seats:
            out["seats"] = dict(self.seats)
        return out


def _joined(item: object, path: KeyPath) -> Joined:
    if not isinstance(item, Mapping):
        raise DataError(path, "expected address, name, wants, joined")
    for key in item:
        if key not in _JOINED_KEYS:
            raise DataError((*path, key), f"unknown key {key!r}; known keys: "
                                          f"{', '.join(_JOINED_KEYS)}")
    wants = item.get("wants") or []
    if not isinstance(wants, list):
        raise DataError((*path, "wants"), "wants lists the places wanted, e.g. [FRA, ENG]")
    when = item.get("joined")
    if when is not None and moment(when) is None:
        raise DataError((*path, "joined"), f"{when!r} is not a date and time")
    return Joined(mail_address(item.get("address"), (*path, "address")),
                  text_value(item, "name", "", path), tuple(str(w).upper() for w in wants), moment(when))


def _joined_list(value: object, key: str) -> tuple[Joined, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise DataError((key,), f"{key} lists who joined: address, name, wants, joined")
    found = [_joined(item, (key, n)) for n, item in enumerate(value)]
    seen: set[str] = set()
    for n, j in enumerate(found):
        if j.address.lower() in seen:
            raise DataError((key, n, "address"), f"{j.address} is listed twice")
        seen.add(j.address.lower())
    return tuple(found)


def forming_from_dict(data: Any, game_id: str) -> Forming:
    """A forming game's file checked (DataError with the key path of a bad value)."""
    if not isinstance(data, Mapping):
        raise DataError((), "expected a forming game: title, ruleset, places, players ...")
    for key in data:
        if key not in _KEYS:
            raise DataError((key,), f"unknown key {key!r}; known keys: {', '.join(_KEYS)}")
    places = data.get("places")
    if isinstance(places, bool) or not isinstance(places, int) or places < 1:
        raise DataError(("places",), "places must be a whole number of at least 1")
    choice = text_value(data, "choice", "preference", ())
    if choice not in CHOICES:
        raise DataError(("choice",), f"choice {choice!r} is not one of: {', '.join(CHOICES)}")
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise DataError(("seed",), f"seed must be a whole number, found {seed!r}")
    for key in ("game", "class", "seats"):
        if data.get(key) is not None and not isinstance(data[key], Mapping):
            raise DataError((key,), f"{key} must be a mapping")
    observers = data.get("observers") or []
    if not isinstance(observers, list):
        raise DataError(("observers",), "expected a list of mail addresses")
    return Forming(
        id=game_id, ruleset=text_value(data, "ruleset", "", ()), places=places,
        title=text_value(data, "title", game_id, ()), choice=choice, seed=seed,
        created=moment(data.get("created")), game=dict(data.get("game") or {}),
        klass=dict(data["class"]) if data.get("class") is not None else None,
        players=_joined_list(data.get("players"), "players"),
        observers=tuple(mail_address(a, ("observers", n)) for n, a in enumerate(observers)),
        seats={str(k).lower(): str(v).upper() for k, v in (data.get("seats") or {}).items()})


class Lobby:
    """The forming games of a games folder (``.lobby/``)."""

    def __init__(self, games_dir: Path | str) -> None:
        self.dir = Path(games_dir) / LOBBY_DIR

    def path(self, game_id: str) -> Path:
        return self.dir / f"{check_id(game_id)}.yaml"

    def exists(self, game_id: str) -> bool:
        return self.path(game_id).is_file()

    def ids(self) -> list[str]:
        """The forming games, sorted (a listing of the small ``.lobby`` folder)."""
        try:
            names = os.listdir(self.dir)
        except OSError:
            return []
        return sorted(n[:-5] for n in names if n.endswith(".yaml") and ID_RE.fullmatch(n[:-5]))

    def read(self, game_id: str) -> Forming:
        """A forming game, checked once per version of its file (GameNotFound when
        there is none; GameFileError with the line of a bad value)."""
        path = self.path(game_id)
        if not path.is_file():
            raise GameNotFound(f"no forming game {game_id!r}")
        return stored_value(path, ("forming", game_id), lambda doc: _checked(doc, game_id))

    def write(self, forming: Forming) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        replace_file(self.path(forming.id), dump_yaml(forming.to_dict(), header=(
            f"Forming game {forming.id}: waiting for players (pbmref new-game --forming).\n"
            "The referee adds each player who joins; it starts when every place is taken\n"
            f"or when you run `pbmref start {forming.id}`.")))

    @contextmanager
    def lock(self, game_id: str) -> Iterator[None]:
        self.dir.mkdir(parents=True, exist_ok=True)
        with FileLock(self.dir / f"{check_id(game_id)}.lock", mode=0o644):
            yield

    def remove(self, game_id: str) -> None:
        """The forming game is gone (started, or withdrawn by the game master)."""
        for name in (f"{game_id}.yaml", f"{game_id}.lock"):
            try:
                os.unlink(self.dir / name)
            except FileNotFoundError:
                pass


def _checked(doc: YamlDoc, game_id: str) -> Forming:
    try:
        return forming_from_dict(doc.mapping("a forming game"), game_id)
    except DataError as exc:
        raise doc.error(exc.path, exc.message, exc.rule) from None


# ------------------------------------------------------------------ a started game


@dataclass(frozen=True)
class Standby:
    """A started game's ``lobby.yaml``: who joined it while it formed and its
    standby list (J7)."""

    joined: tuple[Joined, ...] = ()
    standby: tuple[Joined, ...] = ()
    record: Mapping[str, object] = field(default_factory=dict)  # the rest, kept as it was

    def on_standby(self, address: str) -> bool:
        bare = address.strip().lower()
        return any(s.address.lower() == bare for s in self.standby)


def read_standby(game_dir: Path) -> Standby:
    """A game's ``lobby.yaml`` (an empty one when it has none)."""
    path = game_dir / LOBBY_FILE
    if not path.is_file():
        return Standby()
    return stored_value(path, "standby", _checked_standby)


def _checked_standby(doc: YamlDoc) -> Standby:
    data = doc.mapping("who joined the game and its standby list")
    try:
        return Standby(_joined_list(data.get("players"), "players"),
                       _joined_list(data.get("standby"), "standby"),
                       {k: v for k, v in data.items() if k not in ("players", "standby")})
    except DataError as exc:
        raise doc.error(exc.path, exc.message, exc.rule) from None


def write_standby(game_dir: Path, record: Standby, standby: Sequence[Joined]) -> None:
    """Write ``lobby.yaml`` with the standby list ``standby`` (the caller holds the
    game's lock)."""
    data = {**record.record, "players": [p.to_dict() for p in record.joined],
            "standby": [s.to_dict() for s in standby]}
    replace_file(game_dir / LOBBY_FILE, dump_yaml(data, header=(
        "Who joined this game while it formed, and its standby list (J7): the\n"
        "addresses that may take over a place given up. Written by the referee.")))
