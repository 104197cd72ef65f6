"""Reports owed: the adjudicated turns whose reports the referee has not queued yet.

``reports-owed.yaml`` in a game folder lists them (``turns: [3, 4]``). The
turn commit (``History.record``) adds the turn it adjudicates and flushes the
file before it writes the turn's ``result.yaml``: from the moment a turn is
adjudicated its reports are owed, whatever stops the referee after that and
however many turns are played before it runs again. The referee takes a turn
off once every copy of its report is on disk in the outgoing spool, which
sends each once (``History.reports_queued``); the file is gone when nothing
is owed. A game folder without the file owes nothing (so a game played by
an earlier version, or whose referee lost its own bookkeeping, is never
mailed its old reports again).

The state index (``state.yaml``) carries the list too, so that the store's
index knows which games owe reports without reading any game folder; this
file is the truth when the two differ (the state index is not flushed).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from pbmref.base.files import replace_file
from pbmref.base.yamlfile import YamlDoc, dump_yaml, stored_value

__all__ = ["OWED_FILE", "read_owed", "write_owed"]

OWED_FILE = "reports-owed.yaml"


def _turns(doc: YamlDoc) -> tuple[int, ...]:
    data = doc.mapping()
    turns = data.get("turns")
    unknown = sorted(str(k) for k in data if k != "turns")
    if unknown:
        raise doc.error((unknown[0],), f"unknown key {unknown[0]!r}; the one key is 'turns'")
    if not isinstance(turns, list) or not all(
            isinstance(t, int) and not isinstance(t, bool) and t >= 1 for t in turns):
        raise doc.error(("turns",), "turns must be a list of turn numbers (1, 2, ...)")
    return tuple(sorted(set(turns)))


def read_owed(game_dir: Path | str) -> tuple[int, ...]:
    """The turns whose reports are owed, oldest first (none without the file);
    a file the game master broke raises GameFileError with its line. Read once
    a version of the file in the process; a game that owes nothing costs a
    stat."""
    path = os.path.join(game_dir, OWED_FILE)
    if not os.path.exists(path):
        return ()
    return stored_value(path, ("reports-owed",), _turns)


def write_owed(game_dir: Path | str, turns: tuple[int, ...], *, durable: bool) -> None:
    """Write the turns owed (the file deleted when there are none). ``durable``:
    flushed to disk before this returns (a turn added: it must be on disk
    before the turn's result); a turn taken off need not be (a power cut that
    undoes it makes the referee queue that turn's reports again, under the keys
    the outgoing spool already knows)."""
    path = Path(game_dir) / OWED_FILE
    if not turns:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        return
    replace_file(path, dump_yaml({"turns": sorted(set(turns))}, header=(
        "Written by the referee: the turns adjudicated whose reports are not yet queued "
        "for mailing. Each goes once the reports are.")), durable=durable)
