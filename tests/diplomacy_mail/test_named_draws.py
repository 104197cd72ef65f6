"""Draws among named powers and open votes by mail (issue 45, rule J13).

The Dirigible game near its end (near_victory.yaml: AUS FRA ITA RUS TUR
survive) with the game's ``draws`` setting changed by the game master:
named draws allowed, votes open or secret. A named draw passes when the
player of every surviving power votes for the same one; DRAW alone counts
as the draw of every survivor; a game that allows only one kind refuses the
other, and a power that is not in the game cannot share a draw.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from dipkit import DipTable, body_of, make_table, shared_part

HERE = Path(__file__).parent
SURVIVORS = {"anton": "AUS", "fleur": "FRA", "ilaria": "ITA", "raisa": "RUS", "tarik": "TUR"}


def table(tmp_path: Path, **draws: Any) -> DipTable:
    position = yaml.safe_load((HERE / "near_victory.yaml").read_text(encoding="utf-8"))
    dip = make_table(tmp_path, ruleset="dirigible", position=position)
    dip.game().change_settings({"draws": draws})
    return dip


def report(mails: list[Any]) -> str:
    # the turn's report (a game that ends gets its final report after it, J14)
    texts = {shared_part(body_of(m)) for m in mails if str(m["Subject"]).endswith(" report")
             and not str(m["Subject"]).endswith(" final report")}
    assert len(texts) == 1
    return " ".join(texts.pop().split())


def flat(text: str) -> str:
    return " ".join(text.split())


def test_a_named_draw_passes_when_every_survivor_names_the_same_powers(tmp_path: Path) -> None:
    dip = table(tmp_path, allow=["all", "named"], secret=True)
    for pid in ("anton", "fleur", "ilaria", "raisa"):
        reply = flat(dip.reply(pid, "DRAW fra rus"))
        assert "DRAW FRA RUS: your vote for a draw shared by France, Russia stands" in reply
        assert "(rule J13)" in reply and "Votes are secret" in reply
    # Turkey votes for the draw of every survivor: not the same draw
    dip.reply("tarik", "DRAW")
    text = report(dip.deadline())
    assert "GAME OVER" not in text and "proposed" not in text and "draw" not in text.lower()
    # Turkey names the same two powers (a new DRAW replaces the last): it passes
    dip.reply("tarik", "DRAW RUS FRA")
    text = report(dip.deadline())
    assert "GAME OVER. The draw passed: shared by France, Russia." in text
    result = dip.game().history.result(2) or {}
    assert result["winners"] == ["FRA", "RUS"]
    assert result["votes"]["draw_sets"]["tarik"] == ["FRA", "RUS"]


def test_open_votes_are_reported_with_who_votes_for_which_draw(tmp_path: Path) -> None:
    dip = table(tmp_path, allow=["all", "named"], secret=False)
    assert "Votes are open" in flat(dip.reply("fleur", "DRAW FRA RUS"))
    dip.reply("raisa", "DRAW FRA RUS")
    dip.reply("tarik", "DRAW")
    text = report(dip.deadline())
    assert ("No draw passed (J13; the votes are open): Turkey for a draw of Austria, France, "
            "Italy, Russia, Turkey; France, Russia for a draw of France, Russia.") in text


def test_a_game_refuses_the_draws_it_does_not_allow(tmp_path: Path) -> None:
    dip = table(tmp_path, allow=["all"])
    refused = flat(dip.reply("fleur", "DRAW FRA RUS"))
    assert "NOT accepted" in refused
    assert "this game allows only the draw of every surviving power" in refused.lower()
    assert "J13" in refused
    dip = table(tmp_path / "named", allow=["named"])
    refused = flat(dip.reply("fleur", "DRAW"))
    assert "this game allows only draws among named powers" in refused.lower()
    assert "DRAW AUS FRA ITA" in refused  # an example from the powers in the game
    refused = flat(dip.reply("fleur", "DRAW FRA ENG"))
    assert "ENG is not a power still in the game" in refused
    refused = flat(dip.reply("fleur", "DRAW FRA"))
    assert "a draw is shared by two powers or more" in refused.lower()
    assert dip.game().votes.read().draw == frozenset()  # nothing refused was recorded
