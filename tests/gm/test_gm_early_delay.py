"""``--early-delay`` of new-game and new-class (issue 43, item 7): the game's own
wait after every player's orders are in, written to game.yaml's ``early_delay``;
a bad length is refused in one plain line naming the option, and nothing is
made; ``pbmref status`` says how the game plays early (or that it does not)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gmkit import ZEP1, House

from pbmref.store import GameStore

CLASS = """class: c7
title: Class 7
per_board: 4
turns: 6
seed: 3
pilots:
  ada: {name: Ada, team: Germans, address: ada@example.org}
  ben: {name: Ben, team: Allies, address: ben@example.org}
"""


def game_yaml(house: House, game: str) -> str:
    return (house.root / "games" / game / "game.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize(("given", "stored"), [("2h", "2h"), ("90m", "1h30m"), ("0", "0m")])
def test_new_game_writes_the_games_own_delay(house: House, given: str, stored: str) -> None:
    assert house.run(*ZEP1, "--early-delay", given).code == 0
    assert f"early_delay: {stored}\n" in game_yaml(house, "zep1")


@pytest.mark.parametrize("given", ["3x", "-5m", "soon", ""])
def test_a_bad_delay_is_one_plain_line_and_makes_nothing(house: House, given: str) -> None:
    ran = house.run(*ZEP1, f"--early-delay={given}")
    assert ran.code != 0
    said = (ran.out + ran.err).strip()
    assert "\n" not in said and "Traceback" not in said and "usage:" not in said, said
    assert "--early-delay" in said and "90m" in said, said
    assert not (house.root / "games" / "zep1").exists()


def test_status_says_how_the_game_plays_early(house: House) -> None:
    assert house.run(*ZEP1, "--early-delay", "2h").code == 0
    assert house.run("new-game", "dip1", "--ruleset", "diplomacy", "--player",
                     "anna:anna@example.org:Anna:FRA").code == 0
    assert house.run("new-game", "late", "--player", "anna:anna@example.org",
                     "--player", "bert:bert@example.org", "--no-early").code == 0
    out = house.run("status").out
    assert "  early: played 2h after all orders are in (early_delay)\n" in out, out
    assert "  early: played 1h after all orders are in (diplomacy's default)\n" in out, out
    assert "  early: never before the deadline\n" in out, out
    doc = json.loads(house.run("status", "--json", "zep1").out)
    assert doc["games"][0]["early"] == {"adjudication": True, "delay": "2h"}


def test_new_class_gives_each_board_the_delay(house: House) -> None:
    (house.root / "c7.yaml").write_text(CLASS, encoding="utf-8")
    ran = house.run("new-class", str(house.root / "c7.yaml"), "--early-delay", "5m")
    assert ran.code == 0, ran
    games = GameStore(house.root / "games").list_games()
    assert games and all(
        "early_delay: 5m\n" in game_yaml(house, g) for g in games)


def test_a_class_file_may_give_the_delay(house: House, tmp_path: Path) -> None:
    (house.root / "c7.yaml").write_text(CLASS + "early_delay: 10m\n", encoding="utf-8")
    assert house.run("new-class", str(house.root / "c7.yaml")).code == 0
    games = GameStore(house.root / "games").list_games()
    assert games and all("early_delay: 10m\n" in game_yaml(house, g) for g in games)
    bad = house.root / "c8.yaml"
    bad.write_text(CLASS.replace("c7", "c8") + "early_delay: later\n", encoding="utf-8")
    ran = house.run("new-class", str(bad))
    assert ran.code != 0 and "c8.yaml, line 9: 'later' is not a length" in ran.err, ran
