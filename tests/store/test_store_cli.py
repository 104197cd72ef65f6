"""The game master's commands, run through the real command line."""

from __future__ import annotations

import shutil

import pytest
import yaml
from store_fakes import REPO

from pbmref.cli import gm as cli_gm
from pbmref.cli import main


@pytest.fixture
def games(tmp_path):
    games = tmp_path / "games"
    shutil.copytree(REPO / "docs" / "example-game", games / "example",
                    ignore=shutil.ignore_patterns(".lock"))
    return games


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_new_game_prints_passwords_and_stores_hashes(games, capsys):
    code, out, _ = run(capsys, "new-game", "--games", str(games), "flanders",
                       "--player", "baron:baron@example.org:Manfred",
                       "--player", "biggles:biggles@example.org",
                       "--computer-player", "robot", "--cloud", "storm:M12,M13",
                       "--wind", "SW:1", "--seed", "11", "--timezone", "Europe/Berlin")
    assert code == 0, out
    assert "Z6" in out and "passwords" in out
    password = next(line.split()[1] for line in out.splitlines()
                    if line.strip().startswith("baron "))
    text = (games / "flanders" / "game.yaml").read_text()
    assert password not in text and "scrypt$" in text
    position = yaml.safe_load((games / "flanders" / "turns" / "001" / "position.yaml").open())
    assert position["zeppelins"]["Z"]["hexes"][0] == "J10"  # nose on the centre (Z6)
    assert position["zeppelins"]["Z"]["controlled"] is True
    assert position["aircraft"]["robot"]["state"] == "landed"
    assert run(capsys, "check", "--games", str(games), "flanders")[0] == 0


def test_status_extend_pause_resume(games, capsys):
    code, out, _ = run(capsys, "status", "--games", str(games), "example")
    assert code == 0 and "turn 2" in out and "orders in" in out
    code, out, _ = run(capsys, "extend", "--games", str(games), "example", "--by", "24h",
                       "--no-mail")
    assert code == 0 and "2026-12-04T20:00:00+01:00" in out
    assert run(capsys, "pause", "--games", str(games), "example", "--no-mail")[0] == 0
    assert "paused" in run(capsys, "status", "--games", str(games), "example")[1]
    assert run(capsys, "resume", "--games", str(games), "example", "--no-mail")[0] == 0
    assert "open" in run(capsys, "status", "--games", str(games), "example")[1]


def test_players_and_observers(games, capsys):
    code, out, _ = run(capsys, "replace-player", "--games", str(games), "example", "snoopy",
                       "--address", "woodstock@doghouse.example", "--name", "Woodstock")
    assert code == 0 and "new password for snoopy" in out
    assert run(capsys, "kick", "--games", str(games), "example", "biggles")[0] == 0
    assert run(capsys, "add-observer", "--games", str(games), "example",
               "hq@example.org")[0] == 0
    out = run(capsys, "status", "--games", str(games), "example")[1]
    assert "Woodstock" in out and "kicked" in out and "hq@example.org" in out
    position = yaml.safe_load((games / "example" / "turns" / "002" / "position.yaml").open())
    assert position["aircraft"]["biggles"]["state"] == "removed"
    assert (games / "example" / "turns" / "002" / "position.yaml.replaced-1").is_file()


def test_rerun_shows_the_diff_and_mails_changed_reports(games, capsys, monkeypatch):
    # settle the files with the current renderer first; then nothing changes
    assert run(capsys, "rerun", "--games", str(games), "example", "--from", "1")[0] == 0
    code, out, _ = run(capsys, "rerun", "--games", str(games), "example", "--from", "1",
                       "--dry-run")
    assert code == 0 and "nothing changed" in out
    orders = games / "example" / "turns" / "001" / "orders" / "baron.yaml"
    data = yaml.safe_load(orders.read_text())
    data["entry"]["plane"] = ["A", "A", "R"]
    orders.write_text(yaml.safe_dump(data))

    mailed = []
    monkeypatch.setattr(cli_gm, "mail_reports",
                        lambda store, game_id, turns, config=None, **kw: mailed.append(
                            (game_id, turns)))
    code, out, _ = run(capsys, "rerun", "--games", str(games), "example", "--from", "1",
                       "--mail")
    assert code == 0
    assert "--- turn 2: position.yaml changed" in out and "(re-run)" in out
    assert mailed == [("example", [1])]


