"""The referee's own small bookkeeping, shared by the daemon and cron runs.

One JSON file in the spool folder: when an unknown sender was last told how
to join, the reply budget per address (a mail loop breaker), the reminders
sent, the last turn whose reports were queued per game. Every change is
made under a file lock after reading the file again, so two processes never
undo or repeat what the other recorded.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pbmref.base.files import replace_file
from pbmref.base.locks import FileLock
from pbmref.base.times import parse_datetime

__all__ = ["RefereeState"]

@dataclass
class RefereeState:
    """Small bookkeeping of the referee's own (rate limits, reminders sent)."""

    path: Path
    data: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path) -> RefereeState:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        return cls(path, data if isinstance(data, dict) else {})

    def save(self) -> None:
        # replace_file writes under a name of its own: the daemon and cron runs save
        # at the same time (referee.md: adjudicate --due runs beside the daemon).
        replace_file(self.path, json.dumps(self.data, indent=1, sort_keys=True))

    @contextmanager
    def _fresh(self) -> Iterator[None]:
        """Hold the state's lock and read it again: the daemon and cron runs each
        keep a copy, and one must not undo (or repeat) what the other recorded."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with FileLock(self.path.with_name(self.path.name + ".lock")):
            self.data = RefereeState.load(self.path).data
            yield

    def once_per(self, kind: str, key: str, now: datetime, period: timedelta) -> bool:
        """True (and remembered) when ``kind``/``key`` was not done within ``period``."""
        with self._fresh():
            return self._once_per(kind, key, now, period)

    def _once_per(self, kind: str, key: str, now: datetime, period: timedelta) -> bool:
        table = self.data.setdefault(kind, {})
        last = table.get(key)
        if last:
            try:
                if now - parse_datetime(last, UTC) < period:
                    return False
            except ValueError:
                pass
        for other, stamp in list(table.items()):  # forget what is past its period
            try:
                if now - parse_datetime(stamp, UTC) >= period:
                    del table[other]
            except (TypeError, ValueError):
                del table[other]
        table[key] = now.isoformat()
        self.save()
        return True

    def within_budget(self, kind: str, key: str, now: datetime, limit: int,
                      period: timedelta) -> bool:
        """True (and counted) while ``kind``/``key`` was used fewer than ``limit``
        times within ``period``; keys with no use in the period are forgotten."""
        with self._fresh():
            return self._within_budget(kind, key, now, limit, period)

    def _within_budget(self, kind: str, key: str, now: datetime, limit: int,
                       period: timedelta) -> bool:
        table = self.data.setdefault(kind, {})

        def recent(stamps: Any) -> list[str]:
            out = []
            for stamp in stamps if isinstance(stamps, list) else []:
                try:
                    if now - parse_datetime(stamp, UTC) < period:
                        out.append(stamp)
                except (TypeError, ValueError):
                    continue
            return out

        for other in [k for k in table if k != key]:
            if not recent(table[other]):
                del table[other]
        stamps = recent(table.get(key))
        allowed = len(stamps) < limit
        if allowed:
            stamps.append(now.isoformat())
        table[key] = stamps
        self.save()
        return allowed

    def last(self, kind: str, key: str) -> int:
        """The number recorded for ``kind``/``key`` (0 when none)."""
        with self._fresh():
            value = self.data.get(kind, {}).get(key, 0)
        return int(value) if isinstance(value, int) else 0

    def raise_to(self, kind: str, key: str, value: int) -> None:
        """Record ``value`` for ``kind``/``key`` unless a larger one is recorded."""
        with self._fresh():
            table = self.data.setdefault(kind, {})
            old = table.get(key, 0)
            table[key] = max(value, old if isinstance(old, int) else 0)
            self.save()
