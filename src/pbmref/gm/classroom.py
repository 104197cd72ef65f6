"""A class made and run by the game master: its boards made into games, its
pupils in the roster of careers, returning pilots moved between the boards.

What a class is, which boards it has and what their positions hold is the
game kind's (its ruleset's ``classroom``: a Fast Play class, FP1, is
``pbmref.rulesets.fastplay.classroom``); this module does the store's side of
it (``GameStore``, ``new_game``, the roster) and names no game kind:
``classroom()`` is the classes of the first game kind that has them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pbmref.base.yamlfile import YamlDoc
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
from pbmref.rulesets import RULESETS, PlayerSpec, get_ruleset
from pbmref.rulesets.classes import Classroom, ClassTemplate, OrdersFor, Transfer
from pbmref.store import GameStore

__all__ = ["ClassRun", "CreatedBoard", "apply_transfers", "classroom", "create_class",
           "play_class"]


def classroom(ruleset: str | None = None) -> Classroom[Any]:
    """The classes of the game kind ``ruleset`` or, without one, of the first
    game kind that has classes; raises ``ValueError`` when it has none."""
    for name in (ruleset,) if ruleset is not None else tuple(RULESETS):
        found = get_ruleset(name).classroom()
        if found is not None:
            return found
    raise ValueError(f"{ruleset or 'no game kind'} has no classes")


@dataclass(frozen=True)
class CreatedBoard:
    """One board of a class made into a game: its id, the pilots of each side
    and the passwords to mail once."""

    game_id: str
    sides: Mapping[str, int]
    passwords: Mapping[str, str]


def create_class(store: GameStore, template: ClassTemplate, roster_file: Path, *,
                 kind: Classroom[Any] | None = None,
                 deadline: datetime | None = None, passwords: bool = True,
                 refused_addresses: Sequence[str] = (), now: datetime | None = None,
                 observers: Sequence[str] = (),
                 early_delay: str | None = None) -> list[CreatedBoard]:
    """Make the games of a class (``new_class``: one per board), each pupil
    registered in the roster of careers with the victories they bring (FP16);
    nothing is made when one of the games exists already. ``early_delay``
    (``--early-delay``) overrides the class file's; ``kind``: the game kind's
    classes (default: ``classroom()``)."""
    kind = kind or classroom()
    roster = load_roster(roster_file)  # the victories each pupil starts with (FP16)
    for p in template.pilots:
        roster = roster.register(p.id, p.name, p.team)
    games = kind.new_class(template, roster.victories)
    clash = [g.game_id for g in games if store.exists(g.game_id)]
    if clash:
        raise ValueError(f"game {clash[0]} exists already in {store.dir}")
    made = []
    for g in games:
        players = [PlayerSpec(pid, (p.address,) if p.address else (), p.name, p.computer)
                   for pid in g.players for p in (template.pilot(pid),)]
        result = new_game(
            store, g.game_id, players, title=f"{template.title} (board {g.game_id})",
            ruleset=kind.ruleset, position=g.position, timezone=template.timezone,
            deadline=deadline, turn_length=template.turn_length, passwords=passwords,
            early_delay=early_delay if early_delay is not None else template.early_delay,
            refused_addresses=refused_addresses, now=now, observers=observers,
            seed=(template.seed * 100 + int(g.game_id.rsplit("-", 1)[1])) if template.seed
            else None)
        sides = dict.fromkeys(kind.teams, 0)
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
            kind = src.ruleset.classroom()
            record = kind.returning(src.position, t.player) if kind is not None else None
            if kind is None or record is None:
                done.append(f"{t.player}: not moved, the plane is not returning")
                continue
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
                position = (kind.with_pilot(game.position, t.player, record) if change == "add"
                            else kind.without_pilot(game.position, t.player))
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


@dataclass
class ClassRun:
    """What ``play_class`` did: final positions, every turn's events, transfers."""

    positions: dict[str, dict[str, object]]
    events: dict[str, list[list[dict[str, object]]]]
    transfers: list[tuple[int, Transfer]]
    roster: Roster


def play_class(template: ClassTemplate, roster: Roster, *, turns: int | None = None,
               seed: int = 0, orders_for: OrdersFor | None = None,
               kind: Classroom[Any] | None = None) -> ClassRun:
    """Play every board of the class for ``turns`` turns (default: the template's),
    in step, with computer pilots (or ``orders_for``); the roster is kept up to
    date and returning pilots are rebalanced between turns."""
    kind = kind or classroom()
    for p in template.pilots:
        roster = roster.register(p.id, p.name, p.team)
    games = kind.new_class(template, roster.victories)
    positions = {g.game_id: g.position for g in games}
    for g in games:
        roster = record_game_start(roster, g.game_id, g.players)
    events: dict[str, list[list[dict[str, object]]]] = {g.game_id: [] for g in games}
    transfers: list[tuple[int, Transfer]] = []
    rng = random.Random(seed)
    n_turns = turns if turns is not None else (template.turns or 10)
    for turn in range(1, n_turns + 1):
        for gid in sorted(positions):
            pos = positions[gid]
            if pos.get("game_over"):
                continue
            outcome = kind.play_turn(gid, pos, rng, seed * 1000 + turn * 31 + len(gid),
                                     orders_for)
            positions[gid] = outcome.position
            plain = kind.plain_events(outcome.events, pos)  # as events.yaml keeps them
            events[gid].append(plain)
            roster = apply_turn(roster, gid, turn, plain)
        live = {g: p for g, p in positions.items() if not p.get("game_over")}
        if len(live) > 1:
            moved, done = kind.rebalance(live)
            positions.update(moved)
            transfers.extend((turn, t) for t in done)
    return ClassRun(positions, events, transfers, roster)
