"""Issue 10: a Dirigible Diplomacy game played by mail to a win (DD1, DD3, DD10,
DD11, DD14), from ``new-game`` with a near-victory position the GM gave.

France owns 17 centres in S1905M and needs 19 that are not devastated. Six
phases by mail: Italy's dirigible devastates Marseilles (DD10), France takes
Venice and Warsaw in the Fall (19 owned, 18 counted: no win, DD14), Russia
misses its retreat (disbanded, DD3) and its removal (civil disorder, DD11),
France builds, and at the end of 1906 France holds 19 counted centres and
wins; the game is finished and further mail is told so.
"""

from __future__ import annotations

import re
from pathlib import Path
from xml.etree import ElementTree

import pytest
import yaml
from dipkit import PLAYERS, DipTable, address, body_of, make_table, shared_part, svg_of, svgs_of

from pbmref import gm

HERE = Path(__file__).parent


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[DipTable, dict[str, list]]:
    """Play the whole game once; the tests below look at what happened."""
    position = yaml.safe_load((HERE / "near_victory.yaml").read_text(encoding="utf-8"))
    dip = make_table(tmp_path_factory.mktemp("dd"), ruleset="dirigible", position=position)
    log: dict[str, list] = {}

    def phase(name: str, orders: dict[str, list[str]]) -> None:
        assert dip.phase() == name
        replies = {p: dip.reply(p, *lines, phase=name) for p, lines in orders.items()}
        mails = dip.deadline()
        final = [m for m in mails if m["Subject"] == "[dip1] final report"]  # J14
        log[name] = [replies, [m for m in mails if m not in final], final]

    phase("S1905M", {"ilaria": ["D Mar devastate"], "fleur": ["A Pie H", "D Par - Bur"]})
    phase("F1905M", {"fleur": ["A Tyr - Ven", "A Pie S A Tyr - Ven", "A Sil - War",
                               "A Pru S A Sil - War"]})
    phase("F1905R", {"ilaria": ["A Ven - Rom"]})  # Russia sends nothing (DD3)
    # a build in the devastated centre is refused when the mail arrives (DD10, DD13)
    log["refused build"] = [dip.reply("fleur", "Build A Mar", phase="W1905A")]
    phase("W1905A", {"fleur": ["Build A Par"]})  # Russia's removal is missed (DD3, DD11)
    phase("S1906M", {"fleur": ["A Bur - Mar", "F Lyo - Tys", "D Bur - Par"]})
    phase("F1906M", {"ilaria": ["D Mar devastate"]})
    log["after"] = [dip.reply("fleur", "A Mar H")]
    return dip, log


def report_of(log: dict[str, list], phase: str) -> str:
    mails = log[phase][1]
    texts = {shared_part(body_of(m)) for m in mails}
    assert len(texts) == 1  # everyone gets the same report after their own block
    return texts.pop()



def test_every_phase_reports_to_all_seven_players_with_a_map(played) -> None:
    dip, log = played
    for phase in ("S1905M", "F1905M", "F1905R", "W1905A", "S1906M", "F1906M"):
        mails = log[phase][1]
        assert sorted(m["To"] for m in mails) == sorted(address(p) for p in PLAYERS)
        assert all(m["Subject"] == f"[dip1] {phase} report" for m in mails)
        # two pictures a phase (issue 19): the orders, and the board after them
        assert sorted(svgs_of(mails[0], dip.game())) == [f"dip1-{phase}-after.svg",
                                                         f"dip1-{phase}-orders.svg"]
        for svg in svgs_of(mails[0], dip.game()).values():
            ElementTree.fromstring(svg)


def test_dd10_devastation_is_reported(played) -> None:
    _, log = played
    text = report_of(log, "S1905M")
    assert "D Mar devastate - succeeds" in text
    assert "ITA devastates Mar" in text and "Devastated this year (DD10): Mar" in text


def test_dd1_a_retreat_phase_only_when_needed_with_its_options(played) -> None:
    _, log = played
    text = report_of(log, "S1905M")
    assert "Next: F1905M" in text  # no dislodgement: no retreat phase
    text = report_of(log, "F1905M")
    assert "Next: F1905R (Fall 1905 retreats)" in text
    assert "ITA A Ven is dislodged by the attack from Tyr" in text
    assert "RETREATS TO ORDER IN F1905R" in text
    assert "ITA A Ven (attacked from Tyr): retreat to" in text and "Rom" in text


def test_dd3_missed_retreat_disbands_and_dd14_devastated_centres_do_not_count(played) -> None:
    _, log = played
    text = report_of(log, "F1905R")
    assert "RUS A War is disbanded: no retreat ordered (DD3)" in text
    assert "FRA takes Ven from ITA" in text and "FRA takes War from RUS" in text
    assert "GAME OVER" not in text
    assert "Next: W1905A (Winter 1905 adjustments)" in text
    fra = next(line for line in text.splitlines() if re.match(r"  FRA +\d", line))
    assert fra.split()[1:3] == ["19", "18"]  # owned, counted (Mar devastated)


def test_dd3_missed_removal_and_builds(played) -> None:
    _, log = played
    refused = log["refused build"][0]
    assert "NOT accepted" in refused and "Mar is devastated" in refused
    text = report_of(log, "W1905A")
    assert "Build A Par - succeeds" in text and "FRA builds A Par" in text
    assert "RUS removes A Ukr: civil disorder (DD11)" in text
    assert "Russia (RUS, Raisa): no orders: units removed in civil disorder" in text
    assert "Turkey (TUR, Tarik): no orders: nothing built (DD3)" in text
    assert "Next: S1906M" in text


def test_the_win_is_announced_and_the_game_is_finished(played) -> None:
    dip, log = played
    text = report_of(log, "F1906M")
    assert "D Mar devastate - fails: army or fleet in the province" in text
    assert "GAME OVER. France (FRA, Fleur) wins (DD14)" in text
    assert "holds 19 supply centres" in body_of(log["F1906M"][1][0])  # the closing words
    svg = svg_of(log["F1906M"][1][0], game=dip.game())
    assert svg is not None and "France wins" in svg
    game = dip.game()
    assert game.settings.status == "finished"
    assert game.position["winner"] == "FRA"
    assert gm.status(dip.store, "dip1").status == "finished"
    assert "has ended" in log["after"][0] and "Nothing was changed" in log["after"][0]
    # the final report to everyone after the last report (J14); none before
    assert all(log[p][2] == [] for p in ("S1905M", "F1905M", "F1905R", "W1905A", "S1906M"))
    finals = log["F1906M"][2]
    assert sorted(m["To"] for m in finals) == sorted(address(p) for p in PLAYERS)
    assert "France wins with 19 supply centres (DD14)" in " ".join(body_of(finals[0]).split())


def test_orders_were_secret_until_adjudicated(played) -> None:
    _, log = played
    replies = log["F1905M"][0]
    assert set(replies) == {"fleur"}
    assert "A Tyr - Ven" in replies["fleur"]
    before = report_of(log, "S1905M")
    assert "A Tyr - Ven" not in before  # not in the report of the phase before
