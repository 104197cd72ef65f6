"""The game master told of incoming mail set aside (issue 44, item 7).

A mail whose handling raised (or that killed the referee each time it was
handled alone, issue 40) is set aside in the spool's ``shunt/``, its sender
told. The game master (``referee.game_master``) gets one notice naming each
such mail once, at the end of the round that set it aside, or the first
round after a crash that came before the notice went.
"""

from __future__ import annotations

import hashlib
import logging
from typing import TYPE_CHECKING

from pbmref.mail.health import set_aside_notice

if TYPE_CHECKING:
    from pbmref.referee.pipeline import Referee

__all__ = ["tell_set_aside"]

log = logging.getLogger("pbmref.referee")


def tell_set_aside(referee: Referee) -> int:
    """Queue one notice to the game master naming each mail set aside that no
    notice named yet; returns how many it names (0: none new, or no game master)."""
    address = referee.config.referee.game_master
    if not address:
        return 0
    shunted = referee.incoming.shunted()
    if not shunted:
        return 0
    ids = [entry.id for entry, _ in shunted]
    new = set(referee.state.first_times("set-aside-told", ids, referee.clock(),
                                        referee.config.limits.retention))
    told = [(entry.id, entry.sender, entry.message_id, reason)
            for entry, reason in shunted if entry.id in new]
    if not told:
        return 0
    subject, text = set_aside_notice(told)
    digest = hashlib.sha256(" ".join(sorted(new)).encode()).hexdigest()[:16]
    referee.outgoing.enqueue(referee.mail_to(address, f"[pbmref] {subject}", text),
                             key=f"set-aside:{digest}")
    log.warning("told the game master of %d mail(s) set aside", len(told))
    return len(told)
