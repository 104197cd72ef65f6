"""Whether the mail servers answer, across runs, and the game master told of trouble.

The IMAP intake and the SMTP sender each report to a `ServerWatch`: ``ok()``
when the server did its work, ``failed(error)`` when it could not be reached
or logged in to (after the intake's reconnects, or a send put off). The watch
keeps, per server, since when it has failed and the last error in
``spool_dir/mail-health.json`` (shared by the daemon and cron's runs, written
only when that changes). Once a server has failed for ``after`` (the config's
``referee.trouble_after``), the game master gets one notice, again at most
once a day while it lasts, and one when it works again. A notice about SMTP
can only go once SMTP works: it waits in the outgoing spool, and the log and
``pbmref status`` (`trouble`) say it meanwhile.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pbmref.base.files import replace_file
from pbmref.base.locks import FileLock

__all__ = ["HEALTH_FILE", "ServerWatch", "Trouble", "trouble"]

log = logging.getLogger(__name__)

HEALTH_FILE = "mail-health.json"
AGAIN = timedelta(days=1)  # a notice again while the trouble lasts
NAMES = {"imap": "the mailbox (IMAP)", "smtp": "the SMTP server"}

# (subject, text) of a notice for the game master; the watch hands it on
Notify = Callable[[str, str, str], None]  # (key, subject, text)


@dataclass(frozen=True)
class Trouble:
    """A server that has failed since ``since``."""

    server: str  # imap | smtp
    host: str
    since: datetime
    error: str
    told: datetime | None  # when the game master was last told

    def line(self, now: datetime) -> str:
        hours = (now - self.since).total_seconds() / 3600
        told = f"; the game master was told {self.told:%a %d %b %H:%M} UTC" if self.told else ""
        return (f"{NAMES[self.server]} {self.host} has failed since "
                f"{self.since:%a %d %b %H:%M} UTC ({hours:.1f} h): {self.error}{told}")


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def trouble(spool_dir: Path) -> list[Trouble]:
    """The servers failing now, as the last runs saw them (``pbmref status``)."""
    found = []
    for server, entry in sorted(_read(spool_dir / HEALTH_FILE).items()):
        try:
            found.append(Trouble(server, str(entry.get("host", "")),
                                 datetime.fromisoformat(entry["since"]), str(entry["error"]),
                                 datetime.fromisoformat(entry["told"])
                                 if entry.get("told") else None))
        except (KeyError, TypeError, ValueError):
            continue
    return found


class ServerWatch:
    """One server's health, as seen by this process and recorded for the others."""

    def __init__(self, spool_dir: Path, server: str, host: str, *, after: timedelta,
                 notify: Notify | None,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.path = spool_dir / HEALTH_FILE
        self.server = server
        self.host = host
        self.after = after
        self.notify = notify
        self.clock = clock
        self._fine = False  # known fine in this process since its last look: nothing to write
        self._lock = threading.Lock()

    def ok(self) -> None:
        """The server did its work (cheap once known)."""
        if self._fine:
            return
        with self._lock:
            entry = self._change(lambda state: state.pop(self.server, None))
            self._fine = True
        if entry and entry.get("told") and self.notify:
            since = datetime.fromisoformat(entry["since"])
            now = self.clock()
            self._send(f"back:{entry['since']}", f"{self._name()} works again", (
                f"{self._name().capitalize()} ({self.host}) works again since "
                f"{now:%a %d %b %H:%M} UTC. It had failed since {since:%a %d %b %H:%M} UTC.\n"
                "Mail that waited on the server is being answered now, and replies that "
                "waited in the referee's spool are on their way.\n"))

    def failed(self, error: str) -> None:
        """The server could not be reached or logged in to."""
        now = self.clock()
        notice: dict[str, Any] = {}

        def record(state: dict[str, Any]) -> None:
            entry = state.setdefault(self.server, {"since": now.isoformat()})
            entry.update(host=self.host, error=error[:500])
            since = datetime.fromisoformat(entry["since"])
            told = datetime.fromisoformat(entry["told"]) if entry.get("told") else None
            if now - since >= self.after and (told is None or now - told >= AGAIN):
                entry["told"] = now.isoformat()
                notice.update(entry)

        with self._lock:
            self._fine = False
            self._change(record)
        # A mailbox that cannot be read is said by whoever read it, once: the
        # daemon's warning a round, a command's one line (issue 40); a send put
        # off is said by nobody else.
        log.log(logging.INFO if self.server == "imap" else logging.WARNING,
                "%s %s failed: %s", self.server.upper(), self.host, error)
        if notice and self.notify:
            since = datetime.fromisoformat(notice["since"])
            self._send(f"down:{notice['since']}:{notice['told']}",
                       f"{self._name()} has failed since {since:%a %d %b %H:%M} UTC", (
                           f"The referee could not use {self._name()} ({self.host}) since "
                           f"{since:%a %d %b %H:%M} UTC (now {now:%a %d %b %H:%M} UTC).\n"
                           f"The last error: {error}\n\n"
                           "Nothing is lost: players' mail waits on the server and the "
                           "referee's replies and reports wait in its spool until it works "
                           "again; a turn whose deadline passes meanwhile is played on the "
                           "first run that can read the mailbox.\n"
                           "`pbmref mail test` checks each step and says what to fix. You are "
                           "told again in a day if it lasts, and once it works again.\n"))

    def _name(self) -> str:
        return NAMES[self.server]

    def _send(self, key: str, subject: str, text: str) -> None:
        assert self.notify is not None
        try:
            self.notify(f"mail-health:{self.server}:{key}", subject, text)
        except Exception:  # a notice must never stop the referee
            log.exception("could not queue the notice %r for the game master", subject)

    def _change(self, change: Callable[[dict[str, Any]], Any]) -> Any:
        """Read, change and write the state file under its lock (only if changed)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with FileLock(self.path.with_name(self.path.name + ".lock")):
            state = _read(self.path)
            before = json.dumps(state, sort_keys=True)
            result = change(state)
            if json.dumps(state, sort_keys=True) != before:
                replace_file(self.path, json.dumps(state, indent=1) + "\n", durable=False)
            return result
