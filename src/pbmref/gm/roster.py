"""Pilot careers across Fast Play games: the roster beside the games (rule FP16).

The roster is one YAML file (by default ``<games dir>/roster.yaml``) read with
the safe loader and written atomically, under its own lock. It holds the
pupils (name, side) and, for every adjudicated turn of their games, what
that turn did to careers (a ``Battle``: the victories, the sorties, the
pilots put out of action), read from the turn's recorded events. The
careers are worked out from these battles in the order they were played,
never counted up as they come: a pupil's pilot gains a victory per victory
event and a sortie per plane placed or entering (FP14), and a pilot put out
of action (FP9) closes the career at the end of that turn (a victory scored
in the same move still counts for the old pilot); the next pilot starts at
zero. Ace (5 victories) and double ace (10) follow from the count (FP11).

The roster follows the games by itself: each adjudication records its turn
(``follow``, called by ``pbmref.gm.adjudicate``), a re-run records its
turns again (a changed result changes the careers; an unchanged one
nothing), and ``pbmref roster update`` reads every Fast Play game's turns
again (for a roster kept elsewhere, or one that was broken for a while).

File layout::

    players:
      anna: {name: Anna, team: Germans}
      bert:
        name: Bert
        team: Allies
        careers:            # only in an older roster: careers counted before the
          - {pilot: 1, victories: 6, sorties: 4, status: out, closed: 7b-1 turn 6}
    battles:                # what each turn did, in the order played
      - {game: 7b-1, turn: 0, sorties: [anna, bert]}   # turn 0: the game's start
      - {game: 7b-1, turn: 1, victories: [anna], out: [bert]}
    applied: [7b-1/start]   # only in an older roster: turns counted in its careers

A roster written before the battles were kept (careers and ``applied``)
reads as it was: its careers stand as counted, the turns it names are not
counted again, and new turns add to them.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from pbmref.base.files import replace_file
from pbmref.base.locks import FileLock
from pbmref.base.yamlfile import YamlDoc, dump_yaml, read_yaml
from pbmref.store import Game, GameStore, StoreError
from pbmref.store.errors import GameFileError

__all__ = [
    "Battle", "Career", "GameFileError", "PlayerRecord", "Pupil", "Roster", "RosterChange",
    "RosterError", "apply_turn", "boards", "follow", "follow_quietly", "load_roster",
    "record_game_start", "render_roster", "roster_lock", "roster_path", "roster_to_dict",
    "save_roster", "update_roster",
]

log = logging.getLogger(__name__)

ROSTER_FILE = "roster.yaml"
ACE = 5  # FP11
DOUBLE_ACE = 10  # FP11
TEAMS = ("Germans", "Allies")
_BATTLE_KEYS = ("game", "turn", "victories", "sorties", "out")


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
    """A pupil with the careers worked out: the last one is the pilot flying now."""

    name: str
    team: str
    careers: tuple[Career, ...] = (Career(1),)

    @property
    def current(self) -> Career:
        return self.careers[-1]


@dataclass(frozen=True)
class Pupil:
    """A pupil of the roster; ``careers``: those counted before the battles the
    roster keeps (an older roster's), else a first pilot at zero."""

    name: str
    team: str
    careers: tuple[Career, ...] = (Career(1),)


@dataclass(frozen=True)
class Battle:
    """What one adjudicated turn of one game did to careers (FP16): each pilot
    credited a victory (once per victory), each flying a sortie, each put out of
    action (FP9). Turn 0 is the game's start: every pilot placed flies a sortie."""

    game: str
    turn: int
    victories: tuple[str, ...] = ()
    sorties: tuple[str, ...] = ()
    out: tuple[str, ...] = ()

    @property
    def key(self) -> tuple[str, int]:
        return (self.game, self.turn)

    @property
    def applied_key(self) -> str:
        """Its name in an older roster's ``applied`` list."""
        return f"{self.game}/{self.turn or 'start'}"

    @property
    def empty(self) -> bool:
        return not (self.victories or self.sorties or self.out)

    @classmethod
    def of_turn(cls, game: str, turn: int, events: Iterable[Mapping[str, object]]) -> Battle:
        """The battle of a turn from its recorded events (``events.yaml``)."""
        events = list(events)
        return cls(game, turn,
                   victories=tuple(str(e["pilot"]) for e in events if e.get("kind") == "victory"),
                   sorties=tuple(str(e["pilot"]) for e in events if e.get("kind") == "entered"),
                   out=tuple(str(e["target"]) for e in events
                             if e.get("kind") == "shot_down" and e.get("outcome") == "out"))

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"game": self.game, "turn": self.turn}
        for name in ("victories", "sorties", "out"):
            if getattr(self, name):
                out[name] = list(getattr(self, name))
        return out


