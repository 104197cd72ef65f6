"""Issue 19: computer powers in a Diplomacy game played by mail.

``new-game --computer-powers`` gives every power without a player to the
computer (``Ruleset.computer_player``); without it they stay in civil
disorder (DD3) and the warning says which. At each deadline the referee
writes the computer powers' orders (``fill_computer_orders`` asks
``DiplomacyRuleset.computer_orders``) before it adjudicates, so two humans
and five computer powers play a whole year by mail. ``replace-player
--computer`` hands a human's power to the computer in the middle of a game.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from dipkit import DipTable, body_of, make_table, table_on

from pbmref import gm
from pbmref.cli import main
from pbmref.rules.diplomacy.codec import position_from_dict
from pbmref.rules.diplomacy.state import Variant, initial_position
from pbmref.rulesets import get_ruleset
from pbmref.store import GameStore

HUMANS = {"fleur": "FRA", "edith": "ENG"}
COMPUTERS = ["AUS", "GER", "ITA", "RUS", "TUR"]
HOMES = {power: len(initial_position(Variant.STANDARD).centers_of(power))
         for power in COMPUTERS}


def new_game(tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    args = ["new-game", "dip2", "--games", str(tmp_path / "games"), "--ruleset", "diplomacy",
            "--deadline", "2026-03-02T12:00:00+00:00", "--turn-length", "24h", "--no-early",
            "--seed", "11", *extra]
    for pid, power in HUMANS.items():
        args += ["--player", f"{pid}:{pid}@example.org:{pid.title()}:{power}"]
    assert main(args) == 0
    return capsys.readouterr().out


def test_without_the_setting_the_warning_names_the_powers_in_civil_disorder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = new_game(tmp_path, capsys)
    flat = " ".join(out.split())
    assert "warning: nobody plays AUS, GER, ITA, RUS, TUR: they are in civil disorder " \
           "for the whole game (DD3): units hold" in flat
    assert "new-game --computer-powers gives them to the computer instead" in flat
    assert "the computer plays" not in out
    assert sorted(GameStore(tmp_path / "games").open("dip2").settings.players) == \
        sorted(HUMANS)


def test_two_humans_and_five_computer_powers_play_a_year_by_mail(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = new_game(tmp_path, capsys, "--computer-powers")
    assert "the computer plays AUS, GER, ITA, RUS, TUR" in out and "warning" not in out
    passwords = {pid: re.search(rf"^  {pid} +(\S+)", out, re.M).group(1)  # type: ignore[union-attr]
                 for pid in HUMANS}
    store = GameStore(tmp_path / "games")
    game = store.open("dip2")
    computers = {pid: p for pid, p in game.settings.players.items() if p.computer}
    assert sorted(computers) == ["aus", "ger", "ita", "rus", "tur"]
    assert computers["ger"].name == "computer" and not computers["ger"].addresses
    assert game.position["players"] == {**HUMANS, "aus": "AUS", "ger": "GER", "ita": "ITA",
                                        "rus": "RUS", "tur": "TUR"}
    dip = table_on(tmp_path, store, "dip2", passwords)
    spring = {"fleur": ["A Par - Bur", "A Mar - Spa", "F Bre - Mao"],
              "edith": ["F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor"]}
    played = []
    while dip.phase() != "S1902M":
        phase = dip.phase()
        board = dip.game().open.state
        for pid in HUMANS:
            if get_ruleset("diplomacy").needs_orders(board, pid):
                lines = spring[pid] if phase == "S1901M" else _holds_or_waive(dip, pid)
                assert "accepted" in dip.reply(pid, *lines, phase=phase)
        mails = dip.deadline()
        played.append(phase)
        record = dip.due.adjudicated[0] if dip.due and dip.due.adjudicated else None
        assert record is not None, phase
        # the computer powers' orders were written before the phase was adjudicated
        orders = store.open("dip2").book.entries(record.turn)
        assert {p for p in computers if p in orders} >= {
            p for p in computers if phase.endswith("M")}, phase
        reports = [m for m in mails if str(m["Subject"]).endswith(" report")]
        assert sorted(str(m["To"]) for m in reports) == ["edith@example.org",
                                                         "fleur@example.org"]
        text = body_of(reports[0])
        assert "Germany (GER, computer)" in text
    assert played[0] == "S1901M" and played[-1] == "W1901A"
    end = position_from_dict({"ruleset": "diplomacy", **store.open("dip2").position})
    gained = {p: len(end.centers_of(p)) - HOMES[p] for p in COMPUTERS}
    assert sum(gained.values()) >= 4, gained  # the computer takes neutral centres in 1901
    assert all(len(end.units_of(p)) >= HOMES[p] - 1 for p in COMPUTERS), gained


def _holds_or_waive(dip: DipTable, pid: str) -> list[str]:
    """A human's plain orders after the spring: hold everything, build nothing."""
    position = dip.game().position
    power = HUMANS[pid]
    phase = str(position["phase"])
    if phase.endswith("A"):
        return ["Waive"]
    if phase.endswith("R"):
        return [f"Disband {d['unit']}" for d in position.get("dislodged", {}).get(power, [])]
    return [f"{u} H" for u in position["units"].get(power, [])]


def test_replace_player_hands_a_power_to_the_computer(tmp_path: Path) -> None:
    dip = make_table(tmp_path)
    assert "accepted" in dip.reply("fleur", "A Par - Bur", "A Mar - Spa", "F Bre - Mao")
    gm.replace_player(dip.store, "dip1", "gustav", computer=True)
    dip.deadline()
    written = dip.game().book.entries(1)
    assert sorted(written) == ["fleur", "gustav"]
    assert any(" - " in o for o in written["gustav"]["orders"])  # it plays: no civil disorder
    rules = get_ruleset("diplomacy")
    assert rules.encode_orders(rules.read_orders(
        rules.decode(dip.game().read_position(1)), "gustav",
        list(enumerate(written["gustav"]["orders"], 1)))) == written["gustav"]
    assert dip.phase() == "F1901M"
