"""The index of the games folder: who plays where, and when each game wants the referee.

The referee must not open every game for every mail or every round. The
``GameIndex`` keeps, for each game folder, the addresses of its players
and its schedule (open turn, status, deadline, early adjudication, who
still owes orders, the reminder window, the turns whose reports are owed:
``pbmref.store.owed``), with the stamps (inode,
modification time, size) of the two files they come from: ``game.yaml``
(the game master's) and ``state.yaml`` (the referee's state index).

``look()`` is the cheap change check of a round: it lists the games folder
and stats those two files of each game. An entry whose stamps differ is read
again from its folder (a game master's edit by hand, another process's
change), a folder copied in is read, a folder gone is forgotten. Reading an
entry from its folder reads ``state.yaml`` alone, which holds the schedule
and the players' addresses as taken from ``game.yaml``, while the stamp it
names is that of ``game.yaml`` as it is, or else the digest it names that of
its text (a restored copy with other times: ``schedule.recorded_schedule``);
else (the game master changed ``game.yaml`` since) ``game.yaml`` is read and
checked whole, once. Rebuilding the index of a house without its index file
thus reads one small file a game. The store keeps the entries of the games it changes up to date itself
(``Game.write_schedule``), so a round sees its own changes at once.

A long-running process (the daemon) has the index ``watch()``: the kernel
then tells which game folders changed (``pbmref.store.watch``, over
inotify), and a look stats only those, and the few the kernel would not
watch; where it cannot tell (its first look, lost events) it looks at every
game as above. The questions of its idle rounds (the games due, the
reminders due, the next event, the games changed since a mark) are answered
from tables kept in order, in the time of a search, not of a pass over every
game.

The YAML stays the truth: an entry is used only while its stamps match the
files, and whoever acts on a game opens it and reads it whole. The index
file, where there is one (the referee keeps it in its spool folder, out of
the game master's games folder), only spares a new process the reading of
every game; it is written now and then without being flushed to disk, and an
index file that is missing, unreadable or of another version is rebuilt from
the folders.
"""

from __future__ import annotations

import bisect
import contextlib
import gc
import json
import logging
import math
import os
import re
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pbmref.base import collector
from pbmref.base.errors import DataError, GameFileError
from pbmref.base.files import replace_file
from pbmref.base.inotify import NotifyUnavailable
from pbmref.base.times import iso, moment
from pbmref.base.yamlfile import read_yaml
from pbmref.store.layout import GAME_FILE, STATE_FILE, TURNS, file_stamp, find_open_turn
from pbmref.store.listing import Listing
from pbmref.store.owed import read_owed
from pbmref.store.schedule import (
    Schedule,
    read_schedule,
    read_state,
    recorded_addresses,
    recorded_listing,
    recorded_schedule,
    schedule_from_settings,
)
from pbmref.store.settings import ID_RE, GameSettings, settings_from_dict
from pbmref.store.watch import GamesWatch

__all__ = [
    "GameIndex",
    "IndexEntry",
    "bare_address",
    "file_stamp",
    "settings_addresses",
]

log = logging.getLogger(__name__)

_VERSION = 5
SAVE_EVERY = 60.0  # seconds: how often a long-running process writes the index file down
# Entries that differ from the index file before it is worth writing it again:
# writing costs about as much as reading the whole file, and the next process
# reads fewer changed games again from their folders for less.
FEW_CHANGES = 50
# From this many games a process's first look hands what it read to the cycle
# collector's permanent generation (``gc.freeze``).
FREEZE_FROM = 1000

Stamp = tuple[int, int, int]
_MISSING: Stamp = (0, 0, 0)


def bare_address(address: str) -> str:
    """``Anna <Anna@Example.org>`` -> ``anna@example.org`` (as ``player_by_address`` reads it).

    >>> bare_address("Anna <Anna@Example.org>")
    'anna@example.org'
    """
    m = _ANGLE.search(address)
    return (m.group(1) if m else address).strip().lower()


_ANGLE = re.compile(r"<([^>]+)>")


def settings_addresses(settings: GameSettings) -> tuple[str, ...]:
    """Every address a player of the game registered, lower case (whatever the
    player's status: ``player_by_address`` knows them all)."""
    return tuple(sorted({a.lower() for p in settings.players.values() for a in p.addresses}))


