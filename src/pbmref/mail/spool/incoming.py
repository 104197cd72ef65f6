"""The incoming spool: each mail saved before anything else happens to it,
counted try by try while it is handled, then done or set aside (``shunt/``),
never lost and never retried for ever.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pbmref.base.files import (
    commit_file,
    fsync_dir,
    replace_file,
    write_synced,
)
from pbmref.base.times import moment
from pbmref.mail.base import RawMail
from pbmref.mail.message import spool_headers
from pbmref.mail.spool.entries import (
    _ANSWERED,
    _HANDLED,
    _LEFT_BEHIND,
    _MARKS,
    _TRY,
    _TRY_ALONE,
    _cut_mail,
    _entries,
    _flock,
    _in_entry,
    _iso,
    _last_run,
    _left_behind,
    _marks_kept,
    _now,
    _open_spool,
    _parse_iso,
    _read_in,
)

log = logging.getLogger("pbmref.mail.spool")

@dataclass(frozen=True)
class InEntry:
    """One spooled incoming mail."""

    id: str  # hash of the Message-ID: the spool's key
    path: Path  # its entry file
    state: str  # "pending" | "done" | "shunt"
    message_id: str
    intake_key: str  # the key to pass to Intake.mark_handled
    arrived: datetime  # server arrival time, UTC
    size: int
    attempts: int = 0  # tries begun, all told
    duplicate: bool = False  # True when save() found it already spooled
    answered: bool = False  # its replies are queued (IncomingSpool.mark_answered)
    # the process died while it was being handled (a try that neither ended in
    # its replies queued nor raised): next it is handled alone
    interrupted: bool = False
    deaths_alone: int = 0  # of those deaths in a row, how many while it was alone
    failures: int = 0  # tries that raised
    meta: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def raw(self) -> bytes:
        """The mail as it came (empty once it is done)."""
        return _read_in(self.path, whole=True)[2]

    @property
    def sender(self) -> str:
        """The From address, as saved ("" when unknown)."""
        return str(self.meta.get("sender") or "")

    @property
    def sent(self) -> datetime | None:
        """The Date header, as saved (None when absent or unreadable)."""
        return moment(self.meta.get("sent"))

    @property
    def second(self) -> datetime:
        """The server's arrival time to the second (its Maildir and IMAP resolution)."""
        return self.arrived.replace(microsecond=0)


