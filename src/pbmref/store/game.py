"""A game folder and the games directory (layer 3).

Layout of one game (``games/<id>/``)::

    game.yaml                  settings and players (the game master edits it)
    state.yaml                 open turn, deadline, status (the referee writes it;
                               ``GameStore.due`` reads only this and a stat of game.yaml)
    .lock                      the per-game lock (fcntl.flock)
    turns/001/position.yaml    the position at the start of turn 1 (scenario schema)
    turns/001/orders/baron.yaml      orders as received (entry, raw mail, Message-ID, time)
    turns/001/orders/baron.v2.yaml   a later mail of the same player (the latest valid
                                     one is in force; a CLEAR mail writes a withdrawal)
    turns/001/dice.yaml        after adjudication: the seed and every die
    turns/001/events.yaml      what happened, in order
    turns/001/report.txt       the report players got (plus what the report helper adds)
    turns/001/result.yaml      written last: the turn is adjudicated iff it exists
    turns/002/position.yaml    the result position = the next turn's start

Files the referee writes are never rewritten in place: a re-run sets the old
file aside (``events.yaml.replaced-1``) and writes a new one.

Every file is checked when it is read; a bad value raises ``GameFileError``
with the file, line and what is wrong. Opening a game reads ``game.yaml``,
``state.yaml`` and the open turn's position only, however long the game.
"""

from __future__ import annotations

import copy
import hashlib
import os
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from pathlib import Path
from typing import Any

from pbmref.base.files import replace_file, set_aside, write_new
from pbmref.base.locks import FileLock
from pbmref.base.yamlfile import YamlDoc, dump_yaml, read_yaml
from pbmref.rulesets import Outcome, Ruleset, UnknownRuleset, get_ruleset
from pbmref.store.errors import (
    DataError,
    GameExists,
    GameFileError,
    GameNotFound,
    InvalidId,
    KeyPath,
    TurnError,
)
from pbmref.store.settings import (
    ID_RE,
    GameSettings,
    Player,
    check_id,
    parse_datetime,
    settings_from_dict,
    verify_password,
)

__all__ = [
    "GAME_FILE",
    "STATE_FILE",
    "Game",
    "GameStore",
    "OrdersFile",
    "TurnRecord",
    "derive_turn_seed",
    "open_game",
    "turn_dir_name",
]

GAME_FILE = "game.yaml"
STATE_FILE = "state.yaml"
LOCK_FILE = ".lock"
TURNS = "turns"
ORDERS = "orders"
RESULT_FILES = ("dice.yaml", "events.yaml", "report.txt", "result.yaml")
_ORDERS_NAME = re.compile(r"(?P<player>[^.]+)(?:\.v(?P<version>\d+))?\.yaml")
_TURN_DIR = re.compile(r"\d{3,}")
_ISO_MOMENT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?([+-]\d\d:\d\d|Z)")
_ORDERS_KEYS = {
    "player", "turn", "version", "kind", "entry", "raw", "message_id", "received_at", "error",
    "note",
}
ORDER_KINDS = ("orders", "withdrawal", "rejected")
_RECORD_KEYS = {
    "dice.yaml": {"turn", "seed", "dice"},
    "events.yaml": {"turn", "events"},
    "result.yaml": {"turn", "adjudicated_at", "seed", "orders", "no_orders", "game_over",
                    "winners", "next_deadline", "note"},
}

RulesetLoader = Callable[[str], Ruleset]


# Orders files read without a position check, by (path, mtime, size, turn): files
# the referee writes are never rewritten in place, and a GM's edit changes the stamp.
_READ_CACHE: dict[tuple[str, int, int, int], OrdersFile] = {}
# About 5 kB an entry: the soak test (tests/hardening/test_soak.py) saw the daemon's
# memory climb with every orders file ever read when the bound was 20000.
_READ_CACHE_MAX = 2000
# Checked positions, by the stamps of position.yaml and game.yaml (whose players
# the check uses) and the turn.
_POSITIONS: dict[tuple[Any, Any, int], dict[str, Any]] = {}
# Orders files checked against a position, by the stamps of both files.
_CHECKED: dict[tuple[tuple[str, int, int], tuple[str, int, int]], OrdersFile] = {}


