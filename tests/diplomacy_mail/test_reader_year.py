"""The Diplomacy reader's block through the real referee (issue 43, item 3).

France takes Spain in 1901 (A Mar-Spa in the Spring, held in the Fall): the
Winter's report still tells France's player the centres taken this year
(centres change hands at the end of the Fall, DD1, so the Winter phase by
itself changes none); a power with nothing to order in the coming phase is
told so, with no "Orders for W1901A by" closing; and a player who set their
own time zone (SET TIMEZONE, J12) reads every deadline of their copy in it.
"""

from __future__ import annotations

import re

import pytest
from dipkit import DipTable, address, body_of, make_table

from pbmref.archive import stored_report


@pytest.fixture(scope="module")
def year(tmp_path_factory: pytest.TempPathFactory) -> tuple[DipTable, dict[str, dict[str, str]]]:
    dip = make_table(tmp_path_factory.mktemp("year"))
    dip.game().update_settings(
        lambda data: data["players"]["fleur"].update(timezone="Asia/Tokyo"))
    assert "accepted" in dip.reply("fleur", "A Mar-Spa", phase="S1901M")
    reports: dict[str, dict[str, str]] = {}
    for _ in range(3):  # S1901M, F1901M, W1901A
        phase = dip.phase()
        reports[phase] = {str(m["To"]): body_of(m) for m in dip.deadline()
                          if str(m["Subject"]).endswith(" report")}
    assert dip.phase() == "S1902M"
    return dip, reports


def block(text: str) -> str:
    """The reader's own block, on one line."""
    start = text.index("\nFOR ")
    return " ".join(text[start:text.index("\nPOWERS\n")].split())


def test_the_winter_report_tells_the_centres_taken_this_year(year) -> None:
    dip, reports = year
    mine = block(reports["W1901A"][address("fleur")])
    assert "This year you took Spa (neutral)." in mine, mine
    assert "No centre of yours changed hands" not in mine
    theirs = block(reports["W1901A"][address("edith")])
    assert "No centre of yours changed hands this year." in theirs, theirs
    # the stored report knows the year's Spring (read from the game's turns)
    report = stored_report(dip.game(), 3)
    assert report.position_before["phase"] == "W1901A"
    assert report.year_start is not None and report.year_start["phase"] == "S1901M"


def test_the_spring_report_says_no_centre_changes_hands_before_the_fall(year) -> None:
    _, reports = year
    mine = block(reports["S1901M"][address("fleur")])
    assert "No centre of yours changed hands this year. Centres change hands after the " \
           "Fall phases (DD1)." in mine, mine


def test_a_power_with_nothing_to_order_next_is_told_so(year) -> None:
    _, reports = year
    edith = reports["F1901M"][address("edith")]  # England builds nothing in W1901A
    assert "Orders for W1901A by" not in edith and "Orders for phase W1901A by" not in edith
    assert re.search(r"You have nothing to order in phase W1901A; it is played in 23 h "
                     r"\(Wed 12:00 UTC\) at the latest, and its report brings your next "
                     r"orders\.", " ".join(edith.split())), edith
    flat = " ".join(edith.split())
    assert re.search(r"You have nothing to order in W1901A \(played by \w{3} "
                     r"\d+ \w{3} 2026 \d\d:\d\d UTC at the latest\); your next orders "
                     r"are for S1902M\.", flat), flat
    fleur = " ".join(reports["F1901M"][address("fleur")].split())  # France builds
    assert "Orders for W1901A by" in fleur and "Orders for phase W1901A by: in " in fleur


def test_a_players_own_time_zone_is_used_in_their_whole_copy(year) -> None:
    _, reports = year
    fleur = reports["F1901M"][address("fleur")]
    edith = reports["F1901M"][address("edith")]
    assert "JST" in block(fleur) and "UTC" not in block(fleur)  # "build ..., by ... JST"
    assert " UTC" not in fleur.split("\nPOWERS\n")[0], fleur
    assert "JST" not in edith
