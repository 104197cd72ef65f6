"""The pace of outgoing mail: within a provider's limits (issue 44, item 9).

Mail providers cap what an account sends: so many mails a minute, so many
recipients a day (Gmail: 500 a day for a personal account). ``Pace`` holds
the referee's own limits (``limits.send_per_minute``,
``limits.recipients_per_day``; 0: none) and a ledger of what went out within
the longest of its windows, in a small file of the outgoing spool
(``pace.json``), so that every process that delivers (the daemon, cron)
counts the same sends. The spool asks it before each mail of a delivery
round (``allows``), tells it each mail sent (``sent``), and leaves what the
limits hold back queued, due again when the window has room (``free_at``).
The ledger is written once a round, not flushed: lost in a power cut, it
only lets a few mails more go out.

>>> from datetime import datetime, UTC, timedelta
>>> pace = Pace(send_per_minute=2)
>>> now = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
>>> pace.allows(1, now), pace.sent(1, now), pace.sent(1, now), pace.allows(1, now)
(True, None, None, False)
>>> pace.free_at(now) == now + timedelta(minutes=1)
True
>>> pace.eta(mails=5, recipients=5, now=now)
datetime.timedelta(seconds=180)
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.utils import getaddresses
from pathlib import Path

from pbmref.base.files import replace_file

__all__ = ["Pace", "recipients_of"]

MINUTE = timedelta(minutes=1)
DAY = timedelta(days=1)


def recipients_of(to: str) -> int:
    """How many recipients a To header names (at least one)."""
    return max(1, len([a for _, a in getaddresses([to]) if a]))


@dataclass
class Pace:
    """The limits, and the sends within their windows: (when, recipients)."""

    send_per_minute: int = 0
    recipients_per_day: int = 0
    file: Path | None = None
    ledger: list[tuple[float, int]] = field(default_factory=list)

    @property
    def limited(self) -> bool:
        return bool(self.send_per_minute or self.recipients_per_day)

    def load(self, now: datetime) -> Pace:
        """The ledger as the file has it (what another process sent too)."""
        self.ledger = []
        if self.file is not None and self.limited:
            try:
                data = json.loads(self.file.read_text(encoding="utf-8"))
                self.ledger = [(float(t), int(n)) for t, n in data.get("sent", [])]
            except (OSError, ValueError, TypeError, AttributeError):
                self.ledger = []  # unreadable: counted afresh
        self._forget(now)
        return self

    def save(self) -> None:
        if self.file is not None and self.limited:
            replace_file(self.file, json.dumps({"sent": self.ledger}), durable=False)

    def _forget(self, now: datetime) -> None:
        window = DAY if self.recipients_per_day else MINUTE
        start = (now - window).timestamp()
        self.ledger = [(t, n) for t, n in self.ledger if t > start]

    def _since(self, now: datetime, window: timedelta) -> list[tuple[float, int]]:
        start = (now - window).timestamp()
        return [(t, n) for t, n in self.ledger if t > start]

    def allows(self, recipients: int, now: datetime) -> bool:
        """Whether a mail to ``recipients`` may go out at ``now``."""
        if self.send_per_minute and len(self._since(now, MINUTE)) >= self.send_per_minute:
            return False
        if not self.recipients_per_day:
            return True
        used = sum(n for _, n in self._since(now, DAY))
        # a mail to more than a day's recipients goes alone, when the day is empty
        return used + recipients <= self.recipients_per_day or not used

    def sent(self, recipients: int, now: datetime) -> None:
        self.ledger.append((now.timestamp(), recipients))

    def free_at(self, now: datetime, recipients: int = 1) -> datetime:
        """When a mail to ``recipients`` may go out next (``now`` if it may now)."""
        when = now
        while not self.allows(recipients, when):
            # the next send to leave a window frees room: one minute, or one day on
            later = [datetime.fromtimestamp(t, UTC) + w for t, _ in self.ledger
                     for w in (MINUTE, DAY) if datetime.fromtimestamp(t, UTC) + w > when]
            if not later:
                return when
            when = min(later)
        return when

    def eta(self, *, mails: int, recipients: int, now: datetime) -> timedelta:
        """About how long ``mails`` to ``recipients`` in all take to go out from
        ``now``, after what the ledger holds (whole minutes and days)."""
        took = timedelta()
        if self.send_per_minute:
            waiting = len(self._since(now, MINUTE)) + mails
            took = max(took, MINUTE * (math.ceil(waiting / self.send_per_minute) - 1))
        if self.recipients_per_day:
            used = sum(n for _, n in self._since(now, DAY))
            days = math.ceil((used + recipients) / self.recipients_per_day) - 1
            took = max(took, DAY * days)
        return took
