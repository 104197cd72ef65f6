"""The one way a test waits: on a condition it can observe (a mail in a
mailbox, a line in a log, a port that answers, a client in IDLE), polled with a
bound, never a sleep that hopes the other side is ready by then.

>>> wait_until(lambda: 42, what="the answer")
42
>>> wait_until(lambda: False, what="nothing", timeout=0.01)
Traceback (most recent call last):
AssertionError: waited 0.01 s for nothing
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_until(done: Callable[[], T], *, what: str, timeout: float = 60.0, step: float = 0.05,
               alive: subprocess.Popen[bytes] | None = None,
               said: Callable[[], str] | None = None) -> T:
    """Ask ``done`` every ``step`` seconds until it answers something true, and
    return that. Past ``timeout`` seconds (or when the process ``alive`` has
    ended) the test fails, naming ``what`` it waited for and adding ``said()``
    (a log, say). The bound is generous: it is only reached when something is
    wrong, so a loaded machine does not make the test fail."""
    end = time.monotonic() + timeout
    while True:
        answer = done()
        if answer:
            return answer
        if alive is not None and alive.poll() is not None:
            raise AssertionError(f"the process ended (status {alive.returncode}) before "
                                 f"{what}" + (f":\n{said()}" if said else ""))
        if time.monotonic() >= end:
            raise AssertionError(f"waited {timeout:g} s for {what}"
                                 + (f":\n{said()}" if said else ""))
        time.sleep(step)
