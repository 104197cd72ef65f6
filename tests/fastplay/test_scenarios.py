"""Every hand-worked Fast Play scenario must come out as written.

Each YAML file under ``tests/scenarios/fastplay/`` is one turn worked out by
hand from ``shared/rules/fastplay.md``, named after the rule it shows; where
dice decide, the seed is fixed and the description names the rolls. The files
run through the public command ``pbmref scenario FILE`` (exit 0: everything
expected matched, or the expected refusal happened) and through the
ruleset's own ``run_scenario``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from pbmref.cli import main
from pbmref.rulesets import get_ruleset

run_scenario = get_ruleset("fastplay").run_scenario

SCENARIO_DIR = Path(__file__).parents[1] / "scenarios" / "fastplay"
SCENARIOS = sorted(SCENARIO_DIR.glob("*.yaml"))


def test_every_rule_has_a_scenario() -> None:
    rules = {int(m.group(1)) for p in SCENARIOS if (m := re.match(r"fp(\d+)", p.name))}
    assert set(range(1, 20)) <= rules, f"rules without a scenario: {set(range(1, 20)) - rules}"


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_through_the_command(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["scenario", str(path)])
    out = capsys.readouterr()
    assert code == 0, f"{path.name} exited {code}\n{out.out[-3000:]}\n{out.err}"


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_through_run_scenario(path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    result = run_scenario(data)
    assert result.differences == []
    if "error" not in (data.get("expect") or {}):
        assert result.position["turn"] == data["turn"] + 1


def test_a_wrong_expectation_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                         ) -> None:
    data = yaml.safe_load((SCENARIO_DIR / "fp04b_three_of_a_kind.yaml").read_text())
    data["expect"]["aircraft"]["anna"]["hex"] = "G5"
    path = tmp_path / "wrong.yaml"
    path.write_text(yaml.safe_dump(data))
    assert main(["scenario", str(path)]) == 1
    assert "G5" in capsys.readouterr().out
    assert run_scenario(data).differences == [
        "aircraft.anna.hex: expected G5, got G4"]  # the runner's wording


def test_orders_a_player_could_not_mail_break_the_file(tmp_path: Path) -> None:
    data = yaml.safe_load((SCENARIO_DIR / "fp04a_single_card_twice.yaml").read_text())
    del data["expect"]
    path = tmp_path / "refused.yaml"
    path.write_text(yaml.safe_dump(data))
    assert main(["scenario", str(path)]) == 2