def _stamp_of(path: Path) -> tuple[str, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (str(path), st.st_mtime_ns, st.st_size)


def turn_dir_name(turn: int) -> str:
    return f"{turn:03d}"


def derive_turn_seed(game_seed: int, turn: int) -> int:
    """The dice seed of one turn: derived from the game's seed and the turn (V5)."""
    digest = hashlib.sha256(f"pbmref:{game_seed}:{turn}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def _exc_parts(exc: BaseException) -> tuple[KeyPath, str, str]:
    """(key path, message, rule) of a ruleset's or our own validation error."""
    path = getattr(exc, "path", ())
    if not isinstance(path, tuple):
        path = ()
    message = getattr(exc, "message", None) or str(exc)
    rule = getattr(exc, "rule", "") or ""
    return path, str(message), str(rule)


def _entry_path(entry: Mapping[str, Any], exc: BaseException) -> KeyPath:
    """Where in an orders entry an order error points (by the line text it quotes)."""
    path = getattr(exc, "path", None)
    if isinstance(path, tuple) and path:
        return path
    text = getattr(exc, "line", None)
    if isinstance(text, str) and text.strip():
        for key, value in entry.items():
            if isinstance(value, list):
                for i, item in enumerate(value):
                    if isinstance(item, str) and item.strip() == text.strip():
                        return (str(key), i)
            elif isinstance(value, str) and value.strip() == text.strip():
                return (str(key),)
    message = str(getattr(exc, "message", "") or exc)
    for key in entry:
        if f"'{key}'" in message:
            return (str(key),)
    return ()


def _orders_sort_key(name: str) -> tuple[str, int]:
    m = _ORDERS_NAME.fullmatch(name)
    assert m is not None
    return m.group("player"), int(m.group("version") or 1)


@dataclass(frozen=True)
class OrdersFile:
    """One order mail of one player for one turn, as stored."""

    player: str
    version: int
    path: Path
    kind: str  # orders | withdrawal | rejected
    entry: dict[str, Any] | None
    raw: str
    message_id: str
    received_at: datetime | None
    error: str = ""


@dataclass(frozen=True)
class TurnRecord:
    """One adjudicated turn, as written to the game folder."""

    game_id: str
    turn: int
    seed: int
    position_before: dict[str, Any]
    position_after: dict[str, Any]
    orders: dict[str, dict[str, Any]]
    events: list[dict[str, Any]]
    dice: list[int]
    game_over: bool
    winners: list[str]
    next_deadline: datetime | None
    report_text: str
    adjudicated_at: datetime
    files: tuple[Path, ...] = ()


class GameStore:
    """The games directory: ``GameStore("games").open("flanders")``."""

    def __init__(self, games_dir: Path | str = "games", *,
                 ruleset_loader: RulesetLoader | None = None) -> None:
        self.dir = Path(games_dir)
        self.ruleset_loader = ruleset_loader or get_ruleset

    def path(self, game_id: str) -> Path:
        return self.dir / check_id(game_id)

    def list_games(self) -> list[str]:
        """Ids of every game folder (those with a game.yaml), sorted."""
        if not self.dir.is_dir():
            return []
        out = []
        for entry in os.scandir(self.dir):
            if entry.is_dir() and not entry.name.startswith("."):
                try:
                    check_id(entry.name)
                except InvalidId:
                    continue
                if os.path.exists(os.path.join(entry.path, GAME_FILE)):
                    out.append(entry.name)
        return sorted(out)

    def exists(self, game_id: str) -> bool:
        return (self.path(game_id) / GAME_FILE).is_file()

    def open(self, game_id: str) -> Game:
        """Open and check a game; raises GameNotFound, InvalidId or GameFileError."""
        path = self.path(game_id)
        if not (path / GAME_FILE).is_file():
            if (path / TURNS).is_dir():  # a game whose settings file was deleted
                raise GameFileError(path / GAME_FILE, "missing: the game's settings and "
                                    "players file is gone (restore it from a backup)")
            raise GameNotFound(f"no game {game_id!r} in {self.dir}")
        return Game(path, ruleset_loader=self.ruleset_loader)

    def create(self, game_id: str, settings: Mapping[str, Any],
               position: Mapping[str, Any], *, header: str = "") -> Game:
        """A new game folder with its settings and the position of turn 1.

        Everything is checked before the folder appears: a bad setting or
        position raises GameFileError naming the would-be file.
        """
        check_id(game_id)
        final = self.dir / game_id
        if final.exists():
            raise GameExists(f"game {game_id!r} exists already in {self.dir}")
        self.dir.mkdir(parents=True, exist_ok=True)
        staging = self.dir / f".new-{game_id}-{os.getpid()}"
        if staging.exists():
            import shutil

            shutil.rmtree(staging)
        staging.mkdir()
        try:
            write_new(staging / GAME_FILE, dump_yaml(dict(settings), header=header))
            pos = dict(position)
            pos.setdefault("turn", 1)
            write_new(staging / TURNS / turn_dir_name(1) / "position.yaml",
                      dump_yaml(pos, header=f"Position at the start of turn 1 of {game_id}"))
            game = Game(staging, ruleset_loader=self.ruleset_loader, game_id=game_id)
            game.write_state()
            try:
                os.rename(staging, final)  # the game appears whole or not at all
            except OSError:
                raise GameExists(f"game {game_id!r} exists already in {self.dir}") from None
        except BaseException:
            import shutil

            shutil.rmtree(staging, ignore_errors=True)
            raise
        return self.open(game_id)

    def due(self, now: datetime) -> list[str]:
        """Games whose open turn should be adjudicated at ``now``.

        Reads only each game's small ``state.yaml`` (and ``game.yaml`` when the
        game master changed it since the state was written), never a history.
        A game whose files cannot be read is listed too, so that the caller
        tries it and reports the error (and other games go on).
        """
        out = []
        for game_id in self.list_games():
            try:
                info = read_state(self.dir / game_id)
            except GameFileError:
                out.append(game_id)
                continue
            if state_is_due(info, now):
                out.append(game_id)
        # a game folder whose game.yaml was deleted: listed, so opening it reports that
        if self.dir.is_dir():
            for entry in os.scandir(self.dir):
                if (entry.is_dir() and not entry.name.startswith(".")
                        and ID_RE.fullmatch(entry.name)
                        and os.path.isdir(os.path.join(entry.path, TURNS))
                        and not os.path.exists(os.path.join(entry.path, GAME_FILE))):
                    out.append(entry.name)
        return sorted(out)


    def reminders_due(self, now: datetime) -> list[str]:
        """Open games within their reminder window (deadline - reminder_hours <= now <
        deadline) that still wait for someone's orders; reads only the state index."""
        out = []
        for game_id in self.list_games():
            try:
                info = read_state(self.dir / game_id)
            except GameFileError:
                continue
            hours = info.get("reminder_hours") or 0
            deadline = _moment(info.get("deadline"))
            if (info.get("status", "open") != "open" or not hours or deadline is None
                    or info.get("waiting_for") == [] or not isinstance(hours, (int, float))):
                continue
            if deadline - timedelta(hours=hours) <= now < deadline:
                out.append(game_id)
        return out


def _moment(value: Any) -> datetime | None:
    if value is None:
        return None
    try:
        moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _stamp(path: Path) -> list[int]:
    try:
        st = path.stat()
    except OSError:
        return [0, 0]
    return [st.st_mtime_ns, st.st_size]


def read_state(game_dir: Path) -> dict[str, Any]:
    """The state index, refreshed from game.yaml if the game master changed it."""
    state_path = game_dir / STATE_FILE
    try:
        data = read_yaml(state_path).mapping()
    except GameFileError:
        data = {}
    stamp = _stamp(game_dir / GAME_FILE)
    if data.get("settings_stamp") != stamp or "turn" not in data or "reminder_hours" not in data:
        doc = read_yaml(game_dir / GAME_FILE).mapping()
        try:  # a file the game master broke: listed as due, so the error is reported
            settings_from_dict(doc, game_dir.name)
        except Exception:  # noqa: BLE001
            data["broken"] = True
        zone = doc.get("timezone", "UTC")
        try:
            from zoneinfo import ZoneInfo

            deadline = doc.get("deadline")
            data["deadline"] = (_iso(parse_datetime(deadline, ZoneInfo(str(zone))))
                                if deadline is not None else None)
        except Exception:  # noqa: BLE001 - a broken file: the game is listed and opened
            data["deadline"] = None
            data["broken"] = True
        data["status"] = doc.get("status", "open")
        data["early_adjudication"] = bool(doc.get("early_adjudication", False))
        data["reminder_hours"] = doc.get("reminder_hours", 0)
        data.setdefault("turn", 1)
    return data


def state_is_due(info: Mapping[str, Any], now: datetime) -> bool:
    if info.get("broken"):
        return True
    if info.get("status", "open") != "open":
        return False
    if info.get("early_adjudication") and info.get("players") and not info.get("waiting_for"):
        return True
    if info.get("deadline") is None:
        return False
    moment = _moment(info.get("deadline"))
    return moment is None or moment <= now


def open_game(path: Path | str, *, ruleset_loader: RulesetLoader | None = None) -> Game:
    """Open the game folder at ``path`` (its parent is the games directory)."""
    p = Path(path)
    if not (p / GAME_FILE).is_file():
        raise GameNotFound(f"{p} is not a game folder (no {GAME_FILE})")
    return Game(p, ruleset_loader=ruleset_loader or get_ruleset)


class Game:
    """One game: its settings, open turn, position and orders; its history on demand."""

    def __init__(self, path: Path, *, ruleset_loader: RulesetLoader,
                 game_id: str | None = None) -> None:
        self.dir = Path(path)
        self.id = check_id(game_id or self.dir.name)
        self._loader = ruleset_loader
        self._lock = FileLock(self.dir / LOCK_FILE, mode=0o644)
        self._lock_depth = 0
        self._position: dict[str, Any] | None = None
        self.reload()

    # ------------------------------------------------------------ loading

    def reload(self) -> None:
        """Read settings, the open turn number and its position again."""
        self.settings_doc = read_yaml(self.dir / GAME_FILE)
        if not self.settings_doc.mapping():
            raise GameFileError(self.dir / GAME_FILE, "the file is empty: it must hold the "
                                "game's settings and players", line=1)
        try:
            self.settings: GameSettings = settings_from_dict(self.settings_doc.mapping(), self.id)
        except DataError as exc:
            raise self.settings_doc.error(exc.path, exc.message, exc.rule) from None
        try:
            self.ruleset: Ruleset = self._loader(self.settings.ruleset)
        except (UnknownRuleset, ModuleNotFoundError) as exc:
            message = exc.args[0] if isinstance(exc, UnknownRuleset) else (
                f"the ruleset {self.settings.ruleset!r} is not available in this installation")
            raise self.settings_doc.error(("ruleset",), str(message)) from None
        self.turn = self._find_open_turn()
        self._position = None
        self._position = self.read_position(self.turn)

    def _find_open_turn(self) -> int:
        try:
            state = read_yaml(self.dir / STATE_FILE).mapping()
            turn = int(state.get("turn", 0))
        except (GameFileError, ValueError, TypeError):
            turn = 0
        if turn >= 1 and self.turn_dir(turn).is_dir() and not (
                self.turn_dir(turn) / "position.yaml").is_file():
            raise GameFileError(self.turn_dir(turn) / "position.yaml",
                                f"missing: turn {turn} is open, but the position at its "
                                "start is gone (restore the file, or run pbmref rerun)")
        if turn < 1 or not (self.turn_dir(turn) / "position.yaml").is_file():
            turns = [t for t in self.turn_numbers()
                     if (self.turn_dir(t) / "position.yaml").is_file()]
            if not turns:
                raise GameFileError(self.dir / TURNS, "no turn folder with a position.yaml")
            turn = turns[-1]  # the state index is missing or stale: the latest turn
        # after a crash between writing a turn's result and the state file
        while (self.turn_dir(turn) / "result.yaml").exists() and (
                self.turn_dir(turn + 1) / "position.yaml").exists():
            turn += 1
        after = self.turn_dir(turn + 1)
        if (self.turn_dir(turn) / "result.yaml").exists() and after.is_dir() and not (
                after / "position.yaml").exists():
            raise GameFileError(after / "position.yaml",
                                f"missing: turn {turn} was adjudicated, but the position at "
                                f"the start of turn {turn + 1} is gone")
        return turn

    def turn_numbers(self) -> list[int]:
        """Every turn with a folder, oldest first (lists the turns folder only)."""
        tdir = self.dir / TURNS
        if not tdir.is_dir():
            return []
        return sorted(int(e.name) for e in os.scandir(tdir)
                      if e.is_dir() and _TURN_DIR.fullmatch(e.name))

    def turn_dir(self, turn: int) -> Path:
        return self.dir / TURNS / turn_dir_name(turn)

    # ------------------------------------------------------------ settings

    @property
    def deadline(self) -> datetime | None:
        return self.settings.deadline

    @property
    def status(self) -> str:
        return self.settings.status

    @property
    def players(self) -> dict[str, Player]:
        return self.settings.players

    def player_by_address(self, address: str) -> Player | None:
        """The player who registered ``address`` (any case; ``Name <a@b>`` is fine)."""
        m = re.search(r"<([^>]+)>", address)
        addr = (m.group(1) if m else address).strip().lower()
        for player in self.settings.players.values():
            if any(a.lower() == addr for a in player.addresses):
                return player
        return None

    def is_observer(self, address: str) -> bool:
        addr = address.strip().lower()
        return any(o.lower() == addr for o in self.settings.observers)

    def check_password(self, player: str, password: str | None) -> bool:
        """True when the password matches, or the player has none set."""
        p = self.settings.players.get(player)
        if p is None:
            return False
        if not p.password_hash:
            return True
        return password is not None and verify_password(password, p.password_hash)

    # ------------------------------------------------------------ lock

    @contextmanager
    def lock(self, timeout: float | None = 60.0) -> Iterator[Game]:
        """Hold the game's lock (re-entrant within this Game object)."""
        if self._lock_depth == 0:
            self._lock.timeout = timeout
            self._lock.acquire()
        self._lock_depth += 1
        try:
            yield self
        finally:
            self._lock_depth -= 1
            if self._lock_depth == 0:
                self._lock.release()

    # ------------------------------------------------------------ positions

    @property
    def position(self) -> dict[str, Any]:
        """The open turn's position (checked by the ruleset)."""
        if self._position is None:
            self._position = self.read_position(self.turn)
        return self._position

    def read_position(self, turn: int) -> dict[str, Any]:
        """The position at the start of ``turn``, checked (read once per file stamp)."""
        path = self.turn_dir(turn) / "position.yaml"
        key = (_stamp_of(path), _stamp_of(self.dir / GAME_FILE), turn)
        cached = _POSITIONS.get(key) if key[0] and key[1] else None
        if cached is None:
            cached = self.check_position_doc(read_yaml(path), turn)
            if key[0] and key[1]:
                if len(_POSITIONS) >= 500:  # forget the older half (a position is big)
                    for old in list(_POSITIONS)[:250]:
                        del _POSITIONS[old]
                _POSITIONS[key] = cached
        return copy.deepcopy(cached)  # callers may change their copy

    def check_position_doc(self, doc: YamlDoc, turn: int | None = None) -> dict[str, Any]:
        data = doc.mapping("a position (scenario schema)")
        if not data:
            raise GameFileError(doc.path, "the file is empty: it must hold the position at "
                                          "the start of the turn (scenario schema)", line=1)
        if turn is not None and "turn" in data and data["turn"] != turn:
            raise doc.error(("turn",), f"turn {data['turn']!r} differs from the folder's "
                                       f"turn {turn}")
        ruleset = data.get("ruleset")
        if ruleset is not None and ruleset != self.settings.ruleset and not (
                {ruleset, self.settings.ruleset} == {"diplomacy", "dirigible"}):
            raise doc.error(("ruleset",), f"ruleset {ruleset!r} differs from the game's "
                                          f"{self.settings.ruleset!r}")
        try:
            self.ruleset.check_position(data)
        except Exception as exc:  # noqa: BLE001 - any ruleset's validation error
            path, message, rule = _exc_parts(exc)
            raise doc.error(path, message, rule) from None
        players = set(self.settings.players)
        for key in ("aircraft", "units"):
            section = data.get(key)
            if isinstance(section, Mapping):
                for pid in section:
                    if key == "aircraft" and pid not in players:
                        raise doc.error((key, pid), f"{pid!r} is not a player of this game "
                                                    f"(players: {', '.join(sorted(players))})")
        return data

    # ------------------------------------------------------------ orders

    def orders_dir(self, turn: int | None = None) -> Path:
        return self.turn_dir(self.turn if turn is None else turn) / ORDERS

    def orders_files(self, turn: int | None = None,
                     position: Mapping[str, Any] | None = None, *,
                     check: bool = True) -> dict[str, list[OrdersFile]]:
        """Every stored order mail of a turn, per player, oldest first.

        With ``check`` every accepted entry is checked against the position (as
        ``pbmref check`` does); without it the files are only read, which is
        what finding the orders in force and spotting a repeated Message-ID
        need (the one in force is checked by ``orders_in_force``).
        """
        turn = self.turn if turn is None else turn
        odir = self.orders_dir(turn)
        if not odir.is_dir():
            return {}
        if position is None and check:
            position = self.position if turn == self.turn else self.read_position(turn)
        names = []
        for entry in os.scandir(odir):
            name = entry.name
            if name.startswith(".") or ".replaced-" in name or not name.endswith(".yaml"):
                continue
            m = _ORDERS_NAME.fullmatch(name)
            if not m:
                raise GameFileError(odir / name, "not an orders file name: expected "
                                                 "PLAYER.yaml or PLAYER.vN.yaml")
            names.append(name)
        out: dict[str, list[OrdersFile]] = {}
        for name in sorted(names, key=_orders_sort_key):
            f = self.read_orders_file(odir / name, turn, position if check else None)
            out.setdefault(f.player, []).append(f)
        return out

    def read_orders_file(self, path: Path, turn: int,
                          position: Mapping[str, Any] | None) -> OrdersFile:
        """Read one orders file; with a ``position`` its entry is checked against it."""
        m = _ORDERS_NAME.fullmatch(path.name)
        assert m is not None
        if position is None:
            try:
                st = path.stat()
                stamp = (str(path), st.st_mtime_ns, st.st_size, turn)
            except OSError:
                stamp = None
            cached = _READ_CACHE.get(stamp) if stamp else None
            if cached is not None and cached.player in self.settings.players:
                return cached
            f = self._read_orders_file(path, turn, None, m)
            if stamp is not None:
                if len(_READ_CACHE) >= _READ_CACHE_MAX:  # forget the older half
                    for old in list(_READ_CACHE)[:_READ_CACHE_MAX // 2]:
                        del _READ_CACHE[old]
                _READ_CACHE[stamp] = f
            return f
        return self._read_orders_file(path, turn, position, m)

    def _read_orders_file(self, path: Path, turn: int, position: Mapping[str, Any] | None,
                          m: re.Match[str]) -> OrdersFile:
        doc = read_yaml(path)
        data = doc.mapping("an orders record")
        for key in data:
            if key not in _ORDERS_KEYS:
                raise doc.error((key,), f"unknown key {key!r}; known keys: "
                                        f"{', '.join(sorted(_ORDERS_KEYS))}")
        player = str(data.get("player", m.group("player")))
        if player != m.group("player"):
            raise doc.error(("player",), f"player {player!r} does not match the file name "
                                         f"{path.name}")
        if player not in self.settings.players:
            raise doc.error(("player",) if "player" in data else (),
                            f"{player!r} is not a player of this game "
                            f"(players: {', '.join(sorted(self.settings.players))})")
        if "turn" in data and data["turn"] != turn:
            raise doc.error(("turn",), f"turn {data['turn']!r} differs from the folder's "
                                       f"turn {turn}")
        kind = str(data.get("kind", "orders"))
        if kind not in ORDER_KINDS:
            raise doc.error(("kind",), f"kind {kind!r} is not one of: {', '.join(ORDER_KINDS)}")
        entry = data.get("entry")
        if kind == "orders" and not self.settings.players[player].active:
            # a kicked or removed player's mails are kept but never used: they are
            # not checked against a position that no longer has their aircraft
            if not isinstance(entry, Mapping):
                raise doc.error(("entry",) if "entry" in data else (),
                                "orders need an entry: the player's orders as a mapping")
        elif kind == "orders":
            if not isinstance(entry, Mapping):
                raise doc.error(("entry",) if "entry" in data else (),
                                "orders need an entry: the player's orders as a mapping")
            try:
                if position is not None:  # None: read only, the caller checks what it uses
                    self.ruleset.check_orders(dict(position), player, dict(entry))
            except Exception as exc:  # noqa: BLE001 - any ruleset's validation error
                _, message, rule = _exc_parts(exc)
                raise doc.error(("entry", *_entry_path(entry, exc)), message,
                                "" if rule == "SYNTAX" else rule) from None
        received = data.get("received_at")
        if received is not None:
            try:
                received = parse_datetime(received, self.settings.zone)
            except ValueError as exc:
                raise doc.error(("received_at",), str(exc)) from None
        return OrdersFile(
            player=player, version=int(m.group("version") or 1), path=path, kind=kind,
            entry=dict(entry) if isinstance(entry, Mapping) else None,
            raw=str(data.get("raw") or ""), message_id=str(data.get("message_id") or ""),
            received_at=received, error=str(data.get("error") or ""),
        )

    def orders_in_force(self, turn: int | None = None,
                        position: Mapping[str, Any] | None = None) -> dict[str, OrdersFile]:
        """Per active player, the order mail in force: the latest accepted one, unless
        withdrawn. Mails of kicked or removed players are kept but never in force."""
        turn = self.turn if turn is None else turn
        out: dict[str, OrdersFile] = {}
        for player, files in self.orders_files(turn, check=False).items():
            if not self.settings.players[player].active:
                continue
            for f in reversed(files):
                if f.kind == "rejected":
                    continue
                if f.kind == "orders":
                    out[player] = f
                break
        if out:
            # The mails in force are checked against the position as they are read.
            # A check is remembered by the stamps of the orders file and of the
            # position file: neither changes unless somebody writes it anew.
            pstamp = None
            if position is None:
                pstamp = _stamp_of(self.turn_dir(turn) / "position.yaml")
                position = self.position if turn == self.turn else self.read_position(turn)
            for player, f in out.items():
                fstamp = _stamp_of(f.path)
                key = (fstamp, pstamp) if pstamp and fstamp else None
                checked = _CHECKED.get(key) if key else None
                if checked is None or checked.player not in self.settings.players:
                    checked = self.read_orders_file(f.path, turn, position)
                    if key:
                        if len(_CHECKED) > 20000:
                            _CHECKED.clear()
                        _CHECKED[key] = checked
                out[player] = checked
        return out

    def orders(self, turn: int | None = None) -> dict[str, dict[str, Any]]:
        """Player id -> orders entry in force for the turn (default: the open turn)."""
        return {p: dict(f.entry or {}) for p, f in self.orders_in_force(turn).items()}

    def has_orders(self, player: str) -> bool:
        return player in self.orders_in_force()

    def _next_version(self, player: str) -> int:
        odir = self.orders_dir()
        if not odir.is_dir():
            return 1
        versions = [0]
        for name in os.listdir(odir):
            m = _ORDERS_NAME.fullmatch(name.split(".replaced-")[0])
            if m and m.group("player") == player:
                versions.append(int(m.group("version") or 1))
        return max(versions) + 1

    def _orders_path(self, player: str, version: int) -> Path:
        name = f"{player}.yaml" if version == 1 else f"{player}.v{version}.yaml"
        return self.orders_dir() / name

    def _check_open_for_orders(self, player: str) -> None:
        if player not in self.settings.players:
            raise TurnError(f"{player!r} is not a player of game {self.id}")
        if (self.turn_dir(self.turn) / "result.yaml").exists():
            raise TurnError(f"turn {self.turn} of {self.id} was adjudicated already")

    def _write_orders_record(self, player: str, record: dict[str, Any]) -> Path:
        with self.lock():
            self._refresh_turn()
            self._check_open_for_orders(player)
            mid = record.get("message_id")
            if mid:
                for f in self.orders_files(check=False).get(player, []):
                    if f.message_id == mid:
                        return f.path  # this mail was stored already (handled once)
            version = self._next_version(player)
            data = {"player": player, "turn": self.turn, "version": version, **record}
            path = write_new(self._orders_path(player, version),
                             dump_yaml(data, header=f"Orders of {player} for turn {self.turn} "
                                                    f"of {self.id}"))
            self.write_state()
            return path

    def _refresh_turn(self) -> None:
        turn = self._find_open_turn()
        if turn != self.turn:
            self.turn = turn
            self._position = None

    def save_orders(self, player: str, entry: Mapping[str, Any], *, raw: str,
                    message_id: str, received_at: datetime) -> Path:
        """Store an accepted order mail for the open turn; returns the new file.

        The entry is checked against the open position first (the ruleset's
        ``check_orders`` errors pass through). The same Message-ID twice is
        stored once.
        """
        self.ruleset.check_orders(self.position, player, dict(entry))
        return self._write_orders_record(player, {
            "kind": "orders", "received_at": _iso(received_at), "message_id": message_id,
            "entry": dict(entry), "raw": raw,
        })

    def save_rejected(self, player: str, *, raw: str, message_id: str,
                      received_at: datetime, error: str) -> Path:
        """Keep a refused order mail in the history; it changes no orders in force."""
        return self._write_orders_record(player, {
            "kind": "rejected", "received_at": _iso(received_at), "message_id": message_id,
            "error": error, "raw": raw,
        })

    def clear_orders(self, player: str, *, raw: str = "", message_id: str = "",
                     received_at: datetime | None = None) -> Path:
        """A CLEAR mail: withdraw the player's orders for the open turn."""
        return self._write_orders_record(player, {
            "kind": "withdrawal", "received_at": _iso(received_at or datetime.now(UTC)),
            "message_id": message_id, "raw": raw,
        })

    # ------------------------------------------------------------ deadlines

    def waiting_for(self) -> list[str]:
        """Active human players without orders in force for the open turn, leaving
        out those who have nothing to order (a ruleset's optional ``needs_orders``,
        e.g. a Diplomacy power without a dislodged unit in a retreat phase)."""
        in_force = self.orders_in_force()
        # Conformance (referee.md, deadlines: early adjudication once all active
        # players have ordered; reminders to those who have not): a ruleset's optional
        # ``counts_as_orders`` says whether an entry spares an NMR (tweedekker:
        # zeppelin votes alone do not, N3).
        counts = getattr(self.ruleset, "counts_as_orders", None)
        have = {pid for pid, f in in_force.items()
                if counts is None or counts(self.position, pid, f.entry or {})}
        needs = getattr(self.ruleset, "needs_orders", None)
        return [p.id for p in self.settings.players.values()
                if p.active and not p.computer and p.id not in have
                and (needs is None or needs(self.position, p.id))]

    def is_due(self, now: datetime) -> bool:
        if self.settings.status != "open":
            return False
        humans = [p for p in self.settings.players.values() if p.active and not p.computer]
        if self.settings.early_adjudication and humans and not self.waiting_for():
            return True
        return self.settings.deadline is not None and self.settings.deadline <= now

    def write_state(self) -> None:
        """Rewrite the small state index ``GameStore.due`` reads."""
        s = self.settings
        data = {
            "turn": self.turn,
            "deadline": _iso(s.deadline),
            "status": s.status,
            "early_adjudication": s.early_adjudication,
            "reminder_hours": s.reminder_hours,
            "players": len([p for p in s.players.values() if p.active and not p.computer]),
            "waiting_for": self.waiting_for(),
            "settings_stamp": _stamp(self.dir / GAME_FILE),
        }
        replace_file(self.dir / STATE_FILE, dump_yaml(
            data, header="Written by the referee: the open turn, for finding due games. "
                         "Edit game.yaml, not this file."))

    def set_scalars(self, changes: Mapping[str, Any]) -> None:
        """Change top-level values of game.yaml (deadline, status), keeping its comments."""
        with self.lock():
            path = self.dir / GAME_FILE
            text = path.read_text(encoding="utf-8")
            for key, value in changes.items():
                pattern = re.compile(rf"^{re.escape(key)}:[ \t]*(?P<v>[^#\n]*?)"
                                     rf"(?P<c>[ \t]+#[^\n]*)?$", re.M)
                if isinstance(value, str) and _ISO_MOMENT.fullmatch(value):
                    rendered = value  # a YAML timestamp: no quotes needed
                else:
                    rendered = dump_yaml({key: value}).strip().split(":", 1)[1].strip()
                found = pattern.search(text)
                if found:
                    comment = found.group("c") or ""
                    text = (text[:found.start()] + f"{key}: {rendered}{comment}"
                            + text[found.end():])
                else:
                    text = text.rstrip("\n") + f"\n{key}: {rendered}\n"
            self._replace_settings_text(text, keep_old=False)

    def update_settings(self, change: Callable[[dict[str, Any]], None]) -> Path | None:
        """Apply ``change`` to game.yaml's data and write it; the old file is kept aside.

        The new settings are checked before anything is written. Returns the
        name the old file was set aside under.
        """
        with self.lock():
            data = dict(read_yaml(self.dir / GAME_FILE).mapping())
            change(data)
            return self._replace_settings_text(
                dump_yaml(data, header=f"Settings of game {self.id} (edited by pbmref; "
                                       "the previous version is game.yaml.replaced-N)"),
                keep_old=True)

    def _replace_settings_text(self, text: str, *, keep_old: bool) -> Path | None:
        from pbmref.base.yamlfile import load_text

        path = self.dir / GAME_FILE
        data = load_text(text, path)
        try:
            settings_from_dict(data, self.id)
        except DataError as exc:
            raise GameFileError(path, f"the change would break the file: {exc}") from None
        old = None
        if keep_old:
            old = set_aside(path)
            write_new(path, text)
        else:
            replace_file(path, text)
        self.reload()
        self.write_state()
        return old

    # ------------------------------------------------------------ history

    def is_adjudicated(self, turn: int) -> bool:
        return (self.turn_dir(turn) / "result.yaml").is_file()

    def read_turn_file(self, turn: int, name: str) -> YamlDoc | None:
        path = self.turn_dir(turn) / name
        return read_yaml(path) if path.is_file() else None

    def read_record(self, turn: int, name: str) -> dict[str, Any] | None:
        """A turn's dice.yaml, events.yaml or result.yaml, checked (None if absent)."""
        doc = self.read_turn_file(turn, name)
        if doc is None:
            return None
        data = doc.mapping()
        allowed = _RECORD_KEYS[name]
        for key in data:
            if key not in allowed:
                raise doc.error((key,), f"unknown key {key!r}; known keys: "
                                        f"{', '.join(sorted(allowed))}")
        if "turn" in data and data["turn"] != turn:
            raise doc.error(("turn",), f"turn {data['turn']!r} differs from the folder's "
                                       f"turn {turn}")
        seed = data.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise doc.error(("seed",), f"seed must be a whole number, found {seed!r}")
        dice = data.get("dice", [])
        if not isinstance(dice, list) or not all(
                isinstance(d, int) and not isinstance(d, bool) and d >= 1 for d in dice):
            raise doc.error(("dice",), "dice must be a list of whole numbers from 1 up")
        events = data.get("events", [])
        if not isinstance(events, list) or not all(isinstance(e, Mapping) for e in events):
            raise doc.error(("events",), "events must be a list of mappings")
        orders = data.get("orders", {})
        if not isinstance(orders, Mapping):
            raise doc.error(("orders",), "orders must map player ids to orders file names")
        for player in orders:
            if player not in self.settings.players:
                raise doc.error(("orders", player), f"{player!r} is not a player of this game")
        return data

    def result(self, turn: int) -> dict[str, Any] | None:
        return self.read_record(turn, "result.yaml")

    def recorded_seed(self, turn: int) -> int | None:
        data = self.read_record(turn, "dice.yaml")
        return None if data is None or "seed" not in data else int(data["seed"])

    def recorded_dice(self, turn: int) -> list[int] | None:
        """The dice recorded for a played turn (for replaying it, rule V5)."""
        data = self.read_record(turn, "dice.yaml")
        return None if data is None else [int(d) for d in data.get("dice", [])]

    def turn_seed(self, turn: int) -> int:
        recorded = self.recorded_seed(turn)
        return recorded if recorded is not None else derive_turn_seed(self.settings.seed, turn)

    def report(self, turn: int) -> str | None:
        path = self.turn_dir(turn) / "report.txt"
        return path.read_text(encoding="utf-8") if path.is_file() else None

    def turn_file_texts(
        self, turn: int, *, seed: int, outcome: Outcome, orders_used: Mapping[str, str],
        report_text: str, next_deadline: datetime | None, adjudicated_at: datetime,
        extra_files: Mapping[str, str | bytes] | None = None,
    ) -> dict[str, str | bytes]:
        """The files one adjudicated turn writes into its folder (name -> content)."""
        players = [p for p in self.settings.players.values() if p.active]
        result = {
            "turn": turn,
            "adjudicated_at": _iso(adjudicated_at),
            "seed": seed,
            "orders": {p: orders_used[p] for p in sorted(orders_used)},
            "no_orders": sorted(p.id for p in players if p.id not in orders_used),
            "game_over": outcome.game_over,
            "winners": list(outcome.winners),
            "next_deadline": _iso(next_deadline),
        }
        files: dict[str, str | bytes] = {
            "dice.yaml": dump_yaml({"turn": turn, "seed": seed, "dice": list(outcome.dice)},
                                   header=f"Every die rolled in turn {turn} (rule V5)"),
            "events.yaml": dump_yaml({"turn": turn, "events": list(outcome.events)},
                                     header=f"What happened in turn {turn}, in order"),
            "report.txt": report_text,
        }
        files.update(extra_files or {})
        files["result.yaml"] = dump_yaml(result, header=f"Turn {turn} adjudicated; the next "
                                                        "position is the next turn's "
                                                        "position.yaml")
        return files

    def position_text(self, turn: int, position: Mapping[str, Any]) -> str:
        return dump_yaml(dict(position), header=f"Position at the start of turn {turn} "
                                                f"of {self.id}")

    def record_turn(
        self, outcome: Outcome, *, seed: int, orders_used: Mapping[str, str],
        report_text: str, next_deadline: datetime | None, adjudicated_at: datetime,
        orders: Mapping[str, Mapping[str, Any]] | None = None,
        extra_files: Mapping[str, str | bytes] | None = None,
    ) -> TurnRecord:
        """Write the open turn's result and open the next turn.

        Order of writes: dice, events, report (and extras), the next turn's
        position, then ``result.yaml`` (the mark that the turn is done), then
        the state index and game.yaml's deadline/status. Leftovers of a crash
        before ``result.yaml`` are set aside first.
        """
        with self.lock():
            turn = self.turn
            tdir = self.turn_dir(turn)
            before = self.position
            if self.is_adjudicated(turn):
                raise TurnError(f"turn {turn} of {self.id} was adjudicated already")
            next_pos = dict(outcome.position)
            next_pos["turn"] = turn + 1
            doc = YamlDoc(self.turn_dir(turn + 1) / "position.yaml", "", next_pos)
            self.check_position_doc(doc)  # never write a position we could not read
            files = self.turn_file_texts(
                turn, seed=seed, outcome=outcome, orders_used=orders_used,
                report_text=report_text, next_deadline=next_deadline,
                adjudicated_at=adjudicated_at, extra_files=extra_files)
            next_path = self.turn_dir(turn + 1) / "position.yaml"
            for path in [*(tdir / n for n in files), next_path]:
                if path.exists():
                    set_aside(path)  # leftovers of an interrupted run
            written = []
            result_text = files.pop("result.yaml")
            for name, content in files.items():
                written.append(write_new(tdir / name, content))
            written.append(write_new(next_path, self.position_text(turn + 1, next_pos)))
            written.append(write_new(tdir / "result.yaml", result_text))
            changes: dict[str, Any] = {"deadline": _iso(next_deadline)}
            if outcome.game_over:
                changes["status"] = "finished"
            self.turn = turn + 1
            self._position = None
            self.set_scalars(changes)
            return TurnRecord(
                game_id=self.id, turn=turn, seed=seed,
                position_before=before,
                position_after=next_pos,
                orders={k: dict(v) for k, v in (orders or {}).items()},
                events=list(outcome.events), dice=list(outcome.dice),
                game_over=outcome.game_over, winners=list(outcome.winners),
                next_deadline=next_deadline, report_text=report_text,
                adjudicated_at=adjudicated_at, files=tuple(written),
            )

    def replace_turn_file(self, turn: int, name: str, content: str | bytes) -> Path | None:
        """Set a referee-written file aside (if any) and write its new version.

        Returns the name the old file was set aside under (None if there was none).
        """
        with self.lock():
            path = self.turn_dir(turn) / name
            old = set_aside(path) if path.exists() else None
            write_new(path, content)
            if turn == self.turn and name == "position.yaml":
                self._position = None
            return old


def next_deadline_after(old: datetime | None, turn_length: timedelta, now: datetime,
                        zone: tzinfo | None = None) -> datetime:
    """Old deadline + turn length; now + turn length when that is already past.

    With the game's ``zone`` the turn length is counted on the local clock, so
    a 20:00 deadline stays at 20:00 across a daylight-saving change.
    """
    if zone is not None:
        now = now.astimezone(zone)
        old = old.astimezone(zone) if old is not None else None
    if old is None:
        return now + turn_length
    candidate = old + turn_length
    return candidate if candidate > now else now + turn_length
