"""Durable spools for mail in and out (in the style of Mailman's queue runners).

Each entry is one file in the folder of its state, named by its id (an
incoming one's is the hash of its Message-ID). An outgoing one holds a line
of meta data (JSON) and the mail; an incoming one first a line of marks (a
dot a try, a plus once its replies are queued), written in place a byte at a
time, then the meta line and the mail as it came. A keyed outgoing mail's
marker in `keys/` is a second name of its entry's file, whose meta line
names the entry. An entry is written under another name in `tmp/`,
fsynced, then given its name in its state's folder: a crash leaves either
the whole entry or nothing. Moving an entry between states is one rename.
(One file an entry rather than a folder of files, issue 20: on a file
system that makes new files slowly under load, such as this machine's ext4
without a journal, each file made cost 0.5 ms a mail.) A spool names its
data format in ``format.yaml`` (``SPOOL_FORMAT``): opening one of an older
format brings it up to date, one of a newer format is refused, and so is one
of the layout before issue 20 (a folder an entry), which no release reads
since.

Incoming: `new/` (waiting) -> `done/` (handled) or `shunt/` (set aside with
its reason). Saving a mail whose
Message-ID and content are already in any of them is reported as a duplicate
and changes nothing; another mail under a Message-ID seen before is a mail of
its own (issue 15: a reused Message-ID silences nobody).

A mail is set aside only for what it does itself (issue 40). Each try is
counted before the mail is handled (``begin``) and ends when its handling is
over, its replies queued (``handled``), or when its handling raises
(``failed``): after ``max_attempts`` raises it is set aside. A try that
never ended means the process died while that very mail was being handled,
which an outside kill (a restart, the OOM killer taking the process for
another's sake, a reboot) does as well as a mail that kills it. Such a mail
(``interrupted``) is next handled alone, in a round of its own (its replies
sent and the mail marked handled before the next mail is begun), in its
place in the order of the mails; only when the process dies
``max_attempts`` times in a row while handling that mail alone is the mail
set aside (``pending``). Outside kills do not reach that bound: they would
have to fall that many times running into the milliseconds one mail's
handling takes, and a death anywhere else (sending, flushing, another
mail) is not counted against it. A mail that kills the process every time
reaches it after ``max_attempts`` restarts; the mails before it are answered
meanwhile.

Outgoing: `queue/` -> `sent/`, or `failed/` on a permanent failure or after
`give_up_after`. Each queued mail has its own next-attempt time (exponential
back-off, the first retry after a few seconds). A crash between a successful
send and the move to `sent/` can cause one duplicate, never a loss. One
delivery round sends over one connection where the sender has sessions, no
more than the pace allows (``pbmref.mail.pace``: a provider's limits a
minute and a day); the rest stays queued. A mail is flattened once, when it
is queued: what is sent is the bytes the entry holds (``Outgoing``), never
parsed back nor written anew (issue 43).

What is kept, and for how long (issue 15): only what a retry needs. A handled
mail keeps only its meta data (which recognises it if it comes again) and
its marks, a sent one its meta data, whose file's time says when it went:
the mail itself is cut off the entry when it is done or sent (a mail that
carries a password, such as a new password for a player, also when it fails
for good). `prune(older_than)` deletes what is left once it is older than the
referee's retention (`limits.spool_retention`): done and sent records,
shunted and failed mails; and what a process killed while writing an entry
left in `tmp/`, which nobody reads, once nobody can still be writing it (an
hour; a reply held for a delivery round after `give_up_after`). Everything
is readable by the referee's user (and group) only.

What must survive a power cut is flushed to disk (the raw mail when the
intake will not hand it out again, a queued reply, a shunted mail); moves
between states and marks are not: a power cut may undo such a move, and the
work is done again, keyed against doing it twice. Inside a
``pbmref.base.files.durable_together`` block the flushes wait for the
block's end, and a queued mail joins `queue/` only then.

Queued mails that are sent at once need no copy on disk (issue 20). Inside
``OutgoingSpool.holding()`` a queued mail is written but not flushed, and
waits in `tmp/`, where nobody else looks, for the ``deliver()`` inside the
same hold; the mails it sends go from `tmp/` to `sent/`, and on leaving the
hold the rest (a send failed or was deferred, or another process was
delivering) are flushed -- entry and key markers -- and join `queue/`, which
is flushed too. Whoever marks the mails these answer handled does so only
after the hold: by then each reply is with the server (SMTP accepted it, or
it is flushed into the outbox Maildir before its move to `sent/`, as always)
or on disk in `queue/`. If the referee dies in the hold, or the power goes
before its flush is over, nothing is marked handled yet and the mails are
handled again: a reply whose key marker names a held entry left whole in
`tmp/` (the referee was killed) is taken over, the very same mail; one whose
entry was lost or torn (a power cut) is made anew (the referee names a reply
by its key, so it is the same message again, with the same Message-ID); one
recorded in `sent/` is not queued again (a reply sent whose move to `sent/`
was not made, or not kept, goes twice: the duplicate the spool allows, the
same message twice). A held mail never joins `queue/` before it is on disk,
so no entry there is ever missing its message after a power cut.
"""

