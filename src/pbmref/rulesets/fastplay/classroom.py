"""A Fast Play class: up to 24 pilots in two sides, on as many boards as needed.

A class template (YAML, read safely) names the pilots and their sides; one
board holds ``per_board`` pilots (the seed's 4' mat holds eight), so a class
with more pilots plays several boards at once, each a separate game
(``<class>-1``, ``<class>-2`` ...). Pilots are dealt so that every board has
the sides as even as they can be. Between turns a returning pilot (left,
down or out: rule FP14) may be sent to another board, the one where the
sides are most even: the seed's "air traffic controller".

This module is Fast Play's ``Classroom`` (``FastPlayRuleset.classroom``):
the class file, the boards and the positions. The game master's side
(``pbmref.gm.classroom``) makes the boards into games, moves pilots between
the game folders and keeps the roster of careers (FP16).

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
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbmref.base.errors import DataError
from pbmref.base.times import parse_early_delay
from pbmref.base.yamlfile import read_yaml
from pbmref.rules.eventdata import Event
from pbmref.rules.fastplay.autopilot import orders_entry
from pbmref.rules.fastplay.position import position_from_dict
from pbmref.rules.plaindata import mapping, whole
from pbmref.rulesets.base import Outcome
from pbmref.rulesets.classes import ClassGame, ClassPilot, Classroom, OrdersFor, Transfer

if TYPE_CHECKING:
    from pbmref.rulesets.fastplay.ruleset import FastPlayRuleset

__all__ = [
    "MAX_PILOTS", "TEAMS", "ClassGame", "ClassPilot", "ClassTemplate", "FastPlayClassroom",
    "Transfer", "choose_board", "load_template", "new_class", "plan_boards", "rebalance",
    "side_counts", "starting_position", "template_from_dict",
]

MAX_PILOTS = 24
TEAMS = ("Germans", "Allies")
_KEYS = {"class", "title", "per_board", "turns", "board", "settings", "pilots", "seed",
         "turn_length", "timezone", "early_delay"}


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


def _early_delay(data: Mapping[str, object]) -> str | None:
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
                      victories: Callable[[str], int] | None = None) -> dict[str, object]:
    """Turn 1 of one board (FP2): Germans on the north edge facing S, Allies on
    the south edge facing N, spread over the files; each pilot's victories as
    the roster counts them (``victories``, FP16)."""
    aircraft: dict[str, object] = {}
    ace = whole(template.settings.get("ace_victories", 5), ("settings", "ace_victories"), 1)
    for team, number, heading in (("Germans", template.ranks, "S"), ("Allies", 1, "N")):
        mine = [p for p in players if template.pilot(p).team == team]
        for pid, f in zip(mine, _spread(len(mine), template.files), strict=True):
            kills = victories(pid) if victories is not None else 0
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


def new_class(template: ClassTemplate,
              victories: Callable[[str], int] | None = None) -> list[ClassGame]:
    """The games of a class: one per board, ids ``<class>-1`` ..."""
    games = []
    for i, players in enumerate(plan_boards(template), 1):
        games.append(ClassGame(f"{template.id}-{i}", tuple(players),
                               starting_position(template, players, victories)))
    return games


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
            planes[target][pid] = _off_the_board(planes[gid].pop(pid))
            moves.append(Transfer(pid, gid, target))
    return {gid: {**pos, "aircraft": planes[gid]} for gid, pos in positions.items()}, moves


def _off_the_board(plane: Mapping[str, object]) -> dict[str, object]:
    """A returning plane's record as it goes to another board: no hex, no duel."""
    return {k: v for k, v in plane.items() if k not in ("hex", "duel")}


def _autopilot_orders(game_id: str, position: Mapping[str, object], pilot: str,
                      rng: random.Random) -> dict[str, object]:
    return orders_entry(position_from_dict(position), pilot, rng)


class FastPlayClassroom(Classroom[ClassTemplate]):
    """Fast Play's classes, as the game master's side asks for them."""

    teams = TEAMS

    def __init__(self, rules: FastPlayRuleset) -> None:
        self.rules = rules
        self.ruleset = rules.name

    def example_template(self) -> str:
        return (resources.files(__package__) / "class.example.yaml").read_text(encoding="utf-8")

    def template_from_dict(self, data: Mapping[str, object]) -> ClassTemplate:
        return template_from_dict(data)

    def load_template(self, path: Path | str) -> ClassTemplate:
        return load_template(path)

    def new_class(self, template: ClassTemplate,
                  victories: Callable[[str], int] | None = None) -> list[ClassGame]:
        return new_class(template, victories)

    def rebalance(self, positions: Mapping[str, Mapping[str, object]]
                  ) -> tuple[dict[str, dict[str, object]], list[Transfer]]:
        return rebalance(positions)

    def returning(self, position: Mapping[str, object], pilot: str) -> dict[str, object] | None:
        plane = mapping(mapping(position.get("aircraft"), ("aircraft",)).get(pilot),
                        ("aircraft", pilot))
        return _off_the_board(plane) if plane.get("state") in ("left", "down", "out") else None

    def with_pilot(self, position: Mapping[str, object], pilot: str,
                   record: Mapping[str, object]) -> dict[str, object]:
        aircraft = dict(mapping(position.get("aircraft"), ("aircraft",)))
        aircraft[pilot] = dict(record)
        return {**position, "aircraft": aircraft}

    def without_pilot(self, position: Mapping[str, object], pilot: str) -> dict[str, object]:
        aircraft = dict(mapping(position.get("aircraft"), ("aircraft",)))
        aircraft.pop(pilot, None)
        return {**position, "aircraft": aircraft}

    def play_turn(self, game_id: str, position: Mapping[str, object], rng: random.Random,
                  seed: int, orders_for: OrdersFor | None = None) -> Outcome[Event]:
        get_orders = orders_for or _autopilot_orders
        orders = {pid: get_orders(game_id, position, pid, rng)
                  for pid, a in sorted(_aircraft(position).items())
                  if a.get("state") != "removed"}
        state = self.rules.decode(position)
        outcome = self.rules.adjudicate(position, self.rules.decode_turn(state, orders), seed,
                                        state=state)
        if outcome.game_over:
            outcome.position["game_over"] = True
            outcome.position["winners"] = list(outcome.winners)
        return outcome

    def plain_events(self, events: Sequence[Event],
                     position: Mapping[str, object]) -> list[dict[str, object]]:
        return self.rules.encode_events(events, position)
