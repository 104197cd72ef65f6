"""A game folder opened, and the games directory.

``GameStore("games").open("flanders")`` reads ``game.yaml`` (the settings),
the open turn and its position, checked by the game's ruleset; that is all
opening a game reads, however long its history. A ``Game`` is made of parts
with one job each:

- ``game.open`` (a ``TurnView``): the open turn's position, checked and
  decoded by the ruleset once a version of its file and of ``game.yaml``,
  whichever ``Game`` of the process asks (``stored_value``);
- ``game.book`` (``OrderBook``): the order mails of every turn;
- ``game.history`` (``History``): the played turns and the turn commit;
- ``game.settings_file`` (``SettingsFile``): edits of ``game.yaml`` that keep
  the game master's comments;
- ``game.schedule`` (``Schedule``): whether the open turn is due;
- ``game.press`` (``PressLog``): the press the referee relayed;
- ``game.votes`` (``VoteBook``): draws, concessions and WAITs standing;
- ``game.absences`` (``AbsenceBook``): the players' absences (J11).

``GameStore`` keeps an index of its games (``pbmref.store.index``): the
addresses of each game's players and its schedule, kept up to date by every
``Game`` it opens, so that finding a player's games or the games due never
opens them all.

Every file is checked when it is read; a bad value raises ``GameFileError``
with the file, line and what is wrong. Opening a game checks its folder's
data format first (``store.layout.GAME_FORMAT``): a folder of a newer release
is refused (a ``FormatError``, which stops that game only). See ``pbmref.store.layout`` for the
folder's layout.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from pbmref.base.errors import DataError, GameFileError
from pbmref.base.files import write_new
from pbmref.base.locks import FileLock
from pbmref.base.times import moment
from pbmref.base.yamlfile import YamlDoc, dump_yaml, plain_copy, remember_written, stored_value
from pbmref.rules.plaindata import PositionError
from pbmref.rulesets import Ruleset, UnknownRuleset, get_ruleset
from pbmref.store.absences import AbsenceBook
from pbmref.store.errors import GameExists, GameNotFound
from pbmref.store.history import History
from pbmref.store.index import GameIndex, IndexEntry, file_stamp, settings_addresses
from pbmref.store.layout import (
    GAME_FILE,
    GAME_FORMAT,
    POSITION_FILE,
    STATE_FILE,
    TURNS,
    find_open_turn,
    game_paths,
    stamp,
    turn_dir,
    turn_dir_name,
    turn_numbers,
)
from pbmref.store.listing import Listing
from pbmref.store.orderbook import Counted, OrderBook
from pbmref.store.owed import read_owed
from pbmref.store.press import PressLog
from pbmref.store.schedule import (
    Schedule,
    grace_end,
    read_schedule,
    settings_digest,
    write_schedule,
)
from pbmref.store.settings import ID_RE, GameSettings, check_id, settings_from_dict
from pbmref.store.settings_file import SettingsFile
from pbmref.store.votes import VoteBook

__all__ = ["Game", "GameStore", "TurnView", "open_game"]

RulesetLoader = Callable[[str], Ruleset[Any, Any, Any]]


@dataclass(eq=False)
class TurnView:
    """One turn's position as the ruleset reads it: the plain data (checked) and
    the rules' decoded state. Made once per position file a ``Game`` reads."""

    turn: int
    position: dict[str, object]
    state: Any


