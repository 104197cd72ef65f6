"""The end of a game (J14): the final report mailed to everyone in it.

When an adjudication ends a game (a victory, a concession, a draw that
passes), the deadline job queues, after the last turn's report, one more
mail to every player and observer: the final report (``archive.final``:
how the game ended, who played what, the centre chart year by year),
rendered by ``reports.final``. It is keyed by game and address, so it goes
once, however often the job runs.
"""

from __future__ import annotations

from collections.abc import Iterable

from pbmref.archive import final_report
from pbmref.referee.pipeline import Referee
from pbmref.reports.final import render_final_text
from pbmref.store import Game

__all__ = ["queue_final_report"]


def queue_final_report(referee: Referee, game: Game, readers: Iterable[str]) -> int:
    """Queue the final report of a finished ``game`` to each of ``readers``
    (addresses); how many were queued (none while the game goes on)."""
    final = final_report(game)
    if final is None:
        return 0
    text = render_final_text(final)
    count = 0
    for address in dict.fromkeys(readers):
        referee.outgoing.enqueue(referee.mail_to(address, f"[{game.id}] final report", text),
                                 key=f"final:{game.id}:{address}")
        count += 1
    return count
