"""A command's change of game.yaml keeps the game master's file: a value alone on
its line is changed on that line, as ruamel.yaml's round trip would change it."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta, timezone

import pytest

from pbmref.store.settings_file import SettingsFile, _value, _yaml

GAME = """\
# The game master's notes
title: Flanders   # shown in reports
ruleset: tweedekker
status: open                     # open | paused | finished
seed: 7
timezone: Europe/Amsterdam
deadline: '2026-12-03T20:00:00+01:00'   # of the open turn
players:
  ann:
    name: Ann
    addresses: [ann@example.org]
"""
CHANGES = [{"deadline": datetime(2026, 12, 5, 20, 0, tzinfo=timezone(timedelta(hours=1)))},
           {"deadline": None}, {"status": "paused"},
           {"deadline": datetime(2027, 1, 2, tzinfo=UTC), "status": "finished"}]


def _round_trip(text: str, changes: dict[str, object]) -> str:
    yaml = _yaml()
    data = yaml.load(text)
    for key, value in changes.items():
        data[key] = _value(value)
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue()


@pytest.mark.parametrize("changes", CHANGES)
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_value_on_its_own_line_is_changed_there_as_ruamel_would(tmp_path, changes, newline):
    path = tmp_path / "game.yaml"
    text = GAME.replace("\n", newline)
    path.write_bytes(text.encode())
    SettingsFile(path, "flanders").set(changes)
    assert path.read_bytes().decode() == _round_trip(GAME, changes)  # read as text: \n


def test_a_deadline_moved_changes_that_line_only(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(GAME.replace("title: Flanders", 'title: "Flanders"'))
    settings, text = SettingsFile(path, "flanders").set(
        {"deadline": datetime(2026, 12, 5, tzinfo=UTC)})
    assert settings.deadline == datetime(2026, 12, 5, tzinfo=UTC)
    assert path.read_text() == text == GAME.replace("title: Flanders", 'title: "Flanders"').replace(
        "deadline: '2026-12-03T20:00:00+01:00'   # of the open turn",
        "deadline: 2026-12-05T00:00:00+00:00     # of the open turn")


def test_a_value_over_two_lines_goes_through_the_round_trip(tmp_path):
    path = tmp_path / "game.yaml"
    text = GAME.replace("deadline: '2026-12-03T20:00:00+01:00'   # of the open turn",
                        "deadline:\n  2026-12-03T20:00:00+01:00")
    path.write_text(text)
    changes = {"deadline": datetime(2026, 12, 5, tzinfo=UTC)}
    SettingsFile(path, "flanders").set(changes)
    assert path.read_text() == _round_trip(text, changes)
