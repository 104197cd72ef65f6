"""The played turns of a game: dice, events, report and result, and the turn commit.

``History.record`` writes an adjudicated turn in the order that makes a crash
harmless: dice, events, report, the next turn's position, the note that the
turn's reports are owed (``pbmref.store.owed``), then ``result.yaml`` (the
mark that the turn is done), then the state index and ``game.yaml``'s
deadline and status. ``reports_owed`` and ``reports_queued`` are the
referee's side of that note. ``replace`` writes a new version of a
referee-written file after a re-run, setting the old one aside. Every record
read is checked (its keys, turn, seed, dice, events) with file and line.

``dice.yaml`` keeps every die with what it was rolled for, one a line
(``[move, purpose, who, value]``, and its sides if not six), so that a re-run
deals each die again to what it was rolled for (``rolls``); a record of an
older version holds the values alone (``dice`` reads both).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbmref.base.files import ordered, set_aside, write_new
from pbmref.base.times import iso
from pbmref.base.yamlfile import YamlDoc, dump_yaml, stored_yaml
from pbmref.rules.dice import Roll
from pbmref.rulesets import Outcome
from pbmref.rulesets.base import Votes
from pbmref.store.errors import TurnError
from pbmref.store.layout import POSITION_FILE, derive_turn_seed, no_links, turn_dir
from pbmref.store.owed import OWED_FILE, read_owed, write_owed
from pbmref.store.settings import GameSettings

if TYPE_CHECKING:
    from pbmref.store.game import Game

__all__ = ["History", "TurnRecord", "votes_from_dict", "votes_to_dict"]


def votes_to_dict(votes: Votes) -> dict[str, object]:
    """Votes as result.yaml keeps them (the named draws and open votes, J13, only
    when there are some)."""
    out: dict[str, object] = {"draw": sorted(votes.draw),
                           "concede": dict(sorted(votes.concede.items())),
                           "voters": sorted(votes.voters)}
    if votes.draw_sets:
        out["draw_sets"] = {p: sorted(s) for p, s in sorted(votes.draw_sets.items())}
    if not votes.secret:
        out["secret"] = False
    return out


def votes_from_dict(data: Mapping[str, object]) -> Votes:
    """Votes read back from result.yaml."""
    sets, concede = data.get("draw_sets") or {}, data.get("concede") or {}
    return Votes(draw=frozenset(map(str, _items(data.get("draw")))),
                 concede={str(k): str(v) for k, v in concede.items()}
                 if isinstance(concede, Mapping) else {},
                 voters=frozenset(map(str, _items(data.get("voters")))),
                 draw_sets={str(p): frozenset(map(str, _items(s))) for p, s in sets.items()}
                 if isinstance(sets, Mapping) else {},
                 secret=data.get("secret", True) is not False)


def _items(value: object) -> list[object]:
    """A recorded list (absent: empty)."""
    return list(value) if isinstance(value, list | tuple | set | frozenset) else []

_DIE = "[move, purpose, who, value]"
_RECORD_KEYS = {
    "dice.yaml": {"turn", "seed", "dice"},
    "events.yaml": {"turn", "events"},
    "result.yaml": {"turn", "adjudicated_at", "seed", "orders", "no_orders", "game_over",
                    "winners", "next_deadline", "note", "votes"},
}


@dataclass(frozen=True)
class TurnRecord:
    """One adjudicated turn, as written to the game folder."""

    game_id: str
    turn: int
    seed: int
    position_before: dict[str, object]
    position_after: dict[str, object]
    orders: dict[str, dict[str, object]]
    events: tuple[object, ...]  # the ruleset's typed events (``Outcome.events``)
    dice: list[int]
    game_over: bool
    winners: list[str]
    next_deadline: datetime | None
    report_text: str
    adjudicated_at: datetime
    files: tuple[Path, ...] = ()


class History:
    """The played turns of one game (``game.history``)."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def is_adjudicated(self, turn: int) -> bool:
        return (turn_dir(self.game.dir, turn) / "result.yaml").is_file()

    def read_file(self, turn: int, name: str) -> YamlDoc | None:
        """A turn's record file as read (None if absent): parsed once a version of
        the file in the process (the referee writes them whole; an order mail's
        reply reads the turn before's result)."""
        path = turn_dir(self.game.dir, turn) / name
        return stored_yaml(path) if path.is_file() else None

    def record_of(self, turn: int, name: str) -> dict[str, object] | None:
        """A turn's dice.yaml, events.yaml or result.yaml, checked (None if absent)."""
        doc = self.read_file(turn, name)
        if doc is None:
            return None
        data = doc.mapping()
        allowed = _RECORD_KEYS[name]
        for key in data:
            if key not in allowed:
                raise doc.error((key,), f"unknown key {key!r}; known keys: "
                                        f"{', '.join(sorted(allowed))}")
        if "turn" in data and data["turn"] != turn:
            raise doc.error(("turn",), f"turn {data['turn']!r} differs from the folder's "
                                       f"turn {turn}")
        seed = data.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise doc.error(("seed",), f"seed must be a whole number, found {seed!r}")
        _check_dice(doc, data.get("dice", []))
        events = data.get("events", [])
        if not isinstance(events, list) or not all(isinstance(e, Mapping) for e in events):
            raise doc.error(("events",), "events must be a list of mappings")
        orders = data.get("orders", {})
        if not isinstance(orders, Mapping):
            raise doc.error(("orders",), "orders must map player ids to orders file names")
        for player in orders:
            if player not in self.game.settings.players:
                raise doc.error(("orders", player), f"{player!r} is not a player of this game")
        return data

    def result(self, turn: int) -> dict[str, object] | None:
        return self.record_of(turn, "result.yaml")

    def votes(self, turn: int) -> Votes | None:
        """The draw and concession votes that stood when ``turn`` was played (None:
        none recorded)."""
        data = (self.result(turn) or {}).get("votes")
        return votes_from_dict(data) if isinstance(data, Mapping) else None

    def events(self, turn: int) -> list[dict[str, object]]:
        events = (self.record_of(turn, "events.yaml") or {}).get("events")
        return [e for e in events if isinstance(e, dict)] if isinstance(events, list) else []

    def dice(self, turn: int) -> list[int] | None:
        """The value of every die recorded for a played turn, in order (None: no
        record); an older record's too."""
        data = self.record_of(turn, "dice.yaml")
        if data is None:
            return None
        return [d[3] if isinstance(d, list) else int(d) for d in _items(data.get("dice"))
                if isinstance(d, list | int)]

    def rolls(self, turn: int) -> list[Roll] | None:
        """The dice recorded for a played turn with what each was rolled for (for
        replaying it, rule V5); None without a record, or for an older one that
        holds the values alone (``dice`` has them)."""
        data = self.record_of(turn, "dice.yaml")
        dice = [] if data is None else _items(data.get("dice"))
        if data is None or any(not isinstance(d, list) for d in dice):
            return None
        return [Roll.from_record(d) for d in dice]

    def seed(self, turn: int) -> int:
        """The dice seed of a turn: the one recorded, else the game's derived one."""
        data = self.record_of(turn, "dice.yaml")
        seed = None if data is None else data.get("seed")
        if isinstance(seed, int):
            return seed
        return derive_turn_seed(self.game.settings.seed, turn)

    def report(self, turn: int) -> str | None:
        path = turn_dir(self.game.dir, turn) / "report.txt"
        return path.read_text(encoding="utf-8") if path.is_file() else None

    # ------------------------------------------------------------ writing

    def files_of(
        self, turn: int, *, seed: int, outcome: Outcome[Any], position: Mapping[str, object],
        orders_used: Mapping[str, str],
        report_text: str, next_deadline: datetime | None, adjudicated_at: datetime,
        settings: GameSettings | None = None, votes: Votes | None = None,
    ) -> dict[str, str | bytes]:
        """The files one adjudicated turn writes into its folder (name -> content),
        the turn played from ``position`` (its events written as the ruleset
        encodes them on its board); ``settings`` as they were in that turn (a re-run; default: as they are now);
        ``votes``: the draw and concession votes standing when it was played,
        recorded so that a re-run settles them the same way."""
        players = (settings or self.game.settings).active_players()
        result: dict[str, object] = {
            "turn": turn,
            "adjudicated_at": iso(adjudicated_at),
            "seed": seed,
            "orders": {p: orders_used[p] for p in sorted(orders_used)},
            "no_orders": sorted(p.id for p in players if p.id not in orders_used),
            "game_over": outcome.game_over,
            "winners": list(outcome.winners),
            "next_deadline": iso(next_deadline),
        }
        if votes is not None and (votes.draw or votes.concede):
            result["votes"] = votes_to_dict(votes)
        return {
            "dice.yaml": dump_yaml(
                {"turn": turn, "seed": seed, "dice": [r.as_record() for r in outcome.rolls]},
                header=f"Every die rolled in turn {turn} (rule V5), one a line: {_DIE},\n"
                       "and the sides of a die that has not six. A re-run deals each die "
                       "again\nto what it was rolled for."),
            "events.yaml": dump_yaml({"turn": turn, "events": self.game.ruleset.encode_events(
                outcome.events, position)},
                                     header=f"What happened in turn {turn}, in order"),
            "report.txt": report_text,
            "result.yaml": dump_yaml(result, header=f"Turn {turn} adjudicated; the next "
                                                    "position is the next turn's "
                                                    "position.yaml"),
        }

    def position_text(self, turn: int, position: Mapping[str, object]) -> str:
        return dump_yaml(dict(position), header=f"Position at the start of turn {turn} "
                                                f"of {self.game.id}")

    def record(
        self, outcome: Outcome[Any], *, seed: int, orders_used: Mapping[str, str],
        report_text: str, next_deadline: datetime | None, adjudicated_at: datetime,
        orders: Mapping[str, Mapping[str, object]] | None = None, votes: Votes | None = None,
    ) -> TurnRecord:
        """Write the open turn's result and open the next turn.

        Order of writes: dice, events, report, the next turn's position, the
        turn's reports noted owed, then ``result.yaml`` (the mark that the turn
        is done), then the state index and game.yaml's deadline/status, each on
        disk before the next. Leftovers of a crash before ``result.yaml`` are
        set aside first.
        """
        game = self.game
        with game.lock():
            turn = game.turn
            tdir = turn_dir(game.dir, turn)
            before = game.position
            if self.is_adjudicated(turn):
                raise TurnError(f"turn {turn} of {game.id} was adjudicated already")
            next_pos = dict(outcome.position)
            next_pos["turn"] = turn + 1
            next_path = turn_dir(game.dir, turn + 1) / POSITION_FILE
            checked = game.check_position(YamlDoc(next_path, "", next_pos))  # never write what we
            files = self.files_of(                                 # could not read back
                turn, seed=seed, outcome=outcome, position=before, orders_used=orders_used,
                report_text=report_text, next_deadline=next_deadline,
                adjudicated_at=adjudicated_at, votes=votes)
            for path in [*(tdir / n for n in files), next_path]:
                no_links(game.dir, path)
                if path.exists():
                    set_aside(path)  # leftovers of an interrupted run
            written = []
            result_text = files.pop("result.yaml")
            with ordered():  # each file on disk before the next: result.yaml last
                for name, content in files.items():
                    written.append(write_new(tdir / name, content))
                next_text = self.position_text(turn + 1, next_pos)
                written.append(write_new(next_path, next_text))
                game.remember_view(turn + 1, next_text, checked)  # not read back, nor decoded
                # owed from the moment the turn is adjudicated, until the referee
                # has queued them (issue 40)
                no_links(game.dir, game.dir / OWED_FILE)
                write_owed(game.dir, (*read_owed(game.dir), turn), durable=True)
                # The state index is written anew before the turn is marked done: a
                # crash between the mark and the new state index is then seen by the
                # store's index of every process (it reads the folders again).
                game.write_schedule()
                written.append(write_new(tdir / "result.yaml", result_text))
                changes: dict[str, object] = {"deadline": next_deadline}
                if outcome.game_over:
                    changes["status"] = "finished"
                game.turn_played()
                game.change_settings(changes)
            return TurnRecord(
                game_id=game.id, turn=turn, seed=seed, position_before=before,
                position_after=next_pos,
                orders={k: dict(v) for k, v in (orders or {}).items()},
                events=tuple(outcome.events), dice=list(outcome.dice),
                game_over=outcome.game_over, winners=list(outcome.winners),
                next_deadline=next_deadline, report_text=report_text,
                adjudicated_at=adjudicated_at, files=tuple(written),
            )

    def reports_owed(self) -> tuple[int, ...]:
        """The adjudicated turns whose reports are owed, oldest first. Read under
        the game's lock, so that a turn being committed now is seen whole: a turn
        noted owed whose ``result.yaml`` was never written (the commit was cut
        short) is not adjudicated, and is taken off here."""
        game = self.game
        with game.lock():
            owed = read_owed(game.dir)
            played = tuple(t for t in owed if self.is_adjudicated(t))
            if played != owed:
                write_owed(game.dir, played, durable=False)
                game.reload()  # the state index written as the game is now
                game.write_schedule()
            return played

    def reports_queued(self, turn: int) -> None:
        """Every report of ``turn`` is on disk in the outgoing spool: the turn owes
        nothing more (the state index and the store's index follow)."""
        game = self.game
        with game.lock():
            owed = read_owed(game.dir)
            if turn in owed:
                write_owed(game.dir, tuple(t for t in owed if t != turn), durable=False)
                game.reload()  # the state index written as the game is now
                game.write_schedule()

    def replace(self, turn: int, name: str, content: str | bytes) -> Path | None:
        """Set a referee-written file aside (if any) and write its new version.

        Returns the name the old file was set aside under (None if there was none).
        """
        game = self.game
        with game.lock():
            path = no_links(game.dir, turn_dir(game.dir, turn) / name)
            old = set_aside(path) if path.exists() else None
            write_new(path, content)
            if name == POSITION_FILE:
                game.forget_views()
            return old


def _check_dice(doc: YamlDoc, dice: object) -> None:
    """A record's dice: a list of keyed rolls ``[move, purpose, who, value]``, or
    of values (an older record), one a line."""
    if not isinstance(dice, list):
        raise doc.error(("dice",), f"dice must be a list, one die a line: {_DIE}")
    keyed = any(isinstance(d, list) for d in dice)
    for i, d in enumerate(dice):
        if keyed:
            try:
                Roll.from_record(d)
            except ValueError as exc:
                raise doc.error(("dice", i), f"die {i + 1}: {exc}") from None
        elif isinstance(d, bool) or not isinstance(d, int) or d < 1:
            raise doc.error(("dice", i), f"die {i + 1}: {d!r} is not a die; one a line: "
                                         f"{_DIE} (an older record: the value, 1 up)")