@dataclass(frozen=True)
class Roster:
    """The pupils and the battles their careers are worked out from (``players``)."""

    pupils: Mapping[str, Pupil] = field(default_factory=dict)
    battles: tuple[Battle, ...] = ()
    applied: tuple[str, ...] = ()  # an older roster's turns, counted in its careers

    @cached_property
    def players(self) -> dict[str, PlayerRecord]:
        """Every pupil's careers, worked out from the battles in the order played."""
        careers = {pid: list(p.careers) for pid, p in self.pupils.items()}

        def add(pid: str, **more: int) -> None:
            if pid in careers:
                cur = careers[pid][-1]
                careers[pid][-1] = replace(cur, **{k: getattr(cur, k) + v
                                                   for k, v in more.items()})

        for b in self.battles:
            for pid in b.sorties:
                add(pid, sorties=1)
            for pid in b.victories:
                add(pid, victories=1)
            for pid in dict.fromkeys(b.out):
                if pid in careers:
                    cur = careers[pid][-1]
                    careers[pid][-1] = replace(cur, status="out",
                                               closed=f"{b.game} turn {b.turn}")
                    careers[pid].append(Career(cur.pilot + 1))
        return {pid: PlayerRecord(p.name, p.team, tuple(careers[pid]))
                for pid, p in self.pupils.items()}

    def register(self, player: str, name: str, team: str) -> Roster:
        """Add a player (or keep one already there, checking the side)."""
        if team not in TEAMS:
            raise RosterError(f"{team!r} is not a side; the sides are Germans and Allies")
        if player in self.pupils:
            known = self.pupils[player]
            if known.team != team:
                raise RosterError(f"{player} flies for the {known.team} in the roster, "
                                  f"not the {team}")
            return self
        return replace(self, pupils={**self.pupils, player: Pupil(name, team)})

    def current(self, player: str) -> Career:
        try:
            return self.players[player].current
        except KeyError:
            raise RosterError(f"{player!r} is not in the roster") from None

    def victories(self, player: str) -> int:
        """The open career's victories (0 for a player not in the roster)."""
        record = self.players.get(player)
        return record.current.victories if record else 0

    def counted_before(self, game: str, turn: int) -> bool:
        """Whether an older roster counted this turn into its careers already."""
        return Battle(game, turn).applied_key in self.applied

    def record(self, battle: Battle) -> Roster:
        """The roster with ``battle`` in place of what it had for that game turn (a
        new one goes last; one that did nothing is not kept)."""
        if self.counted_before(battle.game, battle.turn):
            return self
        battles = list(self.battles)
        at = next((i for i, b in enumerate(battles) if b.key == battle.key), None)
        if at is None:
            battles.append(battle)
        else:
            battles[at] = battle
        return replace(self, battles=tuple(b for b in battles if not b.empty))

    def forget(self, game: str, keep: Iterable[int]) -> Roster:
        """The roster without the battles of ``game`` but those of turns ``keep``
        (the game's start and its adjudicated turns)."""
        kept = set(keep)
        return replace(self, battles=tuple(b for b in self.battles
                                           if b.game != game or b.turn in kept))

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


