"""A Fast Play class: up to 24 pilots in two sides, on as many boards as needed.

A class template (YAML, read safely) names the pilots and their sides; one
board holds ``per_board`` pilots (the seed's 4' mat holds eight), so a class
with more pilots plays several boards at once, each a separate game
(``<class>-1``, ``<class>-2`` ...). Pilots are dealt so that every board has
the sides as even as they can be. Between turns a returning pilot (left,
down or out: rule FP14) may be sent to another board, the one where the
sides are most even: the seed's "air traffic controller".

Template (``class.example.yaml`` beside this module is the full example,
with every key explained)::

    class: 7b
    title: Class 7B
    per_board: 8
    turns: 10
    board: {files: 10, ranks: 10}
    settings: {critical_hits: false}
    pilots:
      anna: {name: Anna, team: Germans, address: anna@school.example}
      bert: {name: Bert, team: Allies, computer: true}
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

from pbmref.base.yamlfile import YamlDoc, read_yaml
from pbmref.gm import actions
from pbmref.gm.newgame import new_game
from pbmref.gm.roster import (
    Roster,
    apply_turn,
    load_roster,
    record_game_start,
    roster_lock,
    save_roster,
)
from pbmref.rules.fastplay.autopilot import orders_entry
from pbmref.rules.fastplay.position import position_from_dict
from pbmref.rules.plaindata import mapping, whole
from pbmref.rulesets import PlayerSpec
from pbmref.rulesets.base import Outcome
from pbmref.rulesets.fastplay.ruleset import FastPlayRuleset
from pbmref.store import GameStore
from pbmref.store.errors import DataError
from pbmref.store.settings import parse_early_delay

__all__ = [
    "ClassGame", "ClassPilot", "ClassTemplate", "CreatedBoard", "MAX_PILOTS", "Transfer",
    "choose_board", "create_class",
    "load_template", "new_class", "plan_boards", "play_class", "rebalance", "side_counts",
    "starting_position", "template_from_dict",
]

MAX_PILOTS = 24
TEAMS = ("Germans", "Allies")
_KEYS = {"class", "title", "per_board", "turns", "board", "settings", "pilots", "seed",
         "turn_length", "timezone", "early_delay"}


@dataclass(frozen=True)
class ClassPilot:
    id: str
    name: str
    team: str
    address: str = ""
    computer: bool = False


@dataclass(frozen=True)
class ClassTemplate:
    id: str
    pilots: tuple[ClassPilot, ...]
    title: str = ""
    per_board: int = 8
    turns: int = 10
    files: int = 10
    ranks: int = 10
    settings: Mapping[str, object] = field(default_factory=dict)
    seed: int = 0
    turn_length: str = "48h"
    timezone: str = "UTC"
    early_delay: str | None = None  # game.yaml's early_delay of each board; None: Fast Play's

    def pilot(self, pid: str) -> ClassPilot:
        for p in self.pilots:
            if p.id == pid:
                return p
        raise KeyError(pid)


def template_from_dict(data: Mapping[str, object]) -> ClassTemplate:
    """Check a class template; raises ``DataError`` with the key path of a bad value."""
    if not isinstance(data, Mapping):
        raise DataError((), "a class template is a mapping: class, pilots, ...")
    for key in data:
        if key not in _KEYS:
            raise DataError((key,), f"unknown key {key!r}; known keys: {', '.join(sorted(_KEYS))}")
    cid = data.get("class")
    if not isinstance(cid, str | int) or isinstance(cid, bool) or not str(cid).strip():
        raise DataError(("class",), "the class needs an id, e.g. class: 7b")
    pilots = _pilots(data)
    board = data.get("board") or {}
    if not isinstance(board, Mapping):
        raise DataError(("board",), "expected {files: 10, ranks: 10}")
    settings = data.get("settings") or {}
    if not isinstance(settings, Mapping):
        raise DataError(("settings",), "expected a mapping of Fast Play settings")
    files = board.get("files", 10)
    ranks = board.get("ranks", 10)
    for key, value in (("files", files), ("ranks", ranks)):
        if isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= 26:
            raise DataError(("board", key), f"{key} must be a whole number from 2 to 26")
    return ClassTemplate(
        id=str(cid).strip(), pilots=tuple(pilots), title=str(data.get("title", "") or cid),
        per_board=_number(data, "per_board", 8, 2), turns=_number(data, "turns", 10, 0),
        files=files, ranks=ranks, settings=dict(settings), seed=_number(data, "seed", 0, 0),
        turn_length=str(data.get("turn_length", "48h")),
        timezone=str(data.get("timezone", "UTC")), early_delay=_early_delay(data))


def _early_delay(data: Mapping[str, Any]) -> str | None:
    """The ``early_delay`` key (``5m``; ``0``: at once), checked."""
    if data.get("early_delay") is None:
        return None
    try:
        parse_early_delay(data["early_delay"])
    except ValueError as exc:
        raise DataError(("early_delay",), f"{exc} (0: at once)") from None
    return str(data["early_delay"])


def _pilots(data: Mapping[str, object]) -> list[ClassPilot]:
    """The ``pilots`` key: at most ``MAX_PILOTS``, somebody on each side (FP1)."""
    raw = data.get("pilots")
    if not isinstance(raw, Mapping) or not raw:
        raise DataError(("pilots",), "the class needs pilots: id: {name, team, address}")
    if len(raw) > MAX_PILOTS:
        raise DataError(("pilots",), f"{len(raw)} pilots; a class has at most {MAX_PILOTS}")
    pilots = [_pilot(pid, p) for pid, p in raw.items()]
    for team in TEAMS:
        if not any(p.team == team for p in pilots):
            raise DataError(("pilots",), f"nobody flies for the {team}: a class has two sides",
                            "FP1")
    return pilots


def _pilot(pid: Any, p: Any) -> ClassPilot:
    """One pilot: a side (FP1), and a mail address unless the computer flies it."""
    path: tuple[str | int, ...] = ("pilots", str(pid))
    if not isinstance(p, Mapping):
        raise DataError(path, "expected name, team and address (or computer: true)")
    team = str(p.get("team", ""))
    if team not in TEAMS:
        raise DataError((*path, "team"), f"{team!r} is not a side: Germans or Allies", "FP1")
    computer = p.get("computer", False)
    if not isinstance(computer, bool):
        raise DataError((*path, "computer"), "computer must be true or false")
    address = str(p.get("address", "") or "")
    if not address and not computer:
        raise DataError((*path, "address"), "a pilot needs a mail address (or computer: true)")
    return ClassPilot(str(pid), str(p.get("name", pid)), team, address, computer)


def _number(data: Mapping[str, object], key: str, default: int, low: int) -> int:
    """A whole number of at least ``low`` (``per_board``, ``turns``, ``seed``)."""
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise DataError((key,), f"{key} must be a whole number of at least {low}")
    return value


def example_template() -> str:
    """The commented example class file (``pbmref new-class --example``)."""
    return (resources.files(__package__) / "class.example.yaml").read_text(encoding="utf-8")


def load_template(path: Path | str) -> ClassTemplate:
    """Read a class template file; errors name the file and line (GameFileError)."""
    doc = read_yaml(path)
    data = doc.mapping("a class template: class, pilots, ...")
    try:
        return template_from_dict(data)
    except DataError as exc:
        raise doc.error(exc.path, exc.message, exc.rule) from None


def plan_boards(template: ClassTemplate) -> list[list[str]]:
    """Deal the pilots over ``ceil(n / per_board)`` boards, each side spread evenly."""
    n = max(1, math.ceil(len(template.pilots) / template.per_board))
    boards: list[list[str]] = [[] for _ in range(n)]
    germans = [p.id for p in template.pilots if p.team == "Germans"]
    allies = [p.id for p in template.pilots if p.team == "Allies"]
    for i, pid in enumerate(germans):
        boards[i % n].append(pid)
    ally_count = [0] * n
    for pid in allies:
        k = min(range(n), key=lambda b: (ally_count[b] - (len(boards[b]) - ally_count[b]),
                                         len(boards[b]), b))
        boards[k].append(pid)
        ally_count[k] += 1
    return boards


def _spread(count: int, files: int) -> list[int]:
    if count <= 0:
        return []
    return [min(files - 1, int((i + 0.5) * files / count)) for i in range(count)]


def starting_position(template: ClassTemplate, players: Sequence[str],
                      roster: Roster | None = None) -> dict[str, object]:
    """Turn 1 of one board (FP2): Germans on the north edge facing S, Allies on
    the south edge facing N, spread over the files; victories from the roster."""
    aircraft: dict[str, object] = {}
    ace = whole(template.settings.get("ace_victories", 5), ("settings", "ace_victories"), 1)
    for team, number, heading in (("Germans", template.ranks, "S"), ("Allies", 1, "N")):
        mine = [p for p in players if template.pilot(p).team == team]
        for pid, f in zip(mine, _spread(len(mine), template.files), strict=True):
            kills = roster.victories(pid) if roster is not None else 0
            entry: dict[str, object] = {"team": team, "hex": f"{chr(ord('A') + f)}{number}",
                                     "heading": heading, "kills": kills, "ace": kills >= ace}
            if kills >= 2 * ace:
                entry["double_ace"] = True
            aircraft[pid] = entry
    settings = {k: v for k, v in template.settings.items() if k not in ("files", "ranks")}
    if template.turns:
        settings["turns"] = template.turns
    position: dict[str, object] = {
        "ruleset": "fastplay", "turn": 1,
        "board": {"files": template.files, "ranks": template.ranks},
        "aircraft": aircraft,
    }
    if settings:
        position["settings"] = settings
    return position


@dataclass(frozen=True)
class ClassGame:
    game_id: str
    players: tuple[str, ...]
    position: dict[str, object]


def new_class(template: ClassTemplate, roster: Roster | None = None) -> list[ClassGame]:
    """The games of a class: one per board, ids ``<class>-1`` ..."""
    games = []
    for i, players in enumerate(plan_boards(template), 1):
        games.append(ClassGame(f"{template.id}-{i}", tuple(players),
                               starting_position(template, players, roster)))
    return games


@dataclass(frozen=True)
class CreatedBoard:
    """One board of a class made into a game: its id, the pilots of each side
    and the passwords to mail once."""

    game_id: str
    sides: Mapping[str, int]
    passwords: Mapping[str, str]


def create_class(store: GameStore, template: ClassTemplate, roster_file: Path, *,
                 deadline: datetime | None = None, passwords: bool = True,
                 refused_addresses: Sequence[str] = (), now: datetime | None = None,
                 observers: Sequence[str] = (),
                 early_delay: str | None = None) -> list[CreatedBoard]:
    """Make the games of a class (``new_class``: one per board), each pupil
    registered in the roster of careers with the victories they bring (FP16);
    nothing is made when one of the games exists already. ``early_delay``
    (``--early-delay``) overrides the class file's."""
    roster = load_roster(roster_file)  # the victories each pupil starts with (FP16)
    for p in template.pilots:
        roster = roster.register(p.id, p.name, p.team)
    games = new_class(template, roster)
    clash = [g.game_id for g in games if store.exists(g.game_id)]
    if clash:
        raise ValueError(f"game {clash[0]} exists already in {store.dir}")
    made = []
    for g in games:
        players = [PlayerSpec(pid, (p.address,) if p.address else (), p.name, p.computer)
                   for pid in g.players for p in (template.pilot(pid),)]
        result = new_game(
            store, g.game_id, players, title=f"{template.title} (board {g.game_id})",
            ruleset="fastplay", position=g.position, timezone=template.timezone,
            deadline=deadline, turn_length=template.turn_length, passwords=passwords,
            early_delay=early_delay if early_delay is not None else template.early_delay,
            refused_addresses=refused_addresses, now=now, observers=observers,
            seed=(template.seed * 100 + int(g.game_id.rsplit("-", 1)[1])) if template.seed
            else None)
        sides = dict.fromkeys(TEAMS, 0)
        for pid in g.players:
            sides[template.pilot(pid).team] += 1
        made.append(CreatedBoard(g.game_id, sides, dict(result.passwords)))
    with roster_lock(roster_file):  # read again: a game may have been adjudicated meanwhile
        roster = load_roster(roster_file)
        for p in template.pilots:
            roster = roster.register(p.id, p.name, p.team)
        for g in games:
            roster = record_game_start(roster, g.game_id, g.players)
        save_roster(roster_file, roster)
    return made


