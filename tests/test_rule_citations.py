"""The rule numbers the project cites and the rulebooks it ships agree (issue 21).

- Every rule number the code cites exists in ``src/pbmref/rulebook/books``:
  the string literals of ``src/`` (replies, errors, reports, docstrings; not
  ``#`` comments) and the scenario files (their names, their ``rule:`` and
  ``error:`` values, "rule X" in their words, the rules their opening comment
  names).
- Every rule of the books is cited by at least one test (its name, or a
  string naming the rule) or scenario file, so no rule goes unchecked.

A rule number is what ``pbmref.rulebook.NUMBER`` matches, unless it is the
start of an SVG path step (``M12,0``, ``L10,19.5``: a coordinate follows). A
few strings in ``src/`` hold hex names that look like one; they are listed in
``NOT_RULES`` with the reason, and the list may not go stale.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from pbmref.rulebook import NUMBER, all_rules

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "pbmref"
SCENARIO_FOLDERS = (ROOT / "tests" / "scenarios", ROOT / "tests" / "diplomacy" / "scenarios",
                    ROOT / "docs" / "examples")
RULES = all_rules()

# (file under src/pbmref, what looks like a rule number) -> why it is none
NOT_RULES = {
    ("rulesets/tweedekker/ruleset.py", "F12"): "a hex of the demo's cloud",
    ("rulesets/tweedekker/ruleset.py", "F13"): "a hex of the demo's cloud",
    ("rulesets/tweedekker/ruleset.py", "N8"): "a hex of the demo's cloud",
    ("rulesets/diplomacy/board.py", "M10"): "SVG path data in a docstring",
    ("rules/tweedekker/events.py", "L59"): "a zeppelin's name (the L 59) in a doctest",
    ("rulesets/air/names.py", "L59"): "a zeppelin's name (the L 59) in a doctest",
    ("rulesets/fastplay/ruleset.py", "C10"): "a Fast Play hex in the help text (ENTER C10 S)",
    ("rules/fastplay/board.py", "C4"): "a Fast Play hex in an error message",
    ("rules/tweedekker/state.py", "L17"): "a hex in a doctest",
    ("base/text.py", "C0"): "the Unicode block of control characters (C0, C1)",
    # J19, the tweedekker board's corner hex, in doctests (the judge's rules are J1-J14)
    ("rules/hexgrid.py", "J19"): "a hex in a doctest",
    ("rules/tweedekker/drift.py", "J19"): "a hex in a doctest",
    ("rules/tweedekker/position.py", "J19"): "a hex in a doctest",
    ("reports/model.py", "J19"): "a hex in a doctest",
}

_RULE = NUMBER.pattern.replace(r"\b", "")
_IN_WORDS = re.compile(rf"(?:\brules?\s+|\bRuling\s+|\()({_RULE})\b")  # "rule M3", "(M3"
_OPENING = re.compile(rf"^#\s*({_RULE}(?:\s*[/,&]\s*{_RULE})*)\s*:", re.M)  # "# DD1/DD3a:"
_FILE_NAME = re.compile(r"^(fp|dd|[btmlfcwznv])0*(\d{1,2})(a?)(?=[a-z]?_)")  # fp04a_ -> FP4


def known(number: str) -> bool:
    return number.upper() in RULES


def numbers_in(text: str) -> list[str]:
    """The rule numbers in a text, leaving out SVG path steps (``M0,0``, and in
    an f-string ``M12,{y}``)."""
    return [m[0] for m in NUMBER.finditer(text) if not re.match(r",-?[\d{]", text[m.end():])]


def string_literals(path: Path) -> Iterator[tuple[int, str]]:
    """(line, text) of every string literal of a Python file (docstrings too)."""
    parts = {tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}
    for token in tokenize.generate_tokens(io.StringIO(path.read_text("utf-8")).readline):
        if token.type in parts:
            yield token.start[0], token.string


def scenario_files() -> list[Path]:
    files = sorted(p for folder in SCENARIO_FOLDERS for p in folder.rglob("*.yaml"))
    assert len(files) > 200, "the scenario files are missing"
    return files


def name_rule(path: Path) -> str | None:
    """The rule a scenario file's name starts with (``l2a_`` L2a, ``fp04a_`` FP4)."""
    m = _FILE_NAME.match(path.name)
    if m is None:
        return None
    with_letter = f"{m[1]}{int(m[2])}{m[3]}".upper()
    return with_letter if with_letter in RULES else f"{m[1]}{int(m[2])}".upper()


