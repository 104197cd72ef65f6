"""``pbmref adjudicate GAME`` on a phase where no player sent orders asks for
``--force``: a plain warning, exit 1, nothing adjudicated (every unit would
only hold, DD3). With ``--force``, or once a player has orders in force, the
phase is played."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml
from dipkit import PLAYERS, TURN, address

from pbmref import gm
from pbmref.cli import main
from pbmref.store import GameStore


def _site(tmp_path: Path) -> tuple[Path, GameStore, dict[str, str]]:
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump({
        "games_dir": str(tmp_path / "games"), "spool_dir": str(tmp_path / "spool"),
        "referee": {"address": "referee@test.invalid", "name": "Referee"},
        "mail": {"mode": "maildir", "maildir": {"inbox": str(tmp_path / "inbox"),
                                                "outbox": str(tmp_path / "outbox")}},
    }))
    store = GameStore(tmp_path / "games")
    players = [gm.PlayerSpec(pid, (address(pid),), pid.title(), power=power)
               for pid, power in PLAYERS.items()]
    now = datetime.now(UTC)  # the command runs on the real clock: the deadline is ahead
    created = gm.new_game(store, "dip1", players, title="Test", ruleset="diplomacy", seed=5,
                          deadline=now + TURN, turn_length="24h", reminder_hours=0, now=now)
    return config, store, created.passwords


def test_no_orders_asks_for_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config, store, _ = _site(tmp_path)
    assert main(["adjudicate", "dip1", "--config", str(config)]) == 1
    said = capsys.readouterr()
    assert "--force" in said.err and "dip1" in said.err and "S1901M" in said.err
    assert "Traceback" not in said.err + said.out
    assert store.open("dip1").position["phase"] == "S1901M"  # nothing adjudicated
    assert main(["adjudicate", "dip1", "--force", "--config", str(config)]) == 0
    assert "dip1: phase S1901M adjudicated" in capsys.readouterr().out
    assert store.open("dip1").position["phase"] == "F1901M"


def test_orders_of_one_player_are_enough(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    config, store, passwords = _site(tmp_path)
    inbox = tmp_path / "inbox"
    for sub in ("new", "cur", "tmp"):
        (inbox / sub).mkdir(parents=True, exist_ok=True)
    (inbox / "new" / "1.mail").write_text(
        f"From: {address('fleur')}\nTo: referee@test.invalid\nSubject: orders\n"
        f"Message-ID: <1@example.org>\n\nGAME dip1\nPASSWORD {passwords['fleur']}\n"
        "A Par - Bur\nEND\n")
    assert main(["adjudicate", "dip1", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "dip1: phase S1901M adjudicated" in out and "mail taken in: 1" in out
    assert "A Bur" in store.open("dip1").position["units"]["FRA"]
