"""The daemon settles its heap once, after its first round (``base.collector``):
what the process holds then is kept out of the cycle collector's later
collections, garbage made before is collected, and what is made after is
collected as before."""

from __future__ import annotations

import gc

import pytest
from tablekit import Table

from pbmref.base import collector
from pbmref.referee.daemon import Daemon


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def test_settling_collects_then_freezes_once_a_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(collector, "_settled", False)
    frozen = gc.get_freeze_count()
    gc.collect()
    garbage = _Cycle()
    del garbage  # a cycle: only the collector frees it
    collected: list[int] = []
    real_collect = gc.collect
    monkeypatch.setattr(gc, "collect", lambda: collected.append(real_collect()) or 0)
    try:
        collector.settle()
        assert collected and collected[0] >= 1  # the cycle went before the freeze
        assert gc.get_freeze_count() > frozen
        collector.settle()
        assert len(collected) == 1  # a second daemon in the process settles nothing
    finally:
        gc.unfreeze()  # the test's process goes on as it was
        gc.freeze()  # (what was frozen before stays frozen)
    made_after = _Cycle()
    del made_after
    assert real_collect() >= 1  # a cycle made after the freeze is still collected


def test_the_daemon_settles_after_its_first_round(table: Table,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    rounds: list[str] = []
    daemon = Daemon(table.referee, table.intake)
    real_round = daemon.round
    monkeypatch.setattr(daemon, "round", lambda: (rounds.append("round"), real_round())[1])
    monkeypatch.setattr(collector, "settle", lambda: rounds.append("settle"))
    monkeypatch.setattr(daemon, "_wait_seconds", lambda: 0.0)
    monkeypatch.setattr(daemon.intake, "wait", lambda seconds: None)
    daemon.run(rounds=3)
    assert rounds == ["round", "settle", "round", "round"]
