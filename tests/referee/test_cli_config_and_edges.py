"""The command line as a new game master meets it (issue 21): one rule for the
config file, and no command that is silent, or prints a traceback, where it
should say one plain line."""

from __future__ import annotations

import argparse
import io
import logging
import re
import socket
import subprocess
import sys
from email.message import EmailMessage
from pathlib import Path

import pytest
import yaml
from tablekit import REFEREE, Table, body_of

from pbmref.cli import build_parser, main
from pbmref.cli.common import CONFIG_HELP
from pbmref.mail.imap_in import ImapIntake
from pbmref.mail.maildir_in import MaildirIntake
from pbmref.mail.outbox import read_maildir
from pbmref.referee.daemon import Daemon

SRC = Path(__file__).resolve().parents[2] / "src" / "pbmref"


@pytest.fixture(autouse=True)
def no_config_from_outside(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PBMREF_CONFIG", raising=False)


def write_config(path: Path, root: str, address: str) -> Path:
    path.write_text(yaml.safe_dump({
        "games_dir": f"{root}/games", "spool_dir": f"{root}/spool",
        "referee": {"address": address},
        "mail": {"mode": "maildir", "maildir": {"inbox": f"{root}/inbox",
                                                "outbox": f"{root}/outbox"}}}))
    return path


def order_mail(to: str) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "anna@example.org", to, "zep"
    msg["Message-ID"] = "<status-1@example.org>"
    msg.set_content("GAME zep\nSTATUS\n")
    return msg.as_bytes()


def commands_with_config() -> dict[str, argparse.ArgumentParser]:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return {name: p for name, p in sub.choices.items()
            if any("--config" in a.option_strings for a in p._actions)}


# ------------------------------------------------------------------ the config rule


def test_every_command_reads_its_config_by_the_one_rule_and_says_so() -> None:
    commands = commands_with_config()
    assert {"serve", "adjudicate", "mail", "new-game", "status", "check", "rerun", "extend",
            "pause", "resume", "replace-player", "kick", "add-observer", "render",
            "new-class", "roster"} <= set(commands)
    for name, parser in commands.items():
        option = next(a for a in parser._actions if "--config" in a.option_strings)
        assert option.help == CONFIG_HELP, name
    assert "$PBMREF_CONFIG" in CONFIG_HELP and "./config.yaml" in CONFIG_HELP
    assert "PBMREF_CONFIG" in build_parser().epilog


def test_one_function_in_cli_finds_the_config() -> None:
    for path in (SRC / "cli").glob("*.py"):
        if path.name == "common.py":
            continue
        text = path.read_text()
        assert "load_config" not in text and "environ" not in text, path.name


def test_new_game_serve_and_status_share_config_yaml_of_the_current_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The bug: new-game read $PBMREF_CONFIG, serve did not read config.yaml, so
    they used different game folders and the sender stayed referee@localhost."""
    monkeypatch.chdir(tmp_path)
    write_config(tmp_path / "config.yaml", "club", "ref@club.example")
    assert main(["new-game", "zep", "--player", "anna:anna@example.org", "--player",
                 "bert:bert@example.org", "--no-passwords", "--seed", "3"]) == 0
    assert (tmp_path / "club" / "games" / "zep" / "game.yaml").is_file()
    MaildirIntake(tmp_path / "club" / "inbox").deliver(order_mail("ref@club.example"))
    assert main(["serve", "--once", "--quiet"]) == 0
    sent = read_maildir(tmp_path / "club" / "outbox")  # the two welcomes, and the reply
    assert [m["In-Reply-To"] for m in sent] == [None, None, "<status-1@example.org>"]
    assert all("ref@club.example" in m["From"] for m in sent)
    capsys.readouterr()
    assert main(["status"]) == 0
    assert "zep:" in capsys.readouterr().out


def test_pbmref_config_wins_over_config_yaml_and_config_over_both(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    write_config(tmp_path / "config.yaml", "local", "ref@local.example")
    other = write_config(tmp_path / "other.yaml", "other", "ref@other.example")
    third = write_config(tmp_path / "third.yaml", "third", "ref@third.example")
    monkeypatch.setenv("PBMREF_CONFIG", str(other))
    assert main(["new-game", "g1", "--player", "anna:anna@example.org", "--player",
                 "bert:bert@example.org", "--no-passwords"]) == 0
    assert main(["new-game", "g2", "--config", str(third), "--player",
                 "anna:anna@example.org", "--player", "bert:bert@example.org",
                 "--no-passwords"]) == 0
    assert (tmp_path / "other" / "games" / "g1").is_dir()
    assert (tmp_path / "third" / "games" / "g2").is_dir()
    assert not (tmp_path / "local" / "games").exists()
    capsys.readouterr()
    assert main(["mail", "shunted"]) == 0  # the mail commands follow the same rule
    assert (tmp_path / "other" / "spool").is_dir()
    monkeypatch.setenv("PBMREF_CONFIG", str(tmp_path / "gone.yaml"))
    assert main(["adjudicate", "--due"]) == 2
    err = capsys.readouterr().err
    assert "gone.yaml" in err and "no such config file" in err and "Traceback" not in err


def test_adjudicate_without_a_config_says_where_the_mail_went(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["adjudicate", "--due"]) == 0
    out = capsys.readouterr().out
    assert "no game was due" in out
    assert "no config file" in out and str(tmp_path / "mail" / "outbox") in out


# ------------------------------------------------------------------ say something


def test_idle_serve_once_and_empty_shunt_say_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["serve", "--once", "--quiet"]) == 0
    assert capsys.readouterr().out.strip() == "no mail; no game was due; nothing to send"
    assert main(["mail", "shunted"]) == 0
    assert capsys.readouterr().out.strip() == "nothing set aside"


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _imap_config(tmp_path: Path, port: int) -> Path:
    path = tmp_path / "imap.yaml"
    path.write_text(yaml.safe_dump({
        "games_dir": "games", "spool_dir": "spool", "referee": {"address": REFEREE},
        "mail": {"mode": "imap",
                 "imap": {"host": "127.0.0.1", "port": port, "security": "none", "user": "ref",
                          "password_env": "PBMREF_TEST_IMAP_PW"},
                 "smtp": {"host": "127.0.0.1", "port": port, "security": "none",
                          "user": "ref", "password_env": "PBMREF_TEST_SMTP_PW"}}}))
    return path


def test_mail_shunted_needs_no_smtp_password(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("PBMREF_TEST_SMTP_PW", raising=False)
    monkeypatch.delenv("PBMREF_TEST_IMAP_PW", raising=False)
    config = _imap_config(tmp_path, _closed_port())
    assert main(["mail", "shunted", "--config", str(config)]) == 0
    assert capsys.readouterr().out.strip() == "nothing set aside"


def test_adjudicate_due_with_imap_unreachable_is_one_line_and_fails(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("PBMREF_TEST_IMAP_PW", "x")
    monkeypatch.setenv("PBMREF_TEST_SMTP_PW", "x")
    config = _imap_config(tmp_path, _closed_port())
    assert main(["adjudicate", "--due", "--config", str(config)]) == 1
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err  # no reconnect warnings: cron tries again anyway
    assert "nothing adjudicated" in lines[0] and "refused" in lines[0].lower()
    assert "failed 1 time" in lines[0]  # one try, not half a minute of back-off
    assert "Traceback" not in captured.out + captured.err


def test_the_daemon_logs_a_mailbox_that_cannot_be_read_without_a_traceback(
        table: Table, caplog: pytest.LogCaptureFixture) -> None:
    """Issue 40 item 6: ``pbmref serve`` with its mailbox down says so in one line
    a round, each time; the details are for the debug log only."""
    intake = ImapIntake("127.0.0.1", _closed_port(), user="ref", password="x", security="none",
                        state_file=table.root / "imap-state.json", reconnect_attempts=1)
    daemon = Daemon(table.referee, intake)

    class StopAfterTwo(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.levelno >= logging.WARNING and record.name == "pbmref.referee":
                self.seen = getattr(self, "seen", 0) + 1
                if self.seen == 2:
                    daemon.stop()

    terminal = io.StringIO()  # what the terminal shows: ``serve``'s log format and level
    shown = logging.StreamHandler(terminal)
    shown.setLevel(logging.INFO)
    shown.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    caplog.set_level(logging.DEBUG)
    root.addHandler(shown)
    root.addHandler(stopper := StopAfterTwo())
    try:
        daemon.run()
    finally:
        root.removeHandler(shown)
        root.removeHandler(stopper)
    assert "Traceback" not in terminal.getvalue(), terminal.getvalue()
    assert [r for r in caplog.records if r.exc_info and r.levelno > logging.DEBUG] == []
    down = [r.getMessage() for r in caplog.records
            if r.name == "pbmref.referee" and r.levelno >= logging.WARNING]
    assert len(down) == 2 and all("mailbox cannot be read" in m for m in down), down


def test_pipe_closed_early_is_no_traceback(tmp_path: Path) -> None:
    """``pbmref rules | head -1``: the reader stops; pbmref stops quietly."""
    proc = subprocess.Popen([sys.executable, "-m", "pbmref", "rules"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # before pbmref writes a line
    err = proc.stderr.read().decode()
    assert proc.wait() == 141 and err == ""


# ------------------------------------------------------------------ a paused game


def test_a_paused_game_refuses_orders_and_says_when_it_resumes(
        table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    games = str(table.root / "games")
    assert main(["pause", "zep1", "--games", games, "--until", "2099-01-01T10:00"]) == 0
    assert "2099-01-01T10:00:00+00:00" in capsys.readouterr().out
    body = (f"GAME zep1\nPASSWORD {table.passwords['anna']}\nPLANE\nTAKEOFF BETA\n"
            "1: A\n2: A\n3: A\n")
    (reply,) = table.send(body)
    text = body_of(reply)
    assert "paused by the game master until Thu 1 Jan 2099 10:00 UTC" in text
    assert table.game().book.entries().get("anna") is None  # refused, as games/README says
    assert re.search(r"not taken", text)
    assert main(["resume", "zep1", "--games", games]) == 0
    (reply,) = table.send(body)
    assert "paused" not in body_of(reply)
    assert table.game().book.entries()["anna"]["plane"] == ["A", "A", "A"]


# ------------------------------------------------------------------ pbmref rules


def test_rules_prints_a_rule_and_lists_the_books(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "m3", "DD8"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Rule M3 (tweedekker): Stalling\n") and "Rule DD8 (diplomacy)" in out
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    for book in ("tweedekker", "fastplay", "diplomacy"):
        assert f"\n{book} (" in "\n" + out
    assert re.search(r"^  FP12 +\S", out, re.M) and re.search(r"^  Z18 +\S", out, re.M)
    assert main(["rules", "X99"]) == 1
    assert "no rule 'X99'" in capsys.readouterr().err