def roster_lock(path: Path | str) -> FileLock:
    """The lock held while the roster at ``path`` is read, changed and written."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    return FileLock(p.with_name(f".{p.name}.lock"), timeout=60.0)


def _int(value: Any, doc: YamlDoc, path: tuple[str | int, ...], low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise doc.error(path, f"expected a whole number {low} or more, found {value!r}")
    return value


def _careers(raw: Any, doc: YamlDoc, path: tuple[str | int, ...]) -> tuple[Career, ...]:
    if not isinstance(raw, list) or not raw:
        raise doc.error(path, "expected a list of careers")
    careers: list[Career] = []
    for i, c in enumerate(raw):
        cpath = (*path, i)
        if not isinstance(c, Mapping):
            raise doc.error(cpath, "expected pilot, victories, sorties, status")
        status = str(c.get("status", "flying"))
        if status not in ("flying", "out"):
            raise doc.error((*cpath, "status"), f"{status!r} is not flying or out")
        if status == "flying" and i != len(raw) - 1:
            raise doc.error((*cpath, "status"), "only the last career can still be "
                                               "flying; the earlier ones were closed")
        careers.append(Career(
            pilot=_int(c.get("pilot", i + 1), doc, (*cpath, "pilot")),
            victories=_int(c.get("victories", 0), doc, (*cpath, "victories")),
            sorties=_int(c.get("sorties", 0), doc, (*cpath, "sorties")),
            status=status, closed=str(c.get("closed", "") or "")))
    if careers[-1].status == "out":
        careers.append(Career(careers[-1].pilot + 1))
    return tuple(careers)


def _battle(raw: Any, doc: YamlDoc, path: tuple[str | int, ...]) -> Battle:
    if not isinstance(raw, Mapping):
        raise doc.error(path, "expected game, turn, and victories, sorties, out")
    for key in raw:
        if key not in _BATTLE_KEYS:
            raise doc.error((*path, key), f"unknown key {key!r}; known keys: "
                                          f"{', '.join(_BATTLE_KEYS)}")
    if not isinstance(raw.get("game"), str) or not raw["game"]:
        raise doc.error((*path, "game"), "expected the game's id")
    names: dict[str, tuple[str, ...]] = {}
    for key in ("victories", "sorties", "out"):
        value = raw.get(key) or []
        if not isinstance(value, list):
            raise doc.error((*path, key), "expected a list of player ids")
        names[key] = tuple(str(v) for v in value)
    return Battle(raw["game"], _int(raw.get("turn"), doc, (*path, "turn")), **names)


def load_roster(file: Path | str) -> Roster:
    """Read the roster; a missing file is an empty roster. Errors name file and line."""
    p = Path(file)
    if not p.exists():
        return Roster()
    doc = read_yaml(p)
    data = doc.mapping("the roster: players and battles")
    for key in data:
        if key not in ("players", "battles", "applied"):
            raise doc.error((key,), f"unknown key {key!r}; known keys: applied, battles, "
                                    "players")
    pupils: dict[str, Pupil] = {}
    raw = data.get("players") or {}
    if not isinstance(raw, Mapping):
        raise doc.error(("players",), "expected a mapping of player id to record")
    for pid, rec in raw.items():
        path: tuple[str | int, ...] = ("players", str(pid))
        if not isinstance(rec, Mapping):
            raise doc.error(path, "expected name and team")
        team = str(rec.get("team", ""))
        if team not in TEAMS:
            raise doc.error((*path, "team"), f"{team!r} is not a side: Germans or Allies")
        careers = _careers(rec["careers"], doc, (*path, "careers")) if "careers" in rec \
            else (Career(1),)
        pupils[str(pid)] = Pupil(str(rec.get("name", pid)), team, careers)
    battles = data.get("battles") or []
    if not isinstance(battles, list):
        raise doc.error(("battles",), "expected a list of battles: game, turn, ...")
    applied = data.get("applied") or []
    if not isinstance(applied, list):
        raise doc.error(("applied",), "expected a list of GAME/TURN entries")
    return Roster(pupils, tuple(_battle(b, doc, ("battles", i)) for i, b in enumerate(battles)),
                  tuple(str(a) for a in applied))


def roster_to_dict(roster: Roster) -> dict[str, object]:
    players: dict[str, object] = {}
    for pid in sorted(roster.pupils):
        pupil = roster.pupils[pid]
        entry: dict[str, object] = {"name": pupil.name, "team": pupil.team}
        if pupil.careers != (Career(1),):
            entry["careers"] = [
                {"pilot": c.pilot, "victories": c.victories, "sorties": c.sorties,
                 "status": c.status, **({"closed": c.closed} if c.closed else {})}
                for c in pupil.careers]
        players[pid] = entry
    out: dict[str, object] = {"players": players,
                           "battles": [b.as_dict() for b in roster.battles]}
    if roster.applied:
        out["applied"] = list(roster.applied)
    return out


def save_roster(path: Path | str, roster: Roster) -> None:
    """Write the roster atomically (a crash leaves the old or the new file whole)."""
    replace_file(path, dump_yaml(roster_to_dict(roster), header=(
        "Fast Play pilot careers (rule FP16), kept by pbmref: the pupils, and what each\n"
        "adjudicated turn of their games did (turn 0: a game's start, a sortie for every\n"
        "pilot placed), written at each adjudication and re-run. `pbmref roster` shows\n"
        "the careers worked out from them; a pilot put out of action closes a career.")))


def apply_turn(roster: Roster, game_id: str, turn: int,
               events: Iterable[Mapping[str, object]]) -> Roster:
    """The roster with one adjudicated turn's events as that turn's battle (again:
    in place of what it had for it)."""
    return roster.record(Battle.of_turn(game_id, turn, events))


def record_game_start(roster: Roster, game_id: str, players: Sequence[str]) -> Roster:
    """Each pilot placed on a new game's board flies a sortie (turn 0 of the game)."""
    return roster.record(Battle(game_id, 0, sorties=tuple(players)))


