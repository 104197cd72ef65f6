"""Playing a turn: the one pipeline ``adjudicate`` and ``rerun`` share.

``play`` takes a turn's position (a ``TurnView``), the orders in force, the
dice seed and, for a re-run, the dice recorded the first time (V5); it asks
the game's ruleset for the outcome (``outcome_of``), builds the report data
and renders the report text. ``adjudicate`` plays the open turn once, when it is due, and
records it; ``pbmref.gm.rerun`` plays recorded turns again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pbmref.archive import report_of
from pbmref.gm.roster import follow_quietly
from pbmref.reports.model import TurnReport
from pbmref.rules.dice import Replay
from pbmref.rulesets import Outcome, Votes
from pbmref.store import (
    Game,
    GameSettings,
    GameStore,
    OrdersFile,
    TurnRecord,
    TurnView,
    derive_turn_seed,
)
from pbmref.store.deadlines import next_deadline

__all__ = ["PlayedTurn", "adjudicate", "deadline_after", "outcome_of", "play"]


@dataclass(frozen=True)
class PlayedTurn:
    """A turn played: what the ruleset made of it and what the report says."""

    turn: int
    seed: int
    outcome: Outcome[Any]
    orders: dict[str, dict[str, object]]  # the entries used, per player
    orders_used: dict[str, str]  # player -> the orders file used
    report: TurnReport[Any]
    report_text: str
    next_deadline: datetime | None


def outcome_of(game: Game, view: TurnView, in_force: Mapping[str, OrdersFile], *, seed: int,
               replay: Replay | None = None, settings: GameSettings | None = None,
               votes: Votes | None = None
               ) -> tuple[Outcome[Any], dict[str, dict[str, object]], dict[str, str]]:
    """The adjudication alone: what the ruleset makes of a turn, with the entries
    used and the orders file of each player (``play`` without the report).
    ``in_force`` is the book's for ``view`` (``OrderBook.in_force``): the typed
    orders its check decoded are played, an entry not yet decoded is decoded
    here. Orders of players who are not active (kicked, removed) are left out; the
    standing ``votes`` may end the game in a draw or a concession
    (``Ruleset.settle_votes``)."""
    players = (settings or game.settings).players
    usable = {p: f for p, f in in_force.items() if p in players and players[p].active}
    orders = {p: dict(f.entry or {}) for p, f in usable.items()}
    typed = {p: game.ruleset.decode_orders(view.state, p, orders[p]) if f.orders is None
             else f.orders for p, f in usable.items()}
    outcome = game.ruleset.adjudicate(view.position, typed, seed, replay, state=view.state)
    if votes is not None:
        outcome = game.ruleset.settle_votes(view.position, outcome, votes)
    return outcome, orders, {p: f.path.name for p, f in usable.items()}


def deadline_after(game: Game, now: datetime) -> Callable[[Mapping[str, object]], datetime]:
    """Where the deadline of the turn that follows an adjudication at ``now``
    falls, given that turn's position (``store.deadlines.next_deadline``: the
    clock of its kind, J8; the minimum gap, J9; the active players' absences,
    J11; the days allowed, J8)."""
    s = game.settings
    absences = game.absences.spans(p.id for p in s.humans())

    def at(position: Mapping[str, object]) -> datetime:
        length = s.deadlines.clock(game.ruleset.clock_kind(position), s.turn_length)
        return next_deadline(s.deadlines, s.deadline, length, now, s.zone, absences)

    return at


def play(game: Game, view: TurnView, in_force: Mapping[str, OrdersFile], *, seed: int,
         next_deadline: datetime | None | Callable[[Mapping[str, object]], datetime],
         replay: Replay | None = None, settings: GameSettings | None = None,
         votes: Votes | None = None) -> PlayedTurn:
    """Play one turn (``outcome_of``), then build its report data and text; a
    game that ends has no next deadline. ``settings`` are the game's as they
    were in that turn (a re-run; default: as they are now). ``next_deadline``
    may be worked out from the next turn's position (``deadline_after``)."""
    settings = settings or game.settings
    outcome, orders, used = outcome_of(game, view, in_force, seed=seed, replay=replay,
                                       settings=settings, votes=votes)
    if callable(next_deadline):
        next_deadline = next_deadline(outcome.position)
    if outcome.game_over:
        next_deadline = None
    report = report_of(game, view.turn, dict(view.position), outcome, orders, next_deadline,
                       settings=settings)
    return PlayedTurn(view.turn, seed, outcome, orders, used, report,
                      game.ruleset.render_report(report), next_deadline)


def adjudicate(store: GameStore, game_id: str, now: datetime, *,
               force: bool = False, game: Game | None = None) -> TurnRecord | None:
    """Adjudicate the game's open turn if it is due (or ``force``); exactly once.

    The game lock is taken, then the game is read again: a second caller that
    waited for the lock finds the turn done (or not due any more) and returns
    None. Raises GameFileError when a file of the game is broken (nothing is
    written then). The referee mails the report afterwards. A game whose pilots
    have careers brings the roster up to date with the turn (FP16). ``game``:
    the game already open (the referee's deadline opens it once), else it is
    opened here.
    """
    game = game if game is not None else store.open(game_id)
    seen_turn = game.turn
    with game.lock():
        game.reload()
        if game.turn != seen_turn or game.history.is_adjudicated(game.turn):
            return None  # somebody else adjudicated it while we waited
        if game.settings.status != "open":
            return None
        if not force and not game.schedule.is_due(now):
            return None
        s = game.settings
        votes = game.votes.votes((p.id for p in s.humans()), secret=s.draws.secret)
        played = play(game, game.open, game.book.in_force(),
                      seed=derive_turn_seed(s.seed, game.turn),
                      next_deadline=deadline_after(game, now),
                      votes=votes)
        record = game.history.record(
            played.outcome, seed=played.seed, orders_used=played.orders_used,
            report_text=played.report_text, next_deadline=played.next_deadline,
            adjudicated_at=now, orders=played.orders, votes=votes)
    if game.ruleset.careers:
        follow_quietly(store, game_id, record.turn)
    return record
