"""Hypothesis profiles: ``dev`` for a developer's run (quick), ``ci`` for CI
(thorough, and the same examples every run).

The profile is ``$HYPOTHESIS_PROFILE`` when set, else ``ci`` when ``$CI`` is
set (``.ci/run`` sets it), else ``dev``. ``tests/conftest.py`` loads it; a
property test that asks for its own number of examples asks through
``examples``, so that the profile scales it.

>>> examples(300, profile="ci"), examples(300, profile="dev")
(300, 30)
"""

from __future__ import annotations

import os

from hypothesis import settings

PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
# A developer's run tries this share of the examples a CI run tries.
DEV_SHARE = 10

settings.register_profile("ci", max_examples=300, deadline=None, derandomize=True,
                          print_blob=True)
settings.register_profile("dev", max_examples=30, deadline=None)


def examples(thorough: int, *, profile: str = PROFILE) -> int:
    """How many examples a test that wants ``thorough`` of them in CI tries
    under ``profile`` (a developer's run: a tenth, at least ten)."""
    return thorough if profile == "ci" else max(10, thorough // DEV_SHARE)
