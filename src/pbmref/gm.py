"""The game master's operations (layer 5), on top of the game store.

Creating games, checking them, adjudicating a turn exactly once, re-running
turns after a dispute, and changing deadlines, players and observers. The
command line (``pbmref.cli.gm``) is a thin shell around these functions; the
referee calls ``adjudicate`` for every due game.
"""

from __future__ import annotations

import difflib
import importlib
import inspect
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pbmref.base.files import set_aside
from pbmref.base.times import format_duration, parse_datetime, parse_duration
from pbmref.base.yamlfile import YamlDoc, dump_yaml
from pbmref.reports.model import TurnReport
from pbmref.rulesets import Outcome, Ruleset
from pbmref.store import (
    Game,
    GameFileError,
    GameStore,
    StoreError,
    TurnError,
    TurnRecord,
    check_id,
    derive_turn_seed,
    hash_password,
    new_password,
    next_deadline_after,
)
from pbmref.store.game import RESULT_FILES
from pbmref.store.settings import settings_to_dict

__all__ = [
    "CheckResult",
    "FileChange",
    "GameStatus",
    "NewGame",
    "PlayerSpec",
    "RerunResult",
    "add_observer",
    "adjudicate",
    "build_report",
    "check",
    "extend",
    "kick",
    "new_game",
    "pause",
    "render_report_text",
    "replace_player",
    "rerun",
    "resume",
    "status",
]

AIRFIELD_ORDER = ("N", "SE", "SW", "NE", "S", "NW")  # spread the first players out


# ------------------------------------------------------------------ new game


@dataclass(frozen=True)
class PlayerSpec:
    """A player of a new game."""

    id: str
    addresses: tuple[str, ...] = ()
    name: str = ""
    computer: bool = False
    airfield: str | None = None  # tweedekker: own airfield (B5); default spread out
    power: str | None = None  # diplomacy/dirigible: the power played (AUS ... TUR)


@dataclass(frozen=True)
class NewGame:
    game: Game
    passwords: dict[str, str]  # player id -> password, for the referee to mail once
    placement: str  # how the zeppelin was placed, in words


def _place_controlled(position: dict[str, Any], seed: int, length: int) -> tuple[dict[str, Any],
                                                                               str]:
    """Put the controlled zeppelin on the board with the engine's placement (Z6)."""
    from pbmref.rules.tweedekker.position import position_from_dict, position_to_dict

    state = position_from_dict(position)
    try:
        from pbmref.rules.dice import Dice
        from pbmref.rules.tweedekker.engine import place_controlled_zeppelin
    except ImportError:  # placeholder until the engine has it: nose on the centre (Z6)
        from pbmref.rules.hexgrid import Heading, HexBoard

        roll = random.Random(seed).randint(1, 6)
        heading = list(Heading)[roll - 1]
        board = HexBoard(state.settings.board_side)
        hexes = [board.centre] + ([board.centre.step(heading.opposite())] if length == 2 else [])
        position = dict(position)
        position["zeppelins"] = {"Z": {
            "hexes": [board.name(h) for h in hexes], "heading": heading.value,
            "controlled": True}}
        return position, f"placeholder placement: nose on the centre, heading die {roll}"
    dice = Dice(seed)
    placed = place_controlled_zeppelin(state, dice, length)
    rolls = dice.values()
    out = position_to_dict(placed)
    z = next(iter(out.get("zeppelins", {}).values()))
    return out, (f"controlled zeppelin placed by the referee (Z6): nose on {z['hexes'][0]}, "
                 f"heading {z['heading']} (die {rolls[0] if rolls else '?'})")


