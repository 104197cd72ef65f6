"""The outgoing spool: each reply and report queued as the bytes it goes as,
under a key so that nothing is queued twice, held and sent at once by the
daemon or delivered later with back-off, each once, and kept in ``sent/``.
"""

from __future__ import annotations

import contextlib
import email
import functools
import hashlib
import logging
import os
import time
import uuid
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from pbmref.base.files import (
    current_block,
    durable_together,
    flush_file,
    fsync_dir,
    replace_file,
    then,
    write_synced,
)
from pbmref.mail.base import (
    Outgoing,
    PermanentFailure,
    Sender,
    TemporaryFailure,
    envelope_of,
    session_of,
)
from pbmref.mail.compose import Mail
from pbmref.mail.headers import POLICY, flatten
from pbmref.mail.pace import Pace, recipients_of
from pbmref.mail.spool.entries import (
    _DIR_MODE,
    _LEFT_BEHIND,
    SpoolBusy,
    _cut_mail,
    _entries,
    _envelope,
    _flock,
    _iso,
    _left_behind,
    _link_marker,
    _meta_line,
    _now,
    _open_spool,
    _parse_iso,
    _read_out,
    _sent_record,
)

log = logging.getLogger("pbmref.mail.spool")

@dataclass(frozen=True)
class OutEntry:
    """One spooled outgoing mail."""

    id: str
    path: Path  # its entry file
    state: str  # "queued" | "sent" | "failed"
    attempts: int
    next_attempt: datetime
    created: datetime
    last_error: str = ""
    meta: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def message(self) -> EmailMessage:
        """The mail parsed (for a person or a test to read; delivery sends the
        bytes as they are)."""
        msg = email.message_from_bytes(_read_out(self.path, whole=True)[1], policy=POLICY)
        assert isinstance(msg, EmailMessage)
        return msg


@dataclass
class DeliveryReport:
    sent: list[str] = field(default_factory=list)
    deferred: list[str] = field(default_factory=list)  # temporary failure, will retry
    failed: list[str] = field(default_factory=list)  # permanent failure or gave up
    paced: list[str] = field(default_factory=list)  # held back by the pace: still queued
    busy: bool = False  # another process was delivering: nothing done

    @property
    def remaining(self) -> int:
        return len(self.deferred)