def _aircraft(position: Mapping[str, object]) -> dict[str, Mapping[str, object]]:
    """A Fast Play position's planes by pilot, as its plain data keeps them."""
    planes = mapping(position.get("aircraft"), ("aircraft",))
    return {pid: mapping(a, ("aircraft", pid)) for pid, a in planes.items()}


def side_counts(position: Mapping[str, object]) -> dict[str, int]:
    """Planes of each side still in the game (not removed for NMR)."""
    counts = dict.fromkeys(TEAMS, 0)
    for a in _aircraft(position).values():
        if a.get("state", "flying") != "removed":
            counts[str(a["team"])] = counts.get(str(a["team"]), 0) + 1
    return counts


def _imbalance(counts: Mapping[str, int]) -> int:
    return abs(counts.get("Germans", 0) - counts.get("Allies", 0))


def choose_board(positions: Mapping[str, Mapping[str, object]], team: str) -> str:
    """The board where one more pilot of ``team`` leaves the sides most even
    (ties: the board with fewer planes, then the first by id)."""
    def key(gid: str) -> tuple[int, int, str]:
        counts = side_counts(positions[gid])
        counts[team] = counts.get(team, 0) + 1
        return _imbalance(counts), sum(counts.values()), gid
    return min(positions, key=key)


@dataclass(frozen=True)
class Transfer:
    player: str
    from_game: str
    to_game: str


