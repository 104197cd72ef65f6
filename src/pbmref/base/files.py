"""Crash-safe file writes, for game folders, spools and the referee's bookkeeping.

- ``write_new(path, text)``: a file the referee writes once. It is written to
  a temporary file in the same folder, flushed to disk, then linked into
  place only if no file of that name exists (``os.link`` fails instead of
  overwriting), and the folder is flushed. A crash leaves either no file or the
  whole file, never half of one, and a referee-written file is never
  rewritten in place.
- ``replace_file(path, text)``: for the small files that are meant to change
  (the state index, a game master's settings edited by a command): the same,
  with an atomic rename over the old file.
- ``write_synced(path, data)``: write and flush a file nobody reads yet (under
  a temporary name);
- ``commit_file(tmp, target)``: give a finished file its name, unless a file
  of that name is there already;
- ``set_aside(path)``: moves a file or folder out of the way before a re-run
  writes its replacement: ``events.yaml`` -> ``events.yaml.replaced-1``,
  ``turns/003`` -> ``turns/003.old-20261130T101500Z``.

Every write is atomic (a reader sees the old file or the new one, whatever
kills the process). Flushing to disk is what guards against a power cut,
and it is what costs: ``durable_together()`` makes everything written inside
it durable together when the block ends (each file and each folder flushed
once), and runs the steps queued with ``then()`` only after that. The mail
pipeline puts one round's mails in one such block; nothing outside the
referee sees any of it before the block ends (no mail is marked handled, no
reply is sent), so a power cut inside the block only undoes work that is
done again. ``ordered()`` flushes each write at once even inside a block
(a turn's commit, whose files must reach the disk in their order).
``durable=False`` marks a file whose loss in a power cut is harmless (an
index or counter the referee rebuilds or merely uses to save work).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from datetime import UTC, datetime
from pathlib import Path

__all__ = [
    "commit_file",
    "current_block",
    "durable_together",
    "flush_file",
    "fsync_dir",
    "ordered",
    "replace_file",
    "set_aside",
    "then",
    "write_new",
    "write_synced",
]


class _Together:
    """What one ``durable_together`` block wrote: flushed once each at its end."""

    def __init__(self) -> None:
        self.files: dict[str, None] = {}  # insertion-ordered sets
        self.dirs: dict[str, None] = {}
        self.later: list[Callable[[], None]] = []

    def moved(self, old: Path, new: Path) -> None:
        """A file or folder written in this block was renamed: flush it by its new name."""
        before, prefix = str(old), str(old) + os.sep
        for table in (self.files, self.dirs):
            for name in [n for n in table if n == before or n.startswith(prefix)]:
                del table[name]
                table[str(new) + name[len(before):]] = None

    def flush(self) -> None:
        files, dirs = list(self.files), list(self.dirs)
        self.files.clear()
        self.dirs.clear()
        for name in files:
            with contextlib.suppress(FileNotFoundError):  # replaced or removed since
                _fsync_path(name, os.O_RDONLY)
        for name in dirs:
            with contextlib.suppress(FileNotFoundError):
                _fsync_path(name, os.O_RDONLY | os.O_DIRECTORY)


_together: ContextVar[_Together | None] = ContextVar("pbmref_durable_together", default=None)


@contextlib.contextmanager
def durable_together() -> Iterator[None]:
    """Writes inside the block become durable together when it ends; then the
    steps queued with ``then()`` run (and what they write is flushed too). When
    the block ends by an exception nothing is flushed and no queued step runs.
    Nested blocks join the outermost one."""
    if _together.get() is not None:
        yield
        return
    group = _Together()
    token = _together.set(group)
    try:
        yield
        group.flush()
        while group.later:
            steps, group.later = group.later, []
            for step in steps:
                step()
            group.flush()
    finally:
        _together.reset(token)


@contextlib.contextmanager
def ordered() -> Iterator[None]:
    """Inside a ``durable_together`` block: flush what was written so far, then
    each write at once, in order (for files whose order on disk matters)."""
    group = _together.get()
    if group is None:
        yield
        return
    group.flush()
    token = _together.set(None)
    try:
        yield
    finally:
        _together.reset(token)


def current_block() -> object | None:
    """The ``durable_together`` block writes go to now (None outside one): who
    keeps something for a block's end can tell whether that block is still on."""
    return _together.get()


