"""A small tweedekker game played for three turns through the store and the
GM layer, for the archive tests (``pbmref render``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from pbmref import gm
from pbmref.store import GameStore

START = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)

# Orders per turn: everyone takes off in turn 1 (L3), then they turn toward
# the centre where the zeppelin is and fire at whatever crosses their lines.
ORDERS = {
    1: {
        "baron": {"takeoff": "BETA", "plane": ["A", "A", "A f-A"], "zeppelin": ["A", "", "f-L"]},
        "biggles": {"takeoff": "BETA", "plane": ["A", "A", "A"], "zeppelin": ["L", "f-A", ""]},
        "carl": {"takeoff": "BETA", "plane": ["A", "A", "A"], "zeppelin": ["L", "f-R", ""]},
    },
    2: {
        "baron": {"plane": ["A f-A", "A f-A", "A f-A"], "zeppelin": ["A", "A", "A"]},
        "biggles": {"plane": ["A f-A", "R", "A f-A"], "zeppelin": ["R", "A", "f-B"]},
        "carl": {"plane": ["A", "L f-A", "A f-A"]},
    },
    3: {
        "baron": {"plane": ["L", "A", "R f-A"], "zeppelin": ["A f-A", "A f-A", "A f-A"]},
        "biggles": {"plane": ["A f-L", "A", "A"]},
        # carl sends nothing in turn 3: an NMR (N1)
    },
}


def make_game(games_dir: Path, game_id: str = "arch3") -> GameStore:
    store = GameStore(games_dir)
    players = [
        gm.PlayerSpec("baron", ("baron@example.org",), "Manfred", airfield="N"),
        gm.PlayerSpec("biggles", ("biggles@example.org",), "Biggles", airfield="S"),
        gm.PlayerSpec("carl", ("carl@example.org",), "Carl", airfield="SE"),
    ]
    gm.new_game(store, game_id, players, title="Archive Test Patrol", seed=77,
                clouds=[{"kind": "storm", "hexes": ["F9", "F10"]},
                        {"kind": "cloud", "hexes": ["M12", "N12"]}],
                wind={"to": "SW", "strength": 1, "changes": True},
                timezone="Europe/Amsterdam", deadline=START, turn_length="48h",
                now=START - timedelta(days=1), passwords=False)
    now = START
    for turn in (1, 2, 3):
        game = store.open(game_id)
        for player, entry in ORDERS[turn].items():
            game.book.save(player, entry, raw="(test)", message_id=f"<{turn}.{player}@t>",
                             received_at=now - timedelta(hours=1))
        record = gm.adjudicate(store, game_id, now, force=True)
        assert record is not None, f"turn {turn} was not adjudicated"
        now += timedelta(hours=48)
    return store
