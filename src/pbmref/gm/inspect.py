"""``pbmref check`` and ``pbmref status``: what a game master looks at.

``check`` reads every file of a game (settings, each turn's position, orders,
records and the game master's actions) and collects every problem with its file and line, not only the
first. ``status`` says who has sent orders for the open turn, never what.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from pbmref.base.times import format_duration
from pbmref.gm.actions import actions_of
from pbmref.store import Game, GameFileError, GameStore, TurnView

__all__ = ["CheckResult", "GameStatus", "PlayerStatus", "check", "status"]


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
    """Check every file of a game: settings, each turn's position, orders and results."""
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
            view = game.view(turn)
            result.files += 1
        except GameFileError as exc:
            result.problems.append(exc)
            continue
        _check_orders_files(game, turn, view, result)
        result.warnings.extend(_edited_before_latest(game, turn))
        for name in ("dice.yaml", "events.yaml", "result.yaml"):
            try:
                if game.history.record_of(turn, name) is not None:
                    result.files += 1
            except GameFileError as exc:
                result.problems.append(exc)
        try:
            if actions_of(game, turn):
                result.files += 1
        except GameFileError as exc:
            result.problems.append(exc)
    return result


def _edited_before_latest(game: Game, turn: int) -> list[str]:
    """A note for each orders file changed after the player's latest one (issue
    42, item 10): the orders in force are the latest mail's (``PLAYER.vK.yaml``,
    K highest), so a hand edit of an earlier file changes nothing."""
    odir = game.book.folder(turn)
    notes: list[str] = []
    try:
        names = game.book.names(turn)
    except GameFileError:
        return notes  # told as a problem by the reading of the files
    for files in names.values():
        if len(files) < 2:
            continue
        try:
            latest = (odir / files[-1]).stat().st_mtime_ns
            changed = [n for n in files[:-1] if (odir / n).stat().st_mtime_ns > latest]
        except OSError:
            continue
        where = odir.relative_to(game.dir).as_posix()
        notes.extend(
            f"{where}/{name} was changed after {files[-1]}: the orders in force are those "
            f"of {files[-1]}: edit that file (the earlier ones are kept for disputes and "
            f"change nothing)" for name in changed)
    return notes


def _used_orders(game: Game, turn: int) -> set[str] | None:
    """The orders files a played turn used (None: the turn is not played)."""
    if not game.history.is_adjudicated(turn):
        return None
    try:
        recorded = (game.history.result(turn) or {}).get("orders") or {}
    except GameFileError:
        return set()
    return set(recorded.values()) if isinstance(recorded, dict) else set()


def _check_orders_files(game: Game, turn: int, view: TurnView, result: CheckResult) -> None:
    """Each orders file of ``turn``: read against its position; a played turn's
    mail that was not used is a warning (e.g. left out by a re-run because it no
    longer fits the position), any other a problem."""
    odir = game.book.folder(turn)
    if not odir.is_dir():
        return
    used = _used_orders(game, turn)
    for path in sorted(odir.glob("*.yaml")):
        if ".replaced-" in path.name:
            continue
        try:
            game.book.read(path, turn, view)
            result.files += 1
        except GameFileError as exc:
            if used is not None and path.name not in used:
                result.warnings.append(f"left out of turn {turn}: {exc}")
            else:
                result.problems.append(exc)


@dataclass(frozen=True)
class PlayerStatus:
    id: str
    name: str
    status: str
    computer: bool
    has_orders: bool
    mails: int  # order mails stored for the open turn
    owes: bool = True  # the turn waits for their orders (False: nothing to order now)


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
    label: int | str = 0  # the open turn as players name it (a Diplomacy phase)
    # early adjudication: the delay after all orders are in (None: only at the
    # deadline), and whether it is game.yaml's own ``early_delay``
    early_delay: timedelta | None = None
    own_delay: bool = False

    def early(self) -> str:
        """How the open turn may be played before its deadline, in words."""
        if self.early_delay is None:
            return "never before the deadline"
        whose = "early_delay" if self.own_delay else f"{self.ruleset.split(',')[0]}'s default"
        when = ("at once when all orders are in" if not self.early_delay else
                f"played {format_duration(self.early_delay)} after all orders are in")
        return f"{when} ({whose})"

    def text(self) -> str:
        dl = self.deadline.astimezone(ZoneInfo(self.timezone)).strftime(
            "%a %d %b %Y %H:%M %Z") if self.deadline else "none"
        over = self.status == "finished"
        turn = (f"turn {self.turn}" if self.label == self.turn
                else f"phase {self.label} (turn {self.turn})")
        lines = [f"{self.id}: {self.title} ({self.ruleset}) - finished after {turn}" if over
                 else f"{self.id}: {self.title} ({self.ruleset}) - {self.status}, {turn}, "
                 f"deadline {dl}"]
        for p in self.players:
            mark = "orders in" if p.has_orders else "waiting" if p.owes else "nothing to order"
            if over:
                mark = "played" if not p.computer else "computer"
            elif p.status != "active":
                mark = p.status
            elif p.computer:
                mark = "computer"
            lines.append(f"  {p.id:<12} {p.name:<22} {mark}"
                         + (f" ({p.mails} mails)" if p.mails > 1 else ""))
        if self.observers:
            lines.append(f"  observers: {', '.join(self.observers)}")
        if not over:
            lines.append(f"  early: {self.early()}")
        return "\n".join(lines)


def game_kind(game: Game) -> str:
    """``diplomacy``, or ``diplomacy, variant chaos`` for a game of a variant."""
    variant = game.position.get("variant")
    return f"{game.settings.ruleset}, variant {variant}" if variant else game.settings.ruleset


def status(store: GameStore, game_id: str) -> GameStatus:
    """Who has sent orders for the open turn (never what they ordered). A
    finished game names its last turn played instead: the turn left open after
    the end is never played."""
    game = store.open(game_id)
    files = game.book.files()
    in_force = game.book.in_force()
    s = game.settings
    turn, label = game.turn, game.turn_label
    owing = set(game.waiting_for())
    if s.status == "finished" and turn > 1 and game.history.is_adjudicated(turn - 1):
        turn -= 1
        label = game.ruleset.turn_label(game.read_position(turn), turn)
    return GameStatus(
        id=game.id, title=s.title, ruleset=game_kind(game),
        status=s.status, turn=turn,
        deadline=s.deadline, timezone=s.timezone,
        players=tuple(PlayerStatus(p.id, p.name, p.status, p.computer, p.id in in_force,
                                   len(files.get(p.id, [])), owes=p.id in owing)
                      for p in s.players.values()),
        observers=s.observers, label=label,
        early_delay=None if not s.early_adjudication else
        s.early_delay if s.early_delay is not None else game.ruleset.early_delay,
        own_delay=s.early_delay is not None,
    )
