"""The spools' entry files: how an entry is laid out on disk (marks, meta line,
mail), read and written, locked, listed and found left behind; and the
spools' data format (``SPOOL_FORMAT``), with the one refusal of the layout
before issue 20. Shared by the incoming and the outgoing spool.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import time
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pbmref.base.errors import LockTimeout
from pbmref.base.formats import FORMAT_FILE, DataFormat, FormatError
from pbmref.base.locks import FileLock
from pbmref.base.times import moment
from pbmref.mail.base import MailError

log = logging.getLogger("pbmref.mail.spool")

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


def _envelope(meta: dict[str, Any]) -> tuple[str, tuple[str, ...]] | None:
    """The SMTP envelope the spool noted when it queued a mail (None for an entry
    queued before it did: read from the mail)."""
    noted = meta.get("envelope")
    if not (isinstance(noted, list | tuple) and len(noted) == 2
            and isinstance(noted[1], list | tuple)):
        return None
    return str(noted[0]), tuple(str(a) for a in noted[1])


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
