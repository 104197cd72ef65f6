"""What every test must leave alone: the checkout itself.

A test that runs the referee with the built-in defaults (folders under the
current one) would write mail, spools and archives into the checkout, where a
later ``git add`` picks them up. Each test is checked for that afterwards."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

from hypo import PROFILE

CHECKOUT = Path(__file__).resolve().parents[1]
KEPT_CLEAN = ("mail", "archive", "config.yaml")


@pytest.fixture(autouse=True)
def _checkout_untouched() -> Iterator[None]:
    before = {name for name in KEPT_CLEAN if (CHECKOUT / name).exists()}
    yield
    made = [name for name in KEPT_CLEAN if (CHECKOUT / name).exists() and name not in before]
    assert not made, f"the test wrote {made} into the checkout {CHECKOUT}"


hypothesis_settings.load_profile(PROFILE)
