"""The daemon settles its heap once, after its first round (``base.collector``):
what the process holds then is kept out of the cycle collector's later
collections, garbage made before is collected, and what is made after is
collected as before. When the daemon returns, its caller's heap and signal
handlers are as they were (issue 40)."""

from __future__ import annotations

import gc
import signal
from collections.abc import Iterator

import pytest
from tablekit import Table

from pbmref.base import collector
from pbmref.referee.daemon import Daemon


@pytest.fixture
def unfrozen() -> Iterator[None]:
    """Nothing frozen when the test starts, nothing left frozen after it."""
    gc.unfreeze()
    yield
    gc.unfreeze()


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def test_settling_collects_then_freezes_a_heap_not_frozen_yet(
        monkeypatch: pytest.MonkeyPatch, unfrozen: None) -> None:
    gc.collect()
    garbage = _Cycle()
    del garbage  # a cycle: only the collector frees it
    collected: list[int] = []
    real_collect = gc.collect
    monkeypatch.setattr(gc, "collect", lambda: collected.append(real_collect()) or 0)
    with collector.given_back():
        collector.settle()
        assert collected and collected[0] >= 1  # the cycle went before the freeze
        frozen = gc.get_freeze_count()
        assert frozen > 0
        collector.settle()
        assert len(collected) == 1  # a second daemon in the process settles nothing
        assert gc.get_freeze_count() == frozen
        made_after = _Cycle()
        del made_after
        assert real_collect() >= 1  # a cycle made after the freeze is still collected
    assert gc.get_freeze_count() == 0  # given back


def test_a_heap_frozen_before_is_not_settled_again(unfrozen: None) -> None:
    gc.freeze()  # the caller's own
    frozen = gc.get_freeze_count()
    with collector.given_back():
        collector.settle()
        assert gc.get_freeze_count() == frozen
    assert gc.get_freeze_count() == frozen  # the caller's freeze is the caller's


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



@pytest.mark.parametrize("ends", ["returns", "raises in its first round",
                                  "raises once settled"])
def test_the_daemon_gives_back_the_callers_signal_handlers_and_heap(
        table: Table, monkeypatch: pytest.MonkeyPatch, unfrozen: None, ends: str) -> None:
    """Issue 40 item 7: a process that ran a daemon (a test run, a script) is as
    it was after it returns or raises: Ctrl-C and SIGTERM do what they did, and
    nothing the daemon froze stays frozen."""
    def callers(signum: int, frame: object) -> None:  # the caller's own handler
        raise AssertionError("not called here")

    before = {signal.SIGINT: signal.getsignal(signal.SIGINT), signal.SIGTERM: callers}
    signal.signal(signal.SIGTERM, callers)
    try:
        daemon = Daemon(table.referee, table.intake)
        monkeypatch.setattr(daemon, "_wait_seconds", lambda: 0.0)
        monkeypatch.setattr(daemon.intake, "wait", lambda seconds: None)
        left = {"returns": 2, "raises in its first round": 0, "raises once settled": 1}[ends]
        real_round = daemon.round

        def round_() -> None:
            nonlocal left
            if left == 0:
                raise KeyboardInterrupt  # not the daemon's to catch: it goes to the caller
            left -= 1
            real_round()

        monkeypatch.setattr(daemon, "round", round_)
        if ends == "returns":
            daemon.run(rounds=2)
        else:
            with pytest.raises(KeyboardInterrupt):
                daemon.run()
        assert {sig: signal.getsignal(sig) for sig in before} == before
        assert gc.get_freeze_count() == 0, "the daemon left the caller's heap frozen"
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
