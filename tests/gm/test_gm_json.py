"""Machine-readable output (issue 46, item 6): ``--json`` on status, check,
roster, press, rules and mail shunted prints one JSON object of the
documented, versioned shape (docs/json.md); a misspelt command is answered
with the nearest one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gmkit import House

DOCS = Path(__file__).resolve().parents[2] / "docs" / "json.md"


def _json(house: House, *args: str, code: int = 0) -> dict[str, Any]:
    ran = house.run(*args, "--json")
    assert ran.code == code, ran
    assert ran.out.count("\n") == 1, ran.out  # one document, one line
    doc: dict[str, Any] = json.loads(ran.out)
    assert doc["format"] == "pbmref/1"
    assert doc["command"] == " ".join(a for a in args[:2] if a in ("mail", "shunted")) \
        or doc["command"] == args[0]
    return doc


def test_status_and_check_as_json(house: House) -> None:
    house.new_game()
    status = _json(house, "status")
    (game,) = status["games"]
    assert (game["id"], game["turn"], game["status"], game["timezone"]) == \
        ("zep1", 1, "open", "Europe/Amsterdam")
    assert game["deadline"].endswith("+01:00")
    assert [(p["id"], p["orders_in"], p["waited_for"]) for p in game["players"]] == \
        [("anna", False, True), ("bert", False, True)]
    assert set(status["referee"]) == {"last_round", "queued", "queued_since", "failed",
                                      "set_aside"}
    check = _json(house, "check")
    assert check["games"] == [{"id": "zep1", "ok": True, "files": check["games"][0]["files"],
                               "turn": 1, "warnings": [], "problems": []}]
    game_file = house.root / "games" / "zep1" / "game.yaml"
    game_file.write_text(game_file.read_text().replace("status: open", "status: [open"))
    broken = _json(house, "check", code=1)
    (problem,) = broken["games"][0]["problems"]
    assert problem["file"].endswith("game.yaml") and isinstance(problem["line"], int)
    unreadable = _json(house, "status", code=1)
    assert unreadable["unreadable"][0]["id"] == "zep1"


def test_rules_press_roster_and_shunted_as_json(house: House) -> None:
    rules = _json(house, "rules", "M3")
    assert [(r["number"], r["book"]) for r in rules["rules"]] == [("M3", "tweedekker")]
    assert _json(house, "rules", "Q99", code=1)["unknown"] == ["Q99"]
    assert len(_json(house, "rules")["rules"]) > 50
    house.new_game()
    assert _json(house, "press", "zep1") == {"format": "pbmref/1", "command": "press",
                                             "game": "zep1", "messages": []}
    assert _json(house, "roster")["pupils"] == []
    assert _json(house, "mail", "shunted")["mails"] == []


def test_the_shape_is_documented() -> None:
    text = DOCS.read_text()
    for command in ("status", "check", "roster", "press", "rules", "mail shunted"):
        assert f"## `{command} " in text, command
    assert "pbmref/1" in text


@pytest.mark.parametrize(("typed", "meant"), [("stauts", "status"), ("rendr", "render"),
                                              ("new-gmae", "new-game")])
def test_a_misspelt_command_gets_did_you_mean(house: House, typed: str, meant: str) -> None:
    ran = house.run(typed, "zep1")
    assert ran.code == 2
    assert f"did you mean '{meant}'?" in ran.err, ran.err
    assert "Traceback" not in ran.err


def test_an_unknown_command_far_from_any_says_where_the_list_is(house: House) -> None:
    ran = house.run("frobnicate")
    assert ran.code == 2 and "pbmref --help" in ran.err and "did you mean" not in ran.err