@pytest.mark.parametrize("argv, words", [
    (["status", "../../etc"], "is not a valid game id"),
    (["status", "nosuchgame"], "no game 'nosuchgame'"),
    (["rerun", "example", "--from", "7"], "cannot be re-run"),
    (["extend", "example", "--by", "soon"], "not a length of time"),
    (["kick", "example", "zorro"], "'zorro' is not a player"),
    # issue 46: the command line's edges, each one line and nothing made or changed
    (["new-game", "zep1", "--player", "anna"],
     "'anna' has no mail address: write a player as ID:ADDRESS[:NAME[:AIRFIELD]]"),
    (["new-game", "zep1", "--player", "anna:bad-address", "--player", "bert:b@example.org"],
     "player anna: 'bad-address' is not a mail address like name@example.org"),
    (["new-game", "zep1", "--player", "anna:a@example.org", "--player",
      "anna:b@example.org"], "player anna is named twice"),
    (["new-game", "zep1", "--player", "anna:a@example.org"],
     "a tweedekker game needs at least two pilots"),
    (["new-game", "zep1", "--player", "anna:a@example.org", "--player", "bert:b@example.org",
      "--cloud", "storm"], "'storm': write a cloud as KIND:HEX,HEX"),
    (["new-game", "zep1", "--player", "anna:a@example.org", "--player", "bert:b@example.org",
      "--wind", "SW:strong"], "'SW:strong': write the wind as TO:STRENGTH"),
    (["new-game", "zep1", "--player", "anna:a@example.org", "--player", "bert:b@example.org",
      "--timezone", "Mars/Olympus"], "timezone"),
    (["replace-player", "example", "biggles"],
     "nothing to change: say who takes biggles's place"),
])
def test_errors_are_one_plain_line(games, capsys, argv, words):
    def files():
        return {p: p.read_bytes() for p in games.rglob("*") if p.is_file() and p.name != ".lock"}

    before = files()
    code, out, err = run(capsys, argv[0], "--games", str(games), *argv[1:])
    assert code == 1
    assert words in out + err
    assert "Traceback" not in out + err
    assert len((out + err).strip().splitlines()) == 1 and ".new-" not in err, out + err
    assert files() == before


def test_orders_check_takes_a_game_id_as_every_command_does(games, tmp_path, capsys):
    mail = tmp_path / "mail.txt"
    mail.write_text("GAME example\nTURN 2\nPILOT baron\nPLANE\nA\nL f-A\nA\nEND\n")
    for where in ("example", str(games / "example")):  # an id, or the folder as before
        code, out, err = run(capsys, "orders", "check", str(mail), "--game", where,
                             "--games", str(games), "--no-password")
        assert code == 0 and "Accepted." in out, (where, out, err)
    code, out, err = run(capsys, "orders", "check", str(mail), "--game", "nosuchgame",
                         "--games", str(games))
    assert code == 2 and "no game 'nosuchgame'" in err and "Traceback" not in err


def test_kicking_a_player_who_sent_orders_keeps_the_game_sound(games, capsys):
    assert run(capsys, "kick", "--games", str(games), "example", "baron")[0] == 0
    assert run(capsys, "check", "--games", str(games), "example")[0] == 0
    from datetime import UTC, datetime

    from pbmref import gm
    from pbmref.store import GameStore

    store = GameStore(games)
    assert "baron" not in store.open("example").book.entries()
    record = gm.adjudicate(store, "example", datetime(2027, 1, 1, tzinfo=UTC))
    assert record is not None and "baron" not in record.orders
    assert record.position_after["aircraft"]["baron"]["state"] == "removed"