def rebalance(positions: Mapping[str, Mapping[str, object]]
              ) -> tuple[dict[str, dict[str, object]], list[Transfer]]:
    """Send returning pilots (left, down, out: FP14) to the board where the sides
    are most even. A pilot moves only when that makes the less even of the two
    boards more even (or, as even, the two together); the positions are new
    dicts, the inputs untouched."""
    planes = {gid: _aircraft(pos) for gid, pos in positions.items()}
    moves: list[Transfer] = []
    for gid in sorted(positions):
        for pid, plane in sorted(_aircraft(positions[gid]).items()):
            if plane.get("state") not in ("left", "down", "out"):
                continue
            if pid not in planes[gid]:
                continue
            team = str(plane["team"])
            without = {g: {**positions[g], "aircraft": {k: v for k, v in p.items() if k != pid}}
                       for g, p in planes.items()}
            target = choose_board(without, team)
            if target == gid:
                continue
            stay = side_counts(without[gid])
            stay[team] += 1
            go = side_counts(without[target])
            go[team] += 1
            # Better when the worse of the two boards gets more even (then the sum).
            b = (_imbalance(stay), _imbalance(side_counts(without[target])))
            a = (_imbalance(side_counts(without[gid])), _imbalance(go))
            if (max(a), sum(a)) >= (max(b), sum(b)):
                continue
            record = dict(planes[gid].pop(pid))
            record.pop("hex", None)
            record.pop("duel", None)
            planes[target][pid] = record
            moves.append(Transfer(pid, gid, target))
    return {gid: {**pos, "aircraft": planes[gid]} for gid, pos in positions.items()}, moves


