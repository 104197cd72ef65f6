"""The scenario runner (spec/scenario.md): exit codes, file lines, expect."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pbmref.base.yamlfile import YamlDoc, load_text
from pbmref.cli import main
from pbmref.rulesets.expect import compare
from pbmref.rulesets.scenario_files import run_file

BASE = """\
ruleset: tweedekker
turn: 3
seed: 5
aircraft:
  baron: {hex: J10, heading: N, state: flying, airfield: N}
  valk: {hex: J5, heading: N, state: flying, airfield: S}
orders:
  baron: {plane: [A, LS, R f-A]}
  valk: {plane: [A, A, A]}
"""


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_expect_subset_matches_exit_0(tmp_path: Path) -> None:
    # baron: J10 -A-> J11 -LS-> I11 (heading N) -R-> J12 heading NE; one burst.
    path = write(tmp_path, BASE + "expect:\n  turn: 4\n"
                 "  aircraft: {baron: {hex: J12, heading: NE, ammo: 15}}\n"
                 "  events: [{kind: manoeuvre, pilot: baron, manoeuvre: LS}, {kind: burst}]\n")
    result = run_file(path)
    assert result.code == 0, result.differences
    assert result.result is not None and result.result["aircraft"]["valk"]["hex"] == "J8"


def test_each_difference_is_named_exit_1(tmp_path: Path) -> None:
    path = write(tmp_path, BASE + "expect:\n  aircraft: {baron: {hex: J13, damage: 12}}\n"
                 "  winners: [baron]\n")
    result = run_file(path)
    assert result.code == 1
    assert result.differences == [
        "aircraft.baron.hex: expected J13, got J12",
        "winners: expected [baron], but there is no winners in the result",
    ]


def test_bad_value_reports_file_line_and_rule_exit_2(tmp_path: Path) -> None:
    path = write(tmp_path, BASE.replace("hex: J5", "hex: J20"))
    result = run_file(path)
    assert result.code == 2
    assert result.messages == [f"{path}:6: 'J20' is not on the board: file J runs from 1 to 19 "
                               "(rule B3)"]


def test_broken_yaml_exit_2_with_line(tmp_path: Path) -> None:
    path = write(tmp_path, "ruleset: tweedekker\naircraft: [\n")
    result = run_file(path)
    assert result.code == 2 and result.messages[0].startswith(f"{path}:3: not valid YAML")


def test_unknown_ruleset_is_a_broken_file(tmp_path: Path) -> None:
    result = run_file(write(tmp_path, "ruleset: chess\n"))
    assert result.code == 2 and "unknown ruleset 'chess'" in result.messages[0]


def test_expected_refusal_passes_and_other_rule_differs(tmp_path: Path) -> None:
    stall = BASE.replace("[A, LS, R f-A]", "['0', A, A]")
    assert run_file(write(tmp_path, stall + "expect: {error: M3}\n")).code == 0
    other = run_file(write(tmp_path, stall + "expect: {error: F1}\n", "o.yaml"))
    assert other.code == 1 and "expected a refusal under rule F1" in other.differences[0]
    accepted = run_file(write(tmp_path, BASE + "expect: {error: M3}\n", "a.yaml"))
    assert accepted.code == 1 and "but they were accepted" in accepted.differences[0]


def test_cli_prints_yaml_and_returns_worst_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write(tmp_path, BASE, "good.yaml")
    bad = write(tmp_path, "ruleset: chess\n", "bad.yaml")
    assert main(["scenario", str(good)]) == 0
    out = capsys.readouterr().out
    assert "baron:" in out and "events:" in out and "turn: 4" in out
    assert main(["scenario", "-q", str(good), str(bad)]) == 2
    assert "2 scenarios: 1 passed, 0 differ, 1 broken" in capsys.readouterr().out
    assert main(["scenario", str(good), str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [f"{good}: ok", f"{bad}: broken",
                                         "2 scenarios: 1 passed, 0 differ, 1 broken"]
    assert "chess" in captured.err  # why it is broken
    assert main(["scenario", "-v", str(good), str(bad)]) == 2
    (result,) = [d for d in yaml.safe_load_all(capsys.readouterr().out) if d]
    assert "turn: 4" in yaml.safe_dump(result)  # -v: the result too, still one YAML stream


def test_yaml_key_paths_give_lines() -> None:
    doc = YamlDoc(Path("s.yaml"), BASE, load_text(BASE, "s.yaml"))
    assert doc.data["aircraft"]["valk"]["hex"] == "J5"
    assert doc.line(("aircraft", "valk", "hex")) == 6
    assert doc.line(("orders", "baron", "plane", 1)) == 8


def test_compare_lists_of_mappings_in_order_and_scalars() -> None:
    actual = {"events": [{"kind": "a", "n": 1}, {"kind": "b"}, {"kind": "a", "n": 2}]}
    assert compare({"events": [{"kind": "a"}, {"kind": "a", "n": 2}]}, actual) == []
    assert compare({"events": [{"kind": "b"}, {"kind": "b"}]}, actual) != []
    assert compare({"x": 0}, {"x": "0"}) == []
    assert compare({"x": True}, {"x": 1}) != []


def test_compare_false_or_empty_matches_a_key_left_out() -> None:
    # scenario.md: a key the result leaves out when false or empty matches.
    assert compare({"game_over": False, "winners": [], "dislodged": {}}, {"turn": 2}) == []
    assert compare({"game_over": True}, {"turn": 2}) != []
    assert compare({"winners": ["baron"]}, {"turn": 2}) != []
    assert compare({"game_over": False}, {"game_over": True}) != []
    assert compare({"turn": 0}, {}) != []  # 0 is a value, not "false or empty"
