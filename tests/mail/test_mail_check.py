"""``pbmref mail test``'s first step without a network: a name that cannot be
looked up stops that server's steps with what to do (the other steps are
tested against real servers in tests/integration/test_mail_setup.py)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from pbmref.config import load_config
from pbmref.mail.check import check_imap


def test_a_name_that_cannot_be_looked_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_such_name(host: str, *args: object, **kwargs: object) -> list[object]:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_such_name)
    config_file = tmp_path / "config.yaml"
    config_file.write_text("mail:\n  mode: imap\n  imap: {host: imap.exampel.org, user: r, "
                           "password_env: PW}\n")
    steps = list(check_imap(load_config(config_file)))
    assert [(s.name, s.ok) for s in steps] == [("name lookup", False)]
    assert steps[0].said == "cannot find imap.exampel.org (Name or service not known)"
    assert "check mail.imap.host for a typo" in steps[0].todo