class IncomingSpool:
    """Incoming mail, saved before anything else happens to it."""

    STATES = {"pending": "new", "done": "done", "shunt": "shunt"}

    def __init__(self, root: str | os.PathLike[str], *, max_attempts: int = 3) -> None:
        if not 1 <= max_attempts <= (_MARKS - 1) // 2:  # the marks of a run of tries fit
            raise ValueError(f"max_attempts must be 1 to {(_MARKS - 1) // 2}, not {max_attempts}")
        self.root = Path(root)
        self.max_attempts = max_attempts
        _open_spool(self.root, self.STATES.values())

    # -- helpers
    @staticmethod
    def key_of(message_id: str) -> str:
        return hashlib.sha256(message_id.encode("utf-8", "replace")).hexdigest()[:32]

    def _load(self, path: Path, state: str, *, duplicate: bool = False) -> InEntry:
        marks, meta, _ = _read_in(path)
        return self._made(path, state, marks, meta, duplicate=duplicate)

    @staticmethod
    def _made(path: Path, state: str, marks: bytes, meta: dict[str, Any], *,
              duplicate: bool = False) -> InEntry:
        """The entry whose file at ``path`` holds ``marks`` and ``meta`` (read, or
        just written by this process: the spool reads an entry once a round)."""
        tries = marks.count(_TRY) + marks.count(_TRY_ALONE)
        answered = _ANSWERED in marks
        run = _last_run(marks)  # the tries since the last one whose handling ended
        failures = meta.get("failures")
        return InEntry(
            id=path.name,
            path=path,
            state=state,
            message_id=str(meta.get("message_id", "")),
            intake_key=str(meta.get("intake_key", "")),
            arrived=_parse_iso(meta.get("arrived"), datetime.fromtimestamp(0, UTC)),
            size=int(meta.get("size", 0) or 0),
            # the tries before the marks were last written anew, and those since
            attempts=int(meta.get("attempts", 0) or 0) + tries,
            duplicate=duplicate,
            answered=answered,
            interrupted=bool(run) and not answered,
            deaths_alone=0 if answered else run.count(_TRY_ALONE),
            failures=failures if isinstance(failures, int) else len(meta.get("errors") or ()),
            meta=meta,
        )

    def find(self, message_id: str) -> InEntry | None:
        """The entry for `message_id` in any state, or None."""
        return self._find_key(self.key_of(message_id))

    def _find_key(self, key: str) -> InEntry | None:
        for state, sub in self.STATES.items():
            path = self.root / sub / key
            if path.is_file():
                return self._load(path, state)
        return None

    def lock(self, *, blocking: bool = True) -> contextlib.AbstractContextManager[None]:
        """An exclusive lock for whoever works through the spool (raises SpoolBusy)."""
        return _flock(self.root / ".work.lock", blocking=blocking)

    def _rewrite(self, entry: InEntry, meta: dict[str, Any], *,
                 marks: bytes | None = None) -> InEntry:
        """The entry written anew with ``meta`` (and ``marks``), the mail kept:
        flushed, since the new file holds the mail a retry needs."""
        old_marks, _, raw = _read_in(entry.path, whole=True)
        replace_file(entry.path, _in_entry(old_marks if marks is None else marks, meta, raw))
        return self._load(entry.path, entry.state)

    # -- API
    def save(self, mail: RawMail, *, durable: bool = True) -> InEntry:
        """Store `mail` (flushed to disk when `durable`). Idempotent per Message-ID
        and content: saving the same mail again returns the existing entry with
        `duplicate=True`."""
        message_id, sender, sent = spool_headers(mail.raw)  # its headers read once
        digest = hashlib.sha256(mail.raw).hexdigest()
        key = self.key_of(message_id)
        with _flock(self.root / ".save.lock"):
            existing = self._find_key(key)
            if existing is not None and existing.meta.get("sha256", digest) != digest:
                # the Message-ID of another mail: this one is a mail of its own
                key = self.key_of(f"{message_id} {digest}")
                existing = self._find_key(key)
            if existing is not None:
                return replace(existing, duplicate=True)
            meta: dict[str, Any] = {
                "message_id": message_id,
                "intake_key": mail.key,
                "arrived": _iso(mail.arrived),
                "sender": sender,
                "sent": _iso(sent) if sent is not None else None,
                "saved": _iso(_now()),
                "size": mail.size,
                "sha256": digest,
                "attempts": 0,
                "errors": [],
            }
            tmp = self.root / "tmp" / f"{key}.{os.getpid()}.{uuid.uuid4().hex[:8]}"
            write_synced(tmp, _in_entry(b"", meta, mail.raw), durable=durable)
            target = self.root / "new" / key
            if not commit_file(tmp, target, durable=durable):
                return replace(self._load(target, "pending"), duplicate=True)
            return self._made(target, "pending", b"", meta)

    def pending(self) -> list[InEntry]:
        """Waiting entries, oldest arrival first; mails that reached the server in
        the same second in the order they were sent (their Date header), then in
        the server's order (IMAP UID, Maildir delivery: the order they were
        fetched and saved). A mail the process died on ``max_attempts`` times in
        a row while it was handled alone is shunted here (see the module)."""
        out: list[InEntry] = []
        for path in list(_entries(self.root / "new")):
            entry = self._load(path, "pending")
            if entry.deaths_alone >= self.max_attempts:
                self.shunt(entry, f"set aside after the referee died {entry.deaths_alone} "
                                  "times in a row while handling this mail alone (a mail "
                                  "that kills the process: too big for its memory?)")
                continue
            out.append(entry)
        out.sort(key=lambda e: (e.second, e.sent is None, e.sent or e.arrived,
                                str(e.meta.get("saved", "")), e.id))
        return out

    def begin(self, entry: InEntry, *, alone: bool = False) -> InEntry:
        """Count one try before the mail is handled, ``alone`` in a round of its
        own or with other mails (a power cut may forget it: one try more): one
        byte written into the entry's marks. The try ends when the mail's
        handling is over, its replies queued (``handled``), or when its handling
        raises (``failed``); a try that does neither is a death of the process
        while the mail was being handled."""
        marks = self._mark(entry, _TRY_ALONE if alone else _TRY)
        return self._made(entry.path, entry.state, marks, entry.meta)

    def handled(self, entry: InEntry) -> None:
        """Note that the mail's handling is over (the game changed, its replies
        queued): whatever stops the process from now on did not stop it while
        it handled this mail. Not flushed (see ``mark_answered``)."""
        self._mark(entry, _HANDLED)

    def mark_answered(self, entry: InEntry) -> None:
        """Note that the mail's replies are queued, so that a mail handled again
        before it is ``done`` (the referee died in between) is not answered
        twice. Not flushed to disk: lost in a power cut, the mail is only
        handled again, which its handler keys against doing twice."""
        self._mark(entry, _ANSWERED)

    @staticmethod
    def _mark(entry: InEntry, mark: bytes) -> bytes:
        """Write ``mark`` after the entry's marks (one process works the spool);
        returns the marks now written."""
        fd = os.open(entry.path, os.O_RDWR)
        try:
            marks = os.pread(fd, _MARKS - 1, 0).rstrip(b" ")
            if len(marks) >= _MARKS - 1:  # the line is full: what still counts
                marks = _marks_kept(marks)
                os.pwrite(fd, marks.ljust(_MARKS - 1), 0)
            os.pwrite(fd, mark, len(marks))
        finally:
            os.close(fd)
        return marks + mark

    def failed(self, entry: InEntry, reason: str) -> bool:
        """Record that handling the mail raised: the try ends (no death of the
        process: the deaths before it are no longer in a row); shunt once
        handling it raised ``max_attempts`` times. True when shunted."""
        current = self._load(entry.path, entry.state)
        meta = dict(current.meta or entry.meta)
        meta["attempts"] = max(current.attempts, 1)  # failed() without begin(): one try
        meta["failures"] = current.failures + 1
        errors = list(meta.get("errors", []))[-9:]
        errors.append({"at": _iso(_now()), "reason": reason[:2000]})
        meta["errors"] = errors
        failed = self._rewrite(current, meta, marks=b"")
        if failed.failures >= self.max_attempts:
            self.shunt(failed, reason)
            return True
        return False

    def done(self, entry: InEntry) -> InEntry:
        """The mail was handled (game saved): move it to `done/`, where only its
        marks and meta data stay (no retry needs the mail, which holds its
        password)."""
        done = self._move(entry, "done")
        _cut_mail(done.path, marks=True)
        return done

    def shunt(self, entry: InEntry, reason: str) -> InEntry:
        """Set the mail aside in `shunt/` with its reason; it is not retried. The
        entry is flushed to disk whole: it leaves the inbox for good now."""
        meta = dict(entry.meta)
        meta["reason"] = reason.rstrip()
        entry = self._rewrite(entry, meta)
        log.warning("shunted incoming mail %s (%s): %s", entry.id, entry.message_id, reason)
        return self._move(entry, "shunt", durable=True)

    def unshunt(self, entry_id: str) -> InEntry:
        """Put a shunted mail back in the queue with a fresh attempt count (GM tool)."""
        entry = self._load(self.root / "shunt" / entry_id, "shunt")
        meta = dict(entry.meta)
        meta["attempts"] = meta["failures"] = 0
        meta.pop("reason", None)
        return self._move(self._rewrite(entry, meta, marks=b""), "pending", durable=True)

    def shunted(self) -> list[tuple[InEntry, str]]:
        """The mails set aside, and why."""
        out = []
        for path in sorted(_entries(self.root / "shunt")):
            entry = self._load(path, "shunt")
            out.append((entry, str(entry.meta.get("reason", "")).strip()))
        return out

    def _move(self, entry: InEntry, state: str, *, durable: bool = False) -> InEntry:
        target = self.root / self.STATES[state] / entry.id
        if entry.path == target:
            return entry
        if target.exists():  # already there (a second process got here first)
            with contextlib.suppress(FileNotFoundError):
                entry.path.unlink()
            return self._load(target, state)
        os.rename(entry.path, target)
        if durable:
            fsync_dir(target.parent)
            fsync_dir(entry.path.parent)
        return replace(entry, path=target, state=state)  # the same file, moved

    def process(self, handler: Callable[[InEntry], None]) -> dict[str, int]:
        """Run `handler` on every pending entry: done on success, failed() on an
        exception (shunted after `max_attempts`). Returns counts."""
        counts = {"done": 0, "failed": 0, "shunted": 0}
        for entry in self.pending():
            entry = self.begin(entry, alone=True)  # each done before the next begins
            try:
                handler(entry)
            except Exception as exc:  # a bad mail must not stop the others
                log.exception("handling %s failed", entry.id)
                if self.failed(entry, f"{type(exc).__name__}: {exc}"):
                    counts["shunted"] += 1
                else:
                    counts["failed"] += 1
                continue
            self.done(entry)
            counts["done"] += 1
        return counts

    def prune(self, older_than: timedelta) -> int:
        """Delete `done/` records and `shunt/` mails saved longer ago than
        `older_than`, and what writers killed half-way left behind (``_left_behind``:
        a mail is written in `tmp/` and named in one call, so one there an hour
        old is nobody's); returns the count."""
        limit = _now() - older_than
        n = len(_left_behind(self.root, _LEFT_BEHIND, tuple(self.STATES.values())))
        for sub in ("done", "shunt"):
            for path in list(_entries(self.root / sub)):
                meta = _read_in(path)[1]
                if _parse_iso(meta.get("saved"), _now()) < limit:
                    if sub == "shunt":
                        log.warning("deleting mail %s, set aside since %s (retention)",
                                    meta.get("message_id"), meta.get("saved"))
                    with contextlib.suppress(FileNotFoundError):
                        path.unlink()
                    n += 1
        return n
