"""``--json``: what a command says, as one JSON document for the game master's scripts.

``status``, ``check``, ``roster``, ``press``, ``rules`` and ``mail shunted``
take ``--json``: instead of lines for a person they print one JSON object,
``{"format": "pbmref/1", "command": "status", ...}``, described in
docs/json.md. The ``format`` names the shape's version: a key is only ever
added within it; one removed or changed in meaning makes it ``pbmref/2``.
Times are ISO 8601 with their offset, absent values ``null``. The exit
status is the same as without ``--json``.

>>> import io, contextlib
>>> out = io.StringIO()
>>> with contextlib.redirect_stdout(out):
...     emit("rules", rules=[])
>>> out.getvalue()
'{"format": "pbmref/1", "command": "rules", "rules": []}\\n'
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from pbmref.base.errors import GameFileError
from pbmref.base.times import format_duration

__all__ = ["FORMAT", "add_json", "emit", "problem", "when"]

FORMAT = "pbmref/1"


def add_json(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true",
                   help=f"print one JSON object for scripts (shape {FORMAT}, docs/json.md)")


def emit(command: str, **data: Any) -> None:
    """Print the command's JSON document (one line)."""
    doc = {"format": FORMAT, "command": command, **data}
    sys.stdout.write(json.dumps(doc, ensure_ascii=False) + "\n")


def when(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def problem(error: Exception) -> dict[str, object]:
    """A problem found in a game's files: ``file``, ``line`` (or null), ``message``."""
    if isinstance(error, GameFileError):
        return {"file": str(error.file), "line": error.line, "message": error.message,
                "rule": error.rule or None}
    return {"file": None, "line": None, "message": str(error), "rule": None}


def strings(values: Iterable[object]) -> list[str]:
    return [str(v) for v in values]


def game_status(s: Any) -> dict[str, object]:
    """One game of ``status --json`` (a ``gm.GameStatus``)."""
    return {
        "id": s.id, "title": s.title, "ruleset": s.ruleset, "status": s.status,
        "turn": s.turn, "label": str(s.label), "deadline": when(s.deadline),
        "timezone": s.timezone, "observers": strings(s.observers),
        "early": {"adjudication": s.early_delay is not None,
                  "delay": format_duration(s.early_delay) if s.early_delay is not None
                  else None},
        "players": [{"id": p.id, "name": p.name, "status": p.status, "computer": p.computer,
                     "orders_in": p.has_orders, "waited_for": p.owes and not p.has_orders
                     and not p.computer and p.status == "active", "mails": p.mails}
                    for p in s.players],
    }


def password_failures(found: Iterable[Any]) -> list[dict[str, object]]:
    """The mails with a wrong or missing password of one game, per player."""
    return [{"player": f.player, "last_hour": f.last_hour, "last_day": f.last_day,
             "total": f.total, "last_at": when(f.last_at), "last_from": f.last_from}
            for f in found]