def _strings(data: object, key: object = None) -> Iterator[tuple[object, str]]:
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _strings(v, k)
    elif isinstance(data, list):
        for v in data:
            yield from _strings(v, key)
    elif isinstance(data, str):
        yield key, data


def scenario_citations(path: Path) -> set[str]:
    """The rule numbers a scenario file cites (as written, any case)."""
    text = path.read_text("utf-8")
    found = {n for m in _OPENING.finditer(text) for n in NUMBER.findall(m[1])}
    named = name_rule(path)
    if named:
        found.add(named)
    for key, value in _strings(yaml.safe_load(text)):
        if key in ("rule", "error"):
            found.update(NUMBER.findall(value))
        else:
            found.update(m[1] for m in _IN_WORDS.finditer(value))
    return found


def test_every_rule_the_code_cites_is_in_the_rulebooks() -> None:
    unknown = []
    for path in sorted(SRC.rglob("*.py")):
        where = str(path.relative_to(SRC))
        for line, text in string_literals(path):
            for number in numbers_in(text):
                if not known(number) and (where, number) not in NOT_RULES:
                    unknown.append(f"src/pbmref/{where}:{line}: {number}")
    for path in scenario_files():
        for number in scenario_citations(path):
            if not known(number):
                unknown.append(f"{path.relative_to(ROOT)}: {number}")
    assert unknown == [], "rule numbers cited but not in the rulebooks (if one is a hex " \
        "name or picture data, add it to NOT_RULES):\n" + "\n".join(unknown)


def test_the_list_of_look_alikes_is_not_stale() -> None:
    for (where, number), why in NOT_RULES.items():
        texts = [t for _, t in string_literals(SRC / where)]
        assert any(number in numbers_in(t) for t in texts), (where, number, why)
        assert not known(number), f"{number} is a rule now: drop it from NOT_RULES"


def test_citations_are_read_as_meant() -> None:
    assert name_rule(Path("l2a_landed_aircraft_stays_put.yaml")) == "L2A"
    assert name_rule(Path("fp04a_single_card_twice.yaml")) == "FP4"
    assert name_rule(Path("z18_storm_and_gunfire.yaml")) == "Z18"
    assert name_rule(Path("10_devastation.yaml")) is None
    assert _OPENING.findall("# DD1/DD3a: the retreat\n# DD9 later: no\n") == ["DD1/DD3a"]
    assert [m[1] for m in _IN_WORDS.finditer("from M12 to L11 (rule M3; F1)")] == ["M3"]
    assert numbers_in('<path d="M28,-8V8 L10,19.5"/> (rules M3, F1-F6)') == [
        "M3", "F1", "F6"]


def _test_citations(path: Path) -> set[str]:
    """The rules a test file names: in a test's name (``test_m3_...``), in a string
    that is a rule number (``"DD7"``), or in words ("rule M3", "(M3")."""
    found: set[str] = set()
    source = path.read_text("utf-8")
    for name in re.findall(r"\bdef (test_\w+)", source):
        found.update(part for part in name.split("_")[1:] if NUMBER.fullmatch(part.upper()))
    for _, text in string_literals(path):
        body = text.strip("rbfuRBFU").strip("'\"")
        if NUMBER.fullmatch(body):
            found.add(body)
        found.update(m[1] for m in _IN_WORDS.finditer(text))
    return found


@pytest.fixture(scope="module")
def cited() -> dict[str, set[str]]:
    """Rule number (capitals) -> the tests and scenario files that cite it."""
    out: dict[str, set[str]] = {}
    sources = [(p, scenario_citations(p)) for p in scenario_files()]
    sources += [(p, _test_citations(p)) for p in sorted((ROOT / "tests").rglob("*.py"))
                if p.name != Path(__file__).name]
    for path, numbers in sources:
        for number in numbers:
            out.setdefault(number.upper(), set()).add(str(path.relative_to(ROOT)))
    return out


def test_every_rule_is_cited_by_a_test_or_a_scenario_file(cited: dict[str, set[str]]) -> None:
    missing = [f"{r.number} ({r.book}: {r.title})" for key, r in RULES.items()
               if key not in cited]
    assert missing == [], "rules no test or scenario file cites:\n" + "\n".join(missing)


def test_every_book_has_scenario_files(cited: dict[str, set[str]]) -> None:
    for book in ("tweedekker", "fastplay", "diplomacy"):
        numbers = [k for k, r in RULES.items() if r.book == book]
        with_file = [k for k in numbers if any(s.endswith(".yaml") for s in cited.get(k, ()))]
        assert len(with_file) >= len(numbers) // 2, (book, sorted(set(numbers) - set(with_file)))
