"""Fixtures of the referee tests (the helpers live in tablekit.py)."""

from tablekit import table  # noqa: F401  (a pytest fixture)
