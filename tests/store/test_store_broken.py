"""A game master's typo gives file, line and plain words; that game waits, others go on.

Each file in ``broken/`` replaces one file of a copy of the example game;
``broken/expected.yaml`` holds the exact message it must give.
"""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml
from store_fakes import REPO

from pbmref import gm
from pbmref.cli import main
from pbmref.store import GameFileError, GameStore

BROKEN = Path(__file__).parent / "broken"
EXPECTED = yaml.safe_load((BROKEN / "expected.yaml").read_text())
LATE = datetime(2027, 1, 1, tzinfo=UTC)


def test_every_broken_file_has_an_expected_message():
    assert sorted(EXPECTED) == sorted(p.name for p in BROKEN.glob("*.yaml")
                                      if p.name != "expected.yaml")


def _games(tmp_path: Path) -> Path:
    games = tmp_path / "games"
    for name in ("example", "other"):
        shutil.copytree(REPO / "docs" / "example-game", games / name,
                        ignore=shutil.ignore_patterns(".lock"))
    return games


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_broken_file_gives_file_line_and_words(tmp_path, name):
    games = _games(tmp_path)
    case = EXPECTED[name]
    game_dir = games / "example"
    (game_dir / case["replaces"]).write_text((BROKEN / name).read_text())
    store = GameStore(games)

    problems = gm.check(store, "example").problems
    assert len(problems) == 1
    problem = problems[0]
    shown = str(problem).replace(f"{game_dir}/", "")
    assert shown == case["error"]

    if case.get("blocks") is False:  # history only: the open turn goes on
        assert gm.adjudicate(store, "example", LATE).turn == 2
        return
    # the broken game is not adjudicated (nothing written), the other one is
    before = sorted(p.name for p in (game_dir / "turns").iterdir())
    with pytest.raises(GameFileError):
        gm.adjudicate(store, "example", LATE)
    assert sorted(p.name for p in (game_dir / "turns").iterdir()) == before
    assert not (game_dir / "turns" / "002" / "result.yaml").exists()
    assert gm.adjudicate(store, "other", LATE).turn == 2


def test_check_command_prints_the_message_and_fails(tmp_path, capsys):
    games = _games(tmp_path)
    case = EXPECTED["position-damage-too-high.yaml"]
    (games / "example" / case["replaces"]).write_text(
        (BROKEN / "position-damage-too-high.yaml").read_text())
    assert main(["check", "--games", str(games)]) == 1
    out = capsys.readouterr().out
    assert case["error"] in out.replace(f"{games / 'example'}/", "")
    assert "other: ok" in out
