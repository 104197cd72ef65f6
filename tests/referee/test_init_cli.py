"""``pbmref init DIR`` (issue 44): a config that loads as written for each
provider, the folders, the warning that the mailbox must be the referee's own,
the next three commands; asked in a terminal, refused when something is missing
elsewhere; an existing config never overwritten."""

from __future__ import annotations

import builtins
import io
import sys
from pathlib import Path

import pytest

from pbmref.cli import main
from pbmref.config import load_config

COMMON = ["--address", "ref@example.org", "--name", "The Referee",
          "--game-master", "gm@example.org"]

PROVIDERS = [
    # (provider, extra options, imap host, auth, first next command)
    ("gmail", ["--client-id", "123.apps", "--client-secret", "GOCSPX-x"], "imap.gmail.com",
     "xoauth2", "pbmref mail authorize"),
    ("microsoft", ["--client-id", "0000-1111"], "outlook.office365.com", "xoauth2",
     "pbmref mail authorize"),
    ("fastmail", [], "imap.fastmail.com", "password", "install -m 600 /dev/null mail.password"),
    ("generic", ["--imap-host", "mail.example.org", "--smtp-host", "smtp.example.org"],
     "mail.example.org", "password", "install -m 600 /dev/null mail.password"),
]


@pytest.mark.parametrize(("provider", "extra", "host", "auth", "first"), PROVIDERS,
                         ids=[p[0] for p in PROVIDERS])
def test_init_writes_a_config_that_loads_as_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], provider: str, extra: list[str],
        host: str, auth: str, first: str) -> None:
    folder = tmp_path / "referee"
    assert main(["init", str(folder), "--provider", provider, *COMMON, *extra,
                 "--no-input"]) == 0
    out = capsys.readouterr().out
    cfg = load_config(folder / "config.yaml", required=True)
    assert (cfg.mail.mode, cfg.mail.provider, cfg.mail.imap.host, cfg.mail.imap.auth) == \
        ("imap", provider, host, auth)
    assert cfg.mail.imap.user == cfg.mail.smtp.user == "ref@example.org"
    assert (cfg.referee.address, cfg.referee.name, cfg.referee.game_master) == \
        ("ref@example.org", "The Referee", "gm@example.org")
    assert cfg.games_dir == folder / "games" and cfg.games_dir.is_dir()
    assert cfg.spool_dir == folder / "mail" / "spool" and cfg.spool_dir.is_dir()
    if auth == "password":
        assert cfg.mail.imap.password_file == folder / "mail.password"
    else:
        assert cfg.mail.oauth2.client_id and cfg.mail.oauth2.token_file.parent == folder
    text = (folder / "config.yaml").read_text()
    assert "MUST BE THE REFEREE'S OWN" in text and "# " in text
    assert "it answers EVERY mail in its folder" in out
    steps = [line.split(".", 1)[1].strip() for line in out.splitlines()
             if line.strip()[:2] in ("1.", "2.", "3.")]
    assert len(steps) == 3
    assert steps[0].startswith(first)
    assert steps[1].startswith("pbmref mail test") and steps[2].startswith("pbmref serve")


def test_init_asks_in_a_terminal(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    answers = iter(["microsoft", "ref@example.org", "Ref", "gm@example.org", "", "app-id"])
    asked: list[str] = []

    def answer(question: str) -> str:
        asked.append(question)
        return next(answers)

    monkeypatch.setattr(sys, "stdin", io.StringIO())
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr(builtins, "input", answer)
    assert main(["init", str(tmp_path / "r")]) == 0
    cfg = load_config(tmp_path / "r" / "config.yaml", required=True)
    assert (cfg.mail.provider, cfg.referee.name, cfg.mail.oauth2.client_id) == \
        ("microsoft", "Ref", "app-id")
    assert len(asked) == 6 and asked[4] == asked[5]  # an empty answer is asked again
    assert asked[0].startswith("Mail provider")


def test_init_without_a_terminal_names_what_is_missing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["init", str(tmp_path / "r"), "--provider", "gmail", "--no-input",
                 "--address", "ref@gmail.com"]) == 2
    err = capsys.readouterr().err
    assert "give --game-master, --client-id, --client-secret" in err
    assert not (tmp_path / "r").exists()
    assert main(["init", str(tmp_path / "r"), "--provider", "fastmail", "--no-input",
                 "--address", "nobody", "--game-master", "gm@example.org"]) == 2
    assert "referee.address: not a mail address" in capsys.readouterr().err
    assert not (tmp_path / "r" / "config.yaml").exists()


def test_init_never_overwrites_a_config(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "config.yaml").write_text("games_dir: mine\n")
    assert main(["init", str(tmp_path), "--provider", "fastmail", *COMMON, "--no-input"]) == 2
    assert "exists: not overwritten" in capsys.readouterr().err
    assert (tmp_path / "config.yaml").read_text() == "games_dir: mine\n"
