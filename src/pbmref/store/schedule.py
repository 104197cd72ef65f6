"""When a game wants the referee: the one rule for "due", and the state index.

``Schedule`` is what decides, for the daemon, cron and ``pbmref status``
alike, whether a game's open turn is due (its deadline passed, or early
adjudication with every human's orders in; with a grace period, its end
while someone is late, J10; never before the game's minimum gap, J9) and
whether its reminder window, or its lateness window (J10), is open. A live ``Game`` gives its schedule; ``state.yaml`` in each game
folder keeps the same values, and the players' addresses, so that finding
due games, and rebuilding the store's index of the games, reads one small
file a game, never a history nor the game master's ``game.yaml``. The
state index is the referee's own and names the ``game.yaml`` its values
were taken from by that file's stamp (time and size, which a restore from
a backup keeps): when the game master changed the file since, it counts
for nothing, and ``game.yaml`` always wins.

The referee writes ``state.yaml`` as JSON (YAML's flow style, one key a
line), which the json module reads in microseconds and any YAML reader
reads the same; a ``state.yaml`` that is not JSON (an earlier version's,
or one rewritten by hand) is read as the YAML it is.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard
from zoneinfo import ZoneInfo

from pbmref.base.errors import DataError, GameFileError
from pbmref.base.files import replace_file
from pbmref.base.times import iso, moment, parse_datetime
from pbmref.base.yamlfile import load_text, read_yaml
from pbmref.store.layout import GAME_FILE, STATE_FILE, file_stamp, stamp
from pbmref.store.listing import Listing

if TYPE_CHECKING:
    from pbmref.store.settings import GameSettings

__all__ = [
    "AT_ONCE",
    "Schedule",
    "read_schedule",
    "grace_end",
    "read_state",
    "recorded_addresses",
    "recorded_listing",
    "recorded_schedule",
    "schedule_from_settings",
    "settings_digest",
    "write_schedule",
]


# The time of a game due at once (a broken game, or every order in early).
AT_ONCE = datetime.fromisoformat("0001-01-02T00:00:00+00:00")


@dataclass(frozen=True)
class Schedule:
    """A game's open turn as far as deadlines care."""

    turn: int = 1
    status: str = "open"
    deadline: datetime | None = None
    early_adjudication: bool = False
    humans: int = 0  # active players who mail their orders
    waiting_for: tuple[str, ...] = ()  # of those, who owes orders still
    reminder_hours: float = 0
    waits: tuple[str, ...] = ()  # players with WAIT standing: no early adjudication
    broken: bool = False  # game.yaml cannot be read: due, so the error is reported
    reports_owed: tuple[int, ...] = ()  # adjudicated turns whose reports are not queued yet
    grace_until: datetime | None = None  # J10: the deadline plus the game's grace
    earliest: datetime | None = None  # J9: no adjudication before (the minimum gap)
    # Early adjudication: when the turn is played with every human's orders in
    # (the last came in, plus the game's delay); None: at once (issue 43, item 7).
    early_at: datetime | None = None

    @property
    def all_in(self) -> bool:
        """Every human's orders are in and nobody asks to WAIT (early adjudication)."""
        return bool(self.status == "open" and self.early_adjudication and self.humans
                    and not self.waiting_for and not self.waits)

    def due_at(self) -> datetime | None:
        """When the open turn is due: None never (by time alone), ``AT_ONCE`` at
        once. The deadline; its grace period's end while someone is late (J10);
        at once with early adjudication when every human has orders in and
        nobody has WAIT standing; never before ``earliest`` (J9). A broken
        game is due so that its error is reported."""
        if self.broken:
            return AT_ONCE
        if self.status != "open":
            return None
        if self.all_in:  # after the game's delay for changes, never past the deadline
            at = AT_ONCE if self.early_at is None else (
                min(self.early_at, self.deadline) if self.deadline is not None
                else self.early_at)
        elif self.deadline is None:
            return None
        elif self.waiting_for and self.grace_until is not None:
            at = self.grace_until
        else:
            at = self.deadline
        return max(at, self.earliest) if self.earliest is not None else at

    def is_due(self, now: datetime) -> bool:
        """Adjudicate now (``due_at`` has come)."""
        at = self.due_at()
        return at is not None and at <= now

    def late_window(self) -> tuple[datetime, datetime] | None:
        """From the deadline to the end of its grace period, while someone is
        late (J10): when the lateness notices go out."""
        if (self.broken or self.status != "open" or self.deadline is None
                or self.grace_until is None or not self.waiting_for):
            return None
        return self.deadline, self.grace_until

    def in_grace(self, now: datetime) -> bool:
        """Past the deadline, within the grace period, someone still late (J10)."""
        window = self.late_window()
        return window is not None and window[0] <= now < window[1]

    def reminder_due(self, now: datetime) -> bool:
        """Within the reminder window (deadline - reminder_hours <= now < deadline)
        with somebody's orders still missing."""
        if (self.broken or self.status != "open" or not self.reminder_hours
                or self.deadline is None or not self.waiting_for):
            return False
        return self.deadline - timedelta(hours=self.reminder_hours) <= now < self.deadline


