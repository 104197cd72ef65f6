"""``pbmref serve``: the long-running loop that reads the mailbox.

Each round: take in and answer waiting mail, adjudicate games that became
due early (every player has sent orders) or whose deadline passed, send
what waits in the outgoing spool; then wait for new mail (IMAP IDLE where
the server offers it, polling otherwise). SIGTERM and SIGINT end the loop
after the round in progress; a crash at any point loses nothing, because
every mail is in the spool before it is handled.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from dataclasses import dataclass
from types import FrameType

from pbmref.mail.base import Intake
from pbmref.referee.pipeline import Referee
from pbmref.referee.turns import adjudicate_due

log = logging.getLogger("pbmref.referee")


@dataclass
class Done:
    """What the daemon has done since it started (``pbmref serve --once`` says it)."""

    handled: int = 0  # mails taken in and answered
    adjudicated: int = 0  # turns
    sent: int = 0  # mails


class Daemon:
    def __init__(self, referee: Referee, intake: Intake, *, poll_seconds: float = 60.0) -> None:
        self.referee = referee
        self.intake = intake
        self.poll_seconds = poll_seconds
        self.stopping = False
        self.done = Done()

    def stop(self, signum: int | None = None, frame: FrameType | None = None) -> None:
        self.stopping = True

    def round(self) -> None:
        """One round of work; errors of one round are logged and the next goes on."""
        handled = self.referee.take_in(self.intake)
        due = adjudicate_due(self.referee)
        self.done.handled += handled
        self.done.adjudicated += len(due.adjudicated)
        self.done.sent += due.sent
        if handled or due.adjudicated or due.sent:
            log.info("handled %d mail(s), adjudicated %d turn(s), sent %d mail(s)",
                     handled, len(due.adjudicated), due.sent)

    def run(self, *, rounds: int | None = None) -> None:
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, self.stop)
            signal.signal(signal.SIGINT, self.stop)
        done = 0
        backoff = 1.0
        while not self.stopping and (rounds is None or done < rounds):
            try:
                self.round()
                backoff = 1.0
            except Exception:  # noqa: BLE001 - the daemon outlives a bad round
                log.exception("round failed; trying again in %.0f s", backoff)
                time.sleep(backoff)
                backoff = min(backoff * 2, 300.0)
                continue
            done += 1
            if rounds is not None and done >= rounds:
                break
            wait = self.poll_seconds
            due = self.referee.outgoing.next_due()
            if due is not None:
                wait = max(0.5, min(wait, (due - self.referee.clock()).total_seconds()))
            try:
                self.intake.wait(wait)
            except Exception:  # noqa: BLE001 - the intake reconnects on its next fetch
                log.warning("waiting for mail failed", exc_info=True)
                time.sleep(min(wait, 5.0))
        self.intake.close()
