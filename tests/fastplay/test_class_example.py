"""``games/class.example.yaml``, the commented class file, is a valid class.

It is read by the same reader as ``pbmref new-class`` and then used by that
command to create the class's games, which must pass ``pbmref check``. Every
key the reader knows appears in the file and is explained in a comment.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from pbmref.cli import main
from pbmref.rulesets.fastplay.classroom import _KEYS, load_template, plan_boards

EXAMPLE = Path(__file__).resolve().parents[2] / "games" / "class.example.yaml"
PILOT_KEYS = ("name", "team", "address", "computer")


def test_the_example_is_a_class_of_twelve_on_two_even_boards() -> None:
    template = load_template(EXAMPLE)
    assert template.id == "7b"
    assert len(template.pilots) == 12
    assert all(p.address and not p.computer for p in template.pilots)
    assert Counter(p.team for p in template.pilots) == {"Germans": 6, "Allies": 6}
    boards = plan_boards(template)
    assert len(boards) == 2
    for board in boards:
        assert Counter(template.pilot(pid).team for pid in board) == {"Germans": 3,
                                                                       "Allies": 3}


def test_every_key_is_in_the_file_and_explained() -> None:
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    top_level = {}
    for n, line in enumerate(lines):
        m = re.match(r"([a-z_]+):", line)
        if m:
            top_level[m.group(1)] = n
    assert set(top_level) == set(_KEYS)
    for key, n in top_level.items():
        assert lines[n - 1].startswith("#"), f"{key} has no comment above it"
    comments = "\n".join(line.split("#", 1)[1] for line in lines if "#" in line)
    for key in ("files", "ranks", *PILOT_KEYS):  # keys inside board and pilots
        assert re.search(rf"\b{key}\b", comments), f"{key} is not explained in a comment"


def test_new_class_creates_games_that_pass_check(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    games = tmp_path / "games"
    assert main(["new-class", str(EXAMPLE), "--games", str(games), "--no-passwords",
                 "--deadline", "2026-09-14T16:00+02:00"]) == 0
    out = capsys.readouterr().out
    assert "3 Germans, 3 Allies" in out and "roster:" in out
    for game in ("7b-1", "7b-2"):
        assert main(["check", game, "--games", str(games)]) == 0, capsys.readouterr()
    assert (games / "roster.yaml").is_file()


def test_new_class_example_prints_the_file_a_clone_has_in_games(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new-class", "--example"]) == 0
    printed = capsys.readouterr().out
    assert printed == EXAMPLE.read_text(encoding="utf-8")
    saved = tmp_path / "class.yaml"
    saved.write_text(printed, encoding="utf-8")
    assert load_template(saved).id == "7b"
    assert main(["new-class", "--games", str(tmp_path / "games")]) == 1
    assert "--example" in capsys.readouterr().err
