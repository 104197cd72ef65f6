"""Short notices to the players, and the opening of a corrected report.

The game master's changes that players must know of: a pause, a resume, a
deadline moved (``pbmref pause``, ``resume``, ``extend``), each a few lines
that fit a phone; and the block a corrected report opens with after
``pbmref rerun --mail --why "..."``. Pure text from plain values.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from pbmref.reports.common import fit_width, format_deadline, wrap
from pbmref.reports.document import Para, Section

__all__ = ["correction_section", "extend_notice", "pause_notice", "resume_notice"]


def correction_section(label: str, why: str, changed: str,
                       new_dice: Sequence[str] = (),
                       plans: Sequence[tuple[str, Sequence[str]]] = ()) -> Section:
    """What a corrected report opens with: who corrected which turn, why, in one
    line what changed for the reader, the dice the correction rolled that the
    turn had not (V5: ``move 1 fire anna (4, 2)``), and for a reader with
    orders in for the next turn (``plans``: player, preview lines) that they
    now start from the corrected position, with their preview redone."""
    blocks = [Para(f"The game master corrected {label}.", 2, 2, strong=True)]
    if why.strip():
        blocks.append(Para(f"Why: {' '.join(why.split())}", 2, 2))
    blocks.append(Para(changed, 2, 2))
    if new_dice:
        blocks.append(Para("Dice the turn had not rolled were rolled now, from the game's "
                           f"seeded dice: {'; '.join(new_dice)}.", 2, 2))
    for _player, preview in plans:
        blocks.append(Para("Your orders already in for the next turn now start from the "
                           "corrected position. What they do from there:", 2, 2))
        blocks += [Para(line, 4, 6) for line in preview]
        blocks.append(Para("If that is not what you meant, send new orders before the "
                           "deadline.", 2, 2))
    blocks.append(Para("The corrected report follows; it replaces the one you had.", 2, 2))
    return Section("CORRECTED REPORT", blocks, "personal")


def _notice(lines: list[str]) -> str:
    out: list[str] = []
    for line in lines:
        out += wrap(line, "", "") if line else [""]
    return "\n".join(fit_width(out)) + "\n"


def pause_notice(game: str, title: str, turn: str) -> str:
    """Mailed to every player when the game master pauses the game.

    >>> print(pause_notice("zep1", "The Zeppelin Raid", "turn 7"), end="")
    The Zeppelin Raid (game zep1) is paused by the game master.
    <BLANKLINE>
    Nothing is adjudicated until it resumes; you will be told then, with
    the deadline of turn 7. Orders you sent stay in force; new order mail
    is answered but not taken while the game is paused.
    """
    return _notice([f"{title or game} (game {game}) is paused by the game master.", "",
                    f"Nothing is adjudicated until it resumes; you will be told then, with "
                    f"the deadline of {turn}. Orders you sent stay in force; new order mail "
                    "is answered but not taken while the game is paused."])


def resume_notice(game: str, title: str, turn: str, deadline: datetime | None,
                  timezone: str = "UTC") -> str:
    """Mailed to every player when the game goes on after a pause."""
    return _notice([f"{title or game} (game {game}) goes on: the game master resumed it.", "",
                    f"Orders for {turn} by {format_deadline(deadline, timezone)}.",
                    "Orders you sent before the pause stay in force."])


def extend_notice(game: str, title: str, turn: str, deadline: datetime | None,
                  timezone: str = "UTC") -> str:
    """Mailed to every player when the game master moves the deadline."""
    return _notice([f"The deadline of {turn} in {title or game} (game {game}) has moved.", "",
                    f"New deadline: {format_deadline(deadline, timezone)}.",
                    "Orders you sent stay in force; you may still change them until then."])
