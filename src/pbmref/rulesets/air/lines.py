"""What the two air games' order-line readers share: a line read strictly.

Each air game reads an order line past its mistakes (its ``read_line``:
what the line says, and every mistake in plain words, for the reply); its
``parse_line``, for a caller that wants the line or nothing, raises the
first mistake instead (``first_mistake``).
"""

from __future__ import annotations

from typing import TypeVar

from pbmref.orders.errors import OrderMailError

__all__ = ["first_mistake"]

L = TypeVar("L")


def first_mistake(read: tuple[L | None, list[OrderMailError]]) -> L:
    """What a ``read_line`` made of a line; the first of its mistakes raised
    when it has any.

    >>> first_mistake(("TAKEOFF ALPHA", []))
    'TAKEOFF ALPHA'
    >>> first_mistake((None, [OrderMailError("this line ends too soon")]))
    Traceback (most recent call last):
    ...
    pbmref.orders.errors.OrderMailError: this line ends too soon
    """
    parsed, errors = read
    if errors:
        raise errors[0]
    assert parsed is not None
    return parsed
