"""``pbmref serve``: the long-running loop that reads the mailbox.

Each round: take in and answer waiting mail, sending the replies as soon as
they are safely queued; then adjudicate games that became due early (every
player has sent orders) or whose deadline passed, send reminders and
reports; then wait for new mail (IMAP IDLE where the server offers it,
polling otherwise), for the next retry of a queued mail, or for the next
game's deadline or reminder, whichever comes first. A round looks at the
games folder once (``Referee.round``): its cost follows the mail in hand
and the games that are due, not the number of games. A daemon that runs on
(``watch_games``) has the store's index watch the games folder (inotify,
``GameIndex.watch``), so that its look stats only the games that changed; a
one-shot pass (``--once``) stats every game once, from the index file.

After its first round the daemon settles (``base.collector.settle``): the
code, the rulesets and what it keeps of the games are kept out of the cycle
collector's later collections, which then walk only what a round makes.

SIGTERM and SIGINT end the loop within a second when it waits (also in the
middle of an IDLE), or after the round in progress; a crash at any point
loses nothing, because every mail is in the spool before it is handled.
When the loop returns, or raises, its caller gets back its own signal
handlers and a heap as it was (nothing the daemon froze stays frozen).
"""

from __future__ import annotations

import contextlib
import logging
import signal
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from types import FrameType

from pbmref import __version__
from pbmref.base import collector
from pbmref.mail.base import Intake, IntakeError
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
    def __init__(self, referee: Referee, intake: Intake, *, poll_seconds: float = 60.0,
                 watch_games: bool = False) -> None:
        self.referee = referee
        if watch_games:
            referee.store.index.watch()
        self.intake = intake
        self.poll_seconds = poll_seconds
        self.stopping = False
        self.done = Done()
        self._stopped = threading.Event()

    def stop(self, signum: int | None = None, frame: FrameType | None = None) -> None:
        """End the loop: at once when it waits, else after the round in progress."""
        self.stopping = True
        self._stopped.set()
        self.intake.interrupt()

    def round(self) -> None:
        """One round of work; errors of one round are logged and the next goes on."""
        sent_before = self.referee.outgoing.sent_count
        with self.referee.round():
            due = adjudicate_due(self.referee, self.intake)  # takes in the mail first
        handled = due.taken_in
        sent = self.referee.outgoing.sent_count - sent_before  # replies and reports
        self.done.handled += handled
        self.done.adjudicated += len(due.adjudicated)
        self.done.sent += sent
        if handled or due.adjudicated or sent:
            log.info("handled %d mail(s), adjudicated %d turn(s), sent %d mail(s)",
                     handled, len(due.adjudicated), sent)

    def _wait_seconds(self) -> float:
        """Until the next poll, the next retry of a queued mail or the next game's
        deadline or reminder, whichever comes first (at least half a second)."""
        now = self.referee.clock()
        wait = self.poll_seconds
        for when in (self.referee.outgoing.next_due(), self.referee.store.index.next_event(now)):
            if when is not None:
                wait = min(wait, (when - now).total_seconds())
        return max(0.5, wait)

    def run(self, *, rounds: int | None = None) -> None:
        """Round after round until stopped (or until ``rounds`` rounds were done);
        a round that fails is tried again after a back-off. A mailbox that
        cannot be read is one line in the log (its details at debug level),
        never a traceback: it is the server's state, not a fault of ours."""
        with self._running():
            done = 0
            backoff = 1.0
            while not self.stopping and (rounds is None or done < rounds):
                try:
                    self.round()
                    backoff = 1.0
                except IntakeError as exc:
                    if self.stopping:
                        break  # the stop cut its reconnecting short: nothing to tell
                    log.warning("the mailbox cannot be read: %s; trying again in %.0f s",
                                exc, backoff)
                    log.debug("the mailbox cannot be read", exc_info=True)
                    self._stopped.wait(backoff)
                    backoff = min(backoff * 2, 300.0)
                    continue
                except Exception:  # the daemon outlives a bad round
                    log.exception("round failed; trying again in %.0f s", backoff)
                    self._stopped.wait(backoff)
                    backoff = min(backoff * 2, 300.0)
                    continue
                done += 1
                if done == 1:
                    collector.settle()  # what it holds now lives as long as the loop
                if self.stopping or (rounds is not None and done >= rounds):
                    break
                wait = self._wait_seconds()
                try:
                    self.intake.wait(wait)
                except Exception:  # the intake reconnects on its next fetch
                    log.warning("waiting for mail failed", exc_info=True)
                    self._stopped.wait(min(wait, 5.0))

    def once(self) -> None:
        """One round, then stop (``pbmref serve --once``). A round that fails is
        not tried again: its error goes to the caller (a mailbox that cannot
        be read raises ``IntakeError``; the next run tries again)."""
        with self._running():
            self.round()

    @contextlib.contextmanager
    def _running(self) -> Iterator[None]:
        """SIGTERM and SIGINT stop the daemon while it runs; after it (also when
        it raises) the caller's handlers are back, the heap as it was
        (``collector.given_back``), the mailbox and the watches let go."""
        try:
            with self._signals(), collector.given_back():
                yield
                self.referee.store.index.save_if_worth()
        finally:
            self.close()

    @contextlib.contextmanager
    def _signals(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield  # only the main thread may set handlers; its owner stops this one
            return
        before = {sig: signal.signal(sig, self.stop) for sig in (signal.SIGTERM, signal.SIGINT)}
        try:
            yield
        finally:
            for sig, handler in before.items():
                # None: a handler not set from Python; the default is all Python can put back
                signal.signal(sig, signal.SIG_DFL if handler is None else handler)

    def start_line(self, *, once: bool = False) -> str:
        """What the daemon says when it starts (its log's first line, which
        ``journalctl -u pbmref`` shows): its version, its config file, its
        mailbox, how many games it keeps, and its mode."""
        config = self.referee.config
        if config.mail.mode == "imap":
            imap = config.mail.imap
            mailbox = f"{imap.user} at {imap.host}" + (f":{imap.port}" if imap.port else "") + (
                f", folder {imap.folder}")
        else:
            mailbox = f"the Maildir {config.mail.maildir.inbox}"
        games = len(self.referee.store.list_games())
        source = config.source or "none (the built-in defaults)"
        return (f"pbmref {__version__} starts: config {source}; mailbox {mailbox}; "
                f"{games} game{'s' if games != 1 else ''} in {config.games_dir}; "
                f"mode {config.mail.mode}, " + ("one round" if once else "until stopped"))

    def close(self) -> None:
        """Let go of the mailbox and of the watches on the games folder."""
        self.referee.store.index.stop_watching()
        self.intake.close()