# What this process last wrote into each state index: the file's stamp after
# the write, and the values written. A file whose stamp is still that one
# holds those values: writing them again changes nothing.
_WRITTEN: dict[str, tuple[tuple[int, int, int], dict[str, object]]] = {}

_HEADER = ("# Written by the referee: the open turn and the players' addresses, for finding\n"
           "# due games and who plays where. Edit game.yaml, not this file.\n")


def settings_digest(text: str) -> str:
    """A digest of the text of a game.yaml (as read, ``\\n`` ending its lines),
    which a copy of the file keeps where its time may not (a restore from a
    backup).

    >>> settings_digest("title: Dogfight\\n")
    'bb3da379ce07b133702aa658c269ac03'
    """
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def write_schedule(game_dir: Path, schedule: Schedule, addresses: Sequence[str],
                   settings_stamp: Sequence[int], digest: str,
                   listing: Listing | None = None) -> None:
    """Rewrite the state index of a game: its ``schedule``, its players'
    ``addresses`` and what the list of games shows of it (``listing``, J1),
    all taken from the game.yaml whose stamp (``layout.stamp``) is
    ``settings_stamp`` and whose text has the ``settings_digest`` ``digest``;
    unless it holds these values already (a player's second mail of a turn
    changes none)."""
    data: dict[str, object] = {
        "turn": schedule.turn,
        "deadline": iso(schedule.deadline),
        "status": schedule.status,
        "early_adjudication": schedule.early_adjudication,
        "reminder_hours": schedule.reminder_hours,
        "players": schedule.humans,
        "waiting_for": list(schedule.waiting_for),
        "waits": list(schedule.waits),
        "early_at": iso(schedule.early_at),
        # what pbmref.store.owed holds, so that the file's stamp changes with it
        "reports_owed": list(schedule.reports_owed),
        "grace_until": iso(schedule.grace_until),
        "earliest": iso(schedule.earliest),
        "addresses": list(addresses),
        "settings_stamp": list(settings_stamp),
        "settings_digest": digest,
    }
    if listing is not None:
        data["listing"] = listing.to_dict()
    path = game_dir / STATE_FILE
    known = _WRITTEN.get(str(path))
    if known is not None and known[1] == data and known[0] == file_stamp(path):
        return
    # Not flushed to disk: after a power cut an old state index is read as one
    # that is out of date (game.yaml and the turn folders win).
    replace_file(path, _HEADER + _state_text(data), durable=False)
    _WRITTEN[str(path)] = (file_stamp(path), data)


def _state_text(data: Mapping[str, object]) -> str:
    """The values of a state index as JSON, one key a line: YAML's flow style too.

    >>> print(_state_text({"turn": 2, "waiting_for": ["ann", "bob"]}), end="")
    {
     "turn": 2,
     "waiting_for": ["ann", "bob"]
    }
    """
    lines = ",\n".join(f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}"
                       for k, v in data.items())
    return f"{{\n{lines}\n}}\n"


def read_state(game_dir: Path | str) -> dict[str, object]:
    """The values a game's state index holds, as written (empty when it is
    missing or cannot be read): JSON as the referee writes it, else YAML."""
    path = os.path.join(game_dir, STATE_FILE)
    try:
        with open(path, "rb") as file:
            text = file.read()
    except OSError:
        return {}
    start = 0
    while text.startswith(b"#", start):  # the header's lines
        start = text.find(b"\n", start) + 1 or len(text)
    data: Any = None
    if text.startswith(b"{", start):
        with contextlib.suppress(ValueError):  # UnicodeDecodeError too
            data = json.loads(text[start:])
    if data is None:
        try:
            data = load_text(text.decode("utf-8"), path)
        except (GameFileError, UnicodeDecodeError):
            return {}
    return data if isinstance(data, dict) else {}


def _strings(value: Any) -> TypeGuard[list[str]]:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _written_from(data: Mapping[str, object], game_file: str, settings_stamp: Sequence[int]
                  ) -> bool:
    """The values of a state index were written from ``game_file`` as it is now,
    whose stamp is ``settings_stamp``: the stamp they name is that one, or else
    (a copy of the folder with other times: restored from a backup) the
    digest they name is that of the file's text."""
    if data.get("settings_stamp") == list(settings_stamp):
        return True
    digest = data.get("settings_digest")
    if not isinstance(digest, str):
        return False
    try:
        with open(game_file, encoding="utf-8") as file:
            return settings_digest(file.read()) == digest
    except (OSError, UnicodeDecodeError):
        return False


