"""The referee's own small bookkeeping, shared by the daemon and cron runs.

A JSON file a kind of record in the spool folder (``referee-state.KIND.json``):
when an unknown sender was last told how to join, the reply budget per
address (a mail loop breaker), the warnings about wrong passwords and the
mails that carried one (which the game master sees in ``pbmref status``),
the players reminded for each game's open turn, the reports the game
master was told could not be delivered. (The reports a turn still owes are
kept in the game folder, ``pbmref.store.owed``, not here: this bookkeeping
may be lost without a report being mailed twice.) A change rewrites the
file of its kind only: a reply spends its budget in a file as small as the
addresses that wrote lately, whatever the number of games (issue 20: one
file of every kind, rewritten whole for each reply, took 120 ms a mail at
10,000 games). The table that grows with the games, the reminders, holds
one record a game. Every change is made under
a file lock after reading that kind's file again, so two processes never
undo or repeat what the other recorded. The files are readable by the
referee's user only: they hold addresses. A file is read again only when
its stamp (inode, modification time, size) is not the one this process last
read or wrote: an idle daemon's round, which asks a few questions, reads no
file that grows with the games played. The one ``referee-state.json`` of
earlier versions is read for a kind that has no file of its own yet.

It is not flushed to disk: what a power cut could undo only makes the referee
do again what is keyed against repeating anyway (a reminder is queued under
a key the outgoing spool knows), or forget a rate limit's count. A use counted with a ``token`` (the reply's key, the mail's
Message-ID) counts once: the same mail handled again after a crash spends
nothing more.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pbmref.base.files import replace_file
from pbmref.base.locks import FileLock
from pbmref.base.times import parse_datetime
from pbmref.store.index import file_stamp

__all__ = ["PasswordFailures", "Ration", "RefereeState"]

# How many mails with a wrong password are remembered per player (the newest),
# and for how long: enough for ``pbmref status`` to show an attack.
FAILURES_KEPT = 500
FAILURES_PERIOD = timedelta(days=1)


@dataclass(frozen=True)
class Ration:
    """At most ``limit`` uses of ``kind``/``key`` within ``period``."""

    kind: str
    key: str
    limit: int
    period: timedelta


@dataclass(frozen=True)
class PasswordFailures:
    """The mails with a wrong or missing password for one player of one game."""

    player: str
    last_hour: int
    last_day: int
    total: int
    last_at: datetime | None
    last_from: str


def _when(stamp: Any) -> datetime:
    """The time of a use: ``ISO`` or ``ISO TOKEN``."""
    return parse_datetime(str(stamp).split(" ", 1)[0], UTC)


def _token_of(stamp: Any) -> str | None:
    parts = str(stamp).split(" ", 1)
    return parts[1] if len(parts) == 2 else None


def _stamps_within(stamps: Any, now: datetime, period: timedelta) -> list[str]:
    """The time stamps of ``stamps`` (a list, else nothing) within ``period`` of ``now``."""
    out = []
    for stamp in stamps if isinstance(stamps, list) else []:
        try:
            if now - _when(stamp) < period:
                out.append(stamp)
        except (TypeError, ValueError):
            continue
    return out


@dataclass
class RefereeState:
    """Small bookkeeping of the referee's own (rate limits, reminders sent), one
    file a kind of record beside ``path``: ``referee-state.json`` keeps its
    replies budget in ``referee-state.replies.json``, and so on. A reply
    rewrites the small file of its budget, never the tables that grow with the
    games on the machine (the reports queued, the reminders sent)."""

    path: Path  # the name the kinds' files are named after (once the one file)
    data: dict[str, dict[str, object]] = field(default_factory=dict)  # kind -> table
    # each kind's file stamp when its table was read or written (None: unknown)
    seen: dict[str, tuple[int, int, int] | None] = field(default_factory=dict, compare=False)
    reads: int = field(default=0, compare=False)  # files read (for tests)
    _old: dict[str, object] | None = field(default=None, compare=False, repr=False)

    @classmethod
    def load(cls, path: Path) -> RefereeState:
        """The state kept beside ``path`` (each kind read when first asked about)."""
        return cls(path)

    def file_of(self, kind: str) -> Path:
        """The file of one kind of record."""
        return self.path.with_name(f"{self.path.stem}.{kind}{self.path.suffix}")

    def files(self) -> list[Path]:
        """Every file of the state there is (the one file of earlier versions too)."""
        return sorted(p for p in self.path.parent.glob(f"{self.path.stem}*{self.path.suffix}")
                      if p == self.path or p.name.startswith(f"{self.path.stem}."))

    def _read(self, kind: str) -> None:
        path = self.file_of(kind)
        self.seen[kind] = file_stamp(path)  # first: a change while reading is seen next time
        self.reads += 1
        try:
            table = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:  # never written apart: as the one file had it, if any
            table = self._earlier().get(kind)
        except (OSError, ValueError):
            table = {}
        self.data[kind] = table if isinstance(table, dict) else {}

    def _earlier(self) -> dict[str, object]:
        """The one file of earlier versions, which held every kind (read once)."""
        if self._old is None:
            try:
                old = json.loads(self.path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                old = {}
            self._old = old if isinstance(old, dict) else {}
        return self._old

    def save(self, kind: str) -> None:
        # replace_file writes under a name of its own: the daemon and cron runs save
        # at the same time (referee.md: adjudicate --due runs beside the daemon).
        self.seen[kind] = None  # a save that fails leaves the file to be read again
        path = self.file_of(kind)
        replace_file(path, json.dumps(self.data.get(kind, {}), indent=1, sort_keys=True),
                     durable=False)
        self.seen[kind] = file_stamp(path)

    @contextmanager
    def _fresh(self, *kinds: str) -> Iterator[None]:
        """Hold the state's lock and read again each of ``kinds`` another process
        changed: the daemon and cron runs each keep a copy, and one must not undo
        (or repeat) what the other recorded."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with FileLock(self.path.with_name(self.path.name + ".lock")):
            for kind in kinds:
                known = self.seen.get(kind)
                if known is None or file_stamp(self.file_of(kind)) != known:
                    self._read(kind)
            yield

    def table(self, kind: str) -> dict[str, object]:
        """One kind's table as its file has it now, read without the lock and
        without making anything (``pbmref status``, where no referee may ever
        have run): each file is replaced whole."""
        self._read(kind)
        return self.data[kind]

    def values(self, kind: str, keys: Iterable[str]) -> dict[str, object]:
        """Of one kind's table, the values of those of ``keys`` it has (a round's
        few, without a copy of a table that grows with the games played)."""
        with self._fresh(kind):
            table = self.data[kind]
            return {k: table[k] for k in keys if k in table}

    def once_per(self, kind: str, key: str, now: datetime, period: timedelta, *,
                 token: str | None = None) -> bool:
        """True (and remembered) when ``kind``/``key`` was not done within ``period``,
        or was done with this same ``token`` (the same mail, handled again after a
        crash)."""
        with self._fresh(kind):
            return self._once_per(kind, key, now, period, token)

    def _once_per(self, kind: str, key: str, now: datetime, period: timedelta,
                  token: str | None) -> bool:
        table = self.data.setdefault(kind, {})
        last = table.get(key)
        if last:
            try:
                if now - _when(last) < period:
                    return token is not None and _token_of(last) == token
            except ValueError:
                pass
        for other, stamp in list(table.items()):  # forget what is past its period
            try:
                if now - _when(stamp) >= period:
                    del table[other]
            except (TypeError, ValueError):
                del table[other]
        table[key] = f"{now.isoformat()} {token}" if token else now.isoformat()
        self.save(kind)
        return True

    def first_times(self, kind: str, keys: Iterable[str], now: datetime,
                    keep: timedelta) -> list[str]:
        """Of ``keys``, those not recorded under ``kind`` within ``keep``; they are
        recorded now (what is told once: a report the game master was told
        could not be delivered). Keys recorded longer ago are forgotten."""
        with self._fresh(kind):
            table = self.data[kind]
            for key, stamp in list(table.items()):
                if not _stamps_within([stamp], now, keep):
                    del table[key]
            new = [k for k in dict.fromkeys(keys) if k not in table]
            if new:
                table.update(dict.fromkeys(new, now.isoformat()))
                self.save(kind)
            return new

    def remind_once(self, game: str, turn: int, player: str) -> bool:
        """True (and remembered) the first time ``player`` of ``game`` is reminded
        to send orders for ``turn``. One record a game, the players reminded for
        its open turn: a table as large as the games, not as every reminder
        ever sent."""
        with self._fresh("reminders"):
            table = self.data["reminders"]
            record = table.get(game)
            record = record if isinstance(record, dict) else {}
            players, was = record.get("players"), record.get("turn")
            if not isinstance(players, list) or not isinstance(was, int) or was < turn:
                players = []
            elif was > turn:
                return False  # the game has moved on: that turn is over
            if player in players:
                return False
            table[game] = {"turn": turn, "players": [*players, player]}
            self.save("reminders")
            return True

    def within_budgets(self, now: datetime, rations: Sequence[Ration], *,
                       token: str | None = None) -> bool:
        """True when every one of ``rations`` has a use left; then each is counted.
        When one has none, nothing is counted (a note withheld is not recorded
        as sent). A use with a ``token`` counted in every ration already (its
        mail handled again after a crash) is allowed again and counts nothing."""
        with self._fresh(*dict.fromkeys(r.kind for r in rations)):
            left = [self._recent(r, now) for r in rations]
            if token is not None and rations and all(
                    any(_token_of(s) == token for s in stamps) for stamps in left):
                return True
            allowed = all(len(stamps) < r.limit for r, stamps in zip(rations, left, strict=True))
            use = f"{now.isoformat()} {token}" if token else now.isoformat()
            for r, stamps in zip(rations, left, strict=True):
                if allowed:
                    stamps.append(use)
                self.data[r.kind][r.key] = stamps
            for kind in dict.fromkeys(r.kind for r in rations):
                self.save(kind)
            return allowed

    def _recent(self, ration: Ration, now: datetime) -> list[str]:
        """The uses of ``ration`` within its period; other keys of its kind with
        no use in the period are forgotten."""
        table = self.data[ration.kind]
        for other in [k for k in table if k != ration.key]:
            if not _stamps_within(table[other], now, ration.period):
                del table[other]
        return _stamps_within(table.get(ration.key), now, ration.period)

    # ------------------------------------------------------------ wrong passwords

    def password_failure(self, game: str, player: str, sender: str, now: datetime) -> int:
        """Record a mail with a wrong or missing password for ``player`` of
        ``game``; returns how many came within the last hour (this one too)."""
        with self._fresh("password-failures"):
            table = self.data["password-failures"]
            key = f"{game}/{player}"
            found = table.get(key)
            old: dict[str, object] = found if isinstance(found, dict) else {}
            stamps = _stamps_within(old.get("stamps"), now, FAILURES_PERIOD)
            stamps = [*stamps, now.isoformat()][-FAILURES_KEPT:]
            total = old.get("total", 0)
            table[key] = {"stamps": stamps, "total": (total if isinstance(total, int) else 0) + 1,
                          "last": now.isoformat(), "last_from": sender}
            self.save("password-failures")
            return len(_stamps_within(stamps, now, timedelta(hours=1)))

    def password_failures(self, game: str, now: datetime) -> list[PasswordFailures]:
        """Per player of ``game``, the mails with a wrong or missing password
        recorded (for ``pbmref status``), players with the latest first. Only a
        read: the file is replaced whole, so no lock is taken and nothing is made
        (``status`` run where no referee ever ran leaves no spool folder behind)."""
        table = RefereeState.load(self.path).table("password-failures")
        out = []
        for key, record in table.items():
            gid, _, player = key.partition("/")
            if gid != game or not isinstance(record, dict):
                continue
            try:
                last = parse_datetime(record.get("last"), UTC)
            except (TypeError, ValueError):
                last = None
            total = record.get("total")
            out.append(PasswordFailures(
                player, len(_stamps_within(record.get("stamps"), now, timedelta(hours=1))),
                len(_stamps_within(record.get("stamps"), now, FAILURES_PERIOD)),
                total if isinstance(total, int) else 0, last, str(record.get("last_from", ""))))
        return sorted(out, key=lambda f: (f.last_at is None, -(f.last_at or now).timestamp()))

    # ------------------------------------------------------------ records kept a while

    def put(self, kind: str, key: str, value: Any, *,
            drop: Callable[[Any], bool] | None = None) -> None:
        """Keep ``value`` under ``kind``/``key`` (the lobby's requests waiting for
        their CONFIRM); the other records of the kind for which ``drop`` says so
        (past their time) are forgotten."""
        with self._fresh(kind):
            table = self.data[kind]
            if drop is not None:
                for other in [k for k, v in table.items() if drop(v)]:
                    del table[other]
            table[key] = value
            self.save(kind)

    def pop(self, kind: str, key: str) -> Any:
        """The record under ``kind``/``key``, forgotten (None when there is none)."""
        with self._fresh(kind):
            value = self.data[kind].pop(key, None)
            if value is not None:
                self.save(kind)
            return value

    def last(self, kind: str, key: str) -> int:
        """The number recorded for ``kind``/``key`` (0 when none)."""
        with self._fresh(kind):
            value = self.data[kind].get(key, 0)
        return int(value) if isinstance(value, int) else 0

    def raise_to(self, kind: str, key: str, value: int) -> None:
        """Record ``value`` for ``kind``/``key`` unless a larger one is recorded."""
        with self._fresh(kind):
            table = self.data[kind]
            old = table.get(key, 0)
            table[key] = max(value, old if isinstance(old, int) else 0)
            self.save(kind)
