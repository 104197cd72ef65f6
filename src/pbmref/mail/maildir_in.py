"""Intake from a local Maildir (the embedded default: no servers needed).

New mail is every file in `new/` or `cur/`; its arrival time is the file's
modification time. Handled mail is moved into the `.handled` sub-Maildir
(Maildir++ layout, so a mail reader shows it as a folder).

Waiting for mail, the intake lists `new/` and `cur/` again only when the
kernel says that a file arrived there (inotify), waking every
`poll_interval` only to see whether it was interrupted; without inotify it
lists them every `poll_interval`.

A symbolic link in the Maildir is no mail: it is never followed (it could
point at any file the referee may read) and is left where it is, with a
warning. Of a mail larger than `max_fetch_bytes` only the headers are read,
as the IMAP intake does: the referee answers it without reading it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import ClassVar

from pbmref.base.files import fsync_dir
from pbmref.base.inotify import IN_CREATE, IN_IGNORED, IN_MOVED_TO, Inotify, NotifyUnavailable
from pbmref.mail.base import IntakeError, RawMail

__all__ = ["MaildirIntake", "ensure_maildir"]

log = logging.getLogger(__name__)
_HEAD_BYTES = 256 * 1024  # of an oversized mail, at most this much is read: its headers
_ARRIVED = IN_CREATE | IN_MOVED_TO  # a file put in new/ or cur/ (a link, a rename, written there)


def ensure_maildir(path: str | os.PathLike[str]) -> Path:
    """Create `path` as a Maildir (tmp/new/cur) when missing; return it. Each
    folder made is flushed into its parent: a mail flushed into the new Maildir
    is there for good (the outbox's first mail, say)."""
    root = Path(path)
    for sub in ("tmp", "new", "cur"):
        folder = root / sub
        if folder.is_dir():
            continue
        made = [p for p in (folder, *folder.parents) if not p.exists()]
        folder.mkdir(parents=True, exist_ok=True)
        for p in reversed(made):
            fsync_dir(p.parent)
    return root


class MaildirIntake:
    """`Intake` over a Maildir. Keys are the message file names."""

    hands_out_once: ClassVar[bool] = False  # a mail stays in new/ or cur/ until it is marked handled

    def __init__(self, path: str | os.PathLike[str], *, handled: str = ".handled",
                 poll_interval: float = 0.5, max_fetch_bytes: int | None = None) -> None:
        try:
            self.root = ensure_maildir(path)
            self.handled = ensure_maildir(self.root / handled)
        except OSError as exc:
            raise IntakeError(f"cannot use the Maildir {path}: {exc}") from exc
        self.poll_interval = poll_interval
        self.max_fetch_bytes = max_fetch_bytes
        self._seen: set[str] = set()
        self._links: set[str] = set()  # symbolic links warned about already
        self._interrupted = threading.Event()
        self._notify: Inotify | None = None  # watches on new/ and cur/, once waited
        self._notify_said = False  # that there is none was logged

    def _files(self) -> list[tuple[float, str, Path]]:
        out: list[tuple[float, str, Path]] = []
        for sub in ("new", "cur"):
            with contextlib.suppress(FileNotFoundError):
                for de in os.scandir(self.root / sub):
                    if de.is_symlink():
                        self._warn_link(Path(de.path))
                        continue
                    if de.name.startswith(".") or not de.is_file(follow_symlinks=False):
                        continue
                    with contextlib.suppress(FileNotFoundError):
                        out.append((de.stat().st_mtime, de.name, Path(de.path)))
        out.sort()
        return out

    def fetch_new(self) -> Iterator[RawMail]:
        files = self._files()
        self._seen = {name for _, name, _ in files}
        for mtime, name, path in files:
            try:
                raw, size = self._read(path)
            except FileNotFoundError:  # handled meanwhile by another process
                continue
            except OSError as exc:  # a link put in place since the listing, or unreadable
                log.warning("not reading %s: %s", path, exc)
                continue
            yield RawMail(key=name, raw=raw, arrived=datetime.fromtimestamp(mtime, UTC),
                          size=size)

    def _read(self, path: Path) -> tuple[bytes, int]:
        """The mail (only its headers when it is over ``max_fetch_bytes``) and its
        size; a symbolic link is refused (``O_NOFOLLOW``)."""
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        with os.fdopen(fd, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            if self.max_fetch_bytes is None or size <= self.max_fetch_bytes:
                return fh.read(), size
            head = fh.read(_HEAD_BYTES)
        for end in (b"\r\n\r\n", b"\n\n"):
            if end in head:
                return head[:head.index(end) + len(end)], size
        return head, size

    def _warn_link(self, path: Path) -> None:
        if path.name not in self._links:
            self._links.add(path.name)
            log.warning("%s is a symbolic link, not a mail: it is not read", path)

    def mark_handled(self, *keys: str) -> None:
        for key in keys:
            base = key.split(":", 1)[0]
            if "/" in key or base in ("", ".", ".."):
                raise ValueError(f"not a Maildir key: {key!r}")
        for key in keys:
            self._move_handled(key)

    def _move_handled(self, key: str) -> None:
        base = key.split(":", 1)[0]
        for sub in ("new", "cur"):
            src = self.root / sub / key
            if src.exists():
                dst = self.handled / "cur" / f"{base}:2,S"
                os.rename(src, dst)
                return
        # not there: already handled (maybe by an earlier run) - nothing to do

    def wait(self, timeout: float) -> bool:
        """Until a file not seen by the last fetch_new appears (True) or timeout (False).
        The folders are listed at once, then again whenever the kernel says a
        file arrived (without inotify: every ``poll_interval``)."""
        end = time.monotonic() + max(0.0, timeout)
        notify = self._notifier()
        if notify is not None:
            notify.read()  # what arrived before now, the listing below sees
        while not self._interrupted.is_set():
            names = {name for _, name, _ in self._files()}
            if names - self._seen:
                return True
            left = end - time.monotonic()
            if left <= 0:
                return False
            if notify is None:
                self._interrupted.wait(min(self.poll_interval, left))
            elif not self._arrival(notify, end):
                return False
            else:
                notify = self._notify  # None once new/ or cur/ went away
        return False

    def _arrival(self, notify: Inotify, end: float) -> bool:
        """Wait for the kernel to say a file arrived, until ``end`` or an interrupt
        (looked at every ``poll_interval``); whether one did."""
        while not self._interrupted.is_set():
            left = end - time.monotonic()
            if left <= 0:
                return False
            if notify.wait(min(self.poll_interval, left)):
                events = notify.read()
                if any(e.mask & IN_IGNORED for e in events):  # new/ or cur/ went away
                    self._close_notifier()
                    return True  # listed again, and polled from now on
                if any(e.mask & _ARRIVED for e in events):
                    return True
        return False

    def _notifier(self) -> Inotify | None:
        """The watches on new/ and cur/ (made at the first wait); None without inotify."""
        if self._notify is None:
            try:
                notify = Inotify()
            except (NotifyUnavailable, OSError) as exc:
                self._say_no_notifier(exc)
                return None
            try:
                for sub in ("new", "cur"):
                    notify.add(self.root / sub, _ARRIVED)
            except OSError as exc:
                notify.close()
                self._say_no_notifier(exc)
                return None
            self._notify = notify
        return self._notify

    def _say_no_notifier(self, exc: Exception) -> None:
        if not self._notify_said:
            self._notify_said = True
            log.info("waiting for mail in %s by listing it every %g s (no inotify: %s)",
                     self.root, self.poll_interval, exc)

    def _close_notifier(self) -> None:
        if self._notify is not None:
            self._notify.close()
            self._notify = None

    def interrupt(self) -> None:
        self._interrupted.set()

    def close(self) -> None:
        self._close_notifier()

    def deliver(self, raw: bytes) -> str:
        """Drop a mail into this Maildir's `new/` (tests, demo, `pbmref mail inject`)."""
        from pbmref.mail.outbox import write_maildir

        return write_maildir(self.root, raw)
