"""A power cut, simulated: what of a folder tree is left when the power goes.

``Disk(root)`` takes the tree as it is for on disk, then watches every
``os.fsync`` / ``os.fdatasync``: a flushed file is on disk with the bytes it
has then, a flushed folder with the names it holds then (each name bound to
its file or folder, by inode: a folder renamed elsewhere keeps its own
entries). ``cut()`` puts back the tree as the disk holds it: every write that
was not flushed is gone (a name never flushed into its folder is not there,
a file whose name is there but whose data was never flushed is empty, as a
file system with delayed allocation leaves it). ``off()`` is the moment the
power goes, for a cut later: whatever the process does after it (the
``finally`` blocks a test's exception runs on its way out) reaches no disk.
``cut(kept=...)`` lets the named places (paths relative to ``root``, and
everything under them) come back as they were when the power went: the
unflushed writes the kernel happened to write out before, or a mail
server's folders, which the referee's power cut does not touch.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

Inode = tuple[int, int]


@dataclass
class _Tree:
    """Folders, files and symbolic links by inode."""

    folders: dict[Inode, dict[str, Inode]] = field(default_factory=dict)  # names in each
    files: dict[Inode, tuple[bytes, float]] = field(default_factory=dict)  # data, mtime
    links: dict[Inode, str] = field(default_factory=dict)  # the target is in the inode


class Disk(_Tree):
    """The tree under ``root`` as the disk holds it (see the module)."""

    def __init__(self, root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.root = root.resolve()
        # every inode the disk's view names is held open, so that no file made
        # later gets its number while the view still means the old one
        self._held: dict[Inode, int] = {}
        self._root_inode = _inode(os.lstat(self.root))
        self._at_the_cut: _Tree | None = None  # the tree when the power went
        now = self._scan(hold=True)
        super().__init__(now.folders, now.files, now.links)
        real = {name: getattr(os, name) for name in ("fsync", "fdatasync")}

        def watching(name: str) -> Callable[[Any], None]:
            def flush(fd: Any) -> None:
                real[name](fd)
                self._flushed(fd)
            return flush

        for name in real:
            monkeypatch.setattr(os, name, watching(name))

    def off(self) -> None:
        """The power goes now: nothing written or flushed from here on is on disk."""
        if self._at_the_cut is None:
            self._at_the_cut = self._scan()

    def _flushed(self, fd: int) -> None:
        if self._at_the_cut is not None:
            return
        path = Path(os.readlink(f"/proc/self/fd/{fd}").removesuffix(" (deleted)"))
        if not path.is_relative_to(self.root):
            return
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            entries: dict[str, Inode] = {}
            for child in path.iterdir():
                cst = os.lstat(child)
                ino = self._hold(child, cst)
                entries[child.name] = ino
                if stat.S_ISLNK(cst.st_mode):
                    self.links[ino] = os.readlink(child)
                elif stat.S_ISDIR(cst.st_mode):
                    self.folders.setdefault(ino, {})  # its own names: when it is flushed
                else:
                    self.files.setdefault(ino, (b"", cst.st_mtime))  # data: when flushed
            self.folders[self._hold(path, st)] = entries
        elif stat.S_ISREG(st.st_mode):
            self._hold(path, st)
            self.files[_inode(st)] = (Path(f"/proc/self/fd/{fd}").read_bytes(), st.st_mtime)

    def _hold(self, path: Path, st: os.stat_result) -> Inode:
        ino = _inode(st)
        if ino not in self._held:
            self._held[ino] = os.open(path, os.O_PATH | os.O_NOFOLLOW)
        return ino

    def _scan(self, *, hold: bool = False) -> _Tree:
        """The tree as it is now."""
        now = _Tree()
        for folder, dirs, names in os.walk(self.root):
            entries: dict[str, Inode] = {}
            if hold:
                self._hold(Path(folder), os.lstat(folder))
            for name in dirs + names:
                path = Path(folder) / name
                st = os.lstat(path)
                entries[name] = self._hold(path, st) if hold else _inode(st)
                if stat.S_ISLNK(st.st_mode):
                    now.links[_inode(st)] = os.readlink(path)
                elif stat.S_ISREG(st.st_mode):
                    now.files[_inode(st)] = (path.read_bytes(), st.st_mtime)
            now.folders[_inode(os.lstat(folder))] = entries
        return now

    def cut(self, kept: Iterable[str] = ()) -> None:
        """Put back the tree as the disk holds it when the power goes (now, or at
        ``off()``), but for the places ``kept``, which come back as they were then."""
        self.off()
        now = self._at_the_cut
        assert now is not None
        keep = [Path(k) for k in kept]

        def as_now(rel: Path) -> bool:
            return any(rel == k or rel.is_relative_to(k) for k in keep)

        def build(ino: Inode, at: Path, rel: Path) -> None:
            at.mkdir()
            entries = (now.folders[ino] if as_now(rel) and ino in now.folders
                       else self.folders.get(ino, {}))
            for name, child in entries.items():
                path, child_rel = at / name, rel / name
                if child in self.links or child in now.links:
                    os.symlink(self.links.get(child) or now.links[child], path)
                elif child in self.folders or child in now.folders:
                    build(child, path, child_rel)
                else:
                    data, mtime = (now.files[child] if as_now(child_rel) and child in now.files
                                   else self.files.get(child, (b"", 0.0)))
                    path.write_bytes(data)
                    os.utime(path, (mtime, mtime))

        spare = self.root.with_name(self.root.name + ".after-the-cut")
        build(self._root_inode, spare, Path("."))
        shutil.rmtree(self.root)
        spare.rename(self.root)
        for fd in self._held.values():
            os.close(fd)
        self._held.clear()


def _inode(st: os.stat_result) -> Inode:
    return (st.st_dev, st.st_ino)


def flushes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths ``os.fsync`` flushes from now on (until ``monkeypatch`` is
    undone), in order: a file or a folder, by the name it has when flushed."""
    flushed: list[str] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        flushed.append(os.readlink(f"/proc/self/fd/{fd}"))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    return flushed