from __future__ import annotations

import contextlib
import email
import functools
import hashlib
import json
import logging
import os
import time
import uuid
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from pbmref.base.errors import LockTimeout
from pbmref.base.files import (
    commit_file,
    current_block,
    durable_together,
    flush_file,
    fsync_dir,
    replace_file,
    then,
    write_synced,
)
from pbmref.base.formats import FORMAT_FILE, DataFormat, FormatError
from pbmref.base.locks import FileLock
from pbmref.base.times import moment
from pbmref.mail.base import (
    MailError,
    Outgoing,
    PermanentFailure,
    RawMail,
    Sender,
    TemporaryFailure,
    session_of,
)
from pbmref.mail.headers import POLICY
from pbmref.mail.message import message_id_of, sender_and_date
from pbmref.mail.pace import Pace, recipients_of

__all__ = [
    "DeliveryReport",
    "InEntry",
    "IncomingSpool",
    "OutEntry",
    "OutgoingSpool",
    "SpoolBusy",
    "SpoolFormatError",
]

log = logging.getLogger(__name__)

# The marks line that begins an incoming entry, its newline included: a byte
# a mark, written in place (b"." a try in a round with other mails, b"!" a
# try alone, b"," the try's handling over, b"+" once the mail's replies are
# queued), the rest spaces. A try that raised ends with the marks written
# anew, empty (``failed``), and a full line is written anew with what still
# counts (``_marks_kept``); otherwise marks are never rewritten: under load a
# new file costs 0.5 ms, a byte written into one a hundredth of that (issue 20).
_MARKS = 32
_TRY = b"."
_TRY_ALONE = b"!"
_HANDLED = b","
_ANSWERED = b"+"
_DIR_MODE = 0o750
# A file in `tmp/` or a half-written one this old was left by a process killed
# while writing it: writing and naming an entry is one call (``_left_behind``).
_LEFT_BEHIND = timedelta(hours=1)


class SpoolBusy(Exception):
    """Another process holds the spool's lock."""


class SpoolFormatError(MailError):
    """A spool this release cannot read: a newer release's, or one of the layout
    before issue 20. The referee cannot run on it: nothing is changed."""


# --------------------------------------------------------------------------- entry files


def _last_run(marks: bytes) -> bytes:
    """The tries since the last one whose handling ended (``IncomingSpool.handled``;
    one that raised leaves no marks): a try here is a death of the process
    while the mail was being handled."""
    return marks[marks.rfind(_HANDLED) + 1:].replace(_ANSWERED, b"")


def _marks_kept(marks: bytes) -> bytes:
    """A full marks line made short with what still counts: whether the mail was
    answered, and the tries since the last one that ended. That run is short:
    a try with other mails, then tries alone until the mail is set aside (at
    most ``max_attempts``, see ``IncomingSpool.__init__``).

    >>> _marks_kept(b".,.,.,.!,.!!")
    b'.!!'
    >>> _marks_kept(b".,.,.,+")
    b'+'
    """
    return (_ANSWERED if _ANSWERED in marks else b"") + _last_run(marks)


def _meta_line(meta: dict[str, Any]) -> bytes:
    return json.dumps(meta, sort_keys=True, separators=(",", ":")).encode() + b"\n"


def _meta_of(line: bytes) -> dict[str, Any]:
    try:
        data = json.loads(line)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _in_entry(marks: bytes, meta: dict[str, Any], raw: bytes) -> bytes:
    """An incoming entry's bytes: its marks line, its meta line, the mail."""
    return marks.ljust(_MARKS - 1) + b"\n" + _meta_line(meta) + raw


