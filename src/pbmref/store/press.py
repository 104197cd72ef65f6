"""The press of a game: every message the referee relayed, kept in the game folder.

One file per message, written once and never rewritten::

    press/0001.yaml    number, turn (and its label), sender (the real one, also
                       for grey press), grey, broadcast, receivers (player ids),
                       observers (how many observer addresses got it), text,
                       sent_at, and the Message-ID and block number of the mail
                       it came in

The game master reads them all; players only ever see the mails the referee
sent them. A mail handled twice (after a crash) finds its messages by
Message-ID and block and writes nothing twice.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from pbmref.base.files import write_new
from pbmref.base.times import iso, parse_datetime
from pbmref.base.yamlfile import dump_yaml, read_yaml

if TYPE_CHECKING:
    from pbmref.store.game import Game

__all__ = ["PRESS_DIR", "PressLog", "PressRecord"]

PRESS_DIR = "press"
_NAME = re.compile(r"(\d{4,})\.yaml")
_KEYS = {"number", "turn", "label", "sender", "grey", "broadcast", "receivers", "observers",
         "text", "sent_at", "message_id", "block"}


@dataclass(frozen=True)
class PressRecord:
    """One press message as the referee relayed it."""

    number: int
    turn: int
    label: str  # the turn as players named it when it was sent: ``S1901M``, ``3``
    sender: str  # the player id, also of grey press (the game master sees it)
    grey: bool
    broadcast: bool
    receivers: tuple[str, ...]  # the player ids it was sent to
    observers: int  # observer addresses it was sent to (broadcasts)
    text: str
    sent_at: datetime
    message_id: str = ""
    block: int = 1


class PressLog:
    """The press kept in one game's folder (``game.press``)."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def folder(self) -> Path:
        return self.game.dir / PRESS_DIR

    def records(self) -> list[PressRecord]:
        """Every message relayed, oldest first; a bad file raises GameFileError."""
        folder = self.folder()
        if not folder.is_dir():
            return []
        names = sorted(n for n in os.listdir(folder) if _NAME.fullmatch(n))
        return [self._read(folder / n) for n in names]

    def _read(self, path: Path) -> PressRecord:
        doc = read_yaml(path)
        data = doc.mapping("a press record")
        for key in data:
            if key not in _KEYS:
                raise doc.error((key,), f"unknown key {key!r}; known keys: "
                                        f"{', '.join(sorted(_KEYS))}")
        players = self.game.settings.players
        sender = str(data.get("sender", ""))
        if sender not in players:
            raise doc.error(("sender",), f"{sender!r} is not a player of this game")
        receivers = data.get("receivers") or []
        if not isinstance(receivers, list):
            raise doc.error(("receivers",), "receivers must be a list of player ids")
        try:
            sent_at = parse_datetime(data.get("sent_at"), self.game.settings.zone)
        except (TypeError, ValueError) as exc:
            raise doc.error(("sent_at",), str(exc)) from None
        return PressRecord(
            number=int(data.get("number") or 0), turn=int(data.get("turn") or 0),
            label=str(data.get("label", "")), sender=sender, grey=bool(data.get("grey")),
            broadcast=bool(data.get("broadcast")), receivers=tuple(str(r) for r in receivers),
            observers=int(data.get("observers") or 0), text=str(data.get("text") or ""),
            sent_at=sent_at, message_id=str(data.get("message_id") or ""),
            block=int(data.get("block") or 1))

    def find(self, message_id: str, block: int) -> PressRecord | None:
        """The message relayed from block ``block`` of the mail ``message_id``."""
        if not message_id:
            return None
        return next((r for r in self.records()
                     if r.message_id == message_id and r.block == block), None)

    def sent_since(self, sender: str, since: datetime) -> int:
        """How many messages ``sender`` sent from ``since`` on (the rate cap)."""
        return sum(1 for r in self.records() if r.sender == sender and r.sent_at >= since)

    def of_turn(self, turn: int, *, broadcast_only: bool = True) -> list[PressRecord]:
        """The press sent while ``turn`` was open (broadcasts only, by default)."""
        return [r for r in self.records()
                if r.turn == turn and (r.broadcast or not broadcast_only)]

    def append(self, *, sender: str, grey: bool, broadcast: bool, receivers: Sequence[str],
               observers: int, text: str, sent_at: datetime, message_id: str,
               block: int) -> PressRecord:
        """Keep one relayed message (once per Message-ID and block)."""
        game = self.game
        with game.lock():
            known = self.find(message_id, block)
            if known is not None:
                return known
            numbers = [r.number for r in self.records()]
            number = max(numbers, default=0) + 1
            record = PressRecord(number, game.turn, str(game.turn_label), sender, grey,
                                 broadcast, tuple(receivers), observers, text, sent_at,
                                 message_id, block)
            data: dict[str, object] = {
                "number": number, "turn": record.turn, "label": record.label,
                "sender": sender, "grey": grey, "broadcast": broadcast,
                "receivers": list(receivers), "observers": observers,
                "sent_at": iso(sent_at), "message_id": message_id, "block": block,
                "text": text,
            }
            self.folder().mkdir(exist_ok=True)
            write_new(self.folder() / f"{number:04d}.yaml", dump_yaml(
                data, header=f"Press of game {game.id}, kept for the game master"))
            return record
