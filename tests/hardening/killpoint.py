"""``pbmref`` run with the process killing itself (SIGKILL) at a named point, for
kill tests of a real daemon that must die at one exact step:

    python tests/hardening/killpoint.py after-adjudication serve --config F

``after-adjudication``: as soon as a turn is adjudicated (its files written,
result.yaml last), before any of its reports is queued. Whatever comes after
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


POINTS = {"after-adjudication": _after_adjudication}


def main() -> int:
    point, *args = sys.argv[1:]
    POINTS[point]()
    from pbmref.cli import main as pbmref_main

    return int(pbmref_main(args) or 0)


if __name__ == "__main__":
    raise SystemExit(main())