class Game:
    """One game: its settings, open turn and position; its orders and history."""

    def __init__(self, path: Path, *, ruleset_loader: RulesetLoader,
                 game_id: str | None = None, index: GameIndex | None = None) -> None:
        self._paths = paths = game_paths(path)
        self.dir = paths.dir
        self.id = check_id(game_id or self.dir.name)
        self._loader = ruleset_loader
        self._index = index
        self._lock = FileLock(paths.lock_file, mode=0o644)
        self._lock_depth = 0
        self._holds = 0  # how many times this object took the lock (``holding``)
        self._game_file = paths.game_file
        self._settings_stamp: list[int] | None = None  # game.yaml's, as stamp() gives it
        self._settings_seen = (0, 0, 0)  # its file_stamp, for the store's index (reload)
        self._settings_digest = ""  # the digest of its text (schedule.settings_digest)
        self.book = OrderBook(self)
        self.history = History(self)
        self.press = PressLog(self)
        self.votes = VoteBook(self)
        self.absences = AbsenceBook(self)
        self.settings_file = SettingsFile(self._game_file, self.id)
        self.turn = 0
        GAME_FORMAT.open(self.dir)  # an older folder brought up to date, a newer one refused
        self.reload()

    # ------------------------------------------------------------ loading

    def reload(self) -> None:
        """Read again what changed on disk since it was read: the settings, the open
        turn and its position (files whose stamp is unchanged are not read again)."""
        seen = file_stamp(self._game_file)  # before reading it
        if [seen[1], seen[2]] != self._settings_stamp:
            self._settings_stamp = [seen[1], seen[2]]  # what stamp() gives
            self._settings_seen = seen
            # read and checked once per version of the file
            self.settings, self.ruleset, self._settings_digest = stored_value(
                self._game_file, ("settings", self.id, self._loader), self._read_settings,
                stamp=seen)
            self.forget_views()  # the players, which positions are checked against
        hint = self.turn or self._recorded_turn()
        self.turn = find_open_turn(self.dir, hint)
        self.open = self.view(self.turn)
        self.book.relist()

    def _recorded_turn(self) -> int:
        """The open turn ``state.yaml`` records: as the store's index has it from
        the file as it is now, else read from it (a hint: ``find_open_turn``
        checks it against the folders)."""
        if self._index is not None:
            turn = self._index.recorded_turn(self.id, file_stamp(self._paths.state_file))
            if turn is not None:
                return turn
        return read_schedule(self.dir).turn

    def _read_settings(self, doc: YamlDoc) -> tuple[GameSettings, Ruleset[Any, Any, Any], str]:
        """``game.yaml`` read: the settings, checked, the game's ruleset, and the
        digest of the text they were read from (for the state index)."""
        if not doc.mapping():
            raise GameFileError(doc.path, "the file is empty: it must hold "
                                "the game's settings and players", line=1)
        try:
            settings = settings_from_dict(doc.mapping(), self.id)
        except DataError as exc:
            raise doc.error(exc.path, exc.message, exc.rule) from None
        try:
            return settings, self._loader(settings.ruleset), settings_digest(doc.text)
        except UnknownRuleset as exc:
            raise doc.error(("ruleset",), str(exc)) from None

    def forget_views(self) -> None:
        """Forget the orders files read against the positions (a position file was
        written anew; a view is known by the version of its file, ``view``)."""
        self.book.forget()

    def refresh_turn(self) -> None:
        """Find the open turn again (another process may have played one)."""
        turn = find_open_turn(self.dir, self.turn)
        if turn != self.turn:
            self.turn = turn
            self.open = self.view(turn)

    def turn_played(self) -> None:
        """The open turn was just adjudicated: the next one is open now."""
        self.turn += 1
        self.open = self.view(self.turn)

    def turn_numbers(self) -> list[int]:
        return turn_numbers(self.dir)

    def turn_dir(self, turn: int) -> Path:
        return turn_dir(self.dir, turn)

    # ------------------------------------------------------------ positions

    @property
    def position(self) -> dict[str, object]:
        """The open turn's position (checked by the ruleset); a copy to change."""
        return dict(self.open.position)

    def view(self, turn: int) -> TurnView:
        """The position at the start of ``turn``, checked and decoded (once, while
        its file stays as it was)."""
        return stored_value(self._paths.position(turn), self._view_key(turn),
                            lambda doc: self._checked_view(doc, turn))

    def _view_key(self, turn: int) -> tuple[object, ...]:
        # A position is decoded once per version of its file and of what it is
        # checked with (the game's ruleset and players: ``_checked_view``),
        # whichever Game asks; a new deadline written into game.yaml is not a
        # reason to read it again (issue 41: a deadline decoded each position
        # twice).
        return ("view", turn, self.id, self.settings.ruleset,
                tuple(sorted(self.settings.players)), self._loader)

    def remember_view(self, turn: int, text: str, view: TurnView) -> None:
        """The position file of ``turn`` was just written as ``text``, from
        ``view.position``, checked and decoded as ``view``: kept as the version
        on disk, so the turn it opens does not read and decode it again."""
        data = _as_parsed(view.position)  # what reading ``text`` back gives
        remember_written(self._paths.position(turn), text, data,
                         {self._view_key(turn): TurnView(view.turn, plain_copy(data),
                                                         view.state)})

    def read_position(self, turn: int) -> dict[str, object]:
        """The position at the start of ``turn``, checked (a copy to change)."""
        return dict(self.view(turn).position)

    def check_position(self, doc: YamlDoc, turn: int | None = None) -> TurnView:
        """Check a position (read from a file, or about to be written to one)."""
        return self._checked_view(doc, turn)

    def _checked_view(self, doc: YamlDoc, turn: int | None) -> TurnView:
        data = doc.mapping("a position (scenario schema)")
        if not data:
            raise GameFileError(doc.path, "the file is empty: it must hold the position at "
                                          "the start of the turn (scenario schema)", line=1)
        if turn is not None and "turn" in data and data["turn"] != turn:
            raise doc.error(("turn",), f"turn {data['turn']!r} differs from the folder's "
                                       f"turn {turn}")
        ruleset = data.get("ruleset")
        if ruleset is not None and not self.ruleset.reads_positions_of(str(ruleset)):
            raise doc.error(("ruleset",), f"ruleset {ruleset!r} differs from the game's "
                                          f"{self.settings.ruleset!r}")
        try:
            state = self.ruleset.decode(data)
        except PositionError as exc:
            raise doc.error(exc.path, exc.message, exc.rule) from None
        players = set(self.settings.players)
        for key in self.ruleset.player_keys:
            section = data.get(key)
            if isinstance(section, Mapping):
                for pid in section:
                    if pid not in players:
                        raise doc.error((key, pid), f"{pid!r} is not a player of this game "
                                                    f"(players: {', '.join(sorted(players))})")
        return TurnView(int(data.get("turn") or turn or 0), data, state)

    @property
    def turn_label(self) -> int | str:
        """The open turn as players name it (its number, or a Diplomacy phase)."""
        return self.ruleset.turn_label(self.open.position, self.turn)

    # ------------------------------------------------------------ lock

    @contextmanager
    def lock(self, timeout: float | None = 60.0) -> Iterator[Game]:
        """Hold the game's lock (re-entrant within this Game object)."""
        if self._lock_depth == 0:
            self._lock.timeout = timeout
            self._lock.acquire()
            self._holds += 1
        self._lock_depth += 1
        try:
            yield self
        finally:
            self._lock_depth -= 1
            if self._lock_depth == 0:
                self._lock.release()

    @property
    def holding(self) -> int | None:
        """Which hold of the lock this is (the same number from taking the lock
        until letting it go); None while the lock is not held. What was read
        under one hold, no other referee process changed since."""
        return self._holds if self._lock_depth else None

    # ------------------------------------------------------------ settings

    def change_settings(self, changes: Mapping[str, object]) -> None:
        """Change top-level values of game.yaml (deadline, status), keeping its
        comments; the state index follows."""
        with self.lock():
            self.settings, text = self.settings_file.set(changes)
            self._settings_digest = settings_digest(text)
            self._settings_stamp = stamp(self._game_file)
            self._settings_seen = file_stamp(self._game_file)
            self.write_schedule()

    def update_settings(self, change: Callable[[Any], None]) -> Path:
        """Change game.yaml's data in place (players, observers); the old file is set
        aside under the name returned. Checked before anything is written."""
        with self.lock():
            old = self.settings_file.update(change)
            self.reload()
            self.write_schedule()
            return old

    # ------------------------------------------------------------ the schedule

    def waiting_for(self) -> list[str]:
        """Human players without orders in force for the open turn, leaving out
        those with nothing to order (the ruleset's ``needs_orders``) and counting
        only entries that spare a missed turn (``counts_as_orders``)."""
        return self._waiting_for(self._counted())

    def _counted(self) -> dict[str, Counted]:
        """Who has orders in force for the open turn, whether they count and when
        they came (``OrderBook.counted``: each player's kept from mail to mail)."""
        state = self.open.state
        return self.book.counted(
            lambda pid, entry: self.ruleset.counts_as_orders(state, pid, entry))

    def _waiting_for(self, counted: Mapping[str, Counted]) -> list[str]:
        state = self.open.state
        return [p.id for p in self.settings.humans()
                if not (p.id in counted and counted[p.id].counts)
                and self.ruleset.needs_orders(state, p.id)]

    @property
    def press_level(self) -> str:
        """How much press the game relays: game.yaml's ``press``, else the
        ruleset's default (none, white, grey or broadcast)."""
        return self.settings.press or self.ruleset.default_press

    @property
    def schedule(self) -> Schedule:
        s = self.settings
        counted = self._counted()
        waiting = tuple(self._waiting_for(counted))
        return Schedule(turn=self.turn, status=s.status, deadline=s.deadline,
                        early_adjudication=s.early_adjudication, humans=len(s.humans()),
                        waiting_for=waiting, early_at=self._early_at(waiting, counted),
                        reminder_hours=s.reminder_hours,
                        waits=tuple(self.votes.waiting(self.turn,
                                                       (p.id for p in s.humans()))),
                        reports_owed=read_owed(self.dir),
                        grace_until=grace_end(s), earliest=self._earliest())

    def turn_started(self) -> datetime | None:
        """When the open turn began: the adjudication of the turn before it (None
        for the first turn, or when it is not recorded)."""
        if self.turn <= 1:
            return None
        result = self.history.result(self.turn - 1) or {}
        return moment(result.get("adjudicated_at"))

    def _earliest(self) -> datetime | None:
        """No adjudication before the minimum gap after the last one (J9)."""
        gap = self.settings.deadlines.min_gap
        if not gap:
            return None
        started = self.turn_started()
        return started + gap if started is not None else None

    @property
    def listing(self) -> Listing:
        """What the list of games shows of this game (J1)."""
        return Listing.of(self.settings, kind=self.ruleset.variant_title(self.open.position),
                          turn=self.ruleset.words.turn(self.turn_label),
                          press=self.press_level)

    def _early_at(self, waiting: tuple[str, ...],
                  counted: Mapping[str, Counted]) -> datetime | None:
        """When early adjudication plays the open turn (issue 43, item 7): the
        last human's orders in force came in, plus the game's ``early_delay``
        (game.yaml; else the ruleset's). None: nobody waited for (or no delay)."""
        s = self.settings
        delay = s.early_delay if s.early_delay is not None else self.ruleset.early_delay
        if waiting or not s.early_adjudication or not delay:
            return None
        humans = {p.id for p in s.humans()}
        came = [c.received_at for pid, c in counted.items()
                if pid in humans and c.received_at is not None]
        return max(came) + delay if came else None

    def write_schedule(self) -> Schedule:
        """Rewrite the state index the deadline jobs read, and the store's index
        entry of the game (the caller holds the game's lock); returns the
        schedule written."""
        schedule = self.schedule
        addresses = settings_addresses(self.settings)
        seen = self._settings_seen  # the game.yaml the settings were read from
        listing = self.listing
        write_schedule(self.dir, schedule, addresses, (seen[1], seen[2]),
                       self._settings_digest, listing)
        if self._index is not None:
            self._index.put(self.id, IndexEntry(
                seen, file_stamp(self.dir / STATE_FILE), schedule, addresses, listing))
        return schedule