def _tweedekker_position(
    players: Sequence[PlayerSpec], *, board_side: int, wind: Mapping[str, Any] | None,
    clouds: Sequence[Mapping[str, Any]], zeppelin: str | None, zeppelin_length: int,
    zeppelin_hexes: Sequence[str] | None, zeppelin_heading: str | None,
    rule_settings: Mapping[str, Any] | None, seed: int,
) -> tuple[dict[str, Any], str]:
    from pbmref.rules.hexgrid import Heading, HexBoard
    from pbmref.rules.tweedekker.position import position_from_dict, position_to_dict

    board = HexBoard(board_side)
    free = [a for a in AIRFIELD_ORDER if a not in {p.airfield for p in players}]
    aircraft: dict[str, Any] = {}
    unplaced = 0
    for p in players:
        # Ruling (B5): six airfields; with more pilots than free airfields the
        # airfields are shared in turn, each pilot still owning one.
        if p.airfield:
            field_name = p.airfield
        else:
            pool = free or list(AIRFIELD_ORDER)
            field_name = pool[unplaced % len(pool)]
            unplaced += 1
        corner = Heading.parse(field_name)
        aircraft[p.id] = {"hex": board.name(board.corner(corner)), "state": "landed",
                          "airfield": corner.value}
    position: dict[str, Any] = {
        "ruleset": "tweedekker", "turn": 1, "board": {"side": board_side},
        "settings": dict(rule_settings or {}),
        "wind": dict(wind or {"to": "N", "strength": 0, "changes": False}),
        "clouds": [dict(c) for c in clouds],
        "aircraft": aircraft,
    }
    placement = "no zeppelin"
    if zeppelin == "controlled":
        position, placement = _place_controlled(position, derive_turn_seed(seed, 0),
                                                zeppelin_length)
    elif zeppelin == "drifting":
        if zeppelin_hexes:
            hexes = list(zeppelin_hexes)
            heading = zeppelin_heading or "N"
        else:  # the centre, with a rolled heading, like a controlled one (Z1, Z6)
            roll = random.Random(derive_turn_seed(seed, 0)).randint(1, 6)
            h = list(Heading)[roll - 1]
            nose = board.centre
            hexes = [board.name(nose)] + (
                [board.name(nose.step(h.opposite()))] if zeppelin_length == 2 else [])
            heading = h.value
        position["zeppelins"] = {"Z": {"hexes": hexes, "heading": heading,
                                       "controlled": False}}
        placement = f"drifting zeppelin on {', '.join(hexes)} heading {heading} (Z3)"
    elif zeppelin is not None:
        raise ValueError(f"zeppelin must be controlled, drifting or none, not {zeppelin!r}")
    # the canonical form: every value written out, checked by the rules' own codec
    return position_to_dict(position_from_dict(position)), placement


# ---- Diplomacy and Dirigible Diplomacy (issue 10): powers and the opening position

DIPLOMACY_RULESETS = ("diplomacy", "dirigible")


def assign_powers(players: Sequence[PlayerSpec]) -> dict[str, str]:
    """Player id -> power (AUS ENG FRA GER ITA RUS TUR).

    A player keeps the power named by ``power`` (or by an id or ``airfield`` that
    is a power code); the others get the free powers in the usual order. Powers
    nobody plays stay in civil disorder (their units hold, DD3).
    """
    from pbmref.rules.diplomacy import POWERS

    if len(players) > len(POWERS):
        raise ValueError(f"Diplomacy has {len(POWERS)} powers; {len(players)} players given")
    out: dict[str, str] = {}
    for p in players:
        wish = next((str(w).upper() for w in (p.power, p.id, p.airfield)
                     if w and str(w).upper() in POWERS), None)
        for named in (p.power, p.airfield):  # the CLI's fourth field names the power
            if named and str(named).upper() not in POWERS:
                raise ValueError(f"{p.id}: {named!r} is not a power; powers: "
                                 f"{', '.join(POWERS)}")
        if wish is not None:
            if wish in out.values():
                raise ValueError(f"{wish} is given to two players")
            out[p.id] = wish
    free = [pw for pw in POWERS if pw not in out.values()]
    for p in players:
        if p.id not in out:
            out[p.id] = free.pop(0)
    return {p.id: out[p.id] for p in players}


