"""``pbmref rerun``: recorded turns played again after the game master's edits.

The position of the first turn re-run and every orders file are read as they
are now (so a game master's edits count); each turn replays the dice recorded
for it (V5), each die dealt to what it was rolled for, through the same
pipeline as adjudication (``pbmref.gm.turn``). Dice no longer needed, dice
never rolled before (rolled now from the seeded dice, ``new_dice``) and an
older record dealt in order are said in the result's ``notes``. The roster
of a game with careers (Fast Play, FP16) follows the turns as re-run.
What the game master did between turns is replayed where it happened
(``pbmref.gm.actions``): each turn is played with the settings of its time
(a player kicked later still flies the turns before), and the position a
turn leads to gets the next turn's recorded actions again (a kick takes the
plane out of play). Files whose content changes are set aside
(``NAME.replaced-N``) and written anew; unchanged files are not touched, so
a re-run without edits changes nothing. Orders of a later turn that no longer fit the changed
position are left out, with a warning. The deadline, dates and report times
recorded for each turn are kept.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pbmref.archive import stored_report
from pbmref.base.files import set_aside
from pbmref.base.times import moment
from pbmref.base.yamlfile import YamlDoc
from pbmref.gm.actions import GmLog
from pbmref.gm.roster import follow
from pbmref.gm.turn import play
from pbmref.reports.model import TurnReport
from pbmref.rules.dice import Roll
from pbmref.rulesets import Outcome
from pbmref.store import Game, GameFileError, GameStore, StoreError, TurnError
from pbmref.store.layout import POSITION_FILE, RESULT_FILES

__all__ = ["FileChange", "RerunResult", "rerun"]


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
    # the reports of those turns as they were, for a corrected report to say what changed
    before: dict[int, TurnReport[Any]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # how the recorded dice were dealt
    roster: list[str] = field(default_factory=list)  # what the careers' roster did (FP16)
    # per turn, the dice the re-run rolled that the record did not hold (V5), by
    # what for: a corrected report says so
    new_dice: dict[int, list[str]] = field(default_factory=dict)

    @property
    def changed(self) -> bool:
        return bool(self.changes)

    def text(self) -> str:
        head = (f"Re-run of {self.game_id} turns {self.from_turn}-{self.to_turn}"
                + (" (dry run: nothing written)" if self.dry_run else ""))
        roster = [f"roster: {r}" for r in self.roster]
        if not self.changes:
            return "\n".join([head + ": nothing changed.", *roster]) + "\n"
        out = [head + ":", *[f"warning: {w}" for w in self.warnings],
               *[f"dice: {n}" for n in self.notes], *roster]
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


Planned = list[tuple[int, str, str | bytes]]  # (turn, file name, new content)


def rerun(store: GameStore, game_id: str, from_turn: int, *, dry_run: bool = False,
          now: datetime | None = None,
          progress: Callable[[int, int], None] | None = None) -> RerunResult:
    """Re-adjudicate turns ``from_turn``..the last one with the stored orders;
    ``progress`` hears how many turns are played again and how many there are."""
    now = now or datetime.now(UTC)
    game = store.open(game_id)
    with game.lock():
        game.reload()
        last = game.turn if game.history.is_adjudicated(game.turn) else game.turn - 1
        if not 1 <= from_turn <= last:
            raise TurnError(f"turn {from_turn} of {game_id} cannot be re-run: "
                            f"turns 1-{last} have been adjudicated")
        log = GmLog(game)
        log.refuse_before(from_turn)
        result = RerunResult(game_id, from_turn, last, dry_run=dry_run)
        planned, ended_at = _play_again(game, log, result, now, progress)
        for turn, name, content in planned:
            old = _read(game.turn_dir(turn) / name)
            if old != _text(content):
                result.changes.append(FileChange(turn, name, old, _text(content)))
                if name == "report.txt":
                    result.changed_reports.append(turn)
        if dry_run:
            return result
        result.before = {t: stored_report(game, t) for t in sorted(set(result.changed_reports))}
        _write(game, planned, ended_at, result, now)
        _sync_after_rerun(game, ended_at, planned, result)
        if game.ruleset.careers:
            _follow_roster(store, result, ended_at)
        return result


def _follow_roster(store: GameStore, result: RerunResult, ended_at: int | None) -> None:
    """The roster's careers follow the re-run turns as written now (FP16)."""
    try:
        change = follow(store, result.game_id, range(result.from_turn,
                                                     (ended_at or result.to_turn) + 1))
    except StoreError as exc:
        result.roster.append(f"not brought up to date: {exc}; repair it, then run "
                             "`pbmref roster update`")
        return
    if change is not None:
        result.roster += change.lines(result.game_id)


