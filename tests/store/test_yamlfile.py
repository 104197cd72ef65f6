"""dump_yaml writes plain data the quick way and anything else PyYAML's way: the
same text either way."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
import yaml

from pbmref.base import yamlfile
from pbmref.base.yamlfile import dump_yaml

REPO = Path(__file__).resolve().parents[2]
SHARED = [1, 2]


def pyyaml_way(data: object) -> str:
    dumper = yamlfile._Dumper
    quick = dumper.represent
    dumper.represent = yaml.representer.BaseRepresenter.represent
    try:
        return dump_yaml(data)
    finally:
        dumper.represent = quick


@pytest.mark.parametrize("data", [
    {"a": SHARED, "b": SHARED},  # a list met twice: an alias
    {"t": (), "u": (), "v": ("a", "b"), "w": [("a", 1), ("b", 2)]},
    {"f": 1.5, "d": date(2026, 12, 1), "n": None, "b": True},
    {"text": "line\nline two", "yes": "yes", "null": "null", "empty": "", "when": "2026-01-01",
     "long": ["x" * 41], "many": list(range(13)), 7: "seven"},
])
def test_the_same_text_as_pyyamls_way(data):
    assert dump_yaml(data) == pyyaml_way(data)


def test_the_example_games_files_are_written_as_pyyaml_writes_them():
    for path in sorted((REPO / "games").glob("**/*.yaml")):
        data = yaml.safe_load(path.read_text())
        assert dump_yaml(data) == pyyaml_way(data), path


def test_a_played_turns_files_are_written_as_pyyaml_writes_them(example_store):
    from datetime import UTC, datetime

    from pbmref import gm

    record = gm.adjudicate(example_store, "example", datetime(2027, 1, 1, tzinfo=UTC))
    assert record is not None and record.events
    for path in record.files:
        if path.suffix == ".yaml":
            text = path.read_text()
            data = yaml.safe_load(text)
            assert text.endswith(dump_yaml(data)) and dump_yaml(data) == pyyaml_way(data)


def test_a_value_is_worked_out_again_when_the_stamp_given_is_the_files_new_one(tmp_path):
    """``stored_value(..., stamp=)``: the caller's stat stands for the cache's
    own; a file rewritten between two calls is read again (issue 20)."""
    from pbmref.store.layout import file_stamp

    path = tmp_path / "game.yaml"
    path.write_text("title: one\n", encoding="utf-8")
    seen = file_stamp(path)
    assert yamlfile.stored_value(path, "title", lambda doc: doc.mapping()["title"],
                                 stamp=seen) == "one"
    path.write_text("title: two, longer\n", encoding="utf-8")
    assert yamlfile.stored_value(path, "title", lambda doc: doc.mapping()["title"],
                                 stamp=file_stamp(path)) == "two, longer"
    # a missing file's stamp (0, 0, 0) is not trusted: the file is looked at
    path.unlink()
    with pytest.raises(Exception, match="game.yaml"):
        yamlfile.stored_value(path, "title", lambda doc: doc.mapping()["title"],
                              stamp=(0, 0, 0))


def test_a_game_folders_paths_are_joined_once_and_name_its_files(tmp_path):
    from pbmref.store.layout import GAME_FILE, LOCK_FILE, STATE_FILE, game_paths

    folder = tmp_path / "flanders"
    paths = game_paths(folder)
    assert game_paths(str(folder)) is paths
    assert (paths.dir, paths.game_file, paths.lock_file, paths.state_file) == (
        folder, folder / GAME_FILE, folder / LOCK_FILE, str(folder / STATE_FILE))
    assert paths.position(3) == folder / "turns" / "003" / "position.yaml"
    assert paths.position(3) is paths.position(3)