# ------------------------------------------------------------ following the games


@dataclass(frozen=True)
class RosterChange:
    """What bringing the roster up to date with a game did: the pupils whose
    careers changed, and the turns an older roster had counted into its careers
    already (those are not corrected)."""

    changed: tuple[str, ...] = ()
    counted_before: tuple[int, ...] = ()

    def lines(self, game_id: str) -> list[str]:
        out = []
        if self.changed:
            out.append(f"the careers of {', '.join(self.changed)} follow turn(s) of "
                       f"{game_id} (roster.yaml)")
        if self.counted_before:
            out.append(f"turn(s) {', '.join(map(str, self.counted_before))} of {game_id} were "
                       "counted into the careers of an older roster.yaml and are not "
                       "counted again: check those careers by hand")
        return out


def _follow_game(roster: Roster, game: Game, turns: Iterable[int]) -> Roster:
    """``roster`` with the battles of ``game``'s adjudicated ``turns`` as recorded
    now, and without those of turns no longer adjudicated."""
    for turn in turns:
        if game.history.is_adjudicated(turn):
            roster = roster.record(Battle.of_turn(game.id, turn, game.history.events(turn)))
    played = [t for t in game.turn_numbers() if game.history.is_adjudicated(t)]
    return roster.forget(game.id, [0, *played])


def _changed(before: Roster, after: Roster) -> tuple[str, ...]:
    return tuple(pid for pid in sorted(after.players)
                 if before.players.get(pid) != after.players[pid])


def follow(store: GameStore, game_id: str, turns: Iterable[int]) -> RosterChange | None:
    """Bring the roster beside the games (``roster.yaml`` in the games folder) up
    to date with ``turns`` of a Fast Play game, as recorded now (FP16). None when
    there is nothing to follow: no roster, not a game with careers, or none of the
    roster's pupils in it. Raises ``GameFileError`` for a broken roster."""
    path = roster_path(store.dir)
    game = store.open(game_id)
    if not game.ruleset.careers or not path.is_file():
        return None
    turns = list(turns)
    with roster_lock(path):
        before = load_roster(path)
        if not before.pupils.keys() & game.settings.players.keys():
            return None
        after = _follow_game(before, game, turns)
        if after != before:
            save_roster(path, after)
    return RosterChange(_changed(before, after),
                        tuple(t for t in turns if before.counted_before(game_id, t)))


