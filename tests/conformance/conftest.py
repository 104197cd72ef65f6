"""Fixtures of the conformance tests (the helpers live in speckit.py)."""

from speckit import table  # noqa: F401  (a pytest fixture)
