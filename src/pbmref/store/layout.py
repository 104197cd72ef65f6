"""The layout of a game folder: file names, turn folders, the dice seed of a turn.

Layout of one game (``games/<id>/``)::

    format.yaml                the data format of the folder (``GAME_FORMAT``)
    game.yaml                  settings and players (the game master edits it)
    state.yaml                 open turn, deadline, status (the referee writes it;
                               finding due games reads only this and a stat of game.yaml)
    .lock                      the per-game lock (fcntl.flock)
    turns/001/position.yaml    the position at the start of turn 1 (scenario schema)
    turns/001/orders/baron.yaml      orders as received (entry, raw mail, Message-ID, time)
    turns/001/orders/baron.v2.yaml   a later mail of the same player (the latest valid
                                     one is in force; a CLEAR mail writes a withdrawal)
    turns/001/dice.yaml        after adjudication: the seed and every die
    turns/001/events.yaml      what happened, in order
    turns/001/report.txt       the report players got
    turns/001/result.yaml      written last: the turn is adjudicated iff it exists
    turns/002/position.yaml    the result position = the next turn's start
    reports-owed.yaml          the turns adjudicated whose reports the referee has
                               not yet queued for mailing (``pbmref.store.owed``;
                               the referee's own, gone when none are owed)
    press/0001.yaml            each press message relayed, with its real sender
                               (``pbmref.store.press``; the game master reads them)
    votes.yaml                 DRAW, CONCEDE and WAIT standing (``pbmref.store.votes``;
                               secret, the referee's own)

Files the referee writes are never rewritten in place: a re-run sets the old
file aside (``events.yaml.replaced-1``) and writes a new one. Nothing is
written through a symbolic link inside a game folder (``no_links``): a linked
``orders`` folder could point anywhere the referee may write.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from pbmref.base.errors import GameFileError
from pbmref.base.formats import DataFormat

__all__ = [
    "GAME_FILE",
    "GAME_FORMAT",
    "LOCK_FILE",
    "ORDERS",
    "POSITION_FILE",
    "RESULT_FILES",
    "STATE_FILE",
    "TURNS",
    "GamePaths",
    "derive_turn_seed",
    "file_stamp",
    "find_open_turn",
    "game_paths",
    "no_links",
    "stamp",
    "turn_dir",
    "turn_dir_name",
    "turn_numbers",
]

GAME_FILE = "game.yaml"
STATE_FILE = "state.yaml"
LOCK_FILE = ".lock"
TURNS = "turns"
ORDERS = "orders"
POSITION_FILE = "position.yaml"
RESULT_FILES = ("dice.yaml", "events.yaml", "report.txt", "result.yaml")
_TURN_DIR = re.compile(r"\d{3,}")
# The data format of a game folder (``pbmref.base.formats``): 1 is what every
# release so far writes. A release that changes what it writes raises it and
# adds the step that brings an older folder up to it.
GAME_FORMAT = DataFormat("game folder", 1)


@dataclass(frozen=True, slots=True)
class GamePaths:
    """The fixed paths of one game folder, joined once a folder in the process:
    a game is opened for every mail and at every deadline, and pathlib's joins
    cost more than the stats an opening makes."""

    dir: Path
    game_file: Path
    lock_file: Path
    state_file: str
    # each turn's position.yaml, joined when first asked (``position``)
    positions: dict[int, Path] = field(default_factory=dict, compare=False)

    def position(self, turn: int) -> Path:
        known = self.positions.get(turn)
        if known is None:
            known = self.positions[turn] = turn_dir(self.dir, turn) / POSITION_FILE
        return known


_PATHS: dict[str, GamePaths] = {}
PATHS_KEPT = 16384  # game folders whose paths are kept, the first joined dropped first


def game_paths(folder: Path | str) -> GamePaths:
    """The paths of the game folder ``folder`` (joined once)."""
    key = os.fspath(folder)
    known = _PATHS.get(key)
    if known is None:
        base = folder if isinstance(folder, Path) else Path(folder)
        known = _PATHS[key] = GamePaths(base, base / GAME_FILE, base / LOCK_FILE,
                                        os.path.join(key, STATE_FILE))
        if len(_PATHS) > PATHS_KEPT:
            del _PATHS[next(iter(_PATHS))]
    return known


def turn_dir_name(turn: int) -> str:
    return f"{turn:03d}"


def turn_dir(game_dir: Path, turn: int) -> Path:
    return game_dir / TURNS / turn_dir_name(turn)


def no_links(game_dir: Path, path: Path) -> Path:
    """``path`` (inside ``game_dir``) when neither it nor a folder between it and
    the game folder is a symbolic link; else GameFileError."""
    inside = path.relative_to(game_dir)
    here = game_dir
    for part in inside.parts:
        here = here / part
        if here.is_symlink():
            raise GameFileError(here, "is a symbolic link: the referee writes nothing "
                                      "through a link in a game folder (make it a real "
                                      "folder or file)")
    return path


def derive_turn_seed(game_seed: int, turn: int) -> int:
    """The dice seed of one turn: derived from the game's seed and the turn (V5)."""
    digest = hashlib.sha256(f"pbmref:{game_seed}:{turn}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def file_stamp(path: Path | str) -> tuple[int, int, int]:
    """A file's inode, modification time and size: what tells that it changed. The
    referee replaces its files whole (a new inode each time); an edit in place
    changes the time and, mostly, the size. (0, 0, 0) for a missing file."""
    try:
        st = os.stat(path)
    except OSError:
        return (0, 0, 0)
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def stamp(path: Path) -> list[int]:
    """A file's modification time and size (what tells that somebody changed it)."""
    try:
        st = path.stat()
    except OSError:
        return [0, 0]
    return [st.st_mtime_ns, st.st_size]


def turn_numbers(game_dir: Path | str) -> list[int]:
    """Every turn with a folder, oldest first (lists the turns folder only)."""
    tdir = os.path.join(game_dir, TURNS)
    if not os.path.isdir(tdir):
        return []
    return sorted(int(e.name) for e in os.scandir(tdir)
                  if e.is_dir() and _TURN_DIR.fullmatch(e.name))


def find_open_turn(game_dir: Path | str, recorded: int) -> int:
    """The open turn of a game: the one the state index records (``recorded``),
    checked against the folders, and moved on past a turn whose result was
    written just before a crash. Raises GameFileError when a needed position is
    missing. (Paths as text: a game is opened twice a mail, and pathlib's joins
    cost more than the stats.)"""
    turns = os.path.join(game_dir, TURNS)

    def folder(t: int) -> str:
        return os.path.join(turns, turn_dir_name(t))

    def position(t: int) -> str:
        return os.path.join(turns, turn_dir_name(t), POSITION_FILE)

    turn = recorded
    has_position = turn >= 1 and os.path.isfile(position(turn))
    if turn >= 1 and not has_position and os.path.isdir(folder(turn)):
        raise GameFileError(position(turn),
                            f"missing: turn {turn} is open, but the position at its "
                            "start is gone (restore the file, or run pbmref rerun)")
    if not has_position:
        numbers = [t for t in turn_numbers(game_dir) if os.path.isfile(position(t))]
        if not numbers:
            raise GameFileError(turns, "no turn folder with a position.yaml")
        turn = numbers[-1]  # the state index is missing or stale: the latest turn
    # after a crash between writing a turn's result and the state file
    while os.path.exists(os.path.join(folder(turn), "result.yaml")):
        if os.path.exists(position(turn + 1)):
            turn += 1
        elif os.path.isdir(folder(turn + 1)):
            raise GameFileError(position(turn + 1),
                                f"missing: turn {turn} was adjudicated, but the position "
                                f"at the start of turn {turn + 1} is gone")
        else:
            break
    return turn
