"""The game master's side as a GM meets it: ``pbmref`` run in an empty folder.

``House`` is such a folder (the built-in defaults: games/, mail/inbox,
mail/outbox, mail/spool under it); ``house.run(...)`` runs one command in
process and returns its exit code and what it printed; ``house.mail(...)``
drops a player's mail in the inbox.
"""

from __future__ import annotations

import email
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import Message
from pathlib import Path

import pytest

from pbmref.cli import main

ZEP1 = ("new-game", "zep1", "--player", "anna:anna@example.org:Anna",
        "--player", "bert:bert@example.org:Bert", "--timezone", "Europe/Amsterdam")


@dataclass
class Ran:
    code: int
    out: str
    err: str


class House:
    def __init__(self, root: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.root = root
        self.capsys = capsys
        self.passwords: dict[str, str] = {}
        self._n = itertools.count(1)

    def run(self, *args: str) -> Ran:
        self.capsys.readouterr()
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse's own refusals
            code = int(exc.code or 0)
        got = self.capsys.readouterr()
        return Ran(code, got.out, got.err)

    def new_game(self, *args: str) -> Ran:
        """``new-game`` (zep1 by default), keeping the passwords it printed."""
        ran = self.run(*(args or ZEP1))
        assert ran.code == 0, ran
        for line in ran.out.split("passwords", 1)[-1].splitlines()[1:]:
            parts = line.split()
            if len(parts) >= 2 and "@" not in parts[1]:
                self.passwords[parts[0]] = parts[1]
        # These games play a turn the moment its orders are in, with no delay
        # for changes (issue 43, item 7: the rulesets' defaults wait 30-60 min)
        for game_file in (self.root / "games").glob("*/game.yaml"):
            text = game_file.read_text(encoding="utf-8")
            if "early_delay:" not in text:
                game_file.write_text(text + "early_delay: 0\n", encoding="utf-8")
        return ran

    def mail(self, sender: str, subject: str, body: str, *, date: str | None = None) -> None:
        n = next(self._n)
        head = (f"From: {sender}\nTo: referee@example.org\nSubject: {subject}\n"
                f"Message-ID: <m{n}@test.invalid>\n")
        if date:
            head += f"Date: {date}\n"
        inbox = self.root / "mail" / "inbox"
        for sub in ("cur", "new", "tmp"):
            (inbox / sub).mkdir(parents=True, exist_ok=True)
        (inbox / "new" / f"{n}.eml").write_text(f"{head}\n{body}\n")

    def outbox(self) -> list[Message]:
        box = self.root / "mail" / "outbox" / "new"
        return [email.message_from_bytes(p.read_bytes())
                for p in sorted(box.iterdir(), key=lambda p: p.stat().st_mtime_ns)] \
            if box.is_dir() else []


def text_of(msg: Message) -> str:
    """The plain text of a mail (its first text/plain part)."""
    for part in msg.walk():
        if part.get_content_type() == "text/plain":
            payload = part.get_payload(decode=True)
            assert isinstance(payload, bytes)
            return payload.decode(part.get_content_charset() or "utf-8")
    raise AssertionError("no text part")


@pytest.fixture
def house(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
          capsys: pytest.CaptureFixture[str]) -> Iterator[House]:
    root = tmp_path / "referee"
    root.mkdir()
    monkeypatch.chdir(root)
    monkeypatch.delenv("PBMREF_CONFIG", raising=False)
    yield House(root, capsys)