def _play_again(game: Game, log: GmLog, result: RerunResult, now: datetime,
                progress: Callable[[int, int], None] | None = None,
                ) -> tuple[Planned, int | None]:
    """Play turns ``result.from_turn``..``result.to_turn`` again: the files each
    would write, and the turn the game now ends in (None: it goes on)."""
    first, last = result.from_turn, result.to_turn
    view = game.view(first)
    planned: Planned = []
    for turn in range(first, last + 1):
        if progress is not None:
            progress(turn - first + 1, last - first + 1)
        old_result = game.history.result(turn) or {}
        settings = log.settings_at(turn)
        in_force = (game.book.in_force(turn, view=view, settings=settings) if turn == first
                    else game.book.in_force_lenient(turn, view, result.warnings,
                                                    settings=settings))
        votes = game.history.votes(turn)  # the draw votes standing then (issue 18)
        rolls = game.history.rolls(turn)  # each die with what it was rolled for (V5)
        older = game.history.dice(turn) if rolls is None else None  # values alone
        played = play(game, view, in_force, seed=game.history.seed(turn),
                      replay=rolls if rolls is not None else older or [],
                      next_deadline=moment(old_result.get("next_deadline")),
                      settings=settings, votes=votes)
        files = game.history.files_of(
            turn, seed=played.seed, outcome=played.outcome, position=view.position,
            orders_used=played.orders_used,
            report_text=played.report_text, next_deadline=played.next_deadline,
            adjudicated_at=moment(old_result.get("adjudicated_at")) or now,
            settings=settings, votes=votes)
        if older and played.outcome.dice == older:
            # the same dice in the same order: the older record stays as it is
            files["dice.yaml"] = _read(game.turn_dir(turn) / "dice.yaml") or ""
        _tell_dice(result, turn, played.outcome, older=bool(older),
                   changed=files["events.yaml"] != _read(game.turn_dir(turn) / "events.yaml"))
        next_position = log.replay(turn + 1, {**played.outcome.position, "turn": turn + 1})
        view = game.check_position(YamlDoc(
            game.turn_dir(turn + 1) / POSITION_FILE, "", next_position))
        planned += [(turn, name, content) for name, content in files.items()]
        planned.append((turn + 1, POSITION_FILE,
                        game.history.position_text(turn + 1, next_position)))
        if played.outcome.game_over and turn < last:
            result.warnings.append(
                f"the game now ends in turn {turn}; turns {turn + 1}-{last} are void "
                "and their folders will be set aside")
            return planned, turn
    try:
        game.book.in_force(last + 1, view=view)
    except GameFileError as exc:
        result.warnings.append(f"orders of the open turn {last + 1} no longer fit "
                               f"its new position; fix or delete the file: {exc}")
    return planned, None


def _grouped(rolls: Iterable[Roll]) -> list[str]:
    """Dice by what they were rolled for: ``move 1 fire anna (4, 2)``."""
    groups: dict[tuple[int, str, str], list[int]] = {}
    for r in rolls:
        groups.setdefault(r.key, []).append(r.value)
    return [" ".join(w for w in (f"move {move}", purpose, who) if w)
            + f" ({', '.join(map(str, values))})"
            for (move, purpose, who), values in groups.items()]


def _dice(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def _tell_dice(result: RerunResult, turn: int, outcome: Outcome[Any], *, older: bool,
               changed: bool) -> None:
    """Say how the recorded dice of ``turn`` were dealt (V5): those no longer
    needed, those never rolled before (rolled now), or, when the turn ``changed``,
    that an ``older`` record (values alone) was dealt out in order."""
    if older:
        if changed:
            result.notes.append(
                f"turn {turn}: an older dice.yaml, which does not say what each die was "
                "rolled for: its dice were dealt out in order, as before; check that each "
                "went where it belongs")
        return
    if outcome.unused:
        result.notes.append(
            f"turn {turn}: {_dice(len(outcome.unused))} recorded, no longer needed, handed "
            f"to nobody: {'; '.join(_grouped(outcome.unused))}")
    new = [r for r in outcome.rolls if not r.replayed]
    if new:
        result.new_dice[turn] = _grouped(new)
        result.notes.append(
            f"turn {turn}: {_dice(len(new))} never rolled before, rolled now from the game's "
            f"seeded dice: {'; '.join(result.new_dice[turn])}")


def _write(game: Game, planned: Planned, ended_at: int | None, result: RerunResult,
           now: datetime) -> None:
    """Write the changed files (the old ones set aside) and set void turns aside."""
    for change in result.changes:
        content = next(c for t, n, c in planned if t == change.turn and n == change.name)
        old_path = game.history.replace(change.turn, change.name, content)
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


def _sync_after_rerun(game: Game, ended_at: int | None, planned: Planned,
                      result: RerunResult) -> None:
    """After a re-run that changed the game's end, fix status, deadline and the state index."""
    game.reload()
    last_turn = max(t for t, _, _ in planned)
    changes: dict[str, object] = {}
    final = game.history.result(last_turn - 1) or {}
    if ended_at is not None or final.get("game_over"):
        if game.settings.status != "finished":
            changes["status"] = "finished"
            changes["deadline"] = None
    elif game.settings.status == "finished":
        changes["status"] = "paused"
        result.warnings.append("the game no longer ends: it is paused; set a deadline with "
                               "`pbmref extend` and `pbmref resume` it")
    if changes:
        game.change_settings(changes)
    game.write_schedule()
