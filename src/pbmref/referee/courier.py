"""The courier: a round's replies sent part by part while the round goes on.

The daemon answers a round of mail in parts (``pipeline.ROUND_PART`` mails
each): a part's game changes and replies reach the disk in one flush, then its
replies are handed to the courier, which sends them on a thread of its own
over the round's one SMTP connection while the referee handles the next part. Waiting
on the mail server (for most of a send) is then spent on the next mails rather
than idle. The durability order of each mail is unchanged: its reply leaves
only after its game change is on disk, and no mail of the round is marked
handled before every reply is sent or queued (``Referee.process_spool``).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Collection
from types import TracebackType

from pbmref.mail.base import Sender, session_of

__all__ = ["Courier"]

Deliver = Callable[[Collection[str] | None], object]


class Courier:
    """Sends what it is handed on a thread of its own (``with Courier(...)``).

    ``deliver(ids)`` sends the held replies ``ids`` (and the queue's due
    mails, older than they); ``deliver(None)`` every held reply not sent yet,
    which the courier calls once at the end of a ``with`` block that ended
    well. Leaving the
    block waits for the thread; what it raised (a ``BaseException`` too: a
    test's simulated kill) is raised there, in the round's thread."""

    def __init__(self, sender: Sender, deliver: Deliver) -> None:
        self._sender = sender
        self._deliver = deliver
        self._parts: queue.SimpleQueue[Collection[str] | None | _Stop] = queue.SimpleQueue()
        self._handed: set[str] = set()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="pbmref-courier", daemon=True)

    def __enter__(self) -> Courier:
        self._thread.start()
        return self

    def hand(self, ids: Collection[str]) -> None:
        """Send these held replies (their game changes are on disk)."""
        self._raise()
        new = [i for i in ids if i not in self._handed]
        if new:
            self._handed.update(new)
            self._parts.put(new)

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        # the round ended well: the rest goes too; else the thread sends what it
        # was handed (on disk already) and stops
        self._parts.put(None if exc is None else _Stop())
        self._thread.join()
        if exc is None:
            self._raise()

    def _raise(self) -> None:
        if self._error is not None:
            error, self._error = self._error, None
            raise error

    def _run(self) -> None:
        try:
            with session_of(self._sender):  # the round's one connection
                while True:
                    part = self._parts.get()
                    if isinstance(part, _Stop):
                        return
                    self._deliver(part)
                    if part is None:
                        return
        except BaseException as exc:  # noqa: BLE001 - raised in the round's thread
            self._error = exc


class _Stop:
    """The round ended by an error: nothing more is sent."""
