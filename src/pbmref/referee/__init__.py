"""The referee (layer 5): the mail pipeline, deadlines and the daemon.

- ``pipeline.Referee``: mail in (spooled first), games changed, replies queued;
- ``turns.adjudicate_due``: what cron runs at deadlines;
- ``daemon.Daemon``: ``pbmref serve``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbmref.config import Config
    from pbmref.store import GameStore


def mail_reports(store: GameStore, game_id: str, turns: Iterable[int], *,
                 config: Config | None = None) -> int:
    """Mail corrected reports of ``turns`` (after ``pbmref rerun --mail``)."""
    from pbmref.config import load_config
    from pbmref.referee.pipeline import Referee
    from pbmref.referee.turns import queue_report

    referee = Referee(config or load_config(), store=store)
    game = store.open(game_id)
    count = sum(queue_report(referee, game, t, corrected=True) for t in turns)
    referee.deliver()
    return count
