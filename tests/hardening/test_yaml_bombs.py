"""A YAML bomb in one game's files stops that game only (issue 40, item 4).

A game master's edit that makes a file too big, nested too deep or full of
aliases that expand to billions of values ("billion laughs") once hung every
game and every command: the daemon grew to gigabytes. Here each bomb shape
is appended to one game's ``game.yaml`` (and one to a turn's position) while
a daemon runs: its next round still answers the other game's player at
once, the bombed game's player is told the game needs the game master, the
deadline job names the file and line, and ``pbmref check``, ``status`` and
``adjudicate --due`` finish and say the same. Each test runs with its
memory capped (a reader that builds the bomb fails with MemoryError instead
of taking the machine).
"""

from __future__ import annotations

import os
import re
import resource
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace

import pytest
from hardkit import REFEREE, body_of, changed_files, example_house, fingerprint, write_config

from pbmref.base.yamlfile import LIMITS
from pbmref.cli import main
from pbmref.mail.maildir_in import MaildirIntake
from pbmref.mail.outbox import read_maildir
from pbmref.referee.daemon import Daemon
from pbmref.referee.turns import adjudicate_due

REPO = Path(__file__).resolve().parents[2]
BEFORE_DEADLINE = datetime(2026, 12, 2, tzinfo=UTC)  # the example's deadline: 12-03 19:00 UTC
LATE = datetime(2027, 1, 1, tzinfo=UTC)

LAUGHS = "".join(
    f"lol{n}: &l{n} [{', '.join([f'*l{n - 1}'] * 9) if n > 1 else ', '.join(['lol'] * 9)}]\n"
    for n in range(1, 10))

# name: (file, text appended, words of the message); the line is the first
# appended one for each of these
BOMBS: dict[str, tuple[str, str, str]] = {
    "aliases": ("game.yaml", LAUGHS, "too many values"),
    "deep": ("game.yaml", "deep: " + "[" * 200 + "]" * 200 + "\n", "nested too deep"),
    "huge-scalar": ("game.yaml", "note: " + "x" * (LIMITS.max_bytes + 1) + "\n", "too big"),
    "position-aliases": ("turns/002/position.yaml", LAUGHS, "too many values"),
}
LINE_OFFSET = {"aliases": 6, "position-aliases": 6}  # the alias that passes the bound


@pytest.fixture
def capped_memory() -> Iterator[None]:
    """At most 2 GB more address space than the test process has now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm") as f:
        now = int(f.read().split()[0]) * resource.getpagesize()
    cap = now + (2 << 30)
    resource.setrlimit(resource.RLIMIT_AS, (cap if hard == resource.RLIM_INFINITY
                                            else min(cap, hard), hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _bomb(games: Path, name: str) -> tuple[str, int]:
    """Append the bomb; (the file's path in the game, the line it must name)."""
    file, text, _words = BOMBS[name]
    path = games / "example" / file
    old = path.read_text(encoding="utf-8")
    path.write_text(old + text, encoding="utf-8")
    return file, old.count("\n") + LINE_OFFSET.get(name, 1)


def _names(message: str, file: str, line: int, name: str) -> None:
    assert "Traceback" not in message and len(message) < 1000, message
    assert file in message and f"line {line}" in message, (file, line, message)
    assert re.search(BOMBS[name][2], message, re.I), message


def _mail(intake: MaildirIntake, game: str, n: int) -> None:
    """baron's orders for ``game``, arrived before its deadline."""
    key = intake.deliver(f"From: baron@jasta11.example\r\nTo: {REFEREE}\r\nSubject: orders\r\n"
                   f"Message-ID: <bomb-{game}-{n}@x>\r\n\r\nGAME {game}\r\n"
                   "PASSWORD triplane-red-19\r\nPLANE\r\n1: A\r\n2: A\r\n3: A\r\n".encode())
    stamp = BEFORE_DEADLINE.timestamp()
    os.utime(intake.root / "new" / key, (stamp, stamp))


def _replies(tmp_path: Path) -> list[str]:
    """The text of every reply in the outbox."""
    return [body_of(m) for m in read_maildir(tmp_path / "outbox") if "Re:" in str(m["Subject"])]


@pytest.mark.parametrize("name", sorted(BOMBS))
def test_a_daemon_round_answers_the_other_games_while_one_is_a_bomb(
        tmp_path: Path, name: str, capped_memory: None) -> None:
    referee, intake, games = example_house(tmp_path, BEFORE_DEADLINE)
    daemon = Daemon(referee, intake, watch_games=True)  # as `pbmref serve` runs
    try:
        daemon.round()  # running before the game master's edit
        file, line = _bomb(games, name)
        before = fingerprint(games / "example")
        _mail(intake, "other", 1)
        _mail(intake, "example", 2)
        daemon.round()
    finally:
        daemon.close()
    replies = _replies(tmp_path)
    assert len(replies) == 2, replies
    other = next(r for r in replies if "other" in r)
    assert "accepted" in other.lower(), other
    bombed = next(r for r in replies if r is not other)
    assert "attention" in bombed and "Traceback" not in bombed, bombed
    assert referee.incoming.shunted() == []
    assert changed_files(before, fingerprint(games / "example")) == []

    # the deadline passes: the other game is played, the bomb named
    referee.clock.now = LATE  # type: ignore[attr-defined]
    report = adjudicate_due(referee, intake)
    assert [r.game_id for r in report.adjudicated] == ["other"], report.broken
    _names(report.broken["example"], file, line, name)
    assert changed_files(before, fingerprint(games / "example")) == []


@pytest.mark.parametrize("name", sorted(BOMBS))
def test_the_game_masters_commands_finish_and_name_the_bomb(
        tmp_path: Path, name: str, capped_memory: None,
        capsys: pytest.CaptureFixture[str]) -> None:
    referee, intake, games = example_house(tmp_path, LATE)
    config = write_config(SimpleNamespace(root=tmp_path, referee=referee))  # type: ignore[arg-type]
    file, line = _bomb(games, name)

    assert main(["check", "--config", str(config)]) == 1
    out = capsys.readouterr()
    text = out.out + out.err
    _names(next(ln for ln in text.splitlines() if "example" in ln and file in ln),
           file, line, name)
    assert "other: ok" in text

    main(["status", "--config", str(config)])
    out = capsys.readouterr()
    text = out.out + out.err
    assert "Traceback" not in text and "other" in text, text
    assert any(file in ln and f"line {line}" in ln for ln in text.splitlines()), text

    main(["adjudicate", "--due", "--config", str(config)])
    out = capsys.readouterr()
    text = out.out + out.err
    assert "Traceback" not in text, text
    assert any(file in ln and f"line {line}" in ln for ln in text.splitlines()), text
    assert (games / "other" / "turns" / "002").is_dir(), text
