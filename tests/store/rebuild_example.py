"""Rebuild the played part of ``docs/example-game`` (turn 1's mails and result,
turn 2 open).

Run after the engine or the report renderer changed, so the example shows
their current output: ``.venv/bin/python tests/store/rebuild_example.py``.
Only ``game.yaml`` and ``turns/001/position.yaml`` are the hand-written source.
The game is played as ``example`` in a games folder of its own (a temporary
one), then copied back: the example is never in a games folder of the clone,
where a referee run from the clone would play it (issue 44).
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from pbmref import gm
from pbmref.store import GameStore

ZONE = ZoneInfo("Europe/Amsterdam")
TURN1 = {
    "baron": ({"takeoff": "BETA", "plane": ["A", "A", "A"], "zeppelin": ["A", "L", "A"]},
              "PASSWORD triplane-red-19\nTAKEOFF BETA\nPLANE\nA\nA\nA\nZEPPELIN\nA\nL\nA\n"),
    "biggles": ({"takeoff": "ALPHA", "plane": ["A", "A", "R"], "zeppelin": ["A", "A f-L", "A"]},
                "PASSWORD camel-sopwith-44\nTAKEOFF ALPHA\nPLANE\nA\nA\nR\n"
                "ZEPPELIN\nA\nA f-L\nA\n"),
    "snoopy": ({"takeoff": "BETA", "plane": ["A", "A", "A"], "zeppelin": ["L", "A", "A"]},
               "PASSWORD doghouse-ace-07\nTAKEOFF BETA\nPLANE\nA\nA\nA\nZEPPELIN\nL\nA\nA\n"),
    "immelmann": ({"takeoff": "GAMMA", "plane": ["A", "A", "L"], "zeppelin": ["A", "A", "0"]},
                  "PASSWORD eindecker-mg-16\nTAKEOFF GAMMA\nPLANE\nA\nA\nL\n"
                  "ZEPPELIN\nA\nA\n0\n"),
}
TURN2_BARON = ({"plane": ["A", "L f-A", "A"], "zeppelin": ["A", "A", "A"]},
               "PASSWORD triplane-red-19\nPLANE\nA\nL f-A\nA\nZEPPELIN\nA\nA\nA\n")


def rebuild(games: Path) -> None:
    game_dir = games / "example"
    turns = game_dir / "turns"
    for path in turns.iterdir():
        if path.name != "001":
            shutil.rmtree(path)
    for path in (turns / "001").iterdir():
        if path.name != "position.yaml":
            shutil.rmtree(path) if path.is_dir() else path.unlink()
    for path in game_dir.glob("game.yaml.replaced-*"):
        path.unlink()
    (game_dir / "state.yaml").unlink(missing_ok=True)
    store = GameStore(games)
    game = store.open("example")
    game.change_settings({"deadline": "2026-12-01T20:00:00+01:00", "status": "open"})
    for i, (player, (entry, raw)) in enumerate(TURN1.items()):
        game.book.save(player, entry, raw=raw, message_id=f"<t1-{player}@example>",
                         received_at=datetime(2026, 11, 30, 9 + i, 15, tzinfo=ZONE))
    gm.adjudicate(store, "example", datetime(2026, 12, 1, 20, 0, 5, tzinfo=ZONE))
    game = store.open("example")
    entry, raw = TURN2_BARON
    game.book.save("baron", entry, raw=raw, message_id="<t2-baron@example>",
                     received_at=datetime(2026, 12, 2, 8, 30, tzinfo=ZONE))
    print(gm.status(store, "example").text())


def rebuild_in_place(folder: Path) -> None:
    """Rebuild the example game kept in ``folder`` (played as ``example``)."""
    with tempfile.TemporaryDirectory() as tmp:
        games = Path(tmp) / "games"
        shutil.copytree(folder, games / "example", ignore=shutil.ignore_patterns(".lock"))
        rebuild(games)
        shutil.rmtree(folder)
        shutil.copytree(games / "example", folder, ignore=shutil.ignore_patterns(".lock"))


if __name__ == "__main__":
    rebuild_in_place(Path(sys.argv[1]) if len(sys.argv) > 1 else
                     Path(__file__).resolve().parents[2] / "docs" / "example-game")
