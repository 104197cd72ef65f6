"""Fixtures of the game master's tests: an empty referee's folder, the command line run in it."""

from __future__ import annotations

from gmkit import house  # noqa: F401  (a pytest fixture)
