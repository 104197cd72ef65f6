"""Helpers of the hardening tests: a referee on a Maildir with known passwords
(on the one harness, ``tests/refereekit.py``), a fingerprint of the games
folder, and checks of the mails the referee sends."""

from __future__ import annotations

import hashlib
import os
import shutil
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import yaml

from pbmref import gm
from pbmref.mail.maildir_in import MaildirIntake
from pbmref.mail.outbox import read_maildir
from pbmref.referee.pipeline import Referee
from pbmref.store import GameStore
from pbmref.store.settings import hash_password
from refereekit import REFEREE, T0, Clock, RefereeTable, body_of, maildir_config, parse

__all__ = ["PASSWORDS", "PLAYERS", "REFEREE", "T0", "Clock", "Table", "body_of",
           "assert_clean_headers", "changed_files", "example_house", "fingerprint",
           "judged_alone", "load_corpus", "make_table", "parse",
           "set_passwords", "write_config"]

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "tests" / "mail_corpus"
PASSWORDS = {"anna": "anna-pass-1", "bert": "bert-pass-2", "cora": "cora-pass-3"}
PLAYERS = {p: f"{p}@example.org" for p in PASSWORDS}


def set_passwords(store: GameStore, game_id: str, passwords: dict[str, str]) -> None:
    """Give the players known passwords (new_game makes random ones)."""
    def change(data: dict[str, Any]) -> None:
        for pid, pw in passwords.items():
            data["players"][pid]["password_hash"] = hash_password(pw)

    game = store.open(game_id)
    game.update_settings(change)
    for old in game.dir.glob("game.yaml.replaced-*"):
        old.unlink()


def judged_alone(referee: Referee) -> None:
    """Forget the rations earlier mails used up (the referee's bookkeeping): each
    corpus mail is judged on its own, not as the tenth wrong password of the hour."""
    for path in referee.state.files():
        path.unlink(missing_ok=True)


def fingerprint(games: Path) -> dict[str, str]:
    """Relative path -> sha256 of every file under the games folder (locks left out)."""
    out = {}
    for root, _dirs, files in os.walk(games):
        for name in files:
            if name == ".lock" or name.endswith(".lock"):
                continue
            path = Path(root) / name
            out[str(path.relative_to(games))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def changed_files(before: dict[str, str], after: dict[str, str]) -> list[str]:
    return sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))


def assert_clean_headers(raw: bytes) -> None:
    """No header of a sent mail smuggles in another header or a second recipient."""
    head = raw.split(b"\r\n\r\n", 1)[0] if b"\r\n\r\n" in raw else raw.split(b"\n\n", 1)[0]
    names = []
    for line in head.replace(b"\r\n", b"\n").split(b"\n"):
        if line[:1] in (b" ", b"\t"):
            continue  # folded continuation of the header above
        name = line.split(b":", 1)[0].strip().lower()
        names.append(name)
    for bad in (b"bcc", b"cc", b"x-injected", b"reply-to"):
        assert bad not in names, f"header {bad!r} appeared in a reply: {head[:400]!r}"
    assert names.count(b"to") == 1 and names.count(b"subject") == 1
    for key, value in parse(raw).items():
        assert "\n" not in str(value) and "\r" not in str(value), (key, value)


@dataclass
class Table(RefereeTable):
    """A referee on a Maildir with game zep1 (anna, bert, cora) and known passwords."""

    handled: set[str] = field(default_factory=set)

    def send_raw(self, raw: bytes, *, arrived: datetime | None = None) -> list[bytes]:
        """Drop `raw` in the inbox, let the referee take it in and deliver; the new
        outbox mails (raw bytes)."""
        self.deliver(raw, arrived=arrived)
        self.take_in()
        return self.new_raw()

    def outbox_messages(self) -> list[EmailMessage]:
        return read_maildir(self.outbox)

    def order_mail(self, player: str, *lines: str, game: str = "zep1") -> str:
        return "\n".join([f"GAME {game}", f"PASSWORD {PASSWORDS[player]}", *lines, "END", ""])

    def send(self, body: str, *, sender: str = PLAYERS["anna"], subject: str = "orders",
             headers: dict[str, str] | None = None) -> list[EmailMessage]:
        raw = self.mail(body, sender=sender, subject=subject, headers=headers)
        return [parse(r) for r in self.send_raw(raw)]


def make_table(root: Path, *, anonymous: bool = False, max_bytes: int = 1_000_000,
               extra_games: int = 0, game_master: str = "", start: datetime = T0) -> Table:
    """The table; ``start``: the referee's clock and the game's creation (T0, else
    e.g. now, for what the game master reads against the wall clock)."""
    config = maildir_config(root, game_master=game_master, max_message_bytes=max_bytes)
    clock = Clock(start)
    store = GameStore(config.games_dir)
    players = [gm.PlayerSpec(pid, (PLAYERS[pid],), pid.title(), airfield=af)
               for pid, af in zip(PASSWORDS, ("N", "SE", "SW"), strict=True)]
    gm.new_game(store, "zep1", players, title="Hardening", seed=11,
                deadline=start + timedelta(hours=48), turn_length="48h",
                early_adjudication=False, reminder_hours=0, anonymous=anonymous, now=start)
    set_passwords(store, "zep1", PASSWORDS)
    return Table.start(root, config, store, clock, max_fetch_bytes=max_bytes)


def example_house(root: Path, now: datetime) -> tuple[Referee, MaildirIntake, Path]:
    """Two copies of the repository's example game, ``example`` and ``other``
    (the same players in each), on a Maildir referee whose clock says ``now``;
    (the referee, its intake, the games folder)."""
    games = root / "games"
    for name in ("example", "other"):
        shutil.copytree(REPO / "docs" / "example-game", games / name,
                        ignore=shutil.ignore_patterns(".lock"))
    config = maildir_config(root)
    referee = Referee(config, store=GameStore(games), clock=Clock(now))
    return referee, MaildirIntake(config.mail.maildir.inbox), games


def write_config(table: Table) -> Path:
    """The table's config as a file, for the command line (``--config``)."""
    config = table.referee.config
    path = table.root / "pbmref.yaml"
    path.write_text(yaml.safe_dump({
        "games_dir": str(config.games_dir), "spool_dir": str(config.spool_dir),
        "referee": {"address": config.referee.address, "name": config.referee.name,
                    "game_master": config.referee.game_master},
        "mail": {"mode": "maildir", "maildir": {"inbox": str(config.mail.maildir.inbox),
                                                "outbox": str(config.mail.maildir.outbox)}},
    }), encoding="utf-8")
    return path


def load_corpus() -> dict[str, dict[str, Any]]:
    table = yaml.safe_load((CORPUS / "corpus.yaml").read_text(encoding="utf-8"))
    assert isinstance(table, dict)
    return table
