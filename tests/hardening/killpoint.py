"""``pbmref`` run with the process killing itself (SIGKILL) at a named point, for
kill tests of a real daemon that must die at one exact step:

    python tests/hardening/killpoint.py after-adjudication serve --config F

``after-adjudication``: as soon as a turn is adjudicated (its files written,
result.yaml last), before any of its reports is queued. ``before-smtp``,
``after-smtp``: around the first mail sent over SMTP. Whatever comes after
the point name is pbmref's command line.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Any


def _after_adjudication() -> None:
    from pbmref import gm

    real = gm.adjudicate

    def adjudicate(*args: Any, **kwargs: Any) -> Any:
        record = real(*args, **kwargs)
        if record is not None:
            os.kill(os.getpid(), signal.SIGKILL)
        return record

    gm.adjudicate = adjudicate


def _smtp(after: bool) -> None:
    """Around the first mail sent over SMTP: just before its data goes
    (``before-smtp``), or once the server answered that it has it, before the
    referee records it sent (``after-smtp``)."""
    from pbmref.mail.smtp_out import SmtpSender

    real = SmtpSender._send_on

    async def send_on(self: SmtpSender, client: Any, msg: Any) -> None:
        if not after:
            os.kill(os.getpid(), signal.SIGKILL)
        await real(self, client, msg)
        os.kill(os.getpid(), signal.SIGKILL)

    SmtpSender._send_on = send_on  # type: ignore[method-assign]


POINTS = {"after-adjudication": _after_adjudication,
          "before-smtp": lambda: _smtp(False), "after-smtp": lambda: _smtp(True)}


def main() -> int:
    point, *args = sys.argv[1:]
    POINTS[point]()
    from pbmref.cli import main as pbmref_main

    return int(pbmref_main(args) or 0)


if __name__ == "__main__":
    raise SystemExit(main())
