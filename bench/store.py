"""How the game store's costs grow (figures as ratios within one run).

1. Opening a game with 500 played turns against one with 5: opening reads
   the settings, the state index and the open turn only, so the ratio should
   stay near 1.
2. ``GameStore.due`` over 200 games against 20 games: it reads each game's
   small state index only, so the ratio should be near 10 (linear in games,
   not in turns), and a game costs a fraction of one ``open``.

Run: ``.venv/bin/python bench/store.py [--turns 500] [--games 200]``
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pbmref.rules.tweedekker.events import DieRolled
from pbmref.rulesets import Outcome
from pbmref.store import GameStore

T0 = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
POSITION: dict[str, Any] = {
    "ruleset": "tweedekker", "turn": 1, "board": {"side": 10},
    "wind": {"to": "SW", "strength": 1, "changes": True},
    "clouds": [{"kind": "storm", "hexes": ["M12", "M13"]}],
    "aircraft": {
        "baron": {"hex": "J19", "heading": "S", "state": "landed", "airfield": "N"},
        "biggles": {"hex": "S1", "heading": "NW", "state": "landed", "airfield": "SE"},
        "snoopy": {"hex": "A1", "heading": "NE", "state": "landed", "airfield": "SW"},
    },
    "zeppelins": {"Z": {"hexes": ["J10", "J9"], "heading": "N", "controlled": True}},
}


def settings(n: int) -> dict[str, Any]:
    return {
        "title": f"bench {n}", "ruleset": "tweedekker", "seed": n,
        "deadline": (T0 + timedelta(days=n % 3)).isoformat(), "turn_length": "48h",
        "players": {p: {"name": p, "addresses": [f"{p}{n}@example.org"]}
                    for p in ("baron", "biggles", "snoopy")},
    }


def make_game(store: GameStore, game_id: str, turns: int) -> None:
    """A game with ``turns`` recorded turns (the position carried over, events made up)."""
    game = store.create(game_id, settings(turns), POSITION)
    events = (DieRolled(0, "wind", "", 3),) * 20
    for turn in range(1, turns + 1):
        position = dict(game.position)
        position["turn"] = turn + 1
        game.book.save("baron", {}, raw="", message_id=f"<{turn}>", received_at=T0)
        outcome = Outcome(position=position, events=events)
        game.history.record(outcome, seed=turn, orders_used={"baron": "baron.yaml"},
                         report_text="report\n" * 80, next_deadline=T0 + timedelta(days=turn),
                         adjudicated_at=T0, orders={})


def best_of(fn: Any, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=500)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        store = GameStore(Path(tmp) / "games")
        start = time.perf_counter()
        make_game(store, "short", 5)
        make_game(store, "long", args.turns)
        print(f"built games of 5 and {args.turns} turns in {time.perf_counter() - start:.1f}s")
        short = best_of(lambda: store.open("short"), args.repeat)
        long = best_of(lambda: store.open("long"), args.repeat)
        print(f"open(5 turns):   {short * 1000:7.2f} ms (baseline)")
        print(f"open({args.turns} turns): {long * 1000:7.2f} ms  ratio {long / short:.2f}"
              " (1 = independent of turns played)")

        few = GameStore(Path(tmp) / "few")
        many = GameStore(Path(tmp) / "many")
        for i in range(args.games):
            if i < args.games // 10:
                few.create(f"g{i}", settings(i), POSITION)
            many.create(f"g{i}", settings(i), POSITION)
        now = T0 + timedelta(days=1)
        t_few = best_of(lambda: few.due(now), max(3, args.repeat // 5))
        t_many = best_of(lambda: many.due(now), max(3, args.repeat // 5))
        n_few = args.games // 10
        print(f"due() over {n_few} games:  {t_few * 1000:7.2f} ms (baseline)")
        print(f"due() over {args.games} games: {t_many * 1000:7.2f} ms  ratio "
              f"{t_many / t_few:.2f} (games ratio {args.games / n_few:.0f})")
        print(f"due() per game = {t_many / args.games / short:.2f} x one open()")
        print(f"due at {now.isoformat()}: {len(many.due(now))} of {args.games}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
