"""The referee: the mail pipeline, deadlines and the daemon.

- ``pipeline.Referee``: mail in (spooled first), games changed, replies queued;
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

from collections.abc import Iterable

from pbmref.config import Config, load_config
from pbmref.referee.pipeline import Referee
from pbmref.referee.turns import queue_report
from pbmref.store import GameStore

__all__ = ["Referee", "mail_reports"]


def mail_reports(store: GameStore, game_id: str, turns: Iterable[int], *,
                 config: Config | None = None) -> int:
    """Mail corrected reports of ``turns`` (after ``pbmref rerun --mail``)."""
    referee = Referee(config or load_config(), store=store)
    game = store.open(game_id)
    count = sum(queue_report(referee, game, t, corrected=True) for t in turns)
    referee.deliver()
    return count
