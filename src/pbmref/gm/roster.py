"""Pilot careers across Fast Play games: the roster beside the games (rule FP16).

The roster is one YAML file (by default ``<games dir>/roster.yaml``) read with
the safe loader and written atomically. Each player has a list of careers
(pilots): victories, sorties and whether the pilot is still flying or was put
out of action (FP9), when the career closed and a new pilot started at zero.
Ace (5 victories) and double ace (10) follow from the count (FP11).

The roster learns from the turns' events (``apply_turn``): a ``victory``
adds to the victor's open career, ``entered`` is a sortie, and a pilot
``shot_down`` with outcome ``out`` closes the career at the end of that turn
(a victory scored in the same move still counts for the old pilot). Each
game turn is applied once only: the roster remembers which it has seen, so
re-running the referee never counts twice.

File layout::

    players:
      anna:
        name: Anna
        team: Germans
        careers:
          - {pilot: 1, victories: 6, sorties: 4, status: out, closed: "7b-1 turn 6"}
          - {pilot: 2, victories: 1, sorties: 2, status: flying}
    applied: ["7b-1/1", "7b-1/2"]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pbmref.base.files import replace_file
from pbmref.base.yamlfile import dump_yaml, read_yaml
from pbmref.store.errors import GameFileError

__all__ = [
    "Career", "GameFileError", "PlayerRecord", "Roster", "RosterError", "apply_turn",
    "load_roster", "record_game_start", "render_roster", "roster_path", "roster_to_dict",
    "save_roster",
]

ROSTER_FILE = "roster.yaml"
ACE = 5  # FP11
DOUBLE_ACE = 10  # FP11
TEAMS = ("Germans", "Allies")


class RosterError(ValueError):
    """A roster operation that cannot be done (unknown player, wrong side ...)."""


@dataclass(frozen=True)
class Career:
    """One pilot of a player: a career ends when the pilot is put out of action."""

    pilot: int  # 1 for the player's first pilot, 2 for the next ...
    victories: int = 0
    sorties: int = 0
    status: str = "flying"  # flying | out
    closed: str = ""  # "GAME turn N" when put out of action

    @property
    def title(self) -> str:
        if self.victories >= DOUBLE_ACE:
            return "double ace"
        if self.victories >= ACE:
            return "ace"
        return ""


@dataclass(frozen=True)
class PlayerRecord:
    name: str
    team: str
    careers: tuple[Career, ...] = (Career(1),)

    @property
    def current(self) -> Career:
        return self.careers[-1]

    def with_current(self, career: Career) -> PlayerRecord:
        return replace(self, careers=(*self.careers[:-1], career))


@dataclass(frozen=True)
class Roster:
    players: Mapping[str, PlayerRecord] = field(default_factory=dict)
    applied: tuple[str, ...] = ()

    def register(self, player: str, name: str, team: str) -> Roster:
        """Add a player (or keep one already there, checking the side)."""
        if team not in TEAMS:
            raise RosterError(f"{team!r} is not a side; the sides are Germans and Allies")
        if player in self.players:
            known = self.players[player]
            if known.team != team:
                raise RosterError(f"{player} flies for the {known.team} in the roster, "
                                  f"not the {team}")
            return self
        return replace(self, players={**self.players, player: PlayerRecord(name, team)})

    def current(self, player: str) -> Career:
        try:
            return self.players[player].current
        except KeyError:
            raise RosterError(f"{player!r} is not in the roster") from None

    def victories(self, player: str) -> int:
        """The open career's victories (0 for a player not in the roster)."""
        record = self.players.get(player)
        return record.current.victories if record else 0

    def add_sortie(self, player: str) -> Roster:
        record = self.players[player]
        cur = record.current
        return self._put(player, record.with_current(replace(cur, sorties=cur.sorties + 1)))

    def _put(self, player: str, record: PlayerRecord) -> Roster:
        return replace(self, players={**self.players, player: record})

    def totals(self) -> dict[str, int]:
        """Figures over every career: victories, sorties, pilots out of action."""
        careers = [c for r in self.players.values() for c in r.careers]
        return {
            "victories": sum(c.victories for c in careers),
            "sorties": sum(c.sorties for c in careers),
            "out": sum(1 for c in careers if c.status == "out"),
            "pilots": len(careers),
        }


def roster_path(games_dir: Path | str) -> Path:
    return Path(games_dir) / ROSTER_FILE


def _int(value: Any, doc: Any, path: tuple[str | int, ...]) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise doc.error(path, f"expected a whole number 0 or more, found {value!r}")
    return value


