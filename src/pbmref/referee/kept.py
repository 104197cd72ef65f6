"""Mail for a game that cannot be read, kept until the game master repairs it.

When a game's files cannot be read (a syntax error in ``game.yaml``, an
orders file broken by an edit), a player's mail for it cannot be checked. It
is not lost and the player is not asked to send it again: a copy is kept in
the spool folder, ``kept/GAME/``, and the reply says the referee reads it
once the game is repaired. The game master gets one notice naming the file
and the line, once for each problem (not once a mail). Each round looks
whether a game with kept mail reads again (one folder listing when there is
none); when it does, its kept mails are handled in the order they came, as
if they had just arrived (with their own arrival time, so a deadline that
passed meanwhile still counts), and each is answered; then the copy goes.

``kept/GAME/NAME.eml`` is the mail, ``NAME.arrived`` its arrival time (ISO),
``told`` the problem the game master was told of.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from pbmref.base.files import replace_file
from pbmref.base.times import iso, moment

__all__ = ["Kept", "KeptMail", "gm_notice", "player_reply"]


@dataclass(frozen=True)
class KeptMail:
    game_id: str
    name: str
    raw: bytes
    arrived: datetime
    path: Path

    def drop(self) -> None:
        """The mail was handled: its copy goes."""
        for path in (self.path, self.path.with_suffix(".arrived")):
            path.unlink(missing_ok=True)


class Kept:
    """The ``kept/`` folder of a spool."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def keep(self, game_id: str, message_id: str, raw: bytes, arrived: datetime) -> int:
        """Keep a copy of the mail (once per Message-ID); returns how many mails
        the game has kept now."""
        folder = self.root / game_id
        folder.mkdir(parents=True, exist_ok=True, mode=0o750)
        name = hashlib.sha256((message_id or raw.decode("latin-1")).encode()).hexdigest()[:32]
        # the arrival first: a mail file is never without it
        replace_file(folder / f"{name}.arrived", iso(arrived) or "")
        replace_file(folder / f"{name}.eml", raw)
        return len(list(folder.glob("*.eml")))

    def first_told(self, game_id: str, problem: str) -> bool:
        """Whether the game master is yet to be told of ``problem`` (and note
        that they are now)."""
        told = self.root / game_id / "told"
        try:
            if told.read_text(encoding="utf-8") == problem:
                return False
        except OSError:
            pass
        replace_file(told, problem)
        return True

    def games(self) -> list[str]:
        """The games with kept mail."""
        try:
            return sorted(e.name for e in os.scandir(self.root)
                          if e.is_dir() and any(Path(e.path).glob("*.eml")))
        except FileNotFoundError:
            return []

    def mails(self, game_id: str) -> Iterator[KeptMail]:
        """A game's kept mails, the earliest first."""
        found = []
        for path in (self.root / game_id).glob("*.eml"):
            try:
                when = moment(path.with_suffix(".arrived").read_text(encoding="utf-8"))
                raw = path.read_bytes()
            except OSError:
                continue
            if when is not None:
                found.append(KeptMail(game_id, path.stem, raw, when, path))
        yield from sorted(found, key=lambda k: (k.arrived, k.name))

    def released(self, game_id: str) -> None:
        """Every kept mail of the game handled: the next problem is told anew."""
        (self.root / game_id / "told").unlink(missing_ok=True)
        try:
            (self.root / game_id).rmdir()
        except OSError:
            pass


def player_reply(game_id: str) -> str:
    return "\n".join([
        f"Game {game_id} cannot take orders at the moment: one of its files needs",
        "the game master's attention, and the game master has been told.",
        "",
        "Your mail is kept. The referee reads it as soon as the game is",
        "repaired and answers it then, as if it had just arrived (a deadline",
        "that passes meanwhile still counts). You need not send it again.",
        "Nothing was changed yet."])


def gm_notice(game_id: str, problem: str, kept: int) -> str:
    return "\n".join([
        f"Game {game_id} cannot be read, so it takes no orders:",
        "",
        f"  {problem}",
        "",
        f"Repair the file, then run: pbmref check {game_id}",
        "",
        f"Mails for the game are kept meanwhile ({kept} so far) and each sender",
        "was told so. The referee's next round after the repair handles them",
        "and answers them. You are told of this problem once, not for each mail.",
    ])
