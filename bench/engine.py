"""Tweedekker engine speed: turns adjudicated per second, as ratios to a baseline.

    .venv/bin/python bench/engine.py [SECONDS]      (default 1.0 per measurement)

Two positions, each with a controlled two-hex zeppelin, clouds, a storm and a
drifting wind: 6 aircraft (a real game) and 60 aircraft (a stress case).
Every aircraft flies three moves with bursts; every player votes for the
zeppelin. Baseline, measured in the same run on the same position: copying
the state once (``dataclasses.replace`` over every aircraft and zeppelin),
the least any pure ``state -> state`` turn must cost. The ratio says how many
such copies one adjudicated turn is worth.

Then the turn as the referee plays it at a deadline (issue 20): the same
position and orders stored in a game folder (``position.yaml``, one orders
file a player), against the engine alone on the decoded state and typed
orders, each the best of five short runs taken in turn, in two measures:

(a) the adjudication from the stored files: the game opened and locked as
    ``gm.turn.adjudicate`` does, the orders in force read and checked, the
    position decoded, the typed orders, the engine, the new position encoded
    and the events as data (``gm.turn.outcome_of``);
(b) the same and the report: its data and its text (``gm.turn.play``).

Both are timed as a running referee meets a deadline: the same process read
the game's files before (taking in the mails of the turn), so what it keeps
of a file whose stamp is unchanged is used again (the orders in force of the
open turn too, once the folder's listing and each file's stamp are compared:
``OrderBook.in_force``), and it has settled as
``pbmref serve`` does after its first round (``base.collector.settle``: what
the process holds kept out of the cycle collector's later collections; the
engine alone is timed in the same process, after it). A process that has read
nothing yet (``pbmref adjudicate --due`` from cron) pays the reading too: the
"first read" line times (a) once on each of several fresh copies of the
folder.

Last, recording the turn: the whole ``gm.turn.adjudicate`` (the turn's files
written, flushed in their order, the next position, ``game.yaml``'s deadline
and the state index) against the same turn played without writing (b), each
on fresh copies of the folder, with its flushes to disk and without them (the
work itself; ``bench/fsyncs.py`` counts what goes to disk).
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from pbmref.base import collector
from pbmref.rules.dice import Dice
from pbmref.rules.hexgrid import Heading, Hex
from pbmref.rules.tweedekker.engine import adjudicate
from pbmref.rules.tweedekker.orders import (
    FireDir,
    Manoeuvre,
    Move,
    PlaneOrders,
    TurnOrders,
    ZeppelinFire,
    ZeppelinVote,
)
from pbmref.rules.tweedekker.state import (
    Aircraft,
    AircraftState,
    Cloud,
    CloudKind,
    GameState,
    Settings,
    Wind,
    Zeppelin,
)
from pbmref.store import GameStore

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

    from pbmref.rules.tweedekker.position import position_to_dict
    from pbmref.rulesets.tweedekker.orders import entry_of

    store = GameStore(root)
    pilots = [a.pilot for a in state.aircraft]
    settings = {"title": "bench", "ruleset": "tweedekker", "seed": 1, "turn_length": "48h",
                "deadline": "2026-12-03T20:00:00+00:00",  # as pbmref new-game writes one
                "players": {p: {"name": p, "addresses": [f"{p}@bench.test"]} for p in pilots}}
    game = store.create("bench", settings, position_to_dict(state))
    for pilot in pilots:
        entry = entry_of(orders.plane.get(pilot), orders.zeppelin.get(pilot, ()))
        game.book.save(pilot, entry, raw="(bench)", message_id=f"<{pilot}@bench.test>",
                       received_at=datetime(2026, 12, 1, tzinfo=UTC))
    return store


def at_deadline(store: GameStore, game_id: str = "bench"
                ) -> tuple[Callable[[], object], Callable[[], object]]:
    """The turn as ``gm.turn.adjudicate`` plays it at a deadline: open the game,
    take its lock and read it again, read the orders in force and the standing
    votes; then (a) ``gm.turn.outcome_of``, the adjudication alone, and (b)
    ``gm.turn.play``, the adjudication and the report's data and text.
    Recording the turn is left out."""
    from pbmref.gm.turn import outcome_of, play

    def adjudication() -> object:
        game = store.open(game_id)
        with game.lock():
            game.reload()
            votes = game.votes.votes(p.id for p in game.settings.humans())
            return outcome_of(game, game.open, game.book.in_force(), seed=1, votes=votes)

    def with_report() -> object:
        game = store.open(game_id)
        with game.lock():
            game.reload()
            votes = game.votes.votes(p.id for p in game.settings.humans())
            return play(game, game.open, game.book.in_force(), seed=1,
                        next_deadline=None, votes=votes)
    return adjudication, with_report


def copies(store: GameStore, count: int, tag: str) -> list[str]:
    """``count`` fresh copies of the game ``bench`` in the same games folder."""
    names = [f"{tag}{i}" for i in range(count)]
    for name in names:
        shutil.copytree(store.dir / "bench", store.dir / name)
    return names


def first_read(store: GameStore, count: int) -> float:
    """Seconds of (a) on a folder nothing has read yet: the best of ``count`` fresh
    copies."""
    best = float("inf")
    for name in copies(store, count, "cold"):
        adjudication, _ = at_deadline(store, name)
        start = time.perf_counter()
        adjudication()
        best = min(best, time.perf_counter() - start)
    return best


def recording(store: GameStore, count: int, rounds: int = 3, *,
              tag: str = "rec") -> tuple[float, float]:
    """Seconds a turn of ``gm.turn.adjudicate`` (writing the turn) and of the same
    turn played without writing (b), each on a copy of the folder the referee
    has read once already (as the mails of the turn did); the best of
    ``rounds`` rounds of ``count`` copies."""
    from datetime import UTC, datetime

    from pbmref.gm.turn import adjudicate as record_turn

    now = datetime(2026, 12, 5, tzinfo=UTC)
    best_write = best_play = float("inf")
    for r in range(rounds):
        played = written = 0.0
        for name in copies(store, count, f"{tag}{r}-"):
            _, with_report = at_deadline(store, name)
            with_report()  # the mails of the turn read the folder
            start = time.perf_counter()
            with_report()
            played += time.perf_counter() - start
            start = time.perf_counter()
            assert record_turn(store, name, now, force=True) is not None
            written += time.perf_counter() - start
        best_write, best_play = min(best_write, written / count), min(best_play, played / count)
    return best_write, best_play


@contextlib.contextmanager
def no_flushes() -> Iterator[None]:
    """``os.fsync`` does nothing inside: what recording costs besides waiting for the
    disk (which varies by a factor of ten on a shared machine)."""
    real = os.fsync
    os.fsync = lambda fd: None
    try:
        yield
    finally:
        os.fsync = real


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    print(f"{'position':<14}{'turns/s':>12}{'copies/s':>14}{'turn/copy':>12}")
    lines = []
    for n in (6, 60):
        state, orders = build(n)
        _, events = adjudicate(state, orders, Dice(1))  # warm up, and a sanity check
        assert events, "the bench turn produced no events"
        turns = rate(lambda s=state, o=orders: adjudicate(s, o, Dice(1)), seconds)
        copied = rate(lambda s=state: copy_state(s), seconds)
        label = f"{n} aircraft"
        print(f"{label:<14}{turns:>12.0f}{copied:>14.0f}{copied / turns:>11.1f}x")
        # a position a game folder may hold: turn 1, zeppelins within their damage limit
        stored = replace(state, turn=1, zeppelins=tuple(replace(z, damage=20)
                                                         for z in state.zeppelins))
        with tempfile.TemporaryDirectory(prefix="pbmref-engine-") as tmp:
            store = stored_game(Path(tmp), stored, orders)
            adjudication, with_report = at_deadline(store)
            with_report()
            collector.settle()  # as ``pbmref serve`` does after its first round
            engine_alone, adj, whole = best_rates(
                (lambda s=stored, o=orders: adjudicate(s, o, Dice(1)), adjudication,
                 with_report), 3 * seconds)
            cold = first_read(store, 5)
            write, play = recording(store, 10 if n == 6 else 4)
            with no_flushes():
                cpu_write, cpu_play = recording(store, 10 if n == 6 else 4, tag="cpu")
        lines += [
            f"(a) adjudication from the stored files, {n} aircraft: {adj:.0f} turns/s against "
            f"the engine's {engine_alone:.0f}; ratio {engine_alone / adj:.2f} (aim <= 1.5)",
            f"(b) the same and the report text, {n} aircraft: {whole:.0f} turns/s against "
            f"the engine's {engine_alone:.0f}; ratio {engine_alone / whole:.2f}",
            f"(a) on first read (a referee that had not read the folder), {n} aircraft: "
            f"{cold * 1e3:.2f} ms against the engine's {1e3 / engine_alone:.2f} ms; "
            f"ratio {cold * engine_alone:.2f}",
            f"recording the turn, {n} aircraft: gm.turn.adjudicate {write * 1e3:.1f} ms "
            f"against the same turn unwritten (b) {play * 1e3:.1f} ms; ratio {write / play:.2f}",
            f"recording the turn without its flushes to disk (os.fsync left out), {n} aircraft: "
            f"{cpu_write * 1e3:.1f} ms against {cpu_play * 1e3:.1f} ms; "
            f"ratio {cpu_write / cpu_play:.2f}",
        ]
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