@dataclass(frozen=True)
class IndexEntry:
    """One game as the index knows it (valid while both stamps match)."""

    game_stamp: Stamp
    state_stamp: Stamp
    schedule: Schedule
    addresses: tuple[str, ...] = ()
    listing: Listing | None = None  # what LIST shows of it (J1); None: not known

    @property
    def has_settings(self) -> bool:
        """The folder has a game.yaml (a folder without one is a broken game)."""
        return self.game_stamp != _MISSING

    def due_at(self) -> datetime | None:
        """When the open turn is due (``Schedule.due_at``: None never, ``AT_ONCE``
        at once)."""
        return self.schedule.due_at()

    def late_window(self) -> tuple[float, float] | None:
        """The lateness window (J10) as timestamps (deadline, end of grace)."""
        window = self.schedule.late_window()
        return None if window is None else (window[0].timestamp(), window[1].timestamp())

    def reminder_window(self) -> tuple[float, float] | None:
        """The reminder window as timestamps (start, deadline), if the game has one now."""
        s = self.schedule
        if (not s.reminder_hours or s.deadline is None or not s.waiting_for
                or s.status != "open" or s.broken):
            return None
        end = s.deadline.timestamp()
        return (end - s.reminder_hours * 3600, end)

    def to_row(self) -> list[Any]:
        """The entry as a row of the index file (``COLUMNS``): what a new process
        asks about every game at its first look as plain values, the rest of the
        schedule as one JSON text, decoded only for the games asked about."""
        s = self.schedule
        due = self.due_at()
        window = self.reminder_window()
        late = self.late_window()
        schedule = {"turn": s.turn, "status": s.status, "deadline": iso(s.deadline),
                    "early": s.early_adjudication, "humans": s.humans,
                    "waiting": list(s.waiting_for), "reminder_hours": s.reminder_hours,
                    "broken": s.broken, "waits": list(s.waits),
                    "grace_until": iso(s.grace_until), "earliest": iso(s.earliest),
                    "early_at": iso(s.early_at),
                    "listing": None if self.listing is None else self.listing.to_dict()}
        return [list(self.game_stamp), list(self.state_stamp), -1 if s.broken else s.turn,
                None if due is None else due.timestamp(),
                None if window is None else list(window), list(self.addresses),
                json.dumps(schedule, separators=(",", ":")), list(s.reports_owed),
                None if late is None else list(late)]

    @classmethod
    def from_row(cls, row: list[Any]) -> IndexEntry:
        """An entry read back from a row of the index file (raises on anything
        unexpected)."""
        data = json.loads(row[6])
        schedule = Schedule(
            turn=int(data["turn"]), status=str(data["status"]),
            deadline=moment(data["deadline"]), early_adjudication=bool(data["early"]),
            humans=int(data["humans"]), waiting_for=tuple(str(p) for p in data["waiting"]),
            reminder_hours=float(data["reminder_hours"]), broken=bool(data["broken"]),
            waits=tuple(str(p) for p in data["waits"]), grace_until=moment(data["grace_until"]),
            earliest=moment(data["earliest"]), early_at=moment(data.get("early_at")),
            reports_owed=tuple(int(t) for t in row[7]))
        return cls(_stamp_of(row[0]), _stamp_of(row[1]), schedule,
                   tuple(str(a) for a in row[5]), Listing.from_dict(data["listing"]))


# The columns of a row of the index file (``IndexEntry.to_row``).
COLUMNS = ("game", "state", "turn", "due", "remind", "addresses", "schedule", "owed", "late")


def _stamp_of(value: Any) -> Stamp:
    a, b, c = (int(v) for v in value)
    return (a, b, c)


