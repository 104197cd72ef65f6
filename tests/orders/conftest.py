"""Shared positions for the order-reading tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from pbmref.orders.check import BodyReader
from pbmref.rules.tweedekker.position import position_from_dict
from pbmref.rules.tweedekker.state import GameState
from pbmref.rulesets import get_ruleset

HERE = Path(__file__).parent


def load_yaml(name: str) -> Any:
    return yaml.safe_load((HERE / name).read_text(encoding="utf-8"))


POSITIONS: dict[str, Any] = load_yaml("positions.yaml")


def position(name: str) -> GameState:
    return position_from_dict(POSITIONS[name])


def reader(name: str) -> BodyReader:
    """The body reader of a mail for the tweedekker position ``name`` (``check_order_mail``)."""
    return get_ruleset("tweedekker").body_reader(position(name))


@pytest.fixture
def zep_game() -> GameState:
    return position("zep1")
