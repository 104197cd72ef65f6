"""Issue 10: ``pbmref new-game --ruleset diplomacy|dirigible`` and the board picture.

The game the command makes is played by mail at once (DD12: the dirigible
game opens with Winter 1900 builds), and the ruleset's board picture (the
geographic board of issue 19, as the MAP reply and the archive show it) has
one ``unit`` element per unit, in the power's colour, with its letter, in its
province and coast.
"""

from __future__ import annotations

import re
from pathlib import Path
from xml.etree import ElementTree

import pytest
import yaml
from dipkit import REFEREE, T0, Clock, body_of

from pbmref.cli import main
from pbmref.mail.maildir_in import MaildirIntake
from pbmref.mail.outbox import read_maildir
from pbmref.referee.pipeline import Referee
from pbmref.rules.diplomacy.codec import position_to_dict
from pbmref.rules.diplomacy.state import Variant, initial_position
from pbmref.rulesets import get_ruleset
from pbmref.rulesets.diplomacy.board import BOARD_COLOURS
from pbmref.store import GameStore
from refereekit import maildir_config

SVG = "{http://www.w3.org/2000/svg}"
POWERS = ["AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR"]
NAMES = ["anton", "edith", "fleur", "gustav", "ilaria", "raisa", "tarik"]


def new_game(tmp_path: Path, ruleset: str, capsys: pytest.CaptureFixture[str]) -> str:
    args = ["new-game", "g1", "--games", str(tmp_path / "games"), "--ruleset", ruleset,
            "--deadline", "2099-03-02T12:00:00+00:00", "--seed", "4"]
    for name in NAMES:
        args += ["--player", f"{name}:{name}@example.org:{name.title()}"]
    assert main(args) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("ruleset,phase,units", [("dirigible", "W1900A", 0),
                                                 ("diplomacy", "S1901M", 22)])
def test_new_game_prints_passwords_and_powers(tmp_path: Path, ruleset: str, phase: str,
                                              units: int,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    out = new_game(tmp_path, ruleset, capsys)
    assert f"deadline of phase {phase}" in out
    for name, power in zip(NAMES, POWERS, strict=True):
        assert re.search(rf"^  {name} +\S+ +{name}@example.org$", out, re.M), out
        assert f"{name} {power}" in out
    game = GameStore(tmp_path / "games").open("g1")
    assert game.position["phase"] == phase
    assert game.position["players"] == dict(zip(NAMES, POWERS, strict=True))
    assert sum(len(v) for v in game.position["units"].values()) == units
    assert main(["status", "g1", "--games", str(tmp_path / "games")]) == 0
    assert f"phase {phase} (turn 1)" in capsys.readouterr().out


def test_the_new_dirigible_game_takes_winter_1900_builds_by_mail(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = new_game(tmp_path, "dirigible", capsys)
    password = re.search(r"^  raisa +(\S+)", out, re.M)
    assert password is not None
    config = maildir_config(tmp_path)
    referee = Referee(config, clock=Clock(T0))
    intake = MaildirIntake(config.mail.maildir.inbox)
    body = (f"GAME g1\nPASSWORD {password.group(1)}\nPHASE W1900A\n"
            "Build A Mos\nBuild D Mos\nBuild F StP/sc\nBuild F StP/nc\nEND\n")
    raw = (f"From: raisa@example.org\nTo: {REFEREE}\nSubject: builds\n"
           f"Message-ID: <b1@example.org>\n\n{body}").encode()
    intake.deliver(raw)
    referee.take_in(intake)
    referee.deliver(force=True)
    reply = body_of(read_maildir(tmp_path / "outbox")[-1])
    # DD12: no fleet on St Petersburg's north coast in 1900; the mail is refused whole
    assert "NOT accepted" in reply and "Line 7:" in reply and "DD12" in reply, reply
    assert GameStore(tmp_path / "games").open("g1").book.entries() == {}


def board(position: dict) -> str:
    """The picture of a position as the MAP reply attaches it."""
    svg = get_ruleset(str(position.get("ruleset") or "diplomacy")).render_position_svg(
        position, {})
    assert svg is not None
    return svg


def units_in(svg: str, css: str = "unit") -> list[ElementTree.Element]:
    root = ElementTree.fromstring(svg)
    return [e for e in root.iter() if (e.get("class") or "") == css]


def test_svg_has_one_unit_element_per_unit_in_its_province_and_coast() -> None:
    position = position_to_dict(initial_position(Variant.STANDARD))
    found = units_in(board(position))
    assert len(found) == 22
    by_unit = {(e.get("data-power"), e.get("data-unit")): e for e in found}
    for power, units in position["units"].items():
        for unit in units:
            e = by_unit[(power, unit)]
            shape = next(c for c in e if not c.tag.endswith("title"))
            assert shape.get("fill") == BOARD_COLOURS[power]
            assert e.get("data-province") == unit.split()[1].split("/")[0].lower()
            assert [t.text for t in e.iter(f"{SVG}text")] == [power[0]]  # the power's initial: its kind is its shape
    assert ("RUS", "F StP/sc") in by_unit


def test_svg_coasts_and_layers_are_told_apart() -> None:
    position = {
        "ruleset": "dirigible", "phase": "F1902R",
        "units": {"RUS": ["F StP/nc"], "GER": ["A Mun", "D Mun"], "FRA": ["F Spa/sc"]},
        "centers": {"GER": ["Mun"], "FRA": ["Spa"]},
        "devastated": ["Mun"],
        "dislodged": {"AUS": [{"unit": "A Tyr", "attacker_from": "Mun"}]},
    }
    svg = board(position)
    found = units_in(svg)
    assert len(found) == 4  # the dislodged army is drawn, but not as a unit
    where = {}
    for e in found:
        shape = next(c for c in e if not c.tag.endswith("title"))
        where[e.get("data-unit")] = (shape.get("cx") or shape.get("d"), shape.get("cy"))
    assert where["A Mun"] != where["D Mun"]  # two layers, both visible (DD6)
    nc = units_in(board({**position, "units": {"RUS": ["F StP/sc"]}}))
    assert nc[0].get("data-unit") == "F StP/sc"
    root = ElementTree.fromstring(svg)
    assert any("devastated" in (e.get("class") or "") for e in root.iter())
    assert len(units_in(svg, "unit dislodged")) == 1


def test_the_near_victory_position_draws() -> None:
    data = yaml.safe_load((Path(__file__).parent / "near_victory.yaml").read_text())
    svg = board(data)
    assert len(units_in(svg)) == sum(len(v) for v in data["units"].values())
