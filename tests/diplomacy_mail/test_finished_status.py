"""A finished game's status names the phase it ended with, never the phase
after the end (that phase is never played), and waits for nobody."""

from __future__ import annotations

from pathlib import Path

import yaml
from dipkit import make_table

from pbmref import gm

HERE = Path(__file__).parent


def test_a_game_ended_by_a_draw_names_its_last_phase(tmp_path: Path) -> None:
    position = yaml.safe_load((HERE / "near_victory.yaml").read_text(encoding="utf-8"))
    dip = make_table(tmp_path, ruleset="dirigible", position=position)
    for player in ("anton", "fleur", "ilaria", "raisa", "tarik"):
        dip.send(player, "DRAW")
    dip.deadline()
    assert dip.game().settings.status == "finished"
    text = gm.status(dip.store, "dip1").text()
    first = text.splitlines()[0]
    assert "finished after phase S1905M (turn 1)" in first, first
    assert "F1905M" not in text and "deadline" not in first
    assert "waiting" not in text
