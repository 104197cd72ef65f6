from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from store_fakes import FAKE_POSITION, REPO, fake_settings, load_fake

from pbmref.store import GameStore


@pytest.fixture
def fake_store(tmp_path: Path) -> GameStore:
    store = GameStore(tmp_path / "games", ruleset_loader=load_fake)
    store.create("fake1", fake_settings(), FAKE_POSITION)
    return store


@pytest.fixture
def example_store(tmp_path: Path) -> GameStore:
    """A copy of the repository's example game (real tweedekker ruleset)."""
    games = tmp_path / "games"
    shutil.copytree(REPO / "docs" / "example-game", games / "example",
                    ignore=shutil.ignore_patterns(".lock"))
    return GameStore(games)