def _diplomacy_position(players: Sequence[PlayerSpec], ruleset: str,
                        position: Mapping[str, Any] | None) -> tuple[dict[str, Any], str]:
    """The engine's opening position (DD4: Spring 1901; DD12: Winter 1900 builds),
    or the GM's ``position``, with the players' powers under ``players``."""
    from pbmref.rules.diplomacy.state import Variant, initial_position
    from pbmref.scenario_diplomacy import position_to_dict

    if position is None:
        out = position_to_dict(initial_position(Variant(ruleset)))
        how = f"opening position of {ruleset} ({out['phase']})"
    else:
        out = dict(position)
        out.setdefault("ruleset", ruleset)
        if out["ruleset"] != ruleset:
            raise ValueError(f"the position is for {out['ruleset']}, the game is {ruleset}")
        how = f"position given by the game master ({out.get('phase', '?')})"
    if not out.get("players"):
        out["players"] = assign_powers(players)
    powers = ", ".join(f"{pid} {pw}" for pid, pw in out["players"].items())
    return out, f"{how}; powers: {powers}"


def open_phase(game: Game) -> str | None:
    """The open Diplomacy phase (``S1901M``), or None for other rulesets: the
    name players see for a Diplomacy turn (reports, replies, STATUS)."""
    if game.settings.ruleset not in DIPLOMACY_RULESETS:
        return None
    phase = game.position.get("phase")
    return str(phase) if phase else None


def new_game(
    store: GameStore,
    game_id: str,
    players: Sequence[PlayerSpec],
    *,
    title: str = "",
    ruleset: str = "tweedekker",
    board_side: int = 10,
    wind: Mapping[str, Any] | None = None,
    clouds: Sequence[Mapping[str, Any]] = (),
    zeppelin: str | None = "controlled",
    zeppelin_length: int = 2,
    zeppelin_hexes: Sequence[str] | None = None,
    zeppelin_heading: str | None = None,
    rule_settings: Mapping[str, Any] | None = None,
    position: Mapping[str, Any] | None = None,
    timezone: str = "UTC",
    deadline: datetime | None = None,
    turn_length: str | timedelta = "48h",
    reminder_hours: float = 12,
    early_adjudication: bool = True,
    anonymous: bool = False,
    passwords: bool = True,
    observers: Sequence[str] = (),
    seed: int | None = None,
    now: datetime | None = None,
) -> NewGame:
    """Create a game folder; returns the game and the players' new passwords.

    Tweedekker positions are built here (aircraft landed on their airfields,
    L1; the zeppelin controlled (Z6) or drifting (Z3)); for other rulesets
    pass ``position`` (scenario schema).
    """
    check_id(game_id)
    if not players:
        raise ValueError("a game needs at least one player")
    for p in players:
        check_id(p.id, "player id")
    now = now or datetime.now(UTC)
    seed = seed if seed is not None else random.SystemRandom().randrange(1, 2**31)
    length = turn_length if isinstance(turn_length, timedelta) else parse_duration(turn_length)
    if ruleset in DIPLOMACY_RULESETS:  # issue 10: powers, opening position
        position, placement = _diplomacy_position(players, ruleset, position)
    elif position is None:
        if ruleset != "tweedekker":
            raise ValueError(f"new-game builds tweedekker positions; for {ruleset} give the "
                             "position of turn 1 (a scenario file)")
        position, placement = _tweedekker_position(
            players, board_side=board_side, wind=wind, clouds=clouds, zeppelin=zeppelin,
            zeppelin_length=zeppelin_length, zeppelin_hexes=zeppelin_hexes,
            zeppelin_heading=zeppelin_heading, rule_settings=rule_settings, seed=seed)
    else:
        placement = "position given by the game master"
    pw: dict[str, str] = {}
    player_data: dict[str, Any] = {}
    for p in players:
        entry: dict[str, Any] = {"name": p.name or p.id, "addresses": list(p.addresses)}
        if passwords and not p.computer:
            pw[p.id] = new_password()
            entry["password_hash"] = hash_password(pw[p.id])
        entry["computer"] = p.computer
        entry["status"] = "active"
        player_data[p.id] = entry
    if deadline is None:
        from zoneinfo import ZoneInfo

        local = (now + length).astimezone(ZoneInfo(timezone))
        deadline = local.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
    settings = {
        "title": title or game_id,
        "ruleset": ruleset,
        "status": "open",
        "seed": seed,
        "timezone": timezone,
        "deadline": deadline.isoformat(),
        "turn_length": turn_length if isinstance(turn_length, str) else format_duration(length),
        "reminder_hours": reminder_hours,
        "early_adjudication": early_adjudication,
        "anonymous": anonymous,
        "scenario": {
            "board_side": board_side, "zeppelin": zeppelin or "none",
            "zeppelin_length": zeppelin_length, "placement": placement,
        } if ruleset == "tweedekker" else {},
        "players": player_data,
        "observers": list(observers),
    }
    game = store.create(game_id, settings, position, header=(
        f"Game {game_id}: settings and players. The game master edits this file;\n"
        "run `pbmref check " + game_id + "` after every edit."))
    return NewGame(game=game, passwords=pw, placement=placement)


