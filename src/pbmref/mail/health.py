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

Beside the servers, the referee's own state for ``pbmref status``
(`referee_lines`): when its last round ended well (``note_round``, written at
most every ``ROUND_NOTE``), how many mails wait in the outgoing spool and
since when, how many failed for good, how many incoming mails were set aside;
and the game master's notice of mail set aside in a round (`set_aside_notice`).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import NotRequired, TypedDict, TypeVar, cast

from pbmref.base.files import replace_file
from pbmref.base.locks import FileLock

__all__ = ["HEALTH_FILE", "ROUND_FILE", "ServerWatch", "Trouble", "last_round", "note_round",
           "referee_lines", "set_aside_notice", "trouble"]

log = logging.getLogger(__name__)

HEALTH_FILE = "mail-health.json"
ROUND_FILE = "last-round.json"
ROUND_NOTE = timedelta(minutes=5)  # the last good round is written at most this often
_noted: dict[Path, datetime] = {}  # per spool, the last good round this process wrote
AGAIN = timedelta(days=1)  # a notice again while the trouble lasts
NAMES = {"imap": "the mailbox (IMAP)", "smtp": "the SMTP server"}

# (subject, text) of a notice for the game master; the watch hands it on
Notify = Callable[[str, str, str], None]  # (key, subject, text)
R = TypeVar("R")


class Failing(TypedDict):
    """One failing server's record in ``mail-health.json`` (times ISO 8601, UTC)."""

    since: str  # when it began to fail
    host: NotRequired[str]
    error: NotRequired[str]  # the last error, cut to 500 characters
    told: NotRequired[str]  # when the game master was last told


# ``mail-health.json``: each failing server (imap, smtp) by name; a server that
# works is left out.
Health = dict[str, Failing]


class RoundNote(TypedDict):
    """``last-round.json``: when the referee's last round ended well (ISO 8601)."""

    last_round: str


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


def _read(path: Path) -> dict[str, object]:
    """A JSON object file of the spool's, as written (empty when missing or broken;
    its readers take what they need under ``KeyError``/``TypeError``)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _health(path: Path) -> Health:
    return cast(Health, _read(path))


def trouble(spool_dir: Path) -> list[Trouble]:
    """The servers failing now, as the last runs saw them (``pbmref status``)."""
    found = []
    for server, entry in sorted(_health(spool_dir / HEALTH_FILE).items()):
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
        notices: list[Failing] = []

        def record(state: Health) -> None:
            entry = state.setdefault(self.server, {"since": now.isoformat()})
            entry["host"], entry["error"] = self.host, error[:500]
            since = datetime.fromisoformat(entry["since"])
            told = datetime.fromisoformat(entry["told"]) if entry.get("told") else None
            if now - since >= self.after and (told is None or now - told >= AGAIN):
                entry["told"] = now.isoformat()
                notices.append(entry.copy())

        with self._lock:
            self._fine = False
            self._change(record)
        # A mailbox that cannot be read is said by whoever read it, once: the
        # daemon's warning a round, a command's one line (issue 40); a send put
        # off is said by nobody else.
        log.log(logging.INFO if self.server == "imap" else logging.WARNING,
                "%s %s failed: %s", self.server.upper(), self.host, error)
        if notices and self.notify:
            notice = notices[0]
            since = datetime.fromisoformat(notice["since"])
            self._send(f"down:{notice['since']}:{notice.get('told')}",
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

    def _change(self, change: Callable[[Health], R]) -> R:
        """Read, change and write the state file under its lock (only if changed)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with FileLock(self.path.with_name(self.path.name + ".lock")):
            state = _health(self.path)
            before = json.dumps(state, sort_keys=True)
            result = change(state)
            if json.dumps(state, sort_keys=True) != before:
                replace_file(self.path, json.dumps(state, indent=1) + "\n", durable=False)
            return result


