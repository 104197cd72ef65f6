"""Change notification from the Linux kernel (inotify), for the long-running referee.

Responsible for one inotify instance (``Inotify``): adding and removing
watches by path, reading the events that wait without blocking, and waiting
for the next one with a timeout; over libc's ``inotify_init1``,
``inotify_add_watch`` and ``inotify_rm_watch`` through ctypes, and ``os.read``
on the instance's file descriptor. Nothing here knows games or mail: the
callers decide what to watch and what an event means.

``Inotify()`` raises ``NotifyUnavailable`` where there is no inotify (not
Linux, a libc without it) and ``OSError`` when the kernel refuses an instance
(``EMFILE``: the user's limit, ``/proc/sys/fs/inotify/max_user_instances``).
A watch that cannot be added raises ``OSError`` with its errno (``ENOSPC``:
the user's limit of watches, ``/proc/sys/fs/inotify/max_user_watches``). The
kernel's queue of events is bounded: past it the events are lost and one
event with ``IN_Q_OVERFLOW`` (and ``wd`` -1) says so.
"""

from __future__ import annotations

import ctypes
import errno
import math
import os
import select
import struct
import sys
from pathlib import Path
from types import TracebackType
from typing import Any, NamedTuple

__all__ = [
    "IN_ATTRIB",
    "IN_CLOSE_WRITE",
    "IN_CREATE",
    "IN_DELETE",
    "IN_DELETE_SELF",
    "IN_IGNORED",
    "IN_ISDIR",
    "IN_MODIFY",
    "IN_MOVED_FROM",
    "IN_MOVED_TO",
    "IN_MOVE_SELF",
    "IN_ONLYDIR",
    "IN_Q_OVERFLOW",
    "Event",
    "Inotify",
    "NotifyUnavailable",
    "watch_limit",
]

# <sys/inotify.h>: the events a watch asks for
IN_MODIFY = 0x00000002
IN_ATTRIB = 0x00000004
IN_CLOSE_WRITE = 0x00000008
IN_MOVED_FROM = 0x00000040
IN_MOVED_TO = 0x00000080
IN_CREATE = 0x00000100
IN_DELETE = 0x00000200
IN_DELETE_SELF = 0x00000400
IN_MOVE_SELF = 0x00000800
# ... and what the kernel adds of its own
IN_Q_OVERFLOW = 0x00004000  # the queue was full: events were lost
IN_IGNORED = 0x00008000  # the watch is gone (removed, or its file deleted)
IN_ISDIR = 0x40000000  # the event is about a folder
IN_ONLYDIR = 0x01000000  # add the watch only if the path is a folder

_IN_NONBLOCK = os.O_NONBLOCK
_IN_CLOEXEC = os.O_CLOEXEC
_HEADER = struct.Struct("iIII")  # struct inotify_event: wd, mask, cookie, len (then the name)
_BUFFER = 64 * 1024  # at least one event with the longest name (16 + 256 bytes)
_LIMITS = Path("/proc/sys/fs/inotify")


class NotifyUnavailable(Exception):
    """This system has no inotify."""


class Event(NamedTuple):
    """One event: the watch (``wd``), what happened (``mask``), the ``cookie`` that
    pairs a move's two halves, and the name of the file in the watched folder
    (empty when the event is about the watched path itself)."""

    wd: int
    mask: int
    cookie: int
    name: str


_libc: Any = None


def _functions() -> Any:
    global _libc
    if _libc is None:
        if not sys.platform.startswith("linux"):
            raise NotifyUnavailable(f"inotify is Linux's, this is {sys.platform}")
        try:
            libc = ctypes.CDLL(None, use_errno=True)  # the C library the interpreter uses
            for name, args in (("inotify_init1", [ctypes.c_int]),
                               ("inotify_add_watch",
                                [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]),
                               ("inotify_rm_watch", [ctypes.c_int, ctypes.c_int])):
                fn = getattr(libc, name)
                fn.argtypes, fn.restype = args, ctypes.c_int
        except (OSError, AttributeError) as exc:
            raise NotifyUnavailable(f"the C library has no inotify: {exc}") from exc
        _libc = libc
    return _libc


def _failed(what: str, path: str | None = None) -> OSError:
    code = ctypes.get_errno()
    return OSError(code, f"{what}: {os.strerror(code)}", path)


def watch_limit() -> int | None:
    """The user's limit of watches (``fs.inotify.max_user_watches``), if it can be read."""
    try:
        return int((_LIMITS / "max_user_watches").read_text())
    except (OSError, ValueError):
        return None


class Inotify:
    """One inotify instance: ``add`` watches, ``read`` what happened, ``close``."""

    def __init__(self) -> None:
        self._libc = _functions()
        fd = self._libc.inotify_init1(_IN_NONBLOCK | _IN_CLOEXEC)
        if fd < 0:
            raise _failed("inotify_init1")
        self._fd: int | None = fd
        self._poll = select.poll()
        self._poll.register(fd, select.POLLIN)

    def fileno(self) -> int:
        if self._fd is None:
            raise ValueError("the inotify instance is closed")
        return self._fd

    def add(self, path: Path | str, mask: int) -> int:
        """Watch ``path`` for the events of ``mask``; the watch descriptor. A path
        watched already (the same file, under any name) keeps its descriptor and
        takes the new mask."""
        wd = self._libc.inotify_add_watch(self.fileno(), os.fsencode(path), mask)
        if wd < 0:
            raise _failed("inotify_add_watch", os.fspath(path))
        return int(wd)

    def remove(self, wd: int) -> None:
        """Stop a watch (one already gone, its file deleted, is no error)."""
        if self._libc.inotify_rm_watch(self.fileno(), wd) < 0:
            code = ctypes.get_errno()
            if code != errno.EINVAL:
                raise OSError(code, f"inotify_rm_watch: {os.strerror(code)}")

    def read(self) -> list[Event]:
        """Every event that waits, in the order they happened; none: ``[]`` at once."""
        events: list[Event] = []
        fd = self.fileno()
        while True:
            try:
                data = os.read(fd, _BUFFER)
            except BlockingIOError:
                return events
            if not data:
                return events
            at, end = 0, len(data)
            while at < end:
                wd, mask, cookie, size = _HEADER.unpack_from(data, at)
                at += _HEADER.size
                name = data[at:at + size].split(b"\0", 1)[0]
                at += size
                events.append(Event(wd, mask, cookie, os.fsdecode(name)))

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for an event; whether one waits now."""
        return bool(self._poll.poll(max(0, math.ceil(timeout * 1000))))

    def close(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)

    def __enter__(self) -> Inotify:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