def _as_parsed(value: object) -> Any:
    """Plain data as YAML reads it back once written: a tuple is a list.

    >>> _as_parsed({"a": (1, ("x", {"b": ()}))})
    {'a': [1, ['x', {'b': []}]]}
    """
    if isinstance(value, Mapping):
        return {k: _as_parsed(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_as_parsed(v) for v in value]
    return value


def open_game(path: Path | str, *, ruleset_loader: RulesetLoader | None = None) -> Game:
    """Open the game folder at ``path`` (its parent is the games directory)."""
    p = Path(path)
    if not (p / GAME_FILE).is_file():
        raise GameNotFound(f"{p} is not a game folder (no {GAME_FILE})")
    return Game(p, ruleset_loader=ruleset_loader or get_ruleset)


class GameStore:
    """The games directory: ``GameStore("games").open("flanders")``."""

    def __init__(self, games_dir: Path | str = "games", *,
                 ruleset_loader: RulesetLoader | None = None,
                 index_file: Path | str | None = None) -> None:
        self.dir = Path(games_dir)
        self._dir_text = os.fspath(self.dir)
        self.ruleset_loader = ruleset_loader or get_ruleset
        # the index of the games; kept in ``index_file`` across processes, if given
        self.index = GameIndex(self.dir, index_file)

    def path(self, game_id: str) -> Path:
        return self.dir / check_id(game_id)

    def _folders(self) -> Iterator[os.DirEntry[str]]:
        if not self.dir.is_dir():
            return
        for entry in os.scandir(self.dir):
            if entry.is_dir() and not entry.name.startswith(".") and ID_RE.fullmatch(
                    entry.name):
                yield entry

    def list_games(self) -> list[str]:
        """Ids of every game folder (those with a game.yaml), sorted."""
        return sorted(e.name for e in self._folders()
                      if os.path.exists(os.path.join(e.path, GAME_FILE)))

    def exists(self, game_id: str) -> bool:
        return (self.path(game_id) / GAME_FILE).is_file()

    def open(self, game_id: str) -> Game:
        """Open and check a game; raises GameNotFound, InvalidId or GameFileError."""
        paths = game_paths(os.path.join(self._dir_text, check_id(game_id)))
        path = paths.dir
        if not os.path.isfile(paths.game_file):
            if (path / TURNS).is_dir():  # a game whose settings file was deleted
                raise GameFileError(path / GAME_FILE, "missing: the game's settings and "
                                    "players file is gone (restore it from a backup)")
            raise GameNotFound(f"no game {game_id!r} in {self.dir}")
        return Game(paths.dir, ruleset_loader=self.ruleset_loader, index=self.index)

    def create(self, game_id: str, settings: Mapping[str, object],
               position: Mapping[str, object], *, header: str = "") -> Game:
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
            shutil.rmtree(staging)
        staging.mkdir()
        try:
            write_new(staging / GAME_FILE, dump_yaml(dict(settings), header=header))
            pos = dict(position)
            pos.setdefault("turn", 1)
            write_new(staging / TURNS / turn_dir_name(1) / POSITION_FILE,
                      dump_yaml(pos, header=f"Position at the start of turn 1 of {game_id}"))
            game = Game(staging, ruleset_loader=self.ruleset_loader, game_id=game_id)
            game.write_schedule()
            try:
                os.rename(staging, final)  # the game appears whole or not at all
            except OSError:
                raise GameExists(f"game {game_id!r} exists already in {self.dir}") from None
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        return self.open(game_id)

    def due(self, now: datetime) -> list[str]:
        """Games whose open turn should be adjudicated at ``now``.

        Asks the index after its change check (``GameIndex.look``: a stat of
        each game's ``game.yaml`` and ``state.yaml``, or of those the kernel
        says changed while the index watches; a game changed since is read
        again), never a history. A game whose files cannot be read is listed too, so
        that the caller tries it and reports the error (and other games go
        on); so is a folder whose game.yaml was deleted.
        """
        self.index.look()
        return self.index.due(now)

    def reminders_due(self, now: datetime) -> list[str]:
        """Open games within their reminder window that still wait for someone's
        orders (asks the index after its change check)."""
        self.index.look()
        return self.index.reminders_due(now)