# ------------------------------------------------------------------ check and status


@dataclass
class CheckResult:
    game_id: str
    problems: list[GameFileError] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    files: int = 0
    turn: int | None = None

    @property
    def ok(self) -> bool:
        return not self.problems


def check(store: GameStore, game_id: str) -> CheckResult:
    """Check every file of a game: settings, each turn's position, orders and results.

    All problems are collected (one per file), not only the first.
    """
    result = CheckResult(game_id)
    try:
        game = store.open(game_id)
    except GameFileError as exc:
        result.problems.append(exc)
        return result
    result.turn = game.turn
    result.files += 2
    for turn in game.turn_numbers():
        try:
            position = game.read_position(turn)
            result.files += 1
        except GameFileError as exc:
            result.problems.append(exc)
            continue
        odir = game.orders_dir(turn)
        used: set[str] | None = None
        if game.is_adjudicated(turn):
            try:
                recorded = (game.result(turn) or {}).get("orders") or {}
                used = set(recorded.values()) if isinstance(recorded, dict) else set()
            except GameFileError:
                used = set()
        if odir.is_dir():
            for path in sorted(odir.glob("*.yaml")):
                if ".replaced-" in path.name:
                    continue
                try:
                    game.read_orders_file(path, turn, position)
                    result.files += 1
                except GameFileError as exc:
                    if used is not None and path.name not in used:
                        # a played turn's mail that was not used (e.g. left out by a
                        # re-run because it no longer fits the position)
                        result.warnings.append(f"left out of turn {turn}: {exc}")
                    else:
                        result.problems.append(exc)
        for name in ("dice.yaml", "events.yaml", "result.yaml"):
            try:
                if game.read_record(turn, name) is not None:
                    result.files += 1
            except GameFileError as exc:
                result.problems.append(exc)
    return result


@dataclass(frozen=True)
class PlayerStatus:
    id: str
    name: str
    status: str
    computer: bool
    has_orders: bool
    mails: int  # order mails stored for the open turn


@dataclass(frozen=True)
class GameStatus:
    id: str
    title: str
    ruleset: str
    status: str
    turn: int
    deadline: datetime | None
    timezone: str
    players: tuple[PlayerStatus, ...]
    observers: tuple[str, ...]
    phase: str | None = None  # Diplomacy: the open phase, e.g. S1901M

    def text(self) -> str:
        dl = self.deadline.astimezone(_zone(self.timezone)).strftime("%a %d %b %Y %H:%M %Z") \
            if self.deadline else "none"
        turn = f"phase {self.phase} (turn {self.turn})" if self.phase else f"turn {self.turn}"
        lines = [f"{self.id}: {self.title} ({self.ruleset}) - {self.status}, {turn}, "
                 f"deadline {dl}"]
        for p in self.players:
            mark = "orders in" if p.has_orders else "waiting"
            if p.status != "active":
                mark = p.status
            elif p.computer:
                mark = "computer"
            lines.append(f"  {p.id:<12} {p.name:<22} {mark}"
                         + (f" ({p.mails} mails)" if p.mails > 1 else ""))
        if self.observers:
            lines.append(f"  observers: {', '.join(self.observers)}")
        return "\n".join(lines)


def _zone(name: str) -> Any:
    from zoneinfo import ZoneInfo

    return ZoneInfo(name)


def status(store: GameStore, game_id: str) -> GameStatus:
    """Who has sent orders for the open turn (never what they ordered)."""
    game = store.open(game_id)
    files = game.orders_files()
    in_force = game.orders_in_force()
    s = game.settings
    return GameStatus(
        id=game.id, title=s.title, ruleset=s.ruleset, status=s.status, turn=game.turn,
        deadline=s.deadline, timezone=s.timezone,
        players=tuple(PlayerStatus(p.id, p.name, p.status, p.computer, p.id in in_force,
                                   len(files.get(p.id, []))) for p in s.players.values()),
        observers=s.observers, phase=open_phase(game),
    )


