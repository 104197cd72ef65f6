"""What each page of a game's archive was drawn from, kept beside the pages.

``pbmref render GAME`` draws a turn page only when something it is drawn
from changed since it was drawn: after one more turn of a long game, the new
turn's page, the page before it (its link to the next turn) and the index.
The record (``.pbmref-pages.json`` in the game's archive folder) keeps, for
each turn page:

- the key of the turn's own inputs: the pbmref code that draws it (a digest
  of the package's files), the game's settings but for the open turn's
  deadline (which moves every turn and no turn page shows), how the game
  shows its players (``shown``), and the stamps (time and size) of every file
  in the turn's folder and of the next turn's position;
- the turn's label and its line of the index (drawn from the turn's report,
  so kept under that key: the index lists every turn without reading them);
- the key of the page itself: the turn's own key, its broadcast press and
  the links to its neighbours;
- the stamp of the page file as written: a page deleted or changed since is
  drawn again.

The index page is drawn every time (it shows the open turn). A record that is
missing, unreadable or of another version counts as none: every page is
drawn (and a page whose text is what its file holds is left alone).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pbmref.base.files import replace_file
from pbmref.store import Game

__all__ = ["DrawnPages", "TurnDrawn", "code_digest", "turn_files"]

RECORD = ".pbmref-pages.json"
_VERSION = 1
_PACKAGE = Path(__file__).resolve().parents[1]


@functools.cache
def code_digest() -> str:
    """A digest of the pbmref package's files, code and data (what draws the
    pages): pages drawn by another version are drawn again."""
    digest = hashlib.blake2b(digest_size=16)
    for path in sorted(_PACKAGE.rglob("*")):
        if "__pycache__" not in path.parts and path.is_file():
            digest.update(path.relative_to(_PACKAGE).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _key(*parts: object) -> str:
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


def turn_files(folder: str) -> list[tuple[str, int, int]]:
    """Every file under a turn's folder (its orders too) with its modification
    time and size, by name."""
    found: list[tuple[str, int, int]] = []
    with contextlib.suppress(FileNotFoundError), os.scandir(folder) as listing:
        for entry in listing:
            if entry.is_dir(follow_symlinks=False):
                found += [(f"{entry.name}/{name}", time, size)
                          for name, time, size in turn_files(entry.path)]
            else:
                st = entry.stat(follow_symlinks=False)
                found.append((entry.name, st.st_mtime_ns, st.st_size))
    return sorted(found)


def _page_stamp(path: Path) -> list[int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return [st.st_mtime_ns, st.st_size]


@dataclass(frozen=True)
class TurnDrawn:
    """One turn page as the record keeps it."""

    inputs: str  # the key of the turn's own inputs
    label: str  # how players name the turn (``turn 7``, ``S1901M``)
    summary: str  # its line of the index
    page: str = ""  # the key of the page as drawn
    stamp: tuple[int, int] | None = None  # the page file's, as written


class DrawnPages:
    """The record of one game's archive folder: read at the start of a render,
    written at its end."""

    def __init__(self, out_dir: Path) -> None:
        self.path = out_dir / RECORD
        self.turns: dict[int, TurnDrawn] = {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if data.get("version") == _VERSION:
                self.turns = {int(t): TurnDrawn(str(d["inputs"]), str(d["label"]),
                                                str(d["summary"]), str(d["page"]),
                                                (int(d["stamp"][0]), int(d["stamp"][1])))
                              for t, d in data["turns"].items()}
        except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError):
            self.turns = {}  # none: every page is drawn

    @staticmethod
    def inputs(game: Game, shown: Any, turns: list[int]) -> dict[int, str]:
        """The key of each turn's own inputs (see the module)."""
        settings = replace(game.settings, deadline=None)
        shared = _key(code_digest(), repr(settings), repr(shown))
        folder = os.fspath(game.dir / "turns")
        return {t: _key(shared, turn_files(os.path.join(folder, f"{t:03d}")),
                        _page_stamp(Path(folder, f"{t + 1:03d}", "position.yaml")))
                for t in turns}

    def known(self, turn: int, inputs: str) -> TurnDrawn | None:
        """What the record keeps of ``turn``, while its inputs are the same."""
        drawn = self.turns.get(turn)
        return drawn if drawn is not None and drawn.inputs == inputs else None

    @staticmethod
    def page_key(inputs: str, *more: object) -> str:
        return _key(inputs, *more)

    def is_current(self, turn: int, page: str, path: Path) -> bool:
        """The page of ``turn`` is in its file as drawn from these inputs."""
        drawn = self.turns.get(turn)
        stamp = _page_stamp(path)
        return (drawn is not None and drawn.page == page and stamp is not None
                and drawn.stamp == (stamp[0], stamp[1]))

    def drew(self, turn: int, drawn: TurnDrawn, path: Path) -> None:
        """``turn``'s page is in ``path`` now, drawn as ``drawn`` says."""
        stamp = _page_stamp(path)
        self.turns[turn] = replace(drawn, stamp=None if stamp is None else (stamp[0], stamp[1]))

    def save(self, turns: list[int]) -> None:
        """Write the record down, of ``turns`` (the turns played) only."""
        data = {"version": _VERSION, "turns": {
            str(t): {"inputs": d.inputs, "label": d.label, "summary": d.summary,
                     "page": d.page, "stamp": list(d.stamp or (0, 0))}
            for t, d in sorted(self.turns.items()) if t in set(turns)}}
        replace_file(self.path, json.dumps(data, indent=0), durable=False)
