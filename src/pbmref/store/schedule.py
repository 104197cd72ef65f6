"""When a game wants the referee: the one rule for "due", and the state index.

``Schedule`` is what decides, for the daemon, cron and ``pbmref status``
alike, whether a game's open turn is due (its deadline passed, or early
adjudication with every human's orders in) and whether its reminder window
is open. A live ``Game`` gives its schedule; ``state.yaml`` in each game
folder keeps the same values so that finding due games reads one small file
a game, never a history. The state index is the referee's own: it is
rebuilt from ``game.yaml`` whenever the game master changed that file
(its stamp differs), and ``game.yaml`` always wins.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from pbmref.base.errors import DataError, GameFileError
from pbmref.base.files import replace_file
from pbmref.base.times import iso, moment, parse_datetime
from pbmref.base.yamlfile import dump_yaml, read_yaml
from pbmref.store.layout import GAME_FILE, STATE_FILE, file_stamp, stamp

__all__ = ["Schedule", "next_deadline_after", "read_schedule", "write_schedule"]


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

    def is_due(self, now: datetime) -> bool:
        """Adjudicate now: the deadline passed, or (early adjudication) every human
        has orders in and nobody has WAIT standing. A broken game is due so that
        its error is reported."""
        if self.broken:
            return True
        if self.status != "open":
            return False
        if self.early_adjudication and self.humans and not self.waiting_for \
                and not self.waits:
            return True
        return self.deadline is not None and self.deadline <= now

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
_WRITTEN: dict[str, tuple[tuple[int, int, int], dict[str, Any]]] = {}


def write_schedule(game_dir: Path, schedule: Schedule) -> None:
    """Rewrite the state index of a game (what finding due games reads), unless it
    holds these values already (a player's second mail of a turn changes none)."""
    data = {
        "turn": schedule.turn,
        "deadline": iso(schedule.deadline),
        "status": schedule.status,
        "early_adjudication": schedule.early_adjudication,
        "reminder_hours": schedule.reminder_hours,
        "players": schedule.humans,
        "waiting_for": list(schedule.waiting_for),
        "waits": list(schedule.waits),
        "settings_stamp": stamp(game_dir / GAME_FILE),
    }
    path = game_dir / STATE_FILE
    known = _WRITTEN.get(str(path))
    if known is not None and known[1] == data and known[0] == file_stamp(path):
        return
    # Not flushed to disk: after a power cut an old state index is read as one
    # that is out of date (game.yaml and the turn folders win).
    replace_file(path, dump_yaml(
        data, header="Written by the referee: the open turn, for finding due games. "
                     "Edit game.yaml, not this file."), durable=False)
    _WRITTEN[str(path)] = (file_stamp(path), data)


def _from_settings(game_dir: Path, known: Mapping[str, Any]) -> Schedule:
    """The schedule from game.yaml itself (the game master changed it since the
    index was written); what only the referee knows (waiting_for) is kept."""
    from pbmref.store.settings import settings_from_dict

    turn = int(known.get("turn") or 1)
    try:
        doc = read_yaml(game_dir / GAME_FILE).mapping()
    except GameFileError:
        return Schedule(turn=turn, broken=True)
    try:
        s = settings_from_dict(doc, game_dir.name)
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
    waiting = known.get("waiting_for")
    waits = known.get("waits")
    return Schedule(
        turn=turn, status=s.status, deadline=s.deadline,
        early_adjudication=s.early_adjudication, humans=len(s.humans()),
        waiting_for=tuple(waiting) if isinstance(waiting, list) else (),
        reminder_hours=s.reminder_hours, waits=tuple(waits) if isinstance(waits, list) else ())


def read_schedule(game_dir: Path) -> Schedule:
    """A game's schedule from its state index, refreshed from game.yaml when the
    game master changed that file since the index was written."""
    try:
        data = read_yaml(game_dir / STATE_FILE).mapping()
    except GameFileError:
        data = {}
    if data.get("settings_stamp") != stamp(game_dir / GAME_FILE) or "turn" not in data:
        return _from_settings(game_dir, data)
    waiting = data.get("waiting_for")
    waits = data.get("waits")
    hours = data.get("reminder_hours") or 0
    return Schedule(
        turn=int(data.get("turn") or 1), status=str(data.get("status", "open")),
        deadline=moment(data.get("deadline")),
        early_adjudication=bool(data.get("early_adjudication")),
        humans=int(data.get("players") or 0),
        waiting_for=tuple(waiting) if isinstance(waiting, list) else (),
        reminder_hours=hours if isinstance(hours, (int, float)) else 0,
        waits=tuple(waits) if isinstance(waits, list) else ())


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