def read_entry(folder: Path | str) -> tuple[IndexEntry | None, bool]:
    """The entry of one game folder, read from its files (None: not a game
    folder), and whether ``game.yaml`` had to be read whole: only when the
    state index was not written from ``game.yaml`` as it is now. (Paths as
    text: a new process reads thousands, and pathlib's joins cost more than
    the stats.)"""
    folder = os.fspath(folder)
    game_stamp = file_stamp(folder + _GAME)  # stamps first: a change while
    state_stamp = file_stamp(folder + _STATE)  # reading is seen next time
    if game_stamp == _MISSING:
        if os.path.isdir(os.path.join(folder, TURNS)):  # its settings file was deleted
            return IndexEntry(game_stamp, state_stamp, Schedule(broken=True)), False
        return None, False
    data = read_state(folder)
    recorded = recorded_schedule(data, folder + _GAME, game_stamp[1:])
    addresses = recorded_addresses(data) if recorded is not None else None
    listing = recorded_listing(data)
    whole = addresses is None
    try:
        if recorded is None or addresses is None:
            settings = settings_from_dict(read_yaml(folder + _GAME).mapping(),
                                          os.path.basename(folder))
            addresses = settings_addresses(settings)
            if recorded is None:  # game.yaml changed since the state index was written
                listing = (listing or Listing()).updated(settings)
            recorded = recorded or schedule_from_settings(settings, data)
        # after a crash between a turn's result and the state index, the folders
        # show a later open turn than state.yaml; the reports owed are the
        # folder's (the state index is not flushed)
        turn = find_open_turn(folder, recorded.turn)
        schedule = replace(recorded, turn=turn, reports_owed=read_owed(folder))
    except (GameFileError, DataError, ValueError):
        schedule = replace(recorded or read_schedule(Path(folder)), broken=True,
                           reports_owed=())
    return IndexEntry(game_stamp, state_stamp, schedule, addresses or (), listing), whole


class _Record:
    """What the index keeps of one game: the little each round asks about, and
    the whole entry, built only when asked for (a new process reads thousands)."""

    __slots__ = ("_entry", "_row", "addresses", "due", "game_stamp", "has_settings",
                 "late", "owes", "remind", "state_stamp", "turn")

    def __init__(self, entry: IndexEntry | None, row: list[Any] | None) -> None:
        self._entry = entry
        self._row = row
        if entry is not None:
            due = entry.due_at()
            self.game_stamp, self.state_stamp = entry.game_stamp, entry.state_stamp
            self.turn = -1 if entry.schedule.broken else entry.schedule.turn
            self.due = None if due is None else due.timestamp()
            self.remind = entry.reminder_window()
            self.late = entry.late_window()
            self.addresses = entry.addresses
            self.owes = bool(entry.schedule.reports_owed)
        else:
            assert row is not None
            # As the file has them (a new process reads thousands): a stamp of
            # another shape only compares unequal to the file's, which is then read.
            game, state, self.turn, due, remind, addresses, _, owed, late = row
            self.game_stamp, self.state_stamp = tuple(game), tuple(state)
            self.due = None if due is None else float(due)
            self.remind = None if remind is None else (float(remind[0]), float(remind[1]))
            self.late = None if late is None else (float(late[0]), float(late[1]))
            self.addresses = tuple(map(str, addresses))
            self.owes = bool(owed)
            if not isinstance(self.turn, int):
                raise TypeError("not a row of the index file")
        self.has_settings = self.game_stamp != _MISSING

    def entry(self) -> IndexEntry:
        if self._entry is None:
            assert self._row is not None
            self._entry = IndexEntry.from_row(self._row)
        return self._entry

    def to_row(self) -> list[Any]:
        return self._row if self._row is not None else self.entry().to_row()


