"""Data-format versions of the folders pbmref keeps: a game folder, a spool.

Each such folder names the format its files are written in, in a small file
of its own, ``format.yaml``: a number that grows when a release writes
something an older release would misread. Opening a folder looks at it
(``DataFormat.open``; a stat once the process has read the file):

- today's number: nothing to do;
- an older number: the steps that bring the folder to today's format are run
  in turn (``steps``: from format N to N+1), under the folder's format lock,
  and the file is written anew after each step;
- no file: format 1, what every release before the versions wrote (0.1.0);
  its file is written, and nothing else changes;
- a newer number: ``FormatError``, naming the file, saying which release
  wrote it and what to do; the folder is left exactly as it is.

>>> import tempfile
>>> from pathlib import Path
>>> folder = Path(tempfile.mkdtemp())
>>> GAME = DataFormat("game folder", 1)
>>> GAME.open(folder)                      # unversioned: today's format 1
1
>>> (folder / FORMAT_FILE).read_text().splitlines()[-1]
'format: 1'
>>> _ = (folder / FORMAT_FILE).write_text("format: 7\\n")
>>> GAME.open(folder)
Traceback (most recent call last):
...
pbmref.base.formats.FormatError: ...format.yaml: written by a newer pbmref (format 7 of a game folder; this one reads up to 1): ...
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from pbmref.base.errors import GameFileError
from pbmref.base.files import replace_file
from pbmref.base.locks import FileLock

__all__ = ["FORMAT_FILE", "UNVERSIONED", "DataFormat", "FormatError", "read_format"]

FORMAT_FILE = "format.yaml"
# The format of a folder without a format file: what pbmref wrote before it
# kept versions (release 0.1.0).
UNVERSIONED = 1
_NUMBER = re.compile(r"^format:\s*(\d+)\s*$", re.MULTILINE)

# The folders whose format file this process read and found current, by
# path and format, with the file's stamp then (inode, time, size): not read
# again while the stamp is the same.
_CURRENT: dict[tuple[str, int], tuple[int, int, int]] = {}


class FormatError(GameFileError):
    """A folder this pbmref cannot read: written by a newer release, or in a
    layout no release since reads."""


def _stamp(path: str) -> tuple[int, int, int]:
    try:
        st = os.stat(path)
    except OSError:
        return (0, 0, 0)
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def read_format(folder: Path) -> int | None:
    """The format ``folder``'s file names (None: no file). A file that names no
    format is a FormatError."""
    path = folder / FORMAT_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    found = _NUMBER.search(text)
    if found is None:
        raise FormatError(path, "names no format: it must hold a line 'format: N' "
                                "(pbmref writes it; restore it from a backup)")
    return int(found.group(1))


@dataclass(frozen=True)
class DataFormat:
    """The format of one kind of folder: its name in messages, today's number,
    and the step from each older number to the next."""

    what: str
    current: int
    steps: Mapping[int, Callable[[Path], None]] = field(default_factory=dict)

    def open(self, folder: Path) -> int:
        """Check ``folder``'s format, bringing an older one up to today's;
        returns the format it had. FormatError for a newer one."""
        path = os.path.join(folder, FORMAT_FILE)
        seen = _stamp(path)
        known = (os.fspath(folder), self.current)
        if _CURRENT.get(known) == seen and seen != (0, 0, 0):
            return self.current
        found = read_format(folder)
        if found is not None and found > self.current:
            raise FormatError(path, f"written by a newer pbmref (format {found} of a "
                                    f"{self.what}; this one reads up to {self.current}): "
                                    "run that release, or restore this folder from the "
                                    "backup made before it was installed")
        if found is None or found < self.current:
            self._bring_up(folder, UNVERSIONED if found is None else found)
        _CURRENT[known] = _stamp(path)
        return UNVERSIONED if found is None else found

    def _bring_up(self, folder: Path, found: int) -> None:
        """Run the steps from ``found`` to today's format, then write the file."""
        if found == self.current:  # an unversioned folder: its number written
            self._write(folder, found)
            return
        lock = FileLock(folder / ".format.lock")
        with lock:
            now = read_format(folder) or UNVERSIONED  # another process may have done it
            while now < self.current:
                step = self.steps.get(now)
                if step is None:
                    raise FormatError(folder / FORMAT_FILE,
                                      f"format {now} of a {self.what} cannot be brought "
                                      f"to format {self.current} by this pbmref")
                step(folder)
                now += 1
                self._write(folder, now)

    def _write(self, folder: Path, number: int) -> None:
        text = (f"# The data format of this {self.what}, written by pbmref: a newer "
                f"release\n# brings it up to date when it first opens it. Do not edit.\n"
                f"format: {number}\n")
        with contextlib.suppress(PermissionError):  # read-only: read as it is
            replace_file(folder / FORMAT_FILE, text)