def note_round(spool_dir: Path, now: datetime) -> None:
    """A round (a daemon's, one cron run) ended well at ``now``: recorded for
    ``pbmref status``, at most every ``ROUND_NOTE`` (a daemon's rounds cost no
    write each)."""
    path = spool_dir / ROUND_FILE
    last = _noted.get(path)
    if last is not None and now - last < ROUND_NOTE:
        return
    try:
        note: RoundNote = {"last_round": now.isoformat()}
        replace_file(path, json.dumps(note) + "\n", durable=False)
    except OSError:  # status information only: a full disk is told elsewhere
        log.warning("could not record the last round in %s", path, exc_info=True)
        return
    _noted[path] = now


def last_round(spool_dir: Path) -> datetime | None:
    """When the referee's last round ended well, as recorded (None: never)."""
    try:
        return datetime.fromisoformat(cast(RoundNote, _read(spool_dir / ROUND_FILE))["last_round"])
    except (KeyError, TypeError, ValueError):
        return None


def _ago(then: datetime, now: datetime) -> str:
    minutes = max(0, int((now - then).total_seconds() // 60))
    if minutes < 60:
        return f"{minutes} min ago"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min ago" if hours < 48 else f"{hours // 24} days ago"


def referee_lines(spool_dir: Path, *, queued: list[datetime], failed: int, set_aside: int,
                  now: datetime) -> list[str]:
    """What ``pbmref status`` says of the referee itself (issue 44): its last good
    round, the outgoing queue (``queued``: when each waiting mail was queued),
    mails that failed for good, incoming mails set aside; then each server in
    trouble.

    >>> from pathlib import Path
    >>> t = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
    >>> referee_lines(Path("/nonexistent"), queued=[t - timedelta(hours=2)], failed=0,
    ...               set_aside=1, now=t)  # doctest: +NORMALIZE_WHITESPACE
    ['referee: no round has ended yet',
     'referee: 1 mail(s) waiting to be sent, the oldest queued 2 h 0 min ago',
     'referee: 1 incoming mail(s) set aside after a fault (pbmref mail shunted)']
    """
    last = last_round(spool_dir)
    lines = [f"referee: last good round {last:%a %d %b %H:%M} UTC ({_ago(last, now)})"
             if last else "referee: no round has ended yet"]
    if queued:
        lines.append(f"referee: {len(queued)} mail(s) waiting to be sent, the oldest queued "
                     f"{_ago(min(queued), now)}")
    if failed:
        lines.append(f"referee: {failed} mail(s) refused for good by the SMTP server "
                     "(kept in the spool's out/failed/)")
    if set_aside:
        lines.append(f"referee: {set_aside} incoming mail(s) set aside after a fault "
                     "(pbmref mail shunted)")
    return lines + [f"referee: {t.line(now)}" for t in trouble(spool_dir)]


def set_aside_notice(mails: list[tuple[str, str, str, str]]) -> tuple[str, str]:
    """The game master's notice (subject, text) of incoming mails set aside in a
    round: each as (spool id, sender, Message-ID, reason).

    >>> subject, text = set_aside_notice([("0a1b", "anna@example.org", "<1@example.org>",
    ...                                    "ValueError: boom")])
    >>> subject
    '1 mail set aside after a fault'
    >>> print(text.splitlines()[2])
      0a1b  from anna@example.org  <1@example.org>: ValueError: boom
    """
    n = len(mails)
    subject = f"{n} mail{'s' if n > 1 else ''} set aside after a fault"
    lines = ["The referee could not handle these mails and set them aside; nothing in",
             "any game was changed by them, and each registered sender was told:"]
    lines += [f"  {entry_id}  from {sender or '(no address)'}  {message_id[:200]}: "
              f"{reason[:300]}" for entry_id, sender, message_id, reason in mails]
    lines += ["", "`pbmref mail shunted` lists them; once the cause is fixed, "
              "`pbmref mail retry ID` puts one back in the queue.", ""]
    return subject, "\n".join(lines)
