"""The one wait helper of the tests (``tests/waiting.py``) does what its
examples say."""

from __future__ import annotations

import doctest

import waiting


def test_the_wait_helper_examples() -> None:
    result = doctest.testmod(waiting)
    assert result.attempted == 2 and result.failed == 0
