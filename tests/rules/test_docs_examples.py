"""The example scenario files of ``docs/scenario-format.md`` run as the page says.

Every file in ``docs/examples/`` is run through the public command
``pbmref scenario FILE``, as a game master would run it, and must exit 0: its
``expect`` block (or its expected refusal) matches what the referee does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbmref.cli import main

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "docs" / "examples"
EXAMPLES = sorted(EXAMPLES_DIR.glob("*.yaml"))


def test_there_is_an_example_for_every_ruleset() -> None:
    rulesets = set()
    for path in EXAMPLES:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("ruleset:"):
                rulesets.add(line.split(":", 1)[1].strip())
    assert rulesets == {"tweedekker", "fastplay", "diplomacy", "dirigible"}


def test_every_example_has_an_expect_block() -> None:
    assert EXAMPLES, f"no example files in {EXAMPLES_DIR}"
    for path in EXAMPLES:
        assert "\nexpect:" in path.read_text(encoding="utf-8"), path.name


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_runs_and_matches(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["scenario", str(path)])
    out = capsys.readouterr()
    assert code == 0, f"{path.name} exited {code}\n{out.out}\n{out.err}"


def test_the_folder_runs_as_one_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenario", str(EXAMPLES_DIR)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == f"{len(EXAMPLES)} scenarios: {len(EXAMPLES)} passed, 0 differ, 0 broken"
    assert sorted(lines[:-1]) == sorted(f"{p}: ok" for p in EXAMPLES)  # one line per file


def _yaml_blocks(text: str) -> list[str]:
    blocks: list[str] = []
    current: list[str] = []
    inside = False
    for line in text.splitlines():
        if line.strip() == "```yaml":
            inside, current = True, []
        elif line.strip() == "```" and inside:
            inside = False
            blocks.append("\n".join(current) + "\n")
        elif inside:
            current.append(line)
    return blocks


def test_every_position_shown_on_the_page_runs(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    page = EXAMPLES_DIR.parent / "scenario-format.md"
    positions = [b for b in _yaml_blocks(page.read_text(encoding="utf-8"))
                 if b.startswith("ruleset:")]
    assert len(positions) == 3  # tweedekker, Fast Play, Diplomacy
    for n, block in enumerate(positions):
        path = tmp_path / f"block{n}.yaml"
        path.write_text(block, encoding="utf-8")
        code = main(["scenario", str(path)])
        out = capsys.readouterr()
        assert code == 0, f"block {n} of {page.name} exited {code}\n{block}\n{out.err}"
