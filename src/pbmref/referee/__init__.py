"""The referee: the mail pipeline, deadlines and the daemon.

- ``pipeline.Referee``: the runner: mail in (spooled first), games changed,
  replies rationed and queued, mails marked, replies delivered; what one mail
  does is ``intake`` (who sent it, which game), ``handlers`` (an identified
  player's mail: password, orders), ``commands`` (HELP ... MAP), ``press``
  (press and votes), ``rations`` (how many replies, to whom), ``answers``
  (the reply as a mail) and ``letter`` (the values they hand on);
- ``turns.adjudicate_due``: what cron runs at deadlines;
- ``daemon.Daemon``: ``pbmref serve``;
- ``replies``: the words of every reply; ``guide``: what HELP answers;
  ``welcome``: the welcome mail of a new player; ``state``: the referee's
  bookkeeping.

It sits on the game master's operations (``pbmref.gm``, which it calls to
adjudicate), the archive, the mail layer and the store; only the command
line and the demo sit above it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pbmref.config import Config, load_config
from pbmref.gm import Notice
from pbmref.referee.pipeline import Referee
from pbmref.referee.turns import Correction, queue_notice, queue_report
from pbmref.reports.model import TurnReport
from pbmref.store import Game, GameStore

__all__ = ["Referee", "mail_notice", "mail_reports"]


def mail_reports(store: GameStore, game_id: str, turns: Iterable[int], *,
                 config: Config | None = None, why: str = "",
                 before: Mapping[int, TurnReport[Any]] | None = None,
                 new_dice: Mapping[int, Sequence[str]] | None = None) -> int:
    """Mail corrected reports of ``turns`` (after ``pbmref rerun --mail``): each
    opens with the game master's reason ``why``, what changed for its reader
    (against ``before``, the reports as they were) and the dice the re-run rolled
    that the turn had not (``new_dice``, by turn)."""
    referee = Referee(config or load_config(), store=store)
    game = store.open(game_id)
    before = before or {}
    new_dice = new_dice or {}
    last = game.turn - 1  # its report names the open turn's deadline
    now = open_turn_plans(game) if game.settings.status == "open" else {}
    count = sum(queue_report(referee, game, t, corrected=Correction(
        why, before.get(t), tuple(new_dice.get(t, ())),
        deadline=game.settings.deadline if t == last else None,
        plans=now if t == last else {})) for t in turns)
    referee.deliver()
    return count


def open_turn_plans(game: Game) -> dict[str, tuple[str, ...]]:
    """The preview of every player's orders in for the open turn, from the
    position it starts from now (after a re-run: the corrected one)."""
    state, rules = game.open.state, game.ruleset
    return {pid: tuple(rules.preview(state, pid, rules.decode_orders(state, pid, f.entry)))
            for pid, f in game.book.in_force(check=False).items() if f.entry}


def mail_notice(store: GameStore, notice: Notice, *, config: Config | None = None) -> int:
    """Mail a game master's notice (``pbmref pause``, ``resume``, ``extend``)."""
    referee = Referee(config or load_config(), store=store)
    count = queue_notice(referee, notice)
    referee.deliver()
    return count
