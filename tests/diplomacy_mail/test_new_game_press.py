"""``pbmref new-game`` for Diplomacy (issue 18): the warning about unplayed powers
says what happens to them, and ``--press`` sets the game's press (default:
white in Diplomacy, none in the air games), kept in game.yaml."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbmref.cli import main
from pbmref.store import GameStore


def new_game(tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str,
             ruleset: str = "diplomacy", game: str = "g1") -> str:
    args = ["new-game", game, "--games", str(tmp_path / "games"), "--ruleset", ruleset,
            "--deadline", "2099-03-02T12:00:00+00:00", "--seed", "4", *extra]
    for name in ("anton", "edith", "fleur"):
        args += ["--player", f"{name}:{name}@example.org:{name.title()}"]
    assert main(args) == 0
    return " ".join(capsys.readouterr().out.split())


def test_unplayed_powers_are_named_with_what_happens_to_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = new_game(tmp_path, capsys)
    assert ("warning: nobody plays GER, ITA, RUS, TUR: they are in civil disorder for the "
            "whole game (DD3): units hold, dislodged units are disbanded, nothing is built, "
            "and the referee chooses the removals owed.") in out
    assert "a draw is shared with them while they survive" in out
    assert "press: white" in out
    game = GameStore(tmp_path / "games").open("g1")
    assert game.settings.press == "white" and game.press_level == "white"


def test_new_game_press_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "press: grey" in new_game(tmp_path, capsys, "--press", "grey")
    assert GameStore(tmp_path / "games").open("g1").press_level == "grey"
    out = new_game(tmp_path, capsys, ruleset="tweedekker", game="air1")
    assert "press: none" in out and "warning" not in out
    assert "press: white" in new_game(tmp_path, capsys, "--press", "white",
                                      ruleset="tweedekker", game="air2")


def test_a_bad_press_setting_in_game_yaml_names_its_line(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    new_game(tmp_path, capsys)
    path = tmp_path / "games" / "g1" / "game.yaml"
    path.write_text(path.read_text().replace("press: white", "press: loud"))
    assert main(["check", "g1", "--games", str(tmp_path / "games")]) != 0
    out = capsys.readouterr()
    text = out.out + out.err
    assert "press 'loud' is not one of: none, white, grey, broadcast" in text
    assert "game.yaml" in text and "line" in text
