"""The referee as a system service (issue 44, item 5): ``pbmref service systemd``
prints a unit, shipped in the package, that runs the daemon as its own user,
writing only in its folder, its passwords from an EnvironmentFile (never an
``Environment=`` line of a file every user can read); systemd's own checker
finds nothing to say about it. The daemon's first log line names its config
file, its mailbox, how many games it keeps and its mode."""

from __future__ import annotations

import logging
import shutil
import subprocess
from pathlib import Path

import pytest
from clonekit import CHECKOUT

from pbmref.cli import main
from pbmref.config import Config, ImapConfig, MailConfig, SmtpConfig
from pbmref.referee.daemon import Daemon
from pbmref.referee.pipeline import Referee


def _unit(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[str, str]:
    assert main(["service", "systemd", *args]) == 0
    out = capsys.readouterr()
    return out.out, out.err


def _lines(unit: str) -> list[str]:
    return [ln for ln in unit.splitlines() if ln and not ln.startswith("#")]


def test_the_unit_runs_the_daemon_as_its_own_user_in_its_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "config.yaml").write_text("referee:\n  address: ref@example.org\n")
    unit, err = _unit(capsys, "--config", str(tmp_path / "config.yaml"),
                      "--pbmref", "/opt/pbmref/bin/pbmref")
    lines = _lines(unit)
    for wanted in ("User=pbmref", "Group=pbmref", f"WorkingDirectory={tmp_path}",
                   f"ReadWritePaths={tmp_path}", "ProtectSystem=strict", "ProtectHome=yes",
                   "NoNewPrivileges=yes", "PrivateTmp=yes", "EnvironmentFile=-/etc/pbmref/env",
                   f"ExecStart=/opt/pbmref/bin/pbmref serve --config {tmp_path}/config.yaml",
                   "Restart=on-failure", "WantedBy=multi-user.target"):
        assert wanted in lines, f"{wanted} is not in the unit:\n{unit}"
    assert not [ln for ln in lines if ln.startswith("Environment=")]
    assert "@" not in unit.replace("ref@example", ""), unit
    assert err == ""


def test_folders_of_the_config_outside_the_referees_folder_are_writable_too(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "ref").mkdir()
    (tmp_path / "ref" / "config.yaml").write_text(
        f"games_dir: {tmp_path}/games\nspool_dir: spool\n")
    unit, _ = _unit(capsys, "--config", str(tmp_path / "ref" / "config.yaml"),
                    "--user", "referee", "--env-file", "/etc/referee.env")
    lines = _lines(unit)
    assert (f"ReadWritePaths={tmp_path}/ref {tmp_path}/games") in lines, unit
    assert "User=referee" in lines and "EnvironmentFile=-/etc/referee.env" in lines


def test_systemd_finds_nothing_to_say_about_the_unit(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    checker = shutil.which("systemd-analyze")
    assert checker, "systemd-analyze is missing (Debian: apt-get install systemd)"
    pbmref = CHECKOUT / ".venv" / "bin" / "pbmref"
    unit, _ = _unit(capsys, "--dir", str(tmp_path), "--pbmref", str(pbmref))
    (tmp_path / "pbmref.service").write_text(unit)
    said = subprocess.run([checker, "verify", "--man=no", str(tmp_path / "pbmref.service")],
                          capture_output=True, text=True, cwd=tmp_path)
    assert said.returncode == 0 and said.stderr == "" and said.stdout == "", said


def test_the_daemon_says_what_it_serves_when_it_starts(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    games = tmp_path / "games"
    for name in ("one", "two"):
        shutil.copytree(CHECKOUT / "docs" / "example-game", games / name)
    (tmp_path / "config.yaml").write_text("games_dir: games\nspool_dir: spool\n")
    with caplog.at_level(logging.INFO, logger="pbmref"):
        assert main(["serve", "--once", "--config", str(tmp_path / "config.yaml")]) == 0
    (line,) = [r.getMessage() for r in caplog.records if "starts:" in r.getMessage()]
    assert line.endswith(f"starts: config {tmp_path}/config.yaml; mailbox the Maildir "
                         f"{tmp_path}/mail/inbox; 2 games in {games}; mode maildir, "
                         "one round"), line

    imap = Config(games_dir=games, spool_dir=tmp_path / "spool2", mail=MailConfig(
        mode="imap", imap=ImapConfig(host="imap.example.org", user="ref@example.org",
                                     folder="pbmref"), smtp=SmtpConfig()))
    daemon = Daemon(Referee(imap), intake=None)  # type: ignore[arg-type]
    assert ("mailbox ref@example.org at imap.example.org, folder pbmref; 2 games in "
            f"{games}; mode imap, until stopped") in daemon.start_line()