def apply_transfers(store: GameStore, transfers: Sequence[Transfer], *,
                    now: datetime | None = None) -> list[str]:
    """Move returning pilots between the class's game folders (``GameStore``).

    For each transfer the pilot's plane record (without hex) and its player
    entry (addresses, password hash) are added to the target game first and
    then taken out of the source, each file checked before it is written and
    the old one kept aside. A pilot whose orders for the open turn are already
    in force in the source game is not moved (they were written for that
    board). Each game records the move in its open turn's ``gm.yaml``
    (``pbmref.gm.actions``). Returns one plain line per transfer saying what
    was done.
    """
    when = now or datetime.now(UTC)
    done: list[str] = []
    for t in transfers:
        src, dst = store.open(t.from_game), store.open(t.to_game)
        with src.lock(), dst.lock():
            src.reload()
            dst.reload()
            if t.player in src.book.in_force():
                done.append(f"{t.player}: not moved, orders for turn {src.turn} of "
                            f"{t.from_game} are in force")
                continue
            record = dict(mapping(mapping(src.position.get("aircraft"), ("aircraft",))
                                  .get(t.player), ("aircraft", t.player)))
            if record.get("state") not in ("left", "down", "out"):
                done.append(f"{t.player}: not moved, the plane is not returning")
                continue
            record.pop("hex", None)
            record.pop("duel", None)
            player = dict(src.settings.players[t.player].__dict__)
            entry = {"name": player["name"], "addresses": list(player["addresses"]),
                     "computer": player["computer"], "status": player["status"]}
            if player.get("password_hash"):
                entry["password_hash"] = player["password_hash"]

            def add(data: Any, entry: dict[str, object] = entry, pid: str = t.player) -> None:
                data["players"][pid] = entry

            def remove(data: Any, pid: str = t.player) -> None:
                del data["players"][pid]

            for game, change in ((dst, "add"), (src, "remove")):
                before = game.settings
                position = dict(game.position)
                aircraft = dict(mapping(position.get("aircraft"), ("aircraft",)))
                if change == "add":
                    aircraft[t.player] = record
                else:
                    aircraft.pop(t.player, None)
                position["aircraft"] = aircraft
                if change == "add":  # the player first, then the plane
                    game.update_settings(add)
                    game.reload()
                game.check_position(
                    YamlDoc(game.turn_dir(game.turn) / "position.yaml", "", position),
                    game.turn)
                game.history.replace(game.turn, "position.yaml",
                                     game.history.position_text(game.turn, position))
                if change == "remove":  # the plane first, then the player
                    game.update_settings(remove)
                    actions.record(game, "transfer-out", before, at=when, player=t.player,
                                   to_game=t.to_game)
                else:  # recorded, so that a re-run of the board puts the plane back
                    actions.record(game, "transfer-in", before, at=when, player=t.player,
                                   from_game=t.from_game, aircraft=record)
            done.append(f"{t.player}: moved from {t.from_game} to {t.to_game}")
    return done