class OutgoingSpool:
    """Outgoing mail: queued durably, each sent once, retried with back-off."""

    STATES = {"queued": "queue", "sent": "sent", "failed": "failed"}

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        backoff_first: float = 5.0,
        backoff_max: float = 6 * 3600.0,
        give_up_after: float = 5 * 24 * 3600.0,
        pace: Pace | None = None,
    ) -> None:
        self.root = Path(root)
        # within a provider's limits: what goes out a minute and a day (none by default)
        self.pace = pace or Pace()
        self.pace.file = self.root / "pace.json"
        self.backoff_first = backoff_first
        self.backoff_max = backoff_max
        self.give_up_after = give_up_after
        # how many mails this spool object handed to the server (``serve --once`` says it)
        self.sent_count = 0
        # queued inside a durable_together block or a hold: the entry's place, and
        # the block or hold (an entry of one that ended by an error never joins)
        self._staged: dict[str, tuple[Path, object | None]] = {}
        # inside holding(): the held mails not sent yet, by id (in tmp/, or failed/)
        self._held: dict[str, Path] | None = None
        # inside holding(): the bytes of the mails queued, by id (the hold's
        # delivery sends them without reading back what was written)
        self._held_raw: dict[str, bytes] = {}
        _open_spool(self.root, self.STATES.values())

    def _load(self, path: Path, state: str) -> OutEntry:
        meta = _read_out(path)[0]
        if state == "sent" and "sent" not in meta:  # when it went: its file's time
            meta.update(_sent_record(path, meta))
        created = _parse_iso(meta.get("created"), _now())
        return OutEntry(
            id=path.name,
            path=path,
            state=state,
            attempts=int(meta.get("attempts", 0) or 0),
            next_attempt=_parse_iso(meta.get("next_attempt"), created),
            created=created,
            last_error=str(meta.get("last_error", "")),
            meta=meta,
        )

    def enqueue(self, msg: Mail, *, key: str | None = None,
                secret: bool = False, first: bool = False) -> OutEntry:
        """Queue `msg` durably (atomic); it is sent by the next deliver().

        With a `key` the call is idempotent: a second enqueue with the same key
        (say, a reply written again after a crash) returns the first entry and
        queues nothing, whether that entry is still queued, sent or failed.
        The key's first word (``report`` of ``report:GAME:...``) is kept as the
        mail's kind, which ``stuck`` asks about.
        A `secret` mail (one that carries a password) is deleted also when it
        fails for good: whoever queued it makes a new one. A mail ``first`` goes
        before those queued earlier (a notice to the game master about the
        queue). Inside ``holding()`` the mail is held for that hold's
        ``deliver()`` (see there).
        """
        if key is None:
            return self._enqueue(msg, None, secret, first)
        keys = self.root / "keys"
        keys.mkdir(mode=_DIR_MODE, exist_ok=True)
        # Conformance (referee.md, deadlines: cron runs may overlap each other and
        # the daemon): two processes queueing the same key
        # (say, a report) must not both pass the check below; the lock makes
        # check, marker and commit one step.
        with _flock(keys / ".lock"):
            return self._enqueue(msg, keys / hashlib.sha256(key.encode()).hexdigest()[:32],
                                 secret, first, kind=key.split(":", 1)[0])

    def _enqueue(self, msg: Mail, marker: Path | None, secret: bool,
                 first: bool = False, kind: str = "") -> OutEntry:
        now = _now()
        entry_id = f"{time.time_ns():020d}-{uuid.uuid4().hex[:10]}"
        if marker is not None:
            earlier = self._by_key(marker)
            if earlier is not None:
                return earlier
        tmp = self.root / "tmp" / entry_id
        held = self._held is not None  # flushed only if it is not sent in the hold
        raw = flatten(msg) if isinstance(msg, EmailMessage) else msg.as_bytes()
        meta = {
            "id": entry_id,
            **({"key": marker.name} if marker is not None else {}),
            **({"kind": kind} if kind else {}),
            "created": _iso(now),
            "next_attempt": _iso(now),
            "attempts": 0,
            "to": str(msg.get("To", "")),
            "envelope": envelope_of(msg),  # sent without reading its headers back
            "subject": str(msg.get("Subject", "")),
            "message_id": str(msg.get("Message-ID", "")),
            **({"secret": True} if secret else {}),
            **({"first": True} if first else {}),
            # a held mail whose holder died is taken over whole (_adopt), or not at all
            **({"held": hashlib.sha256(raw).hexdigest()} if held else {}),
        }
        write_synced(tmp, _meta_line(meta) + raw, durable=not held)
        if held:
            self._held_raw[entry_id] = raw
        if marker is not None:
            # The key names the entry before the entry becomes visible: a crash
            # in between leaves a marker without an entry, which _by_key ignores.
            # (A second name of the entry's file, whose meta line holds its id:
            # no file is made for it, issue 20.)
            _link_marker(tmp, marker)
            if not held:
                fsync_dir(marker.parent)
        return self._stage(entry_id, tmp, meta, now)

    def _stage(self, entry_id: str, tmp: Path, meta: dict[str, Any],
               now: datetime) -> OutEntry:
        """A mail written in ``tmp/``: held for the hold's delivery, or bound for
        ``queue/`` once the block it was written in is on disk."""
        if self._held is not None:
            self._held[entry_id] = tmp
            self._staged[entry_id] = (tmp, self._held)
            return OutEntry(id=entry_id, path=tmp, state="queued", attempts=0,
                            next_attempt=now, created=now, meta=meta)
        target = self.root / "queue" / entry_id
        self._staged[entry_id] = (target, current_block())
        # at once, or once the whole durable_together block is on disk
        then(lambda: self._staged_commit(tmp, target))
        return OutEntry(id=entry_id, path=target, state="queued", attempts=0,
                        next_attempt=now, created=now, meta=meta)

    def _adopt(self, entry_id: str) -> OutEntry | None:
        """A held mail that its holder never sent nor queued (it died in the hold),
        taken over as this process's own, whole: the same mail goes out, not a
        second one made anew. Only the round that holds the incoming spool's
        lock holds replies, and whoever queues one again holds that lock now, so
        the holder is gone. A mail not written whole (a power cut) is dropped:
        the caller makes it anew."""
        tmp = self.root / "tmp" / entry_id
        meta, raw = _read_out(tmp, whole=True)
        if not meta.get("held"):
            return None
        if hashlib.sha256(raw).hexdigest() != meta["held"]:
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            return None
        os.utime(tmp)  # held anew from now: ``prune`` counts its age from here
        if self._held is None:  # bound for queue/: on disk first, as any queued mail
            flush_file(tmp)
        return self._stage(entry_id, tmp, meta, _now())

    def _staged_commit(self, tmp: Path, target: Path) -> None:
        """A queued mail joins ``queue/`` (its files are on disk already)."""
        os.rename(tmp, target)
        fsync_dir(target.parent)
        self._staged.pop(target.name, None)

    @staticmethod
    def _named(marker: Path) -> str | None:
        """The entry a key marker names: the id in the meta line of the entry file
        it is a second name of."""
        entry_id = _read_out(marker)[0].get("id")
        return str(entry_id) if entry_id else None

    def _by_key(self, marker: Path) -> OutEntry | None:
        """The entry a key marker names, if it was committed (in any state) or is
        about to be (queued inside this process's durable_together block)."""
        entry_id = self._named(marker)
        if entry_id is None:
            return None
        staged = self._staged.get(entry_id)
        if staged is not None:
            owner = staged[1]
            if owner is not None and (owner is current_block() or owner is self._held):
                return OutEntry(id=entry_id, path=staged[0], state="queued", attempts=0,
                                next_attempt=_now(), created=_now())
            # its block or hold ended by an error: it never joins the queue (queue it anew)
            del self._staged[entry_id]
            with contextlib.suppress(FileNotFoundError):
                (self.root / "tmp" / entry_id).unlink()
        for state, folder in self.STATES.items():
            path = self.root / folder / entry_id
            if path.is_file():
                return self._load(path, state)
        return self._adopt(entry_id) if staged is None else None

    def _list(self, state: str) -> list[OutEntry]:
        return sorted((self._load(p, state) for p in _entries(self.root / self.STATES[state])),
                      key=lambda e: e.id)

    def queued(self) -> list[OutEntry]:
        return self._list("queued")

    def sent(self) -> list[OutEntry]:
        return self._list("sent")

    def failed(self) -> list[OutEntry]:
        return self._list("failed")

    def stuck(self, kind: str, older_than: timedelta) -> list[OutEntry]:
        """The mails of ``kind`` (the first word of their key: ``report``) that
        did not go: still queued ``older_than`` after they were queued, or
        failed for good; the oldest first."""
        limit = _now() - older_than
        waiting = [e for e in self.queued() if e.created <= limit]
        return sorted((e for e in waiting + self.failed() if e.meta.get("kind") == kind),
                      key=lambda e: e.created)

    def next_due(self) -> datetime | None:
        """When the earliest queued mail is due (None when the queue is empty), and
        the pace lets a mail go."""
        times = [e.next_attempt for e in self.queued()]
        if not times or not self.pace.limited:
            return min(times) if times else None
        now = _now()
        return max(min(times), self.pace.load(now).free_at(now))

    def prune(self, older_than: timedelta) -> int:
        """Delete `sent/` records and `failed/` mails created longer ago than
        `older_than`, what writers killed half-way left behind (``_left_behind``),
        and the keys naming them; returns the count of entries."""
        limit = _now() - older_than
        keys = self.root / "keys"
        keys.mkdir(mode=_DIR_MODE, exist_ok=True)
        # A mail left in tmp/: held for a delivery round by a process killed in it
        # (taken over whole when its mail is handled again; after give_up_after
        # it would be given up, were it queued) or written half-way. Under the
        # keys' lock, which a take-over holds (``_adopt``, which makes the
        # mail's age count anew): one is deleted or taken over, never both.
        with _flock(keys / ".lock"):
            gone = set(_left_behind(self.root, max(_LEFT_BEHIND,
                                                   timedelta(seconds=self.give_up_after)),
                                    tuple(self.STATES.values()), keys=True))
        for entry in self.sent() + self.failed():
            if entry.created < limit:
                with contextlib.suppress(FileNotFoundError):
                    entry.path.unlink()
                gone.add(entry.id)
        if gone:
            with _flock(keys / ".lock"):
                for marker in keys.iterdir():
                    if marker.name.startswith("."):
                        continue
                    with contextlib.suppress(OSError):
                        if self._named(marker) in gone:
                            marker.unlink()
        return len(gone)

    def _rewrite(self, entry: OutEntry, meta: dict[str, Any]) -> None:
        """The entry written anew with ``meta``, the mail kept: flushed, since the
        new file holds the mail a retry needs (a held one's is flushed on leaving
        the hold, with the rest of it). Its key marker becomes a name of the new
        file (the old one, and the mail in it, goes with its last name)."""
        replace_file(entry.path, _meta_line(meta) + _read_out(entry.path, whole=True)[1],
                     durable=entry.path.parent.name != "tmp")
        marker = self.root / "keys" / str(meta.get("key") or ".none")
        if meta.get("key") and self._named(marker) == entry.id:
            _link_marker(entry.path, marker)

    def _move(self, entry: OutEntry, state: str) -> None:
        # Not flushed: a move a power cut undoes sends the mail once more (the
        # duplicate the spool allows), or tries a failed one again.
        target = self.root / self.STATES[state] / entry.id
        os.rename(entry.path, target)
        if self._held is not None and entry.id in self._held:
            if state == "sent":  # with the server: its copy here is not needed
                del self._held[entry.id]
                self._staged.pop(entry.id, None)
            else:  # failed for good: kept in failed/, flushed on leaving the hold
                self._held[entry.id] = target

    @contextlib.contextmanager
    def holding(self) -> Iterator[None]:
        """Mails queued inside are held back, written but not flushed, for the
        ``deliver()`` inside, which sends them with the due ones of ``queue/``;
        on leaving, those it did not send are flushed and join ``queue/`` (one
        that failed for good is flushed in ``failed/``). Mark nothing handled
        inside: only after the hold is each reply with the server or on disk.
        When the hold ends by an error, its mails never join the queue (the
        same key queued again queues them anew)."""
        if self._held is not None:
            yield  # nested: the outer hold commits
            return
        self._held = {}
        try:
            yield
            self._commit_held()
        finally:
            self._held = None
            self._held_raw.clear()

    def _commit_held(self) -> None:
        """The held mails no delivery sent: on disk, with their key markers, before
        the waiting ones join ``queue/`` (``durable_together``: each file and
        folder flushed once, then the moves, then ``queue/``)."""
        held = self._held or {}
        if not held:
            return
        with durable_together():
            for entry_id, path in held.items():
                flush_file(path)
                if path.parent.name == "tmp":
                    then(functools.partial(self._staged_commit, path,
                                           self.root / "queue" / entry_id))
                else:
                    fsync_dir(path.parent)
                    self._staged.pop(entry_id, None)
            if (self.root / "keys").is_dir():
                fsync_dir(self.root / "keys")
        held.clear()

    def delivery_paused(self) -> contextlib.AbstractContextManager[None]:
        """Hold the delivery lock (waiting for a delivery in progress): no mail
        moves between the folders meanwhile, and a deliverer that comes returns
        busy (a backup reads the spool under it)."""
        return _flock(self.root / ".deliver.lock")

    def held(self) -> list[str]:
        """Inside ``holding()``: the ids of the mails held and not sent yet."""
        return list(self._held or ())

    def deliver(
        self,
        sender: Sender,
        *,
        now: datetime | None = None,
        force: bool = False,
        held: Collection[str] | None = None,
    ) -> DeliveryReport:
        """Try every queued mail that is due (all when `force`), the held ones of
        ``holding()`` too (of them only the ids ``held``, if given: the part of a
        round whose changes are on disk), in the order they were queued (a
        ``first`` one before the others), as many as the pace lets go (the rest
        stay queued, reported ``paced``). One deliverer at a time: if another
        process is delivering, returns at once with busy=True."""
        report = DeliveryReport()
        chosen = None if held is None else frozenset(held)
        try:
            with _flock(self.root / ".deliver.lock", blocking=False):
                due = []
                for entry in self._held_chosen(chosen) + self.queued():
                    if not force and entry.next_attempt > (now or _now()):
                        report.deferred.append(entry.id)
                    else:
                        due.append(entry)
                if due:
                    due.sort(key=lambda e: (not e.meta.get("first"), e.id))  # as queued
                    self._deliver_paced(sender, due, now, report)
        except SpoolBusy:
            report.busy = True
        return report

    def _held_chosen(self, chosen: frozenset[str] | None) -> list[OutEntry]:
        """The held mails (of them the ids ``chosen``, if given) not sent yet."""
        # (a list first: the courier's thread reads while the round adds)
        return [self._load(path, "queued")
                for entry_id, path in list((self._held or {}).items())
                if path.parent.name == "tmp" and (chosen is None or entry_id in chosen)]

    def _deliver_paced(self, sender: Sender, due: list[OutEntry], now: datetime | None,
                       report: DeliveryReport) -> None:
        """Send ``due`` in order on one connection, as many as the pace of the
        provider's limits lets go (the others reported ``paced``)."""
        pace = self.pace.load(now or _now())
        with session_of(sender):  # one connection for the round
            for entry in due:
                at = now or _now()
                to = recipients_of(str(entry.meta.get("to", ""))) if pace.limited else 1
                if pace.limited and not pace.allows(to, at):  # a provider's limits
                    report.paced.append(entry.id)
                    continue
                self._deliver_one(sender, entry, at, report)
                if pace.limited and report.sent and report.sent[-1] == entry.id:
                    pace.sent(to, at)
        pace.save()

    def _deliver_one(self, sender: Sender, entry: OutEntry, now: datetime,
                     report: DeliveryReport) -> None:
        meta = dict(entry.meta)
        try:
            raw = self._held_raw.pop(entry.id, None) or _read_out(entry.path, whole=True)[1]
            sender.send(Outgoing(raw, _envelope(entry.meta)))
        except PermanentFailure as exc:
            meta["attempts"] = entry.attempts + 1
            meta["last_error"] = f"{type(exc).__name__}: {exc}"[:2000]
            meta["reason"] = meta["last_error"]
            self._rewrite(entry, meta)
            self._move(entry, "failed")
            if meta.get("secret"):
                _cut_mail(self.root / "failed" / entry.id, marks=False)
            report.failed.append(entry.id)
            log.warning("outgoing %s failed for good: %s", entry.id, exc)
            return
        except Exception as exc:  # TemporaryFailure, or a surprise: retry later
            if not isinstance(exc, TemporaryFailure):
                log.exception("unexpected error sending %s; will retry", entry.id)
            attempts = entry.attempts + 1
            meta["attempts"] = attempts
            meta["last_error"] = str(exc)[:2000]
            if (now - entry.created).total_seconds() >= self.give_up_after:
                meta["gave_up"] = _iso(now)
                meta["reason"] = f"gave up after {attempts} attempts: {exc}"
                self._rewrite(entry, meta)
                self._move(entry, "failed")
                if meta.get("secret"):
                    _cut_mail(self.root / "failed" / entry.id, marks=False)
                report.failed.append(entry.id)
                return
            delay = min(self.backoff_first * (2 ** (attempts - 1)), self.backoff_max)
            meta["next_attempt"] = _iso(now + timedelta(seconds=delay))
            self._rewrite(entry, meta)
            report.deferred.append(entry.id)
            log.info("deferred outgoing %s (%s), retry in %.0f s", entry.id, exc, delay)
            return
        # the move is the record of success; when is the entry file's time, set
        # after it (a crash here only loses that, not the fact), and the try is
        # the one after those its meta data counts: no file is made for it
        # (issue 20: a new file cost 0.3-0.5 ms under load)
        self._move(entry, "sent")
        path = self.root / "sent" / entry.id
        _cut_mail(path, marks=False)
        with contextlib.suppress(OSError):
            ns = int(now.timestamp()) * 1_000_000_000 + now.microsecond * 1000
            os.utime(path, ns=(ns, ns))
        report.sent.append(entry.id)
        self.sent_count += 1
