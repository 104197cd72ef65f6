"""Hand-worked Dirigible Diplomacy scenarios (tests/scenarios/dirigible/*.yaml),
run end to end through ``run_scenario``; each names the DD rules it checks."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pbmref.rulesets import get_ruleset

ROOT = Path(__file__).resolve().parent.parent / "scenarios"
FILES = sorted((ROOT / "dirigible").glob("*.yaml")) + sorted(
    (Path(__file__).resolve().parent / "scenarios").glob("*.yaml")
)


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_scenario(path: Path) -> None:
    data = yaml.safe_load(path.read_text())
    assert data.get("expect"), "a scenario without expect asserts nothing"
    result = get_ruleset(data.get("ruleset", "diplomacy")).run_scenario(data)
    assert result.differences == []


def test_there_are_enough_dirigible_scenarios() -> None:
    assert len(list((ROOT / "dirigible").glob("*.yaml"))) >= 30
