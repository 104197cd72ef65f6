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
- ``write_synced(path, data)``: write and flush a file nobody reads yet (a
  temporary name, or inside a folder that is renamed into place whole);
- ``commit_dir(tmp, target)``: rename a finished folder into place, unless
  one of that name is there already;
- ``set_aside(path)``: moves a file or folder out of the way before a re-run
  writes its replacement: ``events.yaml`` -> ``events.yaml.replaced-1``,
  ``turns/003`` -> ``turns/003.old-20261130T101500Z``.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import tempfile
from datetime import UTC, datetime
from pathlib import Path

__all__ = ["commit_dir", "fsync_dir", "replace_file", "set_aside", "write_new", "write_synced"]


def fsync_dir(path: Path) -> None:
    """Flush a folder's entries (new names, renames) to disk."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_synced(path: Path, data: bytes, mode: int = 0o640) -> None:
    """Write and fsync ``path``, which no reader may see yet."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            view = view[n:]
        os.fsync(fd)
    finally:
        os.close(fd)


def commit_dir(tmp: Path, target: Path) -> bool:
    """Rename the folder ``tmp`` to ``target``; False (and ``tmp`` removed) when
    ``target`` exists already."""
    try:
        os.rename(tmp, target)
    except OSError as exc:
        if exc.errno in (errno.EEXIST, errno.ENOTEMPTY):
            shutil.rmtree(tmp, ignore_errors=True)
            return False
        raise
    fsync_dir(target.parent)
    return True


def _temp_with(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
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
    tmp = _temp_with(p, _bytes(data))
    try:
        os.link(tmp, p)  # atomic, and never over an existing file
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    fsync_dir(p.parent)
    return p


def replace_file(path: Path | str, data: str | bytes) -> Path:
    """Atomically put a new version of a small, changing file in place."""
    p = Path(path)
    tmp = _temp_with(p, _bytes(data))
    try:
        os.replace(tmp, p)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
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