# ------------------------------------------------------------------ adjudication


def _run_ruleset(ruleset: Ruleset, position: dict[str, Any], orders: dict[str, Any], seed: int,
                 replay: list[int] | None) -> Outcome:
    """The ruleset's adjudication; recorded dice are replayed where it can (V5)."""
    if replay is not None:
        try:
            params = inspect.signature(ruleset.adjudicate).parameters
        except (TypeError, ValueError):
            params = {}  # type: ignore[assignment]
        if "replay" in params:
            return ruleset.adjudicate(position, orders, seed, replay=replay)  # type: ignore[call-arg]
    return ruleset.adjudicate(position, orders, seed)


def render_report_text(report: TurnReport) -> str:
    """The report text: the report helper's renderer, or a minimal placeholder."""
    try:
        module = importlib.import_module("pbmref.reports.text")
    except ModuleNotFoundError:
        module = None
    if module is not None and hasattr(module, "render_report"):
        return str(module.render_report(report))
    lines = [f"{report.title} - turn {report.turn} ({report.ruleset})", ""]
    lines += [f"{e.get('kind', 'event')}: " + ", ".join(
        f"{k}={v}" for k, v in e.items() if k != "kind") for e in report.events]
    if report.game_over:
        lines += ["", "GAME OVER. Winners: " + ", ".join(report.winners)]
    elif report.next_deadline:
        lines += ["", f"Next deadline: {report.next_deadline.isoformat()}"]
    return "\n".join(lines) + "\n"


def build_report(game: Game, turn: int, position_before: dict[str, Any], outcome: Outcome,
                 orders: Mapping[str, Mapping[str, Any]], next_deadline: datetime | None,
                 ) -> TurnReport:
    s = game.settings
    return TurnReport(
        game_id=game.id, title=s.title, ruleset=s.ruleset, turn=turn,
        position_before=position_before, position_after=outcome.position,
        events=list(outcome.events), orders={p: dict(e) for p, e in orders.items()},
        names={p.id: p.name for p in s.players.values()}, next_deadline=next_deadline,
        timezone=s.timezone, game_over=outcome.game_over, winners=list(outcome.winners),
        dice=list(outcome.dice),
    )


def _usable_orders(game: Game, in_force: Mapping[str, Any]) -> dict[str, Any]:
    """Orders of active players only (kicked or removed players' mails are ignored)."""
    return {p: f for p, f in in_force.items()
            if p in game.settings.players and game.settings.players[p].active}


def adjudicate(store: GameStore, game_id: str, now: datetime, *,
               force: bool = False) -> TurnRecord | None:
    """Adjudicate the game's open turn if it is due (or ``force``); exactly once.

    The game lock is taken, then the game is read again: a second caller that
    waited for the lock finds the turn done (or not due any more) and returns
    None. Raises GameFileError when a file of the game is broken (nothing is
    written then). The referee mails the report afterwards.
    """
    game = store.open(game_id)
    seen_turn = game.turn
    with game.lock():
        game.reload()
        if game.turn != seen_turn or game.is_adjudicated(game.turn):
            return None  # somebody else adjudicated it while we waited
        if game.settings.status != "open":
            return None
        if not force and not game.is_due(now):
            return None
        turn = game.turn
        position = game.position
        in_force = _usable_orders(game, game.orders_in_force())
        orders = {p: dict(f.entry or {}) for p, f in in_force.items()}
        seed = derive_turn_seed(game.settings.seed, turn)
        outcome = game.ruleset.adjudicate(dict(position), orders, seed)
        next_deadline = None if outcome.game_over else next_deadline_after(
            game.settings.deadline, game.settings.turn_length, now, game.settings.zone)
        report = build_report(game, turn, position, outcome, orders, next_deadline)
        text = render_report_text(report)
        record = game.record_turn(
            outcome, seed=seed, orders_used={p: f.path.name for p, f in in_force.items()},
            report_text=text, next_deadline=next_deadline, adjudicated_at=now, orders=orders)
        return record


