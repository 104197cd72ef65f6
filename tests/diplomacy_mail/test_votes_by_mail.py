"""Draws, concessions and WAIT by mail (issue 18), through the whole pipeline.

A Dirigible game near its end (near_victory.yaml: England and Germany are
out) ends in a draw when every surviving power has DRAW standing at the
adjudication; one NODRAW blocks it, and with secret votes (the default,
J13) no report says that a draw was proposed. Every other survivor conceding to France ends it as France's
win. WAIT keeps a game with early adjudication from being played before
its deadline; the turn then runs at the deadline. STATUS shows who waits,
never the votes.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
import yaml
from dipkit import PLAYERS, DipTable, body_of, make_table, shared_part

from pbmref.referee.turns import adjudicate_due
from pbmref.rulesets import get_ruleset

HERE = Path(__file__).parent
SURVIVORS = ("anton", "fleur", "ilaria", "raisa", "tarik")  # AUS FRA ITA RUS TUR


def near_victory(tmp_path: Path) -> DipTable:
    position = yaml.safe_load((HERE / "near_victory.yaml").read_text(encoding="utf-8"))
    return make_table(tmp_path, ruleset="dirigible", position=position)


def report(mails: list) -> str:
    """The one report every player got after their own block, its lines joined
    (wrapping aside)."""
    # (a game that ends gets its final report after it, J14: not this one)
    texts = {shared_part(body_of(m)) for m in mails if str(m["Subject"]).endswith(" report")
             and not str(m["Subject"]).endswith(" final report")}
    assert len(texts) == 1
    return " ".join(texts.pop().split())


def test_a_draw_voted_by_every_survivor_ends_the_dirigible_game(tmp_path: Path) -> None:
    dip = near_victory(tmp_path)
    for pid in SURVIVORS:
        reply = dip.reply(pid, "DRAW")
        assert ("DRAW: your vote for a draw shared by every surviving power stands until "
                "you send NODRAW or another DRAW." in " ".join(reply.split()))
        assert "your orders" in reply  # every reply shows the orders in force
    # a power out of the game has no vote, and its mail is refused plainly
    refused = dip.reply("edith", "DRAW")
    assert "NOT accepted" in refused and "side is out of the game" in refused
    # the votes are secret: STATUS shows none of them
    status = dip.reply("fleur", "STATUS")
    assert "DRAW" not in status.replace("DRAW:", "") and "draw" not in status
    text = report(dip.deadline())
    shared = "Austria, France, Italy, Russia, Turkey"
    assert f"GAME OVER. The draw passed: shared by {shared}." in text
    assert f"The draw passed: the game ends in a draw shared by {shared}." in text
    assert "wins" not in text
    game = dip.game()
    assert game.settings.status == "finished"
    result = game.history.result(1) or {}
    assert result["game_over"] is True
    assert result["winners"] == ["AUS", "FRA", "ITA", "RUS", "TUR"]
    # the game has ended: orders are refused, press goes to everyone only
    assert "has ended" in dip.reply("fleur", "A Pie H")
    out = dip.send("fleur", "PRESS TO ALL", "Well played, all.")
    assert sum("[dip1] Press from France to all" == m["Subject"] for m in out) == 6
    assert "has ended" in dip.reply("fleur", "PRESS TO ITA", "Just you.")


def test_a_rerun_settles_the_recorded_draw_votes_the_same_way(tmp_path: Path) -> None:
    from pbmref import gm

    dip = near_victory(tmp_path)
    for pid in SURVIVORS:
        dip.reply(pid, "DRAW")
    dip.deadline()
    game = dip.game()
    assert (game.history.result(1) or {})["votes"]["draw"] == sorted(SURVIVORS)
    for pid in SURVIVORS:  # the standing votes change later: the turn keeps its own
        dip.reply(pid, "NODRAW")
    result = gm.rerun(dip.store, "dip1", 1)
    assert not result.changed, result.text()
    assert dip.game().settings.status == "finished"


def test_one_nodraw_blocks_the_draw_and_nobody_learns_of_it_J13(tmp_path: Path) -> None:
    dip = near_victory(tmp_path)
    for pid in SURVIVORS:
        dip.reply(pid, "DRAW")
    assert "NODRAW: you do not vote for a draw." in dip.reply("raisa", "NODRAW")
    text = report(dip.deadline())
    assert "proposed" not in text and "did not pass" not in text  # secret votes
    assert "GAME OVER" not in text
    assert "NODRAW" not in text and "vote" not in text  # not who, nor how many
    assert dip.game().settings.status == "open"
    # the DRAWs stand into the next phase: when Russia votes again, it passes
    dip.reply("raisa", "DRAW")
    assert "The draw passed" in report(dip.deadline())


def test_every_other_survivor_conceding_ends_the_game_as_a_win(tmp_path: Path) -> None:
    dip = near_victory(tmp_path)
    for pid in ("anton", "ilaria", "raisa", "tarik"):
        assert "CONCEDE TO FRA: your concession stands" in dip.reply(pid, "CONCEDE TO FRA")
    refused = dip.reply("fleur", "CONCEDE TO ENG")
    assert "NOT accepted" in refused and "cannot concede to ENG, which is not" in refused
    text = report(dip.deadline())
    assert "GAME OVER. France (FRA, Fleur) wins: every other surviving power conceded." \
        in text
    result = dip.game().history.result(1) or {}
    assert result["winners"] == ["FRA"]


def test_a_concession_short_of_one_power_changes_nothing(tmp_path: Path) -> None:
    dip = near_victory(tmp_path)
    for pid in ("anton", "ilaria", "raisa"):
        dip.reply(pid, "CONCEDE TO FRA")
    dip.reply("raisa", "NOCONCEDE")
    text = report(dip.deadline())
    assert "GAME OVER" not in text and "conceded" not in text


def holds(dip: DipTable) -> None:
    """Every player sends orders (a hold for each unit)."""
    position = dip.game().position
    for pid, power in PLAYERS.items():
        dip.reply(pid, *[f"{unit} H" for unit in position["units"][power]])


@pytest.mark.parametrize("wait", [False, True], ids=["no wait", "one WAIT"])
def test_wait_stops_early_adjudication_and_the_turn_runs_at_its_deadline(
        tmp_path: Path, wait: bool) -> None:
    dip = make_table(tmp_path)
    dip.game().change_settings({"early_adjudication": True})
    if wait:
        reply = dip.reply("gustav", "WAIT")
        assert "WAIT: phase S1901M will not be played before its deadline." in reply
    holds(dip)
    dip.clock.now += timedelta(hours=1)
    early = adjudicate_due(dip.referee, dip.intake)
    if not wait:
        assert [r.turn for r in early.adjudicated] == [1]
        return
    assert early.adjudicated == []
    status = dip.reply("anton", "STATUS")
    assert "Gustav                 received, asks to wait" in status
    assert "Gustav asked the referee to wait (WAIT): the turn is played at its deadline" \
        in " ".join(status.split())
    dip.deadline()
    assert dip.due is not None and [r.turn for r in dip.due.adjudicated] == [1]
    assert dip.phase() == "F1901M"
    # a WAIT holds for its own phase only
    assert dip.game().schedule.waits == ()


def test_nowait_lets_the_phase_be_played_early_again(tmp_path: Path) -> None:
    dip = make_table(tmp_path)
    dip.game().change_settings({"early_adjudication": True})
    dip.reply("gustav", "WAIT")
    holds(dip)
    assert not dip.game().schedule.is_due(dip.clock())
    assert "NOWAIT: you do not ask the referee to wait." in dip.reply("gustav", "NOWAIT")
    # played once Diplomacy's hour for changes has passed (issue 43, item 7)
    delay = get_ruleset("diplomacy").early_delay
    assert not dip.game().schedule.is_due(dip.clock() + delay - timedelta(minutes=1))
    assert dip.game().schedule.is_due(dip.clock() + delay)