class _Timetable:
    """A time span of some games (when each is due; its reminder window), in the
    order of their starts: which have started by a time, and what starts next,
    in the time of a search, not of a pass over every game. The order is made
    when first asked for (a process that asks once pays one sort), then kept."""

    __slots__ = ("_order", "spans")

    def __init__(self) -> None:
        self.spans: dict[str, tuple[float, float]] = {}  # game -> (start, end)
        self._order: list[tuple[float, float, str]] | None = None

    def put(self, game: str, start: float, end: float = math.inf) -> None:
        self.pop(game)
        self.spans[game] = (start, end)
        if self._order is not None:
            bisect.insort(self._order, (start, end, game))

    def pop(self, game: str) -> None:
        span = self.spans.pop(game, None)
        if span is not None and self._order is not None:
            del self._order[bisect.bisect_left(self._order, (*span, game))]

    def _ordered(self) -> list[tuple[float, float, str]]:
        if self._order is None:
            self._order = sorted((start, end, g) for g, (start, end) in self.spans.items())
        return self._order

    def until(self, at: float) -> list[tuple[float, float, str]]:
        """The spans that started by ``at`` (ended or not), by their start."""
        order = self._ordered()
        return order[:bisect.bisect_right(order, at, key=_start)]

    def between(self, after: float, at: float) -> list[tuple[float, float, str]]:
        """The spans that started after ``after``, by ``at``."""
        order = self._ordered()
        return order[bisect.bisect_right(order, after, key=_start):
                     bisect.bisect_right(order, at, key=_start)]

    def open_at(self, at: float, among: Iterable[str] | None = None) -> list[str]:
        """The games whose span holds ``at`` (of ``among`` only, if given), sorted."""
        if among is not None:
            windows = ((g, self.spans.get(g)) for g in among)
            return sorted(g for g, w in windows if w is not None and w[0] <= at < w[1])
        return sorted(g for _, end, g in self.until(at) if at < end)

    def opened(self, after: float, at: float) -> list[str]:
        """The games of ``open_at(at)`` whose span started after ``after``."""
        return sorted(g for _, end, g in self.between(after, at) if at < end)

    def first_after(self, at: float) -> float | None:
        """The first start after ``at``."""
        order = self._ordered()
        i = bisect.bisect_right(order, at, key=_start)
        return order[i][0] if i < len(order) else None


def _start(span: tuple[float, float, str]) -> float:
    return span[0]