def follow_quietly(store: GameStore, game_id: str, turn: int) -> None:
    """``follow`` one adjudicated turn; a roster that cannot be brought up to date is
    logged (with file and line) and does not undo the turn: ``pbmref roster update``
    counts it once the roster is repaired."""
    try:
        follow(store, game_id, [turn])
    except StoreError as exc:
        log.error("roster not brought up to date with turn %s of %s: %s; repair it, then "
                  "run `pbmref roster update`", turn, game_id, exc)


def update_roster(store: GameStore, path: Path | str) -> tuple[Roster, int]:
    """Read every adjudicated turn of every Fast Play game with a pupil of the roster
    at ``path`` again (``pbmref roster update``): the roster and how many of its
    battles changed. Turns it lacks go last, in the order they were adjudicated."""
    if not Path(path).is_file():
        return Roster(), 0
    with roster_lock(path):
        before = load_roster(path)
        roster = before
        missing: list[tuple[str, str, int]] = []  # (adjudicated at, game, turn)
        known = {b.key for b in before.battles}
        for gid in store.list_games():
            game = store.open(gid)
            if not game.ruleset.careers or not (before.pupils.keys()
                                                & game.settings.players.keys()):
                continue
            played = [t for t in game.turn_numbers() if game.history.is_adjudicated(t)]
            roster = _follow_game(roster, game, [t for t in played if (gid, t) in known])
            missing += [(str((game.history.result(t) or {}).get("adjudicated_at", "")), gid, t)
                        for t in played if (gid, t) not in known]
        for _, gid, turn in sorted(missing):
            roster = roster.record(Battle.of_turn(gid, turn, store.open(gid).history.events(turn)))
        count = len({b.key for b in set(roster.battles) ^ set(before.battles)})
        if roster != before:
            save_roster(path, roster)
    return roster, count


def boards(roster: Roster, store: GameStore) -> dict[str, str]:
    """The board (game) each pupil flies on: a game still going that has the pupil
    as a player, else the last one they flew in, marked ``(over)``."""
    out: dict[str, str] = {}
    going: set[str] = set()
    for gid in dict.fromkeys(b.game for b in roster.battles):
        try:
            game = store.open(gid)
            players = game.settings.players
        except StoreError:
            continue  # moved away or broken: `pbmref check` tells
        over = game.settings.status == "finished"
        for pid, player in players.items():
            if pid not in roster.pupils or not player.active:
                continue
            if not over:
                out[pid] = gid
                going.add(pid)
            elif pid not in going:
                out[pid] = f"{gid} (over)"
    return out


def _ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def render_roster(roster: Roster, where: Mapping[str, str] | None = None) -> list[str]:
    """The roster as plain text lines: each pupil's board (``where``, see
    ``boards``), the pilot flying now and the ones before, and what the pilot
    column means."""
    where = where or {}
    width = max([5, *(len(b) for b in where.values())])
    row = f"{{:<14}} {{:<8}} {{:<{width}}} {{:>6}} {{:>9}} {{:>7}}  {{}}"
    lines = [row.format("pupil", "side", "board", "pilot", "victories", "sorties", "title")]
    for pid in sorted(roster.pupils, key=lambda p: (roster.pupils[p].team, p)):
        rec = roster.players[pid]
        cur = rec.current
        lines.append(row.format(pid, rec.team, where.get(pid, "-"), _ordinal(cur.pilot),
                                cur.victories, cur.sorties, cur.title).rstrip())
        for old in rec.careers[:-1]:
            lines.append(row.format("", "", "", _ordinal(old.pilot), old.victories,
                                    old.sorties, f"out of action ({old.closed})"
                                    + (f", {old.title}" if old.title else "")))
    return [*lines, "", "pilot: which of the pupil's pilots flies now; one put out of action "
                        "(FP9) closes its", "career, and the next starts with no victories "
                        "(FP16)."]
