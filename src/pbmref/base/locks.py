"""One file lock for everything that is shared between processes.

``FileLock(path)`` holds an exclusive ``fcntl.flock`` on ``path``. flock
locks belong to an open file, so two threads of one process that each take
the lock exclude each other just as two processes do; the kernel releases
the lock when a process dies. ``timeout=None`` waits as long as it takes,
``timeout=0`` does not wait at all; a lock not had in time raises
``LockTimeout``. Games, the mail spools and the referee's bookkeeping all
use it.
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path
from types import TracebackType

from pbmref.base.errors import LockTimeout

__all__ = ["FileLock"]

_POLL = 0.02  # seconds between tries while waiting with a timeout


class FileLock:
    """``with FileLock(game_dir / ".lock", timeout=60): ...``"""

    def __init__(self, path: Path | str, *, timeout: float | None = None,
                 mode: int = 0o640) -> None:
        self.path = path if isinstance(path, Path) else Path(path)
        self.timeout = timeout
        self.mode = mode
        self._fd: int | None = None

    def acquire(self) -> None:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, self.mode)
        try:
            if self.timeout is None:
                fcntl.flock(fd, fcntl.LOCK_EX)
            else:
                self._acquire_within(fd, self.timeout)
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd

    def _acquire_within(self, fd: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise LockTimeout(f"{self.path}: another process holds this lock") from None
                time.sleep(_POLL)

    def release(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            try:
                fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)

    @property
    def held(self) -> bool:
        return self._fd is not None

    def __enter__(self) -> FileLock:
        self.acquire()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()