class GameIndex:
    """Addresses and schedules of every game in a games folder (see the module).

    Besides the entries it keeps, per game, the time its open turn is due and
    its reminder window (as timestamps, in time order), and the games of each
    address, all changed with the entry: the questions of a round are a search
    in small tables, whatever the number of games."""

    def __init__(self, games_dir: Path | str, path: Path | str | None = None) -> None:
        self.dir = Path(games_dir)
        self.path = Path(path) if path is not None else None  # the index file, if any
        self._records: dict[str, _Record] | None = None
        # the games of each address: made when first asked for (a cron run that
        # takes in no mail never asks), then kept with the entries
        self._by_address: dict[str, set[str]] | None = None
        self._due = _Timetable()  # when each game's open turn is due
        self._owing: set[str] = set()  # the games that owe reports of turns played
        self._remind = _Timetable()  # each game's reminder window
        self._late = _Timetable()  # each game's lateness window (J10)
        self._ids: list[str] | None = None
        self._names: dict[str, str] = {}
        self._dirty = False
        self._changes = 0  # entries set or dropped since the file was read or written
        self._rebuilt = False  # the file was missing or unreadable
        self._saved_at = -SAVE_EVERY
        self.reads = 0  # entries read from their folders (for tests and benchmarks)
        self.checked = 0  # game folders whose stamps a look compared (likewise)
        self.whole_reads = 0  # of the entries read, those whose game.yaml was read whole
        self._watch: GamesWatch | None = None
        self._seq = 0  # entries set or dropped in this process
        self._changed: dict[str, int] = {}  # game -> _seq when its entry last changed

    # ------------------------------------------------------------ the index file

    def _load(self) -> dict[str, _Record]:
        if self.path is None:
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if data.get("version") != _VERSION or data.get("columns") != list(COLUMNS):
                return {}
            return {gid: _Record(None, row) for gid, row in data["games"].items()
                    if ID_RE.fullmatch(gid)}
        except (OSError, ValueError, TypeError, KeyError, AttributeError, IndexError):
            return {}  # missing or unreadable: rebuilt from the folders

    def save(self) -> None:
        """Write the index file down (when something changed since the last time)."""
        if (self.path is None or not self._dirty or self._records is None
                or not self.dir.is_dir()):
            return
        data = {"version": _VERSION, "columns": COLUMNS,
                "games": {gid: r.to_row() for gid, r in sorted(self._records.items())}}
        with contextlib.suppress(OSError):  # a cache: the next process reads the folders
            replace_file(self.path, json.dumps(data, separators=(",", ":")), durable=False)
            self._dirty = False
            self._changes, self._rebuilt = 0, False
        self._saved_at = time.monotonic()

    def save_if_worth(self) -> None:
        """Write the index file down when it was rebuilt, or when at least
        ``FEW_CHANGES`` entries differ from it (fewer are read again, for less,
        by the next process that starts)."""
        if self._dirty and (self._rebuilt or self._changes >= FEW_CHANGES):
            self.save()

    def save_now_and_then(self) -> None:
        """``save_if_worth``, at most every ``SAVE_EVERY`` seconds (a long-running
        process changes the index each round)."""
        if time.monotonic() - self._saved_at >= SAVE_EVERY:
            self.save_if_worth()

    # ------------------------------------------------------------ watching (the daemon)

    def watch(self) -> None:
        """From now on let ``look()`` learn from the kernel (inotify) which games
        changed, rather than stat every game: for a long-running process (the
        daemon, ``pbmref serve``), whose rounds then cost what changed. Without
        inotify (not Linux, or the kernel refuses another instance) the looks stay
        as they were, and a line in the log says so once."""
        if self._watch is not None:
            return
        try:
            self._watch = GamesWatch(self.dir)
        except NotifyUnavailable as exc:
            log.info("no change notification (%s): each round stats every game", exc)
        except OSError as exc:
            log.warning("no change notification (%s): each round stats every game; "
                        "raise fs.inotify.max_user_instances (sysctl) and restart", exc)

    @property
    def watching(self) -> bool:
        return self._watch is not None

    def stop_watching(self) -> None:
        """Back to the stat of every game at each look; the watches closed."""
        if self._watch is not None:
            self._watch.close()
            self._watch = None

    # ------------------------------------------------------------ keeping it true

    def _known(self) -> dict[str, _Record]:
        if self._records is None:
            self._records = {}
            with collector.paused():  # tens of thousands of new objects, no garbage
                loaded = self._load()
                self._take(loaded)
                self._dirty = False
                self._changes, self._rebuilt = 0, self.path is not None and not loaded
                self.look()
                if len(self._records) >= FREEZE_FROM:
                    # They live as long as the process: kept out of every later
                    # collection (the first would go over them all at once).
                    gc.freeze()
        return self._records

    def _take(self, loaded: dict[str, _Record]) -> None:
        """The records of the index file, into an empty index: what ``_set`` does
        for each, in one pass (a new process takes thousands). No change is
        journalled: no mark can be older than the index itself."""
        records = self._records
        assert records is not None and not records and self._by_address is None
        due, remind, late = self._due.spans, self._remind.spans, self._late.spans
        for gid, record in loaded.items():
            records[gid] = record
            if record.owes:
                self._owing.add(gid)
            if record.due is not None:
                due[gid] = (record.due, math.inf)
            if record.remind is not None:
                remind[gid] = record.remind
            if record.late is not None:
                late[gid] = record.late
        self._ids = None

    def _addresses(self) -> dict[str, set[str]]:
        """The games of each address (made at the first question)."""
        if self._by_address is None:
            by_address: dict[str, set[str]] = {}
            for gid, record in self._known().items():
                for a in record.addresses:
                    games = by_address.get(a)
                    if games is None:
                        by_address[a] = {gid}
                    else:
                        games.add(gid)
            self._by_address = by_address
        return self._by_address

    def _set(self, game_id: str, record: _Record) -> None:
        assert self._records is not None
        old = self._records.get(game_id)
        if old is not None:
            self._unlist(game_id, old)
        self._records[game_id] = record
        if self._by_address is not None:
            for a in record.addresses:
                self._by_address.setdefault(a, set()).add(game_id)
        if record.due is not None:
            self._due.put(game_id, record.due)
        if record.remind is not None:
            self._remind.put(game_id, *record.remind)
        if record.owes:
            self._owing.add(game_id)
        if record.late is not None:
            self._late.put(game_id, *record.late)
        if old is None or old.has_settings != record.has_settings:
            self._ids = None
        self._dirty = True
        self._changes += 1
        self._journal(game_id)

    def _journal(self, game_id: str) -> None:
        self._seq += 1
        self._changed.pop(game_id, None)
        self._changed[game_id] = self._seq  # the last changed last

    def _unlist(self, game_id: str, record: _Record) -> None:
        by_address = self._by_address
        if by_address is not None:
            for a in record.addresses:
                games = by_address.get(a)
                if games is not None:
                    games.discard(game_id)
                    if not games:
                        del by_address[a]
        self._due.pop(game_id)
        self._remind.pop(game_id)
        self._owing.discard(game_id)
        self._late.pop(game_id)

    def _drop(self, game_id: str) -> None:
        assert self._records is not None
        old = self._records.pop(game_id, None)
        if old is not None:
            self._unlist(game_id, old)
            self._ids = None
            self._dirty = True
            self._changes += 1
            self._journal(game_id)

    def look(self) -> None:
        """The change check of a round: the games that may have changed since the
        last look checked by their files' stamps (a ``stat`` of ``game.yaml`` and
        ``state.yaml``), those whose stamps differ read again from their folders.
        Which games: every one (the games folder listed), or, while the index
        ``watch``es, those the kernel named and those without a watch."""
        records = self._records
        if records is None:
            self._known()
            return
        watch = self._watch
        changed = None if watch is None else watch.changed()
        if changed is None:
            self._look_at_all()
            return
        assert watch is not None
        for name in changed | watch.unwatched:
            self._look_at(name)

    def _look_at_all(self) -> None:
        records = self._records
        assert records is not None
        watch = self._watch
        seen = set()
        fullmatch, get, stat = ID_RE.fullmatch, records.get, _stat
        try:  # the stats relative to the folder: a shorter path for the kernel to walk
            folder_fd = os.open(self.dir, os.O_RDONLY | os.O_DIRECTORY)
        except OSError:
            folder_fd = None
        if folder_fd is not None:
            try:
                with os.scandir(folder_fd) as listing:
                    for de in listing:
                        name = de.name
                        if name[0] == "." or not fullmatch(name) or not de.is_dir():
                            continue
                        seen.add(name)
                        if watch is not None:
                            watch.follow(name)  # before the stats: a change after them is told
                        known = get(name)
                        if (known is None
                                or known.game_stamp != stat(name + _GAME, folder_fd)
                                or known.state_stamp != stat(name + _STATE, folder_fd)):
                            self._read(name, os.path.join(self.dir, name))
            finally:
                os.close(folder_fd)
        self.checked += len(seen)
        for name in [n for n in records if n not in seen]:
            self._drop(name)
        if watch is not None:
            watch.looked_at_all(seen)

    def _look_at(self, name: str) -> None:
        """Check one game the watch named (or that has no watch)."""
        records = self._records
        watch = self._watch
        assert records is not None and watch is not None
        self.checked += 1
        folder = os.path.join(self.dir, name)
        if not os.path.isdir(folder):
            watch.forget(name)
            self._drop(name)
            return
        watch.follow(name)
        known = records.get(name)
        if (known is None or known.game_stamp != _stat(folder + _GAME)
                or known.state_stamp != _stat(folder + _STATE)):
            self._read(name, folder)

    def _read(self, name: str, folder: str) -> None:
        self.reads += 1
        entry, whole = read_entry(folder)
        self.whole_reads += whole
        if entry is None:
            self._drop(name)
        else:
            self._set(name, _Record(entry, None))

    def put(self, game_id: str, entry: IndexEntry) -> None:
        """The store changed a game: its entry as the store knows it now."""
        known = self._known().get(game_id)
        if known is None or known.entry() != entry:
            self._set(game_id, _Record(entry, None))

    # ------------------------------------------------------------ asking it

    def entry(self, game_id: str) -> IndexEntry | None:
        record = self._known().get(game_id)
        return None if record is None else record.entry()

    def recorded_turn(self, game_id: str, state_stamp: Stamp) -> int | None:
        """The open turn of a game as the index holds it from that very
        ``state.yaml`` (its stamp, given): None when the index has no such entry
        or is not loaded yet (this never loads it)."""
        record = self._records.get(game_id) if self._records is not None else None
        if record is None or record.state_stamp != state_stamp or record.turn < 0:
            return None
        return record.turn

    def turns(self, games: Iterable[str] | None = None) -> dict[str, int]:
        """The open turn of every game that can be read (a broken one is left out),
        or of those of ``games`` the index knows."""
        records = self._known()
        if games is None:
            return {g: r.turn for g, r in records.items() if r.turn >= 0}
        found = ((g, records.get(g)) for g in games)
        return {g: r.turn for g, r in found if r is not None and r.turn >= 0}

    def ids(self) -> list[str]:
        """Every game with a game.yaml (what ``GameStore.list_games`` lists), sorted."""
        if self._ids is None:
            self._ids = sorted(g for g, r in self._known().items() if r.has_settings)
            self._names = {g.casefold(): g for g in self._ids}
        return list(self._ids)

    def names(self) -> Mapping[str, str]:
        """The ids of ``ids()`` by their ``casefold`` form (a mail may write
        ``Dogfight`` for ``dogfight``)."""
        self.ids()
        return MappingProxyType(self._names)

    def games_of(self, address: str) -> list[str]:
        """The games in which ``address`` (bare, lower case) is registered, as far
        as the index knows; the caller opens a game to be sure."""
        return sorted(self._addresses().get(address, ()))

    def mark(self) -> int:
        """A mark of the changes so far, for ``changed_since``."""
        self._known()
        return self._seq

    def changed_since(self, mark: int) -> list[str]:
        """The games whose entries were set or dropped since ``mark`` (read again
        from their folders, or put by the store), the last changed first."""
        self._known()
        changed = self._changed
        out = []
        for game in reversed(changed):
            if changed[game] <= mark:
                break
            out.append(game)
        return out

    def due(self, now: datetime) -> list[str]:
        """Games whose open turn should be adjudicated at ``now`` (broken ones too,
        so that their error is reported)."""
        self._known()
        at = now.timestamp()
        return sorted(g for _, _, g in self._due.until(at))

    def owing(self) -> list[str]:
        """The games that owe the reports of turns they played (``pbmref.store.owed``)."""
        self._known()
        return sorted(self._owing)

    def reminders_due(self, now: datetime, among: Iterable[str] | None = None) -> list[str]:
        """Open games within their reminder window that still wait for someone (of
        ``among`` only, if given)."""
        self._known()
        return self._remind.open_at(now.timestamp(), among)

    def reminders_opened(self, after: datetime, now: datetime) -> list[str]:
        """The games of ``reminders_due(now)`` whose window opened after ``after``."""
        self._known()
        return self._remind.opened(after.timestamp(), now.timestamp())

    def lates_due(self, now: datetime, among: Iterable[str] | None = None) -> list[str]:
        """Open games past their deadline and within their grace period with someone
        still late (J10), of ``among`` only if given: who gets lateness notices."""
        self._known()
        return self._late.open_at(now.timestamp(), among)

    def lates_opened(self, after: datetime, now: datetime) -> list[str]:
        """The games of ``lates_due(now)`` whose grace period began after ``after``."""
        self._known()
        return self._late.opened(after.timestamp(), now.timestamp())

    def listings(self) -> dict[str, Listing]:
        """What the list of games (J1) shows of each game that has a listing."""
        out = {}
        for gid in self.ids():
            entry = self.entry(gid)
            if entry is not None and entry.listing is not None and not entry.schedule.broken:
                out[gid] = entry.listing
        return out

    def next_event(self, now: datetime) -> datetime | None:
        """When the next game becomes due, opens its reminder window or its
        lateness window (J10), after ``now``."""
        self._known()
        at = now.timestamp()
        times = [t for t in (self._due.first_after(at), self._remind.first_after(at),
                             self._late.first_after(at)) if t is not None]
        return datetime.fromtimestamp(min(times), now.tzinfo) if times else None


_GAME = os.sep + GAME_FILE
_STATE = os.sep + STATE_FILE


def _stat(path: str, folder_fd: int | None = None) -> Stamp:
    """The stamp of a file (of ``path`` within the folder open as ``folder_fd``)."""
    try:
        st = os.stat(path, dir_fd=folder_fd)
    except OSError:
        return _MISSING
    return (st.st_ino, st.st_mtime_ns, st.st_size)
