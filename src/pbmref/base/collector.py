"""What the referee's processes ask of Python's cycle collector.

Most of what a referee process holds lives as long as the process: the code
and the rulesets it imported (some 35,000 objects the collector tracks), and
what it keeps of the games it read. A full collection walks every tracked
object; one every few turns of a busy round then cost 15-25 ms (the time of
adjudicating a whole 6-aircraft turn twenty times over). Two tools:

- ``paused()``: the collector off while a process takes in thousands of new
  objects that are no garbage (the store's first look at every game);
- ``settle()``: once a process has loaded what it keeps, a last collection
  and then every object it holds handed to the permanent generation
  (``gc.freeze``), so that later collections walk only what was made since.
  ``pbmref serve`` settles after its first round, once a process; what is
  made afterwards is collected as before. Nothing is lost by it: what was
  garbage went in the collection before the freeze, and a frozen object that
  its last reference lets go of is freed at once, as any other.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["paused", "settle"]


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


_settled = False


def settle() -> None:
    """Collect once, then keep what the process holds out of later collections;
    once a process (a second daemon in the same process, as tests run them,
    settles nothing more)."""
    global _settled
    if _settled:
        return
    _settled = True
    gc.collect()
    gc.freeze()
