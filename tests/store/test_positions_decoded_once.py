"""A position is decoded once a version of its file (issue 41, item 1: "decoded
once per turn"): a deadline checks the new position before writing it and
keeps that reading for the turn it opens, and the game's new deadline written
into game.yaml does not make the positions be read again (they are checked
against the players and the ruleset, which a deadline does not change)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
import yaml

from pbmref import gm
from pbmref.archive import stored_report
from pbmref.store import Game, GameStore


def counted(game: Game, monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The turns of the positions the game's ruleset decodes from now on."""
    decoded: list[object] = []
    decode = type(game.ruleset).decode

    def counting(self: Any, data: Any) -> Any:
        decoded.append(data.get("turn"))
        return decode(self, data)

    monkeypatch.setattr(type(game.ruleset), "decode", counting)
    return decoded


def test_a_deadline_and_its_report_decode_each_position_once(
        example_store: GameStore, monkeypatch: pytest.MonkeyPatch) -> None:
    game = example_store.open("example")
    turn = game.turn
    decoded = counted(game, monkeypatch)
    record = gm.adjudicate(example_store, "example", datetime.now().astimezone(), force=True,
                           game=game)
    assert record is not None
    assert game.turn == turn + 1
    report = stored_report(game, turn)
    assert report.position_after == game.position
    # what is kept is what reading the file back gives, lists as lists
    on_disk = yaml.safe_load((game.turn_dir(turn + 1) / "position.yaml").read_text())
    assert repr(game.position) == repr(on_disk)
    # the new position, checked once before it is written; the open turn's
    # position was read when the game was opened, before the count
    assert decoded == [turn + 1]


def test_a_game_master_edit_of_the_players_checks_the_position_again(
        example_store: GameStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reading kept is the one checked against these players: a game.yaml
    that names other players is another check."""
    game = example_store.open("example")
    decoded = counted(game, monkeypatch)
    game.change_settings({"title": "Renamed"})  # not the players: the reading stands
    game.reload()
    assert decoded == []
    path = game.dir / "game.yaml"
    text = path.read_text(encoding="utf-8")
    player = sorted(game.settings.players)[-1]
    assert f"  {player}:" in text, text
    path.write_text(text.replace(f"  {player}:", f"  {player}x:", 1), encoding="utf-8")
    with pytest.raises(Exception, match=player):
        example_store.open("example")
