"""The courier (``referee/courier.py``): a round's replies handed part by part and
sent on a thread of its own, over one session, the rest at the round's end; what
goes wrong on its thread is raised in the round's."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Collection, Iterator

import pytest

from pbmref.mail.base import Outgoing
from pbmref.referee.courier import Courier


class Killed(BaseException):
    """A simulated kill on the courier's thread."""


class Round:
    """A sender with sessions, and the deliveries the courier asked for."""

    def __init__(self, fail_on: int = 0, error: BaseException | None = None) -> None:
        self.sessions = 0
        self.deliveries: list[list[str] | None] = []
        self.threads: set[str] = set()
        self.fail_on, self.error = fail_on, error
        self.block = threading.Event()
        self.block.set()
        self.delivered = threading.Event()

    def send(self, msg: Outgoing) -> None:
        raise AssertionError("the courier calls deliver, which sends")

    @contextlib.contextmanager
    def session(self) -> Iterator[None]:
        self.sessions += 1
        yield

    def deliver(self, ids: Collection[str] | None) -> None:
        self.block.wait(10)
        self.threads.add(threading.current_thread().name)
        self.deliveries.append(None if ids is None else list(ids))
        self.delivered.set()
        if len(self.deliveries) == self.fail_on and self.error is not None:
            raise self.error


def test_parts_go_in_order_over_one_session_then_the_rest() -> None:
    sent = Round()
    with Courier(sent, sent.deliver) as courier:
        courier.hand(["a", "b"])
        courier.hand(["a", "b", "c"])  # what is still held: only the new one goes
        courier.hand([])
    assert sent.deliveries == [["a", "b"], ["c"], None]
    assert sent.sessions == 1
    assert sent.threads == {"pbmref-courier"}


def test_a_round_ended_by_an_error_sends_no_more() -> None:
    sent = Round()
    sent.block.clear()  # the first part is on its way when the round fails
    with pytest.raises(ValueError, match="the round"):
        with Courier(sent, sent.deliver) as courier:
            courier.hand(["a"])
            sent.block.set()
            raise ValueError("the round failed")
    assert sent.deliveries == [["a"]]  # handed before: on disk, so it goes; not the rest


@pytest.mark.parametrize("error", [OSError("disk"), Killed("killed in send")],
                         ids=["an error", "a kill"])
def test_what_fails_on_the_courier_s_thread_is_raised_in_the_round_s(
        error: BaseException) -> None:
    sent = Round(fail_on=1, error=error)
    with pytest.raises(type(error)):
        with Courier(sent, sent.deliver) as courier:
            courier.hand(["a"])
            assert sent.delivered.wait(10)
            courier._thread.join(10)  # it stopped at the failure
            courier.hand(["b"])  # the next part learns of it
    assert sent.deliveries == [["a"]]


def test_a_failure_in_the_last_delivery_is_raised_on_leaving() -> None:
    sent = Round(fail_on=2, error=OSError("disk full"))
    with pytest.raises(OSError, match="disk full"):
        with Courier(sent, sent.deliver) as courier:
            courier.hand(["a"])
    assert sent.deliveries == [["a"], None]
