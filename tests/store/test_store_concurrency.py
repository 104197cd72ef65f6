"""Two adjudications of one due game at once advance it by one turn, not two."""

from __future__ import annotations

import multiprocessing
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

from store_fakes import FAKE_POSITION, fake_settings, load_fake

from pbmref import gm
from pbmref.store import GameStore

DUE = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)  # the fake game's deadline was 1 Dec


def _adjudicate_in_process(games: str, barrier, results) -> None:
    store = GameStore(games, ruleset_loader=load_fake)
    barrier.wait()
    record = gm.adjudicate(store, "fake1", DUE)
    results.put(None if record is None else record.turn)


def test_two_processes_adjudicate_a_due_game_once(tmp_path: Path):
    store = GameStore(tmp_path / "games", ruleset_loader=load_fake)
    store.create("fake1", fake_settings(), FAKE_POSITION)
    ctx = multiprocessing.get_context("fork")
    barrier, results = ctx.Barrier(2), ctx.Queue()
    procs = [ctx.Process(target=_adjudicate_in_process,
                         args=(str(store.dir), barrier, results)) for _ in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    outcomes = sorted([results.get(timeout=5), results.get(timeout=5)], key=str)
    assert outcomes == [1, None]
    game = store.open("fake1")
    assert game.turn == 2
    assert not (game.turn_dir(2) / "result.yaml").exists()


def test_two_threads_forcing_adjudication_at_once_advance_one_turn(tmp_path: Path):
    store = GameStore(tmp_path / "games", ruleset_loader=load_fake)
    store.create("fake1", fake_settings(), FAKE_POSITION)
    barrier = threading.Barrier(4)
    outcomes: list[int | None] = []

    def run() -> None:
        barrier.wait()
        record = gm.adjudicate(store, "fake1", DUE - timedelta(days=10), force=True)
        outcomes.append(None if record is None else record.turn)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(outcomes, key=str) == [1, None, None, None]
    assert store.open("fake1").turn == 2
