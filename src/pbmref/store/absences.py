"""The players' absences (J11): ``absences.yaml`` in the game folder, written by the referee::

    - {player: anna, from: 2026-07-01, to: 2026-07-14, timezone: Europe/Paris,
       set_at: '2026-06-20T09:12:00+00:00'}

An absence covers its days from the start of the first to the end of the
last, in the time zone the player had when setting it. Deadlines that would
fall within one move past it (``store.deadlines.pushed_past``); the game
master's bounds (``deadlines.absence_longest``, ``absence_total``) are
checked by ``gm.absence`` before one is added. The file only grows: an
absence once set stays on record.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from pbmref.base.files import replace_file
from pbmref.base.times import iso, moment
from pbmref.base.yamlfile import YamlDoc, dump_yaml, stored_value
from pbmref.store.deadlines import Span

if TYPE_CHECKING:
    from pbmref.store.game import Game

__all__ = ["ABSENCES_FILE", "Absence", "AbsenceBook"]

ABSENCES_FILE = "absences.yaml"


@dataclass(frozen=True)
class Absence:
    """One player's absence: from the first to the last day, in ``timezone``."""

    player: str
    first: date
    last: date
    timezone: str
    set_at: datetime | None = None

    @property
    def span(self) -> Span:
        """From the start of the first day to the end of the last (J11)."""
        zone = ZoneInfo(self.timezone)
        return (datetime.combine(self.first, time(0), tzinfo=zone),
                datetime.combine(self.last + timedelta(days=1), time(0), tzinfo=zone))

    @property
    def days(self) -> int:
        return (self.last - self.first).days + 1

    def to_dict(self) -> dict[str, object]:
        return {"player": self.player, "from": self.first.isoformat(),
                "to": self.last.isoformat(), "timezone": self.timezone,
                "set_at": iso(self.set_at)}


class AbsenceBook:
    """The absences of one game (``game.absences``)."""

    def __init__(self, game: Game) -> None:
        self.game = game

    @property
    def path(self) -> Path:
        return self.game.dir / ABSENCES_FILE

    def read(self) -> tuple[Absence, ...]:
        """Every absence set, in order (a bad file raises GameFileError)."""
        if not os.path.isfile(self.path):
            return ()
        return stored_value(self.path, "absences", _checked)

    def spans(self, players: Iterable[str] | None = None) -> list[Span]:
        """The absences of ``players`` (default: everyone) as time spans."""
        keep = None if players is None else set(players)
        return [a.span for a in self.read() if keep is None or a.player in keep]

    def days_taken(self, player: str) -> int:
        return sum(a.days for a in self.read() if a.player == player)

    def add(self, absence: Absence) -> None:
        """Record one more absence (the caller holds the game's lock)."""
        data = [a.to_dict() for a in (*self.read(), absence)]
        replace_file(self.path, dump_yaml(data, header=(
            "The players' absences (SET ABSENCE, rule J11), written by the referee.")))


def _checked(doc: YamlDoc) -> tuple[Absence, ...]:
    data = doc.data if doc.data is not None else []
    if not isinstance(data, list):
        raise doc.error((), "expected a list of absences: player, from, to, timezone")
    out = []
    for n, item in enumerate(data):
        if not isinstance(item, dict):
            raise doc.error((n,), "expected an absence: player, from, to, timezone")
        try:
            first, last = (date.fromisoformat(str(item[k])) for k in ("from", "to"))
            zone = str(item.get("timezone") or "UTC")
            ZoneInfo(zone)
        except (KeyError, ValueError) as exc:
            raise doc.error((n,), f"an absence needs player, from, to (dates) and a time "
                                  f"zone: {exc}") from None
        out.append(Absence(str(item.get("player", "")), first, last, zone,
                           moment(item.get("set_at"))))
    return tuple(out)