# ------------------------------------------------------------------ re-run


@dataclass(frozen=True)
class FileChange:
    turn: int
    name: str  # file name inside the turn folder
    old: str | None
    new: str

    def diff(self) -> str:
        return "".join(difflib.unified_diff(
            (self.old or "").splitlines(keepends=True), self.new.splitlines(keepends=True),
            fromfile=f"turns/{self.turn:03d}/{self.name} (recorded)",
            tofile=f"turns/{self.turn:03d}/{self.name} (re-run)"))


@dataclass
class RerunResult:
    game_id: str
    from_turn: int
    to_turn: int
    changes: list[FileChange] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    set_aside: list[Path] = field(default_factory=list)
    dry_run: bool = True
    changed_reports: list[int] = field(default_factory=list)  # turns whose report changed

    @property
    def changed(self) -> bool:
        return bool(self.changes)

    def text(self) -> str:
        head = (f"Re-run of {self.game_id} turns {self.from_turn}-{self.to_turn}"
                + (" (dry run: nothing written)" if self.dry_run else ""))
        if not self.changes:
            return head + ": nothing changed.\n"
        out = [head + ":", *[f"warning: {w}" for w in self.warnings]]
        for c in self.changes:
            out.append(f"--- turn {c.turn}: {c.name} changed")
            out.append(c.diff())
        if self.set_aside:
            out.append("old files kept as: " + ", ".join(str(p) for p in self.set_aside))
        return "\n".join(out) + "\n"


def _text(content: str | bytes) -> str:
    return content.decode("utf-8", "replace") if isinstance(content, bytes) else content


