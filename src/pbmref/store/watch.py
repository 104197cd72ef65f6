"""Which games changed since the last look, as the kernel tells (the daemon's index).

``GamesWatch`` keeps the inotify watches of a games folder: one on the folder
itself (game folders created, deleted, renamed in or out) and one on each
game folder (its ``game.yaml`` or ``state.yaml`` written, replaced, renamed,
deleted, its modes changed; the folder itself deleted or moved). ``changed()``
reads the events that wait, without blocking, and names the games they are
about; ``GameIndex.look()`` checks only those, and the games that have no
watch (``unwatched``), by their stamps as before.

It answers ``None`` ("look at every game") when it cannot tell: at its first
look, after the kernel's queue overflowed (events were lost), and while the
games folder itself has no watch (missing, moved, or the limit reached). A
game folder whose watch cannot be added (the user's limit of watches,
``fs.inotify.max_user_watches``) is listed in ``unwatched``, and a warning
says once how to raise the limit. The caller ``follow``s every game folder it
finds (before it stats the folder's files, so that a change after the stat
has its event) and ``forget``s every one it finds gone.

Nothing here reads a game: the YAML stays the truth, and an event only says
which games to stat again.
"""

from __future__ import annotations

import errno
import logging
import os
from pathlib import Path

from pbmref.base.inotify import (
    IN_ATTRIB,
    IN_CLOSE_WRITE,
    IN_CREATE,
    IN_DELETE,
    IN_DELETE_SELF,
    IN_IGNORED,
    IN_MODIFY,
    IN_MOVE_SELF,
    IN_MOVED_FROM,
    IN_MOVED_TO,
    IN_ONLYDIR,
    IN_Q_OVERFLOW,
    Inotify,
    watch_limit,
)
from pbmref.store.layout import GAME_FILE, STATE_FILE
from pbmref.store.settings import ID_RE

__all__ = ["GamesWatch"]

log = logging.getLogger(__name__)

_GAMES_EVENTS = (IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO
                 | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
_GAME_EVENTS = (IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE
                | IN_ATTRIB | IN_MODIFY | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
_GONE = IN_DELETE | IN_MOVED_FROM  # a name left the games folder
_SELF_GONE = IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED
_WATCHED_FILES = frozenset((GAME_FILE, STATE_FILE))


class GamesWatch:
    """The watches of one games folder (see the module)."""

    def __init__(self, games_dir: Path) -> None:
        self.dir = games_dir
        self.notify = Inotify()  # raises NotifyUnavailable or OSError
        self._folder_wd: int | None = None  # the games folder's own watch
        self._games: dict[int, str] = {}  # watch -> game
        self._wds: dict[str, int] = {}  # game -> watch
        self.unwatched: set[str] = set()  # game folders the kernel would not watch
        self._warned: set[int] = set()  # errnos warned about
        self._renew = True  # until the next look at every game: add each watch anew

    def close(self) -> None:
        self.notify.close()

    @property
    def watched(self) -> int:
        """How many game folders have a watch."""
        return len(self._wds)

    def changed(self) -> set[str] | None:
        """The games named by the events since the last call (every event read,
        none waited for); ``None``: look at every game (the first look, a lost
        event, the games folder without a watch)."""
        everything = self._folder_wd is None
        if everything:
            self._watch_folder()
        names: set[str] = set()
        for event in self.notify.read():
            wd, mask, name = event.wd, event.mask, event.name
            if mask & IN_Q_OVERFLOW:
                everything = self._renew = True
            elif wd == self._folder_wd:
                if mask & _SELF_GONE:  # the games folder itself moved or deleted
                    self.notify.remove(wd)
                    self._folder_wd = None
                    everything = self._renew = True
                elif ID_RE.fullmatch(name):
                    names.add(name)
                    if mask & _GONE:
                        self.forget(name)  # its watch is about a folder elsewhere now
            else:
                game = self._games.get(wd)
                if game is None:
                    continue  # a watch forgotten already
                if mask & IN_IGNORED:
                    del self._games[wd]
                    if self._wds.get(game) == wd:
                        del self._wds[game]
                    names.add(game)
                elif not name or name in _WATCHED_FILES:
                    names.add(game)
        return None if everything else names

    def _watch_folder(self) -> None:
        try:
            self._folder_wd = self.notify.add(self.dir, _GAMES_EVENTS)
        except OSError as exc:
            if exc.errno not in (errno.ENOENT, errno.ENOTDIR):
                self._warn(exc, f"the games folder {self.dir}", "every game is")

    def follow(self, game: str) -> None:
        """Make sure the folder of ``game`` (found by a look) has a watch. In a look
        at every game after lost events the watch is added anew: the one it has
        may be about another folder by now (its own deleted, another renamed in)."""
        if not self._renew and (game in self._wds or game in self.unwatched):
            return
        try:
            wd = self.notify.add(self.dir / game, _GAME_EVENTS)
        except OSError as exc:
            self._drop(game)
            self.unwatched.add(game)
            if exc.errno != errno.ENOENT:  # gone meanwhile: the next look forgets it
                self._warn(exc, f"the game folder {self.dir / game}",
                           "the games without a watch are")
            return
        self.unwatched.discard(game)
        if self._wds.get(game, wd) != wd:
            self._drop(game)
        other = self._games.get(wd)
        if other is not None and other != game:  # the folder was renamed: the same watch
            del self._wds[other]
        self._games[wd] = game
        self._wds[game] = wd

    def forget(self, game: str) -> None:
        """The folder of ``game`` is gone (or another folder takes its name)."""
        self._drop(game)
        self.unwatched.discard(game)

    def _drop(self, game: str) -> None:
        wd = self._wds.pop(game, None)
        if wd is not None:
            del self._games[wd]
            self.notify.remove(wd)

    def looked_at_all(self, games: set[str]) -> None:
        """A look at every game is over (each folder found ``follow``ed): forget
        the folders it did not find."""
        for game in [g for g in self._wds if g not in games]:
            self.forget(game)
        self.unwatched &= games
        self._renew = False

    def _warn(self, exc: OSError, what: str, checked: str) -> None:
        """Say once per kind of error that ``what`` has no watch, and that
        ``checked`` stat-ed at each round instead."""
        if exc.errno in self._warned:
            return
        assert exc.errno is not None
        self._warned.add(exc.errno)
        if exc.errno == errno.ENOSPC:
            limit = watch_limit()
            log.warning(
                "cannot watch %s for changes: the limit of inotify watches (%s, "
                "fs.inotify.max_user_watches) is reached, so %s stat-ed at each round, "
                "which takes time with many games. Raise the limit above the number of "
                "games (as root: sysctl fs.inotify.max_user_watches=524288, and the same "
                "line in a file in /etc/sysctl.d/ to keep it), then restart pbmref serve",
                what, "unknown" if limit is None else limit, checked)
        else:
            log.warning("cannot watch %s for changes (%s), so %s stat-ed at each round",
                        what, os.strerror(exc.errno), checked)