def _read_in(path: Path, *, whole: bool = False) -> tuple[bytes, dict[str, Any], bytes]:
    """An incoming entry's marks, meta data and (``whole``) mail; nothing of a
    file that is gone or torn."""
    try:
        with open(path, "rb") as fh:
            marks = fh.read(_MARKS)
            meta = _meta_of(fh.readline())
            raw = fh.read() if whole else b""
    except OSError:
        return b"", {}, b""
    return marks.rstrip(b" \n"), meta, raw


def _read_out(path: Path, *, whole: bool = False) -> tuple[dict[str, Any], bytes]:
    """An outgoing entry's meta data and (``whole``) mail."""
    try:
        with open(path, "rb") as fh:
            meta = _meta_of(fh.readline())
            raw = fh.read() if whole else b""
    except OSError:
        return {}, b""
    return meta, raw


def _cut_mail(path: Path, *, marks: bool) -> None:
    """Cut an entry's mail off, keeping its marks (``marks``: an incoming one)
    and its meta line: no retry needs the mail any more, and it may hold a
    password."""
    with contextlib.suppress(FileNotFoundError), open(path, "r+b") as fh:
        if marks:
            fh.seek(_MARKS)
        fh.readline()
        fh.truncate(fh.tell())


def _entries(folder: Path) -> Iterator[Path]:
    """The entry files of a state's folder (a dot begins a name being written)."""
    with contextlib.suppress(FileNotFoundError):
        with os.scandir(folder) as found:
            for item in found:
                if not item.name.startswith(".") and item.is_file(follow_symlinks=False):
                    yield Path(item.path)


def _left_behind(root: Path, tmp_age: timedelta, states: Iterable[str],
                 *, keys: bool = False) -> list[str]:
    """Delete what processes killed while writing left behind, none of which is
    ever read (a mail in it may hold a password): files in `tmp/` last written
    longer than ``tmp_age`` ago, half-written ``.NAME.X.tmp`` files
    (``replace_file``) in the state folders older than ``_LEFT_BEHIND``, and,
    with ``keys``, a key marker's temp name in `keys/` (``_link_marker``)
    made longer ago than that. Returns the names of the entries deleted from
    `tmp/`."""
    gone: list[str] = []
    # a folder, the age its leftovers go at, only temps?, timed by last change?
    folders = [(root / "tmp", tmp_age, False, False),
               *((root / state, _LEFT_BEHIND, True, False) for state in states)]
    if keys:
        folders.append((root / "keys", _LEFT_BEHIND, True, True))
    for folder, age, temps_only, named in folders:
        for path, written in _written_before(folder, time.time() - age.total_seconds(),
                                             temps_only=temps_only, named=named):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
                log.warning("deleted %s, left behind %s by a process killed while writing it",
                            path, datetime.fromtimestamp(written, UTC).isoformat(
                                timespec="seconds"))
                if not path.name.startswith("."):  # an entry (a dot: a temp of one)
                    gone.append(path.name)
    return gone


def _written_before(folder: Path, limit: float, *, temps_only: bool, named: bool
                    ) -> Iterator[tuple[Path, float]]:
    """The files of ``folder`` last written before ``limit`` (a time stamp), with
    that time; ``temps_only``: only half-written ``.NAME.X.tmp`` files.
    ``named``: timed by when they were last changed, which a new name of a
    file counts as (a key marker's temp is one of an entry written earlier)."""
    with contextlib.suppress(FileNotFoundError), os.scandir(folder) as found:
        for item in found:
            if temps_only and not (item.name.startswith(".") and item.name.endswith(".tmp")):
                continue
            with contextlib.suppress(FileNotFoundError):
                stat = item.stat(follow_symlinks=False)
                written = stat.st_ctime if named else stat.st_mtime
                if item.is_file(follow_symlinks=False) and written < limit:
                    yield Path(item.path), written


# --------------------------------------------------------------------------- the format


# The data format of a spool (``pbmref.base.formats``): 1 is one file an
# entry, as since issue 20.
SPOOL_FORMAT = DataFormat("spool", 1)