def _read(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.is_file() else None


def rerun(store: GameStore, game_id: str, from_turn: int, *, dry_run: bool = False,
          now: datetime | None = None) -> RerunResult:
    """Re-adjudicate turns ``from_turn``..the last one with the stored orders.

    The position of ``from_turn`` and every orders file are read as they are
    now (so a game master's edits count); each turn replays the dice recorded
    for it (V5). Files whose content changes are set aside
    (``NAME.replaced-N``) and written anew; unchanged files are not touched,
    so a second re-run without edits changes nothing. Orders of a later turn
    that no longer fit the changed position are left out, with a warning.
    The deadline, dates and report times recorded for each turn are kept.
    """
    now = now or datetime.now(UTC)
    game = store.open(game_id)
    with game.lock():
        game.reload()
        last = game.turn - 1
        if game.is_adjudicated(game.turn):
            last = game.turn
        if not 1 <= from_turn <= last:
            raise TurnError(f"turn {from_turn} of {game_id} cannot be re-run: "
                            f"turns 1-{last} have been adjudicated")
        result = RerunResult(game_id, from_turn, last, dry_run=dry_run)
        position = game.read_position(from_turn)
        planned: list[tuple[int, str, str | bytes]] = []
        ended_at: int | None = None
        for turn in range(from_turn, last + 1):
            old_result = game.result(turn) or {}
            in_force_all = game.orders_in_force(turn, position) if turn == from_turn else \
                _tolerant_orders(game, turn, position, result.warnings)
            in_force = _usable_orders(game, in_force_all)
            orders = {p: dict(f.entry or {}) for p, f in in_force.items()}
            seed = game.turn_seed(turn)
            replay = game.recorded_dice(turn)
            outcome = _run_ruleset(game.ruleset, dict(position), orders, seed, replay)
            next_deadline = _recorded_time(game, old_result.get("next_deadline"))
            adjudicated_at = _recorded_time(game, old_result.get("adjudicated_at")) or now
            if outcome.game_over:
                next_deadline = None
            report = build_report(game, turn, position, outcome, orders, next_deadline)
            files = game.turn_file_texts(
                turn, seed=seed, outcome=outcome,
                orders_used={p: f.path.name for p, f in in_force.items()},
                report_text=render_report_text(report), next_deadline=next_deadline,
                adjudicated_at=adjudicated_at)
            next_position = dict(outcome.position)
            next_position["turn"] = turn + 1
            game.check_position_doc(YamlDoc(game.turn_dir(turn + 1) / "position.yaml", "",
                                            next_position))
            files_next = {"position.yaml": game.position_text(turn + 1, next_position)}
            for name, content in files.items():
                planned.append((turn, name, content))
            for name, content in files_next.items():
                planned.append((turn + 1, name, content))
            position = next_position
            if outcome.game_over and turn < last:
                ended_at = turn
                result.warnings.append(
                    f"the game now ends in turn {turn}; turns {turn + 1}-{last} are void "
                    "and their folders will be set aside")
                break
        if ended_at is None:
            try:
                game.orders_in_force(last + 1, position)
            except GameFileError as exc:
                result.warnings.append(f"orders of the open turn {last + 1} no longer fit "
                                       f"its new position; fix or delete the file: {exc}")
        for turn, name, content in planned:
            old = _read(game.turn_dir(turn) / name)
            if old != _text(content):
                result.changes.append(FileChange(turn, name, old, _text(content)))
                if name == "report.txt":
                    result.changed_reports.append(turn)
        if dry_run:
            return result
        for change in result.changes:
            content = next(c for t, n, c in planned if t == change.turn and n == change.name)
            old_path = game.replace_turn_file(change.turn, change.name, content)
            if old_path is not None:
                result.set_aside.append(old_path)
        if ended_at is not None:
            for name in RESULT_FILES:  # the final position's turn is not played
                path = game.turn_dir(ended_at + 1) / name
                if path.exists():
                    result.set_aside.append(set_aside(path))
            for turn in range(ended_at + 2, game.turn + 1):
                if game.turn_dir(turn).is_dir():
                    result.set_aside.append(set_aside(game.turn_dir(turn), now=now))
        _sync_after_rerun(game, ended_at, planned, result)
        return result


def _tolerant_orders(game: Game, turn: int, position: Mapping[str, Any],
                     warnings: list[str]) -> dict[str, Any]:
    """The orders in force for a later turn; files that no longer fit are left out."""
    out: dict[str, Any] = {}
    try:
        return game.orders_in_force(turn, position)
    except GameFileError:
        pass
    odir = game.orders_dir(turn)
    by_player: dict[str, list[Any]] = {}
    for path in sorted(odir.glob("*.yaml")):
        if ".replaced-" in path.name:
            continue
        try:
            f = game.read_orders_file(path, turn, position)
        except GameFileError as exc:
            warnings.append(f"left out (no longer fits the re-run position): {exc}")
            continue
        by_player.setdefault(f.player, []).append(f)
    for player, files in by_player.items():
        for f in sorted(files, key=lambda x: x.version, reverse=True):
            if f.kind == "rejected":
                continue
            if f.kind == "orders":
                out[player] = f
            break
    return out


def _recorded_time(game: Game, value: Any) -> datetime | None:
    if value is None:
        return None
    try:
        return parse_datetime(value, game.settings.zone)
    except ValueError:
        return None


def _sync_after_rerun(game: Game, ended_at: int | None, planned: list[tuple[int, str, Any]],
                      result: RerunResult) -> None:
    """After a re-run that changed the game's end, fix status, deadline and the state index."""
    game.reload()
    last_turn = max(t for t, _, _ in planned)
    changes: dict[str, Any] = {}
    final = game.result(last_turn - 1) or {}
    if ended_at is not None or final.get("game_over"):
        if game.settings.status != "finished":
            changes["status"] = "finished"
            changes["deadline"] = None
    elif game.settings.status == "finished":
        changes["status"] = "paused"
        result.warnings.append("the game no longer ends: it is paused; set a deadline with "
                               "`pbmref extend` and `pbmref resume` it")
    if changes:
        game.set_scalars(changes)
    game.write_state()


# ------------------------------------------------------------------ deadlines and players


def extend(store: GameStore, game_id: str, by: timedelta) -> datetime:
    """Move the open turn's deadline later by ``by``; returns the new deadline."""
    game = store.open(game_id)
    with game.lock():
        game.reload()
        if game.settings.deadline is None:
            raise StoreError(f"{game_id} has no deadline to extend")
        new = game.settings.deadline + by
        game.set_scalars({"deadline": new.isoformat()})
        return new


def pause(store: GameStore, game_id: str) -> None:
    """Stop adjudication until ``resume``; the referee refuses order mail meanwhile
    (``replies.game_closed``)."""
    game = store.open(game_id)
    with game.lock():
        game.reload()
        if game.settings.status == "finished":
            raise StoreError(f"{game_id} is finished")
        game.set_scalars({"status": "paused"})


def resume(store: GameStore, game_id: str, now: datetime | None = None) -> datetime | None:
    """Adjudicate again; a deadline that passed during the pause becomes now + turn length."""
    now = now or datetime.now(UTC)
    game = store.open(game_id)
    with game.lock():
        game.reload()
        if game.settings.status == "finished":
            raise StoreError(f"{game_id} is finished")
        changes: dict[str, Any] = {"status": "open"}
        deadline = game.settings.deadline
        if deadline is None or deadline <= now:
            deadline = now + game.settings.turn_length
            changes["deadline"] = deadline.isoformat()
        game.set_scalars(changes)
        return deadline


def _mark_aircraft_removed(game: Game, player: str) -> Path | None:
    """Take a player's aircraft out of the open turn's position (state removed)."""
    position = dict(game.position)
    aircraft = position.get("aircraft")
    if not isinstance(aircraft, Mapping) or player not in aircraft:
        return None
    entry = dict(aircraft[player])
    if entry.get("state") in ("left", "down", "removed"):
        return None
    entry["state"] = "removed"
    position["aircraft"] = {**aircraft, player: entry}
    game.check_position_doc(YamlDoc(game.turn_dir(game.turn) / "position.yaml", "", position))
    return game.replace_turn_file(game.turn, "position.yaml",
                                  game.position_text(game.turn, position))


@dataclass(frozen=True)
class PlayerChange:
    player: str
    password: str | None  # a new password to mail to the new address
    settings_kept_as: Path | None
    position_kept_as: Path | None = None


def replace_player(store: GameStore, game_id: str, player: str, *,
                   address: str | None = None, name: str | None = None,
                   computer: bool | None = None, new_pw: bool | None = None) -> PlayerChange:
    """Hand a player's place to someone else (new address/name) or to the computer.

    A new address gets a new password (returned for the referee to mail)
    unless ``new_pw`` is False.
    """
    game = store.open(game_id)
    with game.lock():
        game.reload()
        if player not in game.settings.players:
            raise StoreError(f"{player!r} is not a player of {game_id}")
        password = None
        if new_pw or (new_pw is None and address is not None and not computer):
            password = new_password()

        def change(data: dict[str, Any]) -> None:
            p = dict(data["players"][player])
            if address is not None:
                p["addresses"] = [address]
            if name is not None:
                p["name"] = name
            if computer is not None:
                p["computer"] = computer
            if password is not None:
                p["password_hash"] = hash_password(password)
            p["status"] = "active"
            data["players"] = {**data["players"], player: p}

        kept = game.update_settings(change)
        return PlayerChange(player, password, kept)


def kick(store: GameStore, game_id: str, player: str) -> PlayerChange:
    """Remove a player: mails ignored from now on, aircraft out of play (state removed)."""
    game = store.open(game_id)
    with game.lock():
        game.reload()
        if player not in game.settings.players:
            raise StoreError(f"{player!r} is not a player of {game_id}")

        def change(data: dict[str, Any]) -> None:
            data["players"] = {**data["players"],
                               player: {**data["players"][player], "status": "kicked"}}

        kept = game.update_settings(change)
        pos_kept = _mark_aircraft_removed(game, player)
        game.write_state()
        return PlayerChange(player, None, kept, pos_kept)


def add_observer(store: GameStore, game_id: str, address: str) -> PlayerChange | None:
    """Add an address that receives every report (None if it is there already)."""
    game = store.open(game_id)
    with game.lock():
        game.reload()
        if game.is_observer(address):
            return None

        def change(data: dict[str, Any]) -> None:
            data["observers"] = [*(data.get("observers") or []), address]

        return PlayerChange("", None, game.update_settings(change))


def settings_yaml(game: Game) -> str:
    """The game's settings as YAML (for showing; never the password hashes' secrets)."""
    return dump_yaml(settings_to_dict(game.settings))
