"""The Fast Play rulebook shipped in the package (``pbmref/rulebook/books/fastplay.md``):
one heading per rule, FP1-FP19 in order, every ruling inside its rule, and
every rule number the Fast Play code and scenarios cite present in it."""

from __future__ import annotations

import re
from importlib.resources import files
from pathlib import Path

import pbmref

BOOK = files("pbmref").joinpath("rulebook/books/fastplay.md").read_text(encoding="utf-8")
SRC = Path(pbmref.__file__).parent
SCENARIOS = Path(__file__).parent.parent / "scenarios" / "fastplay"
HEADING = re.compile(r"^### (FP\d+) — (\S.*)$")


def rules() -> list[str]:
    return [m.group(1) for line in BOOK.splitlines() if (m := HEADING.match(line))]


def test_one_heading_per_rule_in_order() -> None:
    assert rules() == [f"FP{n}" for n in range(1, 20)]
    for line in BOOK.splitlines():
        if line.startswith("###"):
            assert HEADING.match(line), f"not a rule heading: {line!r}"


def test_every_ruling_stands_inside_a_rule() -> None:
    rule = None
    rulings = 0
    for line in BOOK.splitlines():
        if line.startswith("### "):
            rule = line
        elif line.startswith("## "):
            rule = None
        if "Ruling:" in line:
            assert rule is not None, f"a ruling outside any rule: {line!r}"
            assert line.startswith("**Ruling:**"), line
            rulings += 1
    assert rulings >= 30


def test_the_rulings_the_code_makes_are_stated() -> None:
    for words in ("BURN CARD", "BURN DAMAGE", "plus one card drawn at random", "westmost",
                  "first turn every plane counts as entering", "nobody's victory"):
        assert words in BOOK, words


def test_every_rule_the_code_and_scenarios_cite_is_in_the_book() -> None:
    cited: set[str] = set()
    for path in [*(SRC / "rules" / "fastplay").glob("*.py"), *(SRC / "rulesets" / "fastplay").glob("*.py")]:
        cited |= set(re.findall(r"\"(FP\d+)\"", path.read_text(encoding="utf-8")))
    scenario_files = sorted(SCENARIOS.glob("*.yaml"))
    assert len(scenario_files) > 40
    for path in scenario_files:
        text = path.read_text(encoding="utf-8")
        cited.add("FP" + str(int(re.match(r"fp(\d+)", path.name).group(1))))  # type: ignore[union-attr]
        cited |= set(re.findall(r"error: (FP\d+)", text))
    assert cited and cited <= set(rules()), sorted(cited - set(rules()))
