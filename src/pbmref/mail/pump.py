"""Moving mail from an intake into the incoming spool, the crash-safe way."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from pbmref.mail.base import Intake
from pbmref.mail.spool import IncomingSpool, InEntry

__all__ = ["TakeInReport", "finish", "set_aside", "take_in"]

log = logging.getLogger(__name__)


@dataclass
class TakeInReport:
    new: list[InEntry] = field(default_factory=list)  # saved now, waiting to be handled
    duplicates: int = 0  # already spooled (seen before)
    remarked: int = 0  # already handled earlier: marked handled on the server again


def take_in(intake: Intake, spool: IncomingSpool) -> TakeInReport:
    """Save every new mail of `intake` in `spool` before anything else happens to it.

    A mail the spool already finished (done or shunted) - e.g. because the process
    died between handling it and moving it on the server - is marked handled now.
    A mail still pending in the spool is left alone: it will be handled from the spool.
    """
    report = TakeInReport()
    for raw in intake.fetch_new():
        entry = spool.save(raw)
        if not entry.duplicate:
            report.new.append(entry)
            continue
        report.duplicates += 1
        if entry.state in ("done", "shunt"):
            intake.mark_handled(raw.key)
            report.remarked += 1
    return report


def finish(intake: Intake, spool: IncomingSpool, entry: InEntry) -> InEntry:
    """After the game was saved: spool entry to done, then the server copy to handled.
    Returns the entry as it is now (in done/)."""
    done = spool.done(entry)
    intake.mark_handled(entry.intake_key)
    return done


def set_aside(intake: Intake, spool: IncomingSpool, entry: InEntry, reason: str) -> InEntry:
    """Shunt a mail that cannot be handled, and move the server copy out of the way."""
    shunted = spool.shunt(entry, reason)
    intake.mark_handled(entry.intake_key)
    return shunted
