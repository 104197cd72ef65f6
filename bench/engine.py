"""Tweedekker engine speed: turns adjudicated per second, as ratios to a baseline.

    .venv/bin/python bench/engine.py [SECONDS]      (default 1.0 per measurement)

Two positions, each with a controlled two-hex zeppelin, clouds, a storm and a
drifting wind: 6 aircraft (a real game) and 60 aircraft (a stress case).
Every aircraft flies three moves with bursts; every player votes for the
zeppelin. Baseline, measured in the same run on the same position: copying
the state once (``dataclasses.replace`` over every aircraft and zeppelin),
the least any pure ``state -> state`` turn must cost. The ratio says how many
such copies one adjudicated turn is worth.

Then the whole turn as the referee plays it (issue 20): the same position and
orders stored in a game folder (``position.yaml``, one orders file a player),
the game opened and locked as ``gm.turn.adjudicate`` does, the orders in
force read and checked, and ``gm.turn.play`` run on them (decode, typed
orders, engine, encode, the report data and its text), against the engine
alone on the decoded state and typed orders, each the best of five short runs
taken in turn. Writing the turn's files is left out (``bench/fsyncs.py``
counts what goes to disk).
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from pbmref.rules.dice import Dice  # noqa: E402
from pbmref.rules.hexgrid import Heading, Hex  # noqa: E402
from pbmref.rules.tweedekker.engine import adjudicate  # noqa: E402
from pbmref.rules.tweedekker.orders import (  # noqa: E402
    FireDir,
    Manoeuvre,
    Move,
    PlaneOrders,
    TurnOrders,
    ZeppelinFire,
    ZeppelinVote,
)
from pbmref.rules.tweedekker.state import (  # noqa: E402
    Aircraft,
    AircraftState,
    Cloud,
    CloudKind,
    GameState,
    Settings,
    Wind,
    Zeppelin,
)
from pbmref.store import GameStore  # noqa: E402

MOVES = (Manoeuvre.A, Manoeuvre.L, Manoeuvre.R, Manoeuvre.LS, Manoeuvre.RS)


def build(n: int, seed: int = 1) -> tuple[GameState, TurnOrders]:
    rng = random.Random(seed)
    settings = Settings()
    board_hexes = [h for h in _board(settings.board_side) if h.ring() <= 6]
    planes = []
    orders: dict[str, PlaneOrders] = {}
    votes: dict[str, tuple[ZeppelinVote | None, ...]] = {}
    for i in range(n):
        pilot = f"p{i:02d}"
        planes.append(Aircraft(pilot, rng.choice(board_hexes), rng.choice(list(Heading)),
                               list(Heading)[i % 6], AircraftState.FLYING, landed_turns=0))
        orders[pilot] = PlaneOrders(tuple(
            Move(rng.choice(MOVES), (FireDir.A,) if k < 2 else (FireDir.L,)) for k in range(3)))
        votes[pilot] = tuple(ZeppelinVote(rng.choice(MOVES), rng.choice(list(ZeppelinFire)))
                             for _ in range(3))
    zeppelin = Zeppelin("Z", (Hex(0, 0), Hex(0, 1)), Heading.N, 10**6, controlled=True)
    drifter = Zeppelin("D", (Hex(3, -5), Hex(3, -4)), Heading.N, 10**6)
    clouds = (Cloud(CloudKind.CLOUD, (Hex(-4, 2), Hex(-4, 3))),
              Cloud(CloudKind.STORM, (Hex(2, 2),)))
    state = GameState(turn=3, settings=settings, wind=Wind(Heading.SW, 2, True), clouds=clouds,
                      aircraft=tuple(planes), zeppelins=(zeppelin, drifter))
    return state, TurnOrders(plane=orders, zeppelin=votes)


def _board(side: int) -> list[Hex]:
    from pbmref.rules.hexgrid import HexBoard

    return list(HexBoard(side).hexes())


def rate(fn: Callable[[], object], seconds: float) -> float:
    """Calls per second of ``fn`` over about ``seconds``."""
    count, start = 0, time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(10):
            fn()
        count += 10
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - start)


def best_rates(fns: tuple[Callable[[], object], ...], seconds: float,
               rounds: int = 5) -> list[float]:
    """The best ``rate`` of each of ``fns`` over ``rounds`` short runs taken in turn
    (the machine is shared: a neighbour's burst then slows one run, not a figure)."""
    best = [0.0] * len(fns)
    for _ in range(rounds):
        for i, fn in enumerate(fns):
            best[i] = max(best[i], rate(fn, seconds / rounds))
    return best


def copy_state(state: GameState) -> GameState:
    return replace(state, aircraft=tuple(replace(a) for a in state.aircraft),
                   zeppelins=tuple(replace(z) for z in state.zeppelins))


def stored_game(root: Path, state: GameState, orders: TurnOrders) -> GameStore:
    """A game folder holding ``state`` as its open turn and ``orders`` as mailed."""
    from datetime import UTC, datetime

    from pbmref.orders.tweedekker import entry_of
    from pbmref.rules.tweedekker.position import position_to_dict

    store = GameStore(root)
    pilots = [a.pilot for a in state.aircraft]
    settings = {"title": "bench", "ruleset": "tweedekker", "seed": 1, "turn_length": "48h",
                "players": {p: {"name": p, "addresses": [f"{p}@bench.test"]} for p in pilots}}
    game = store.create("bench", settings, position_to_dict(state))
    for pilot in pilots:
        entry = entry_of(orders.plane.get(pilot), orders.zeppelin.get(pilot, ()))
        game.book.save(pilot, entry, raw="(bench)", message_id=f"<{pilot}@bench.test>",
                       received_at=datetime(2026, 12, 1, tzinfo=UTC))
    return store


def whole_turn(store: GameStore) -> Callable[[], object]:
    """The turn as the referee plays it at a deadline (``gm.turn.adjudicate``): open
    the game, take its lock and read it again, read the orders in force and the
    standing votes, and play the turn with ``gm.turn.play`` (the ruleset's
    adjudication, the report data and its text); recording it is left out."""
    from pbmref.gm.turn import play as play_turn

    def play() -> object:
        game = store.open("bench")
        with game.lock():
            game.reload()
            votes = game.votes.votes(p.id for p in game.settings.humans())
            return play_turn(game, game.open, game.book.in_force(), seed=1,
                             next_deadline=None, votes=votes)
    return play


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    print(f"{'position':<14}{'turns/s':>12}{'copies/s':>14}{'turn/copy':>12}")
    wholes = []
    for n in (6, 60):
        state, orders = build(n)
        _, events = adjudicate(state, orders, Dice(1))  # warm up, and a sanity check
        assert events, "the bench turn produced no events"
        turns = rate(lambda s=state, o=orders: adjudicate(s, o, Dice(1)), seconds)
        copies = rate(lambda s=state: copy_state(s), seconds)
        label = f"{n} aircraft"
        print(f"{label:<14}{turns:>12.0f}{copies:>14.0f}{copies / turns:>11.1f}x")
        # a position a game folder may hold: turn 1, zeppelins within their damage limit
        stored = replace(state, turn=1, zeppelins=tuple(replace(z, damage=20)
                                                         for z in state.zeppelins))
        with tempfile.TemporaryDirectory(prefix="pbmref-engine-") as tmp:
            play = whole_turn(stored_game(Path(tmp), stored, orders))
            play()
            engine_alone, whole = best_rates(
                (lambda s=stored, o=orders: adjudicate(s, o, Dice(1)), play), 2 * seconds)
            wholes.append((n, whole, engine_alone))
    for n, whole, turns in wholes:
        print(f"whole turn as the referee plays it, {n} aircraft: {whole:.0f} turns/s "
              f"against the engine's {turns:.0f}; ratio {turns / whole:.2f} (aim <= 1.5)")


if __name__ == "__main__":
    main()