def load_roster(file: Path | str) -> Roster:
    """Read the roster; a missing file is an empty roster. Errors name file and line."""
    p = Path(file)
    if not p.exists():
        return Roster()
    doc = read_yaml(p)
    data = doc.mapping("the roster: players and applied")
    for key in data:
        if key not in ("players", "applied"):
            raise doc.error((key,), f"unknown key {key!r}; known keys: applied, players")
    players: dict[str, PlayerRecord] = {}
    raw = data.get("players") or {}
    if not isinstance(raw, Mapping):
        raise doc.error(("players",), "expected a mapping of player id to record")
    for pid, rec in raw.items():
        path: tuple[str | int, ...] = ("players", str(pid))
        if not isinstance(rec, Mapping):
            raise doc.error(path, "expected name, team and careers")
        team = str(rec.get("team", ""))
        if team not in TEAMS:
            raise doc.error((*path, "team"), f"{team!r} is not a side: Germans or Allies")
        careers_raw = rec.get("careers") or [{"pilot": 1}]
        if not isinstance(careers_raw, list):
            raise doc.error((*path, "careers"), "expected a list of careers")
        careers: list[Career] = []
        for i, c in enumerate(careers_raw):
            cpath = (*path, "careers", i)
            if not isinstance(c, Mapping):
                raise doc.error(cpath, "expected pilot, victories, sorties, status")
            status = str(c.get("status", "flying"))
            if status not in ("flying", "out"):
                raise doc.error((*cpath, "status"), f"{status!r} is not flying or out")
            if status == "flying" and i != len(careers_raw) - 1:
                raise doc.error((*cpath, "status"), "only the last career can still be "
                                                   "flying; the earlier ones were closed")
            careers.append(Career(
                pilot=_int(c.get("pilot", i + 1), doc, (*cpath, "pilot")),
                victories=_int(c.get("victories", 0), doc, (*cpath, "victories")),
                sorties=_int(c.get("sorties", 0), doc, (*cpath, "sorties")),
                status=status, closed=str(c.get("closed", "") or "")))
        if careers[-1].status == "out":
            careers.append(Career(careers[-1].pilot + 1))
        players[str(pid)] = PlayerRecord(str(rec.get("name", pid)), team, tuple(careers))
    applied = data.get("applied") or []
    if not isinstance(applied, list):
        raise doc.error(("applied",), "expected a list of GAME/TURN entries")
    return Roster(players, tuple(str(a) for a in applied))


def roster_to_dict(roster: Roster) -> dict[str, Any]:
    players: dict[str, Any] = {}
    for pid in sorted(roster.players):
        rec = roster.players[pid]
        careers = []
        for c in rec.careers:
            entry: dict[str, Any] = {"pilot": c.pilot, "victories": c.victories,
                                     "sorties": c.sorties, "status": c.status}
            if c.title:
                entry["title"] = c.title
            if c.closed:
                entry["closed"] = c.closed
            careers.append(entry)
        players[pid] = {"name": rec.name, "team": rec.team, "careers": careers}
    return {"players": players, "applied": list(roster.applied)}


def save_roster(path: Path | str, roster: Roster) -> None:
    """Write the roster atomically (a crash leaves the old or the new file whole)."""
    replace_file(path, dump_yaml(roster_to_dict(roster), header=(
        "Fast Play pilot careers (rule FP16), kept by pbmref; one entry per player.\n"
        "A closed career (status out) was put out of action; its player flies a new pilot.")))


def apply_turn(roster: Roster, game_id: str, turn: int,
               events: Iterable[Mapping[str, Any]]) -> Roster:
    """Count one adjudicated turn's events into the roster (once per game turn)."""
    key = f"{game_id}/{turn}"
    if key in roster.applied:
        return roster
    closing: list[str] = []
    for e in events:
        kind = e.get("kind")
        if kind == "victory":
            pilot = str(e["pilot"])
            if pilot in roster.players:
                rec = roster.players[pilot]
                cur = rec.current
                roster = roster._put(pilot, rec.with_current(
                    replace(cur, victories=cur.victories + 1)))
        elif kind == "entered":
            pilot = str(e["pilot"])
            if pilot in roster.players:
                roster = roster.add_sortie(pilot)
        elif kind == "shot_down" and e.get("outcome") == "out":
            closing.append(str(e["target"]))
    for pilot in closing:
        if pilot not in roster.players:
            continue
        rec = roster.players[pilot]
        cur = rec.current
        closed = replace(cur, status="out", closed=f"{game_id} turn {turn}")
        roster = roster._put(pilot, replace(
            rec, careers=(*rec.careers[:-1], closed, Career(cur.pilot + 1))))
    return replace(roster, applied=(*roster.applied, key))


def record_game_start(roster: Roster, game_id: str, players: Sequence[str]) -> Roster:
    """Each pilot placed on a new game's board flies a sortie (once per game)."""
    key = f"{game_id}/start"
    if key in roster.applied:
        return roster
    for p in players:
        if p in roster.players:
            roster = roster.add_sortie(p)
    return replace(roster, applied=(*roster.applied, key))


def render_roster(roster: Roster) -> list[str]:
    """The roster as plain text lines: each player's current pilot and past ones."""
    lines = [f"{'player':<14} {'side':<8} {'pilot':>5} {'victories':>9} {'sorties':>7}  title"]
    for pid in sorted(roster.players, key=lambda p: (roster.players[p].team, p)):
        rec = roster.players[pid]
        cur = rec.current
        lines.append(f"{pid:<14} {rec.team:<8} {cur.pilot:>5} {cur.victories:>9} "
                     f"{cur.sorties:>7}  {cur.title}")
        for old in rec.careers[:-1]:
            lines.append(f"{'':<14} {'':<8} {old.pilot:>5} {old.victories:>9} "
                         f"{old.sorties:>7}  out of action ({old.closed})"
                         + (f", {old.title}" if old.title else ""))
    return lines