def then(step: Callable[[], None]) -> None:
    """Run ``step`` once what was written so far is on disk: at once outside a
    ``durable_together`` block, at the block's end inside one."""
    group = _together.get()
    if group is None:
        step()
    else:
        group.later.append(step)


def _fsync_path(name: str, flags: int) -> None:
    fd = os.open(name, flags)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_file(path: Path | str) -> bool:
    """Flush ``path`` now, or (inside a block) at the block's end. True when put off."""
    group = _together.get()
    if group is None:
        return False
    group.files[str(path)] = None
    return True


def fsync_dir(path: Path) -> None:
    """Flush a folder's entries (new names, renames) to disk (at the end of a
    ``durable_together`` block, inside one)."""
    group = _together.get()
    if group is not None:
        group.dirs[str(path)] = None
        return
    _fsync_path(str(path), os.O_RDONLY | os.O_DIRECTORY)


def write_synced(path: Path, data: bytes, mode: int = 0o640, *, durable: bool = True) -> None:
    """Write ``path``, which no reader may see yet, and flush it (``durable``)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            view = view[n:]
        if durable and not _sync_file(path):
            os.fsync(fd)
    finally:
        os.close(fd)


def flush_file(path: Path) -> None:
    """Flush a file that was written without (nothing for a missing one)."""
    if _sync_file(path):
        return
    with contextlib.suppress(FileNotFoundError):
        _fsync_path(str(path), os.O_RDONLY)


def commit_file(tmp: Path, target: Path, *, durable: bool = True) -> bool:
    """Give the finished file ``tmp`` the name ``target``; False (and ``tmp``
    removed) when ``target`` exists already. (A link, then the old name
    removed: a rename would replace a file of that name.)"""
    try:
        os.link(tmp, target)
    except FileExistsError:
        os.unlink(tmp)
        return False
    os.unlink(tmp)
    group = _together.get()
    if group is not None:
        group.moved(tmp, target)
    if durable:
        fsync_dir(target.parent)
    return True


def _mkdirs(folder: Path, durable: bool) -> None:
    """Make ``folder`` (and its parents); a folder made is flushed into its parent."""
    if folder.is_dir():
        return
    _mkdirs(folder.parent, durable)
    with contextlib.suppress(FileExistsError):
        folder.mkdir()
        if durable:
            fsync_dir(folder.parent)


def _temp_with(path: Path, data: bytes, durable: bool) -> Path:
    _mkdirs(path.parent, durable)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            if durable and not _sync_file(path):  # put off: flushed by its final name
                os.fsync(fh.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return Path(tmp)


def _bytes(data: str | bytes) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else data


def write_new(path: Path | str, data: str | bytes) -> Path:
    """Write a file that must not exist yet; raises FileExistsError if it does."""
    p = Path(path)
    tmp = _temp_with(p, _bytes(data), True)
    try:
        os.link(tmp, p)  # atomic, and never over an existing file
    except BaseException:
        group = _together.get()
        if group is not None:
            group.files.pop(str(p), None)
        raise
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    fsync_dir(p.parent)
    return p


def replace_file(path: Path | str, data: str | bytes, *, durable: bool = True) -> Path:
    """Atomically put a new version of a small, changing file in place. With
    ``durable=False`` nothing is flushed: a power cut may leave the old version
    (or, rarely, an empty file), never a mix."""
    p = Path(path)
    tmp = _temp_with(p, _bytes(data), durable)
    try:
        os.replace(tmp, p)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if durable:
        fsync_dir(p.parent)
    return p


def set_aside(path: Path | str, *, now: datetime | None = None) -> Path:
    """Move ``path`` aside under a new name nobody uses yet; return that name.

    Files become ``NAME.replaced-N`` (N = 1, 2, ...); folders become
    ``NAME.old-<UTC timestamp>`` (with ``-N`` added if that exists too).
    """
    p = Path(path)
    if p.is_dir():
        stamp = (now or datetime.now(UTC)).astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
        base = f"{p.name}.old-{stamp}"
        candidates = (base if n == 0 else f"{base}-{n}" for n in range(10_000))
    else:
        candidates = (f"{p.name}.replaced-{n}" for n in range(1, 10_000))
    for name in candidates:
        target = p.with_name(name)
        if target.exists():
            continue
        if p.is_dir():
            os.rename(p, target)  # same folder: atomic
        else:
            os.link(p, target)  # never over an existing name
            os.unlink(p)
        fsync_dir(p.parent)
        return target
    raise FileExistsError(f"no free name to set {p} aside")