def _open_spool(root: Path, states: Iterable[str]) -> None:
    """Check the spool's data format, then make its folders (`tmp/` and one a
    state). An older format is brought up to date, a newer one refused, and so
    is a spool of the layout before issue 20 (a folder an entry, and no
    ``.layout`` file), which no release since reads: nothing is changed then."""
    folders = ("tmp", *states)
    root.mkdir(mode=_DIR_MODE, parents=True, exist_ok=True)
    if not (root / FORMAT_FILE).exists() and not (root / ".layout").exists() and any(
            p.is_dir() for sub in folders if (root / sub).is_dir()
            for p in (root / sub).iterdir()):
        raise SpoolFormatError(f"{root}: a spool of an old pbmref (a folder a mail), "
                               "which this release does not read: let that release handle "
                               "and send what is in it, or move the folder aside")
    try:
        SPOOL_FORMAT.open(root)
    except FormatError as exc:
        raise SpoolFormatError(str(exc)) from None
    for sub in folders:
        (root / sub).mkdir(mode=_DIR_MODE, exist_ok=True)


def _link_marker(entry: Path, marker: Path) -> None:
    """Make the key marker ``marker`` a second name of the entry file ``entry``,
    in place of whatever it named before."""
    marker_tmp = marker.with_name(f".{marker.name}.{os.getpid()}.tmp")
    try:
        os.link(entry, marker_tmp)
    except FileExistsError:  # left by a process of this id killed here
        marker_tmp.unlink()
        os.link(entry, marker_tmp)
    os.replace(marker_tmp, marker)



def _iso(dt: datetime) -> str:
    return dt.astimezone(UTC).isoformat()


def _sent_record(path: Path, meta: dict[str, Any]) -> dict[str, Any]:
    """When a sent mail went, and at which try: the time its entry file was
    given when it was sent, the try after those its meta data counts."""
    try:
        ns = path.stat().st_mtime_ns
    except OSError:
        return {}
    at = datetime.fromtimestamp(ns // 1_000_000_000, UTC).replace(
        microsecond=ns % 1_000_000_000 // 1000)
    return {"attempts": int(meta.get("attempts", 0) or 0) + 1, "sent": _iso(at)}


def _parse_iso(text: Any, default: datetime) -> datetime:
    return moment(text) or default


def _now() -> datetime:
    return datetime.now(UTC)


@contextlib.contextmanager
def _flock(path: Path, *, blocking: bool = True) -> Iterator[None]:
    lock = FileLock(path, timeout=None if blocking else 0)
    try:
        lock.acquire()
    except LockTimeout as exc:
        raise SpoolBusy(str(path)) from exc
    try:
        yield
    finally:
        lock.release()


# --------------------------------------------------------------------------- incoming


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
        message_id = message_id_of(mail.raw)
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
            sender, sent = sender_and_date(mail.raw)
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
            return self._load(target, "pending")

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
        self._mark(entry, _TRY_ALONE if alone else _TRY)
        return self._load(entry.path, entry.state)

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
    def _mark(entry: InEntry, mark: bytes) -> None:
        """Write ``mark`` after the entry's marks (one process works the spool)."""
        fd = os.open(entry.path, os.O_RDWR)
        try:
            marks = os.pread(fd, _MARKS - 1, 0).rstrip(b" ")
            if len(marks) >= _MARKS - 1:  # the line is full: what still counts
                marks = _marks_kept(marks)
                os.pwrite(fd, marks.ljust(_MARKS - 1), 0)
            os.pwrite(fd, mark, len(marks))
        finally:
            os.close(fd)

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
        else:
            os.rename(entry.path, target)
            if durable:
                fsync_dir(target.parent)
                fsync_dir(entry.path.parent)
        return self._load(target, state)

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


# --------------------------------------------------------------------------- outgoing


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

    def enqueue(self, msg: EmailMessage, *, key: str | None = None,
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

    def _enqueue(self, msg: EmailMessage, marker: Path | None, secret: bool,
                 first: bool = False, kind: str = "") -> OutEntry:
        now = _now()
        entry_id = f"{time.time_ns():020d}-{uuid.uuid4().hex[:10]}"
        if marker is not None:
            earlier = self._by_key(marker)
            if earlier is not None:
                return earlier
        tmp = self.root / "tmp" / entry_id
        held = self._held is not None  # flushed only if it is not sent in the hold
        raw = msg.as_bytes()
        meta = {
            "id": entry_id,
            **({"key": marker.name} if marker is not None else {}),
            **({"kind": kind} if kind else {}),
            "created": _iso(now),
            "next_attempt": _iso(now),
            "attempts": 0,
            "to": str(msg.get("To", "")),
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
            sender.send(Outgoing(raw))
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
