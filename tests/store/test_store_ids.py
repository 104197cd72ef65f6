"""Game and player ids become folder and file names: nothing else gets through."""

from __future__ import annotations

import pytest
from store_fakes import FAKE_POSITION, fake_settings, load_fake

from pbmref.store import GameFileError, GameNotFound, GameStore, InvalidId, check_id

GOOD = ["a", "example", "flanders-1916", "game_2", "0", "a" * 32]
BAD = ["", "A", "Example", "../../etc", "..", ".", "a/b", "a\\b", "-a", "_a", "a b",
       "a.b", "a" * 33, "é", "a\n", "/etc", None, 7]


@pytest.mark.parametrize("value", GOOD)
def test_valid_ids(value):
    assert check_id(value) == value


@pytest.mark.parametrize("value", BAD)
def test_invalid_ids(value):
    with pytest.raises(InvalidId, match="is not a valid game id"):
        check_id(value)


@pytest.mark.parametrize("value", ["../../etc", "..", "a/b", "Example"])
def test_store_refuses_path_tricks(tmp_path, value):
    store = GameStore(tmp_path / "games", ruleset_loader=load_fake)
    with pytest.raises(InvalidId):
        store.open(value)
    with pytest.raises(InvalidId):
        store.create(value, fake_settings(), FAKE_POSITION)
    assert not (tmp_path / "etc").exists()


def test_unknown_game(tmp_path):
    with pytest.raises(GameNotFound):
        GameStore(tmp_path, ruleset_loader=load_fake).open("nope")


def test_player_ids_in_game_yaml_are_checked(tmp_path):
    settings = fake_settings(players={"../x": {"addresses": ["x@example.org"]}})
    with pytest.raises(GameFileError, match="not a valid player id"):
        GameStore(tmp_path, ruleset_loader=load_fake).create("g", settings, FAKE_POSITION)
    assert not (tmp_path / "g").exists()  # nothing half-made is left behind


def test_orders_file_names_must_be_player_ids(fake_store):
    game = fake_store.open("fake1")
    odir = game.book.folder()
    odir.mkdir(parents=True)
    (odir / "Ann.yaml").write_text("entry: {add: 1}\n")
    with pytest.raises(GameFileError, match="not a player of this game"):
        game.book.entries()
