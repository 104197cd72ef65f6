"""The game master's commands of the lobby and the judge's rules (issue 45):
new-game --forming, new-class --forming, pbmref start, the deadline and draw
options, the forming games in pbmref status; through the real command line."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from store_fakes import REPO

from pbmref.cli import main
from pbmref.gm.forming import join
from pbmref.mail.outbox import read_maildir
from pbmref.store import GameStore
from pbmref.store.lobby import Joined


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def config(tmp_path: Path) -> Path:
    """A referee on the local Maildir default (its outbox holds what it mails)."""
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump({
        "games_dir": str(tmp_path / "games"), "spool_dir": str(tmp_path / "spool"),
        "referee": {"address": "referee@test.invalid"},
        "mail": {"mode": "maildir", "maildir": {"inbox": str(tmp_path / "inbox"),
                                                 "outbox": str(tmp_path / "outbox")}}}))
    return path


def test_a_forming_game_with_its_rules_then_started_by_the_game_master(
        capsys: pytest.CaptureFixture[str], config: Path, tmp_path: Path) -> None:
    code, out, err = run(capsys, "new-game", "--config", str(config), "dip7",
                         "--ruleset", "diplomacy", "--forming", "--places", "3",
                         "--choice", "gm", "--grace", "24h", "--days", "mon,wed,fri",
                         "--retreats", "12h", "--draws", "all,named", "--open-votes",
                         "--takeover", "standby", "--title", "Summer league")
    assert code == 0, err
    assert "forming dip7: 3 places" in out and "pbmref start dip7" in out
    data = yaml.safe_load((tmp_path / "games" / ".lobby" / "dip7.yaml").read_text())
    assert data["choice"] == "gm" and data["game"]["deadlines"] == {
        "grace": "24h", "retreats": "12h", "days": ["mon", "wed", "fri"]}
    assert data["game"]["draws"] == {"allow": ["all", "named"], "secret": False}
    assert data["game"]["takeover"] == "standby"
    code, out, err = run(capsys, "start", "--config", str(config), "dip7")
    assert code == 1 and "nobody has joined dip7 yet" in err
    store = GameStore(tmp_path / "games")
    for name in ("anna", "bert"):
        join(store, "dip7", Joined(f"{name}@example.org", name.title()))
    code, out, _ = run(capsys, "status", "--config", str(config))
    assert "dip7: forming, 2 of 3 places taken (Anna <anna@example.org>, Bert" in out
    code, out, err = run(capsys, "start", "--config", str(config), "dip7",
                         "--seat", "anna@example.org=TUR")
    assert code == 0, err
    assert "started dip7 with 2 players" in out and "TUR" in out
    game = store.open("dip7")
    assert game.position["players"]["anna"] == "TUR"
    assert game.settings.deadlines.grace.total_seconds() == 86400
    assert game.settings.deadline is not None and game.settings.deadline.weekday() in (0, 2, 4)
    welcomes = read_maildir(tmp_path / "outbox")
    assert sorted(str(m["To"]) for m in welcomes) == ["anna@example.org", "bert@example.org"]


def test_a_forming_board_keeps_its_side_and_shares_airfields_B1_B5(
        capsys: pytest.CaptureFixture[str], config: Path, tmp_path: Path) -> None:
    """Tweedekker's board side travels with a forming game (B1), and eight places
    are more than six airfields but allowed: the airfields are shared (B5);
    Diplomacy, drawing no hex board, keeps no board side."""
    code, out, err = run(capsys, "new-game", "--config", str(config), "zep8", "--forming",
                         "--places", "8", "--board-side", "12")
    assert code == 0, err
    assert "forming zep8: 8 places" in out
    data = yaml.safe_load((tmp_path / "games" / ".lobby" / "zep8.yaml").read_text())
    assert data["game"]["board_side"] == 12
    code, out, err = run(capsys, "new-game", "--config", str(config), "dip5", "--ruleset",
                         "diplomacy", "--forming", "--places", "5", "--board-side", "12")
    assert code == 0, err
    data = yaml.safe_load((tmp_path / "games" / ".lobby" / "dip5.yaml").read_text())
    assert "board_side" not in data["game"]


@pytest.mark.parametrize(("argv", "words"), [
    (["--forming"], "--forming needs --places N"),
    (["--forming", "--places", "2", "--player", "a:a@example.org"], "has no players yet"),
    (["--forming", "--places", "9"], "9 places, but the game offers 7"),
    (["--forming", "--places", "3", "--days", "mon,funday"], "'fun' is not a day"),
    (["--forming", "--places", "3", "--draws", "dias"], "'dias' is not one of all, named"),
    (["--forming", "--places", "3", "--variant", "nowhere"], "unknown variant 'nowhere'"),
])
def test_a_bad_forming_game_is_one_plain_line(capsys: pytest.CaptureFixture[str],
                                              config: Path, argv: list[str],
                                              words: str) -> None:
    code, _, err = run(capsys, "new-game", "--config", str(config), "dip7", "--ruleset",
                       "diplomacy", *argv)
    assert code == 1 and words in err and "Traceback" not in err
    assert not (config.parent / "games" / ".lobby" / "dip7.yaml").exists()


def test_a_new_game_with_a_grace_period_and_days(capsys: pytest.CaptureFixture[str],
                                                 config: Path) -> None:
    code, _, err = run(capsys, "new-game", "--config", str(config), "zep9", "--player",
                       "anna:anna@example.org", "--player", "bert:bert@example.org",
                       "--grace", "12h", "--days", "sat,sun", "--no-welcome")
    assert code == 0, err
    game = GameStore(config.parent / "games").open("zep9")
    assert game.settings.deadlines.grace.total_seconds() == 12 * 3600
    assert game.settings.deadline is not None and game.settings.deadline.weekday() >= 5
    with pytest.raises(SystemExit) as info:  # argparse refuses the option itself
        main(["new-game", "--config", str(config), "zep8", "--player",
              "anna:anna@example.org", "--grace", "soon"])
    err = capsys.readouterr().err
    assert info.value.code == 2
    assert "--grace: 'soon' is not a length of time like 48h" in err


def test_a_forming_fast_play_class(capsys: pytest.CaptureFixture[str], config: Path,
                                   tmp_path: Path) -> None:
    template = tmp_path / "class.yaml"
    template.write_text((REPO / "games" / "class.example.yaml").read_text())
    code, out, err = run(capsys, "new-class", "--config", str(config), str(template),
                         "--forming", "--places", "4")
    assert code == 0, err
    data = yaml.safe_load((tmp_path / "games" / ".lobby" / "7b.yaml").read_text())
    assert data["ruleset"] == "fastplay" and "pilots" not in data["class"]
    assert data["places"] == 4


def test_status_and_check_of_one_forming_game(capsys: pytest.CaptureFixture[str],
                                              config: Path, tmp_path: Path) -> None:
    """pbmref status GAME and check GAME of a game still forming show it (before:
    'no game dip3', exit 1); with only forming games, status says no more that
    there are no games."""
    code, _, err = run(capsys, "new-game", "--config", str(config), "dip3", "--ruleset",
                       "diplomacy", "--forming", "--places", "3")
    assert code == 0, err
    join(GameStore(tmp_path / "games"), "dip3",
         Joined("anna@example.org", "Anna", ("FRA", "ENG")))
    code, out, err = run(capsys, "status", "--config", str(config))
    assert code == 0 and "no games in" not in out
    assert "dip3: forming, 1 of 3 places taken" in out
    code, out, err = run(capsys, "status", "--config", str(config), "dip3")
    assert code == 0, err
    assert "dip3: forming, 1 of 3 places taken" in out
    assert "Anna <anna@example.org> wants FRA, ENG" in out
    code, out, err = run(capsys, "check", "--config", str(config), "dip3")
    assert code == 0, err
    assert "dip3: forming, ok (1 of 3 places taken)" in out
    lobby_file = tmp_path / "games" / ".lobby" / "dip3.yaml"
    lobby_file.write_text(lobby_file.read_text().replace("places: 3", "places: many"))
    code, out, err = run(capsys, "check", "--config", str(config), "dip3")
    assert code == 1 and "dip3.yaml" in out + err and "Traceback" not in out + err
    code, out, _ = run(capsys, "check", "--config", str(config))
    assert code == 1 and "dip3: forming" in out
