"""Every hand-worked tweedekker rule scenario must come out as written.

Each YAML file under ``tests/scenarios/tweedekker/`` is one turn worked out by
hand from the rulebook (``shared/rules/tweedekker.md``), named after the rule
it shows. The files are run through the public command ``pbmref scenario
FILE``, the same way a game master or an outside reader would run them, so the
test depends on nothing but the command's exit code: 0 when every expected
value (or the expected rejection, ``expect: {error: RULE}``) matches.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbmref import cli

SCENARIO_DIR = Path(__file__).parent / "scenarios" / "tweedekker"
SCENARIOS = sorted(SCENARIO_DIR.glob("*.yaml"))


def test_there_are_scenarios_for_every_rule_group() -> None:
    prefixes = {p.name.split("_", 1)[0].rstrip("0123456789a").upper() for p in SCENARIOS}
    assert {"B", "T", "M", "L", "F", "C", "W", "Z", "N", "V"} <= prefixes


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["scenario", str(path)])
    out = capsys.readouterr()
    assert code == 0, f"{path.name} exited {code}\n{out.out}\n{out.err}"