def recorded_schedule(data: Mapping[str, object], game_file: str,
                      settings_stamp: Sequence[int]) -> Schedule | None:
    """The schedule the values of a state index (``read_state``) hold, when they
    were written from ``game_file`` (its stamp, ``layout.stamp``, given) as it
    is now; None when not (the game master changed it since), or when a value
    is missing or of the wrong kind (edited by hand)."""
    if not _written_from(data, game_file, settings_stamp):
        return None
    turn, deadline = data.get("turn"), data.get("deadline")
    hours, humans = data.get("reminder_hours", 0), data.get("players", 0)
    status, early = data.get("status", "open"), data.get("early_adjudication", False)
    waiting, waits = data.get("waiting_for", []), data.get("waits", [])
    when = moment(deadline)
    grace, earliest = data.get("grace_until"), data.get("earliest")
    if not (type(turn) is int and turn >= 1 and type(humans) is int and _number(hours)
            and isinstance(status, str) and isinstance(early, bool)
            and _strings(waiting) and _strings(waits)
            and (when is not None or deadline is None)
            and (grace is None or moment(grace) is not None)
            and (earliest is None or moment(earliest) is not None)):
        return None
    return Schedule(turn=turn, status=status, deadline=when, early_adjudication=early,
                    humans=humans, waiting_for=tuple(waiting), reminder_hours=hours,
                    waits=tuple(waits), grace_until=moment(grace), earliest=moment(earliest),
                    early_at=moment(data.get("early_at")))


def recorded_listing(data: Mapping[str, object]) -> Listing | None:
    """What the list of games shows of the game, as a state index holds it (None:
    none, as an earlier version wrote it); to be taken only with its
    ``recorded_schedule``, else to be ``Listing.updated`` from the settings."""
    return Listing.from_dict(data.get("listing"))


def recorded_addresses(data: Mapping[str, object]) -> tuple[str, ...] | None:
    """The players' addresses the values of a state index hold (None: none, as
    an earlier version wrote it); to be taken only with its ``recorded_schedule``."""
    addresses = data.get("addresses")
    return tuple(addresses) if _strings(addresses) else None


def schedule_from_settings(settings: GameSettings, known: Mapping[str, object]) -> Schedule:
    """The schedule from game.yaml's ``settings`` (the game master changed the
    file since the state index was written); what only the referee knows, of
    the values ``known`` to the state index (the turn, a hint for
    ``find_open_turn``; who owes orders; who asks to wait), is kept where it
    can be read."""
    waiting = known.get("waiting_for")
    waits = known.get("waits")
    earliest = known.get("earliest") if settings.deadlines.min_gap else None
    return Schedule(
        turn=_known_turn(known), status=settings.status, deadline=settings.deadline,
        early_adjudication=settings.early_adjudication, humans=len(settings.humans()),
        waiting_for=tuple(waiting) if _strings(waiting) else (),
        reminder_hours=settings.reminder_hours, waits=tuple(waits) if _strings(waits) else (),
        grace_until=grace_end(settings), earliest=moment(earliest),
        early_at=moment(known.get("early_at")) if isinstance(known.get("early_at"), str)
        else None)


def grace_end(settings: GameSettings) -> datetime | None:
    """The end of the open turn's grace period (J10), when the game gives one."""
    grace = settings.deadlines.grace
    return settings.deadline + grace if grace and settings.deadline is not None else None


def _known_turn(known: Mapping[str, object]) -> int:
    turn = known.get("turn")
    return turn if type(turn) is int and turn >= 1 else 1


def _from_settings(game_dir: Path, known: Mapping[str, object]) -> Schedule:
    """The schedule from game.yaml itself (``schedule_from_settings``), or a
    broken one when it cannot be read."""
    from pbmref.store.settings import settings_from_dict

    turn = _known_turn(known)
    try:
        doc = read_yaml(game_dir / GAME_FILE).mapping()
    except GameFileError:
        return Schedule(turn=turn, broken=True)
    try:
        settings = settings_from_dict(doc, game_dir.name)
    except (DataError, ValueError):
        deadline = None
        try:
            zone = ZoneInfo(str(doc.get("timezone", "UTC")))
            if doc.get("deadline") is not None:
                deadline = parse_datetime(doc["deadline"], zone)
        except (ValueError, KeyError):
            pass
        return Schedule(turn=turn, status=str(doc.get("status", "open")), deadline=deadline,
                        broken=True)
    return schedule_from_settings(settings, known)


def read_schedule(game_dir: Path) -> Schedule:
    """A game's schedule from its state index, refreshed from game.yaml when the
    game master changed that file since the index was written (or the index
    cannot be read)."""
    data = read_state(game_dir)
    game_file = game_dir / GAME_FILE
    schedule = recorded_schedule(data, os.fspath(game_file), stamp(game_file))
    return schedule if schedule is not None else _from_settings(game_dir, data)
