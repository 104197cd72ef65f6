"""``pbmref orders check MAIL``: the envelope and canonical orders, or the reply."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pbmref.cli import main

from .conftest import POSITIONS

MESSAGE = (
    "From: Manfred <baron@example.org>\r\n"
    "To: referee@example.org\r\n"
    "Subject: Re: [zep1] turn 7 report\r\n"
    "Content-Type: text/plain; charset=utf-8\r\n"
    "\r\n"
    "PILOT baron\r\nTURN 7\r\nPLANE\r\n1: LT f-a\r\n2: A FIRE L+R\r\nZ1: RS d-B\r\n"
    "\r\n> TURN 6 REPORT\r\n> 1: 0\r\n"
)


@pytest.fixture
def position_file(tmp_path: Path) -> Path:
    path = tmp_path / "zep1.yaml"
    path.write_text(yaml.safe_dump(POSITIONS["zep1"]), encoding="utf-8")
    return path


def test_accepted_message_file(tmp_path: Path, position_file: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    mail = tmp_path / "m.eml"
    mail.write_text(MESSAGE, encoding="utf-8")
    assert main(["orders", "check", str(mail), "--position", str(position_file)]) == 0
    out = capsys.readouterr().out
    assert "Game: zep1 (from the Subject)" in out and "Turn: 7" in out
    assert "1: L f-A" in out and "2: A f-L f-R" in out and "1: RS d-B" in out


def test_rejected_plain_text(tmp_path: Path, position_file: Path,
                             capsys: pytest.CaptureFixture[str]) -> None:
    mail = tmp_path / "m.txt"
    mail.write_text("GAME zep1\nPLANE\n1: 0\n2: A d-B\n", encoding="utf-8")
    code = main(["orders", "check", str(mail), "--position", str(position_file),
                 "--player", "baron"])
    out = capsys.readouterr().out
    assert code == 1
    assert "Line 3:" in out and "rule M3" in out
    assert "Line 4:" in out and "aircraft carry no bombs; d-b is a zeppelin vote" in out.lower()


def test_stale_turn(tmp_path: Path, position_file: Path,
                    capsys: pytest.CaptureFixture[str]) -> None:
    mail = tmp_path / "m.txt"
    mail.write_text("GAME zep1\nTURN 6\nPLANE\n1: A\n", encoding="utf-8")
    assert main(["orders", "check", str(mail), "--position", str(position_file),
                 "--player", "baron"]) == 1
    assert "turn 7 is open now" in capsys.readouterr().out


def test_missing_files_are_plain_errors(tmp_path: Path, position_file: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["orders", "check", str(tmp_path / "nope.txt"), "--position",
                 str(position_file)]) == 2
    assert "cannot read" in capsys.readouterr().err
    mail = tmp_path / "m.txt"
    mail.write_text("PLANE\n", encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text("aircraft: [", encoding="utf-8")
    assert main(["orders", "check", str(mail), "--position", str(bad)]) == 2
    assert "not valid YAML" in capsys.readouterr().err


def test_game_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["new-game", "--games", str(tmp_path), "--player",
                 "baron:baron@example.org:Manfred:N", "--player",
                 "biggles:biggles@example.org:Biggles:S", "--no-passwords",
                 "--zeppelin", "controlled", "zep1"])
    assert code == 0
    capsys.readouterr()
    mail = tmp_path / "m.eml"
    mail.write_text("From: baron@example.org\nSubject: zep1 orders\n\nTAKEOFF\nPLANE\n"
                    "1: A\n2: A\n3: L\n", encoding="utf-8")
    assert main(["orders", "check", str(mail), "--game", str(tmp_path / "zep1")]) == 0
    out = capsys.readouterr().out
    assert "Player: baron" in out and "TAKEOFF BETA" in out
    mail.write_text("From: stranger@example.net\nSubject: zep1 orders\n\nPLANE\n",
                    encoding="utf-8")
    assert main(["orders", "check", str(mail), "--game", str(tmp_path / "zep1")]) == 1
    assert "not registered" in capsys.readouterr().out