OrdersFor = Callable[[str, Mapping[str, object], str, random.Random], dict[str, object]]


def _autopilot_orders(game_id: str, position: Mapping[str, object], pilot: str,
                      rng: random.Random) -> dict[str, object]:
    return orders_entry(position_from_dict(position), pilot, rng)


@dataclass
class ClassRun:
    """What ``play_class`` did: final positions, every turn's events, transfers."""

    positions: dict[str, dict[str, object]]
    events: dict[str, list[list[dict[str, object]]]]
    transfers: list[tuple[int, Transfer]]
    roster: Roster


def _play_turn(ruleset: FastPlayRuleset, gid: str, pos: dict[str, object], get_orders: OrdersFor,
               rng: random.Random, seed: int) -> Outcome:
    """One turn of board ``gid``: the orders of every pilot still in it, played;
    the position after it says when the game is over, and who won."""
    orders = {pid: get_orders(gid, pos, pid, rng)
              for pid, a in sorted(_aircraft(pos).items()) if a.get("state") != "removed"}
    outcome = ruleset.adjudicate(pos, orders, seed)
    if outcome.game_over:
        outcome.position["game_over"] = True
        outcome.position["winners"] = list(outcome.winners)
    return outcome


def play_class(template: ClassTemplate, roster: Roster, *, turns: int | None = None,
               seed: int = 0, orders_for: OrdersFor | None = None) -> ClassRun:
    """Play every board of the class for ``turns`` turns (default: the template's),
    in step, with computer pilots (or ``orders_for``); the roster is kept up to
    date and returning pilots are rebalanced between turns."""
    ruleset = FastPlayRuleset()
    for p in template.pilots:
        roster = roster.register(p.id, p.name, p.team)
    games = new_class(template, roster)
    positions = {g.game_id: g.position for g in games}
    for g in games:
        roster = record_game_start(roster, g.game_id, g.players)
    events: dict[str, list[list[dict[str, object]]]] = {g.game_id: [] for g in games}
    transfers: list[tuple[int, Transfer]] = []
    rng = random.Random(seed)
    get_orders = orders_for or _autopilot_orders
    n_turns = turns if turns is not None else (template.turns or 10)
    for turn in range(1, n_turns + 1):
        for gid in sorted(positions):
            pos = positions[gid]
            if pos.get("game_over"):
                continue
            outcome = _play_turn(ruleset, gid, pos, get_orders, rng,
                                 seed * 1000 + turn * 31 + len(gid))
            positions[gid] = outcome.position
            events[gid].append(list(outcome.events))
            roster = apply_turn(roster, gid, turn, outcome.events)
        live = {g: p for g, p in positions.items() if not p.get("game_over")}
        if len(live) > 1:
            moved, done = rebalance(live)
            positions.update(moved)
            transfers.extend((turn, t) for t in done)
    return ClassRun(positions, events, transfers, roster)


__all__ += ["ClassRun", "OrdersFor", "apply_transfers"]
