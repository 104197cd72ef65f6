"""How far a long command is: one line kept up to date on a terminal, nothing in cron.

``render``, ``rerun`` and ``backup`` take a while on a long game or a big
house. On a terminal the game master sees where they are (``render dip1:
turn 40 of 77``), written over in place and wiped when the command ends; when
standard error is not a terminal (cron, a pipe, a test) nothing is written,
so a cron job's mail holds only what the command says at its end.

>>> import io
>>> quiet = Progress("render zep1", io.StringIO())
>>> quiet.step("turn 1 of 3"); quiet.done()
>>> quiet.stream.getvalue()
''
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

__all__ = ["Progress"]


class Progress:
    """Says ``what: step`` over the last step, on a terminal only."""

    def __init__(self, what: str, stream: TextIO | None = None) -> None:
        self.what = what
        # the stream under ``cli._Visible``: the carriage return that writes a
        # line over is ours, not a mail's, and must reach the terminal
        given: Any = stream if stream is not None else sys.stderr
        self.stream: TextIO = getattr(given, "stream", given)
        self.shown = _is_terminal(self.stream)
        self._width = 0

    def step(self, said: str) -> None:
        if not self.shown:
            return
        line = f"{self.what}: {said}"
        self.stream.write("\r" + line.ljust(self._width))
        self.stream.flush()
        self._width = len(line)

    def turn(self, done: int, total: int) -> None:
        """``turn 3 of 40``: a callback for the loops over turns."""
        self.step(f"turn {done} of {total}")

    def done(self) -> None:
        """Wipe the line, so that what the command says next starts clean."""
        if self.shown and self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
        self._width = 0


def _is_terminal(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # a closed or odd stream: say nothing
        return False
