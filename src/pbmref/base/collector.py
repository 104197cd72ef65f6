"""What the referee's processes ask of Python's cycle collector.

Most of what a referee process holds lives as long as the process: the code
and the rulesets it imported (some 35,000 objects the collector tracks), and
what it keeps of the games it read. A full collection walks every tracked
object; one every few turns of a busy round then cost 15-25 ms (the time of
adjudicating a whole 6-aircraft turn twenty times over). Three tools:

- ``paused()``: the collector off while a process takes in thousands of new
  objects that are no garbage (the store's first look at every game);
- ``settle()``: once a process has loaded what it keeps, a last collection
  and then every object it holds handed to the permanent generation
  (``gc.freeze``), so that later collections walk only what was made since.
  ``pbmref serve`` settles after its first round; what is made afterwards
  is collected as before. Nothing is lost by it: what was garbage went in
  the collection before the freeze, and a frozen object that its last
  reference lets go of is freed at once, as any other;
- ``given_back()``: what a block froze let go again after it (``gc.unfreeze``):
  a daemon that returns leaves its caller's heap as it found it (issue 40).
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["given_back", "paused", "settle"]


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """The cycle collector off for the block (as it was before, after it): the
    collections many new objects that are no garbage set off find nothing."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def settle() -> None:
    """Collect once, then keep what the process holds out of later collections.
    A heap that holds frozen objects already was settled by whoever froze it
    (a second daemon in the same process, as tests run them): nothing more
    is done."""
    if gc.get_freeze_count():
        return
    gc.collect()
    gc.freeze()


@contextlib.contextmanager
def given_back() -> Iterator[None]:
    """The caller's heap as it was, after the block (also when it raises): what
    the block froze (``settle``, or the store's first look at many games) is
    let go again. Python cannot unfreeze a part of the heap, so a heap frozen
    before the block stays frozen, with what the block froze."""
    was_frozen = gc.get_freeze_count() > 0
    try:
        yield
    finally:
        if not was_frozen:
            gc.unfreeze()
