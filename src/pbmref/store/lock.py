"""One lock per game, shared by every process and thread that changes it.

``GameLock(path)`` holds an exclusive ``fcntl.flock`` on ``<game>/.lock``.
flock locks belong to an open file, so two threads of one process that each
open the lock file exclude each other just as two processes do. The lock is
released when the context ends, and by the kernel when a process dies.
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path
from types import TracebackType

from pbmref.store.errors import LockTimeout

__all__ = ["GameLock"]


class GameLock:
    """``with GameLock(game_dir / ".lock", timeout=60): ...``"""

    def __init__(self, path: Path | str, *, timeout: float | None = 60.0) -> None:
        self.path = Path(path)
        self.timeout = timeout
        self._fd: int | None = None

    def acquire(self) -> None:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if deadline is not None and time.monotonic() >= deadline:
                        raise LockTimeout(
                            f"{self.path}: another referee process holds this game's lock"
                        ) from None
                    time.sleep(0.02)
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd

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

    def __enter__(self) -> GameLock:
        self.acquire()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()
