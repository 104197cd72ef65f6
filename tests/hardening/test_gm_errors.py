"""Every way a game master can break a game's YAML gives a clear message naming
the file (and the line, where there is one); that game waits untouched, the
other games go on (shared/spec/referee.md, "History as YAML").

Here the breakages go through the whole referee: the deadline job
(``adjudicate_due``, what cron runs), a player's mail, and ``pbmref check``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hardkit import changed_files, example_house, fingerprint

from pbmref.cli import main
from pbmref.mail.maildir_in import MaildirIntake
from pbmref.mail.outbox import read_maildir
from pbmref.referee.pipeline import Referee
from pbmref.referee.turns import adjudicate_due

REPO = Path(__file__).resolve().parents[2]
LATE = datetime(2027, 1, 1, tzinfo=UTC)
POS = "turns/002/position.yaml"
ORDERS = "turns/002/orders/baron.yaml"


def edit(old: str, new: str, count: int = 1) -> Callable[[str], str]:
    def change(text: str) -> str:
        assert old in text, f"{old!r} is not in the file"
        return text.replace(old, new, count)
    return change


def junk(_text: str) -> bytes:
    rng = random.Random(7)
    return bytes(rng.randrange(256) for _ in range(3000))


# id: (file, change, the file's name in the message, line or None, words in the message)
BREAKAGES: dict[str, tuple[str, Callable[[str], str | bytes] | None, str, int | None, str]] = {
    "bad-indentation": ("game.yaml", edit("    name: Biggles\n", "     name: Biggles\n"),
                        "game.yaml", None, "indent|colon|mapping"),
    "tab": ("game.yaml", edit("    name: Biggles", "\tname: Biggles"),
            "game.yaml", 29, "tab"),
    "unknown-key": ("game.yaml", edit("turn_length: 48h", "turn_lenght: 48h"),
                    "game.yaml", 12, "unknown key 'turn_lenght'"),
    "duplicate-key": ("game.yaml", edit("turn_length: 48h", "turn_length: 48h\nseed: 5"),
                      "game.yaml", 13, "appears twice"),
    "wrong-type": ("game.yaml", edit("reminder_hours: 12", "reminder_hours: soon"),
                   "game.yaml", 13, "soon"),
    "players-a-list": ("game.yaml", edit("  baron:\n", "  - baron:\n"),
                       "game.yaml", 28, "not valid YAML"),
    "empty-settings": ("game.yaml", lambda _t: "", "game.yaml", None, "empty|mapping|nothing"),
    "binary-settings": ("game.yaml", junk, "game.yaml", None, "UTF-8|text|binary|read"),
    "missing-settings": ("game.yaml", None, "game.yaml", None, "missing|no such|not found"),
    "unknown-hex": (POS, edit("hex: J16", "hex: Z99"), POS, 17, "not on the board"),
    "bad-heading": (POS, edit("heading: S\n", "heading: Q\n"), POS, 18, "not a heading"),
    "damage-above-max": (POS, edit("damage: 12", "damage: 99"), POS, 20, "above the most"),
    "empty-position": (POS, lambda _t: "", POS, None, "empty|mapping|nothing"),
    "binary-position": (POS, junk, POS, None, "UTF-8|text|binary|read"),
    "deleted-position": (POS, None, "position.yaml", None, "missing|no such|not found"),
    "orders-player-not-in-game": (
        ORDERS, edit("player: baron", "player: zorro"), "baron.yaml", 2, "zorro"),
    "orders-unknown-manoeuvre": (
        ORDERS, edit("plane: [A, L f-A, A]", "plane: [A, Q, A]"), "baron.yaml", None, "Q"),
    # issue 44: a game folder a newer pbmref wrote (restored, or after a downgrade)
    "newer-format": ("format.yaml", edit("format: 1", "format: 2"), "format.yaml", None,
                     "written by a newer pbmref .format 2 of a game folder; this one reads "
                     "up to 1.: run that release"),
    "format-unreadable": ("format.yaml", edit("format: 1", "format: one"), "format.yaml",
                          None, "names no format"),
}


def _referee(tmp_path: Path) -> tuple[Referee, MaildirIntake, Path]:
    return example_house(tmp_path, LATE)


def _break(game_dir: Path, file: str, change: Callable[[str], str | bytes] | None) -> None:
    path = game_dir / file
    if change is None:
        path.unlink()
        return
    out = change(path.read_text(encoding="utf-8"))
    if isinstance(out, bytes):
        path.write_bytes(out)
    else:
        path.write_text(out, encoding="utf-8")


def _clear(message: str, name: str, line: int | None, words: str) -> None:
    assert "Traceback" not in message and len(message) < 1000, message
    assert name in message, f"the message does not name {name}: {message}"
    if line is not None:
        assert f"line {line}" in message, f"the message does not give line {line}: {message}"
    assert re.search(words, message, re.I), f"{words!r} not in: {message}"


@pytest.mark.parametrize("case", sorted(BREAKAGES))
def test_a_broken_file_stops_only_its_game(tmp_path: Path, case: str) -> None:
    file, change, name, line, words = BREAKAGES[case]
    referee, intake, games = _referee(tmp_path)
    _break(games / "example", file, change)
    before = fingerprint(games / "example")

    report = adjudicate_due(referee, intake)

    assert [r.game_id for r in report.adjudicated] == ["other"], report.broken
    assert "example" in report.broken, "the deadline job said nothing of the broken game"
    _clear(report.broken["example"], name, line, words)
    assert changed_files(before, fingerprint(games / "example")) == []
    reports = [m for m in read_maildir(tmp_path / "outbox")
               if "turn 2 report" in str(m["Subject"])]
    assert reports and all("[other]" in str(m["Subject"]) for m in reports)

    # a player's mail for the broken game: answered, nothing written
    intake.deliver(b"From: baron@jasta11.example\r\nTo: referee@test.invalid\r\n"
                   b"Subject: orders\r\nMessage-ID: <gm-err@x>\r\n\r\n"
                   b"GAME example\r\nPASSWORD triplane-red-19\r\nSTATUS\r\n")
    referee.take_in(intake)
    referee.deliver(force=True)
    answers = [m for m in read_maildir(tmp_path / "outbox") if "Re:" in str(m["Subject"])]
    said = str(answers[0].get_body().get_content()) if answers else ""
    # without its game.yaml the folder is no game a player can name any more
    assert len(answers) == 1 and ("attention" in said or (
        case == "missing-settings" and "no game called 'example'" in said)), said
    assert referee.incoming.shunted() == []
    assert changed_files(before, fingerprint(games / "example")) == []

    # a second run of the deadline job: still reported, still untouched
    again = adjudicate_due(referee, intake)
    assert "example" in again.broken and again.adjudicated == []
    assert changed_files(before, fingerprint(games / "example")) == []


@pytest.mark.parametrize("case", ["tab", "unknown-hex", "deleted-position", "empty-settings"])
def test_pbmref_check_names_file_and_line(tmp_path: Path, case: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    file, change, name, line, words = BREAKAGES[case]
    _referee_, _intake, games = _referee(tmp_path)
    _break(games / "example", file, change)
    assert main(["check", "--games", str(games)]) == 1
    out = capsys.readouterr()
    text = out.out + out.err
    assert "Traceback" not in text
    problem = next(ln for ln in text.splitlines() if name in ln)
    _clear(problem, name, line, words)
    assert "other: ok" in text
