"""Helpers of the hardening tests: a referee on a Maildir with known passwords,
a fingerprint of the games folder, and checks of the mails the referee sends."""

from __future__ import annotations

import email
import email.policy
import hashlib
import os
import shutil
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import yaml

from pbmref import gm
from pbmref.base.flowed import unflowed
from pbmref.config import Config, LimitsConfig, MailConfig, MaildirConfig, RefereeConfig
from pbmref.mail.maildir_in import MaildirIntake
from pbmref.mail.outbox import read_maildir
from pbmref.referee.pipeline import Referee
from pbmref.store import GameStore
from pbmref.store.settings import hash_password

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "tests" / "mail_corpus"
REFEREE = "referee@test.invalid"
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
PASSWORDS = {"anna": "anna-pass-1", "bert": "bert-pass-2", "cora": "cora-pass-3"}
PLAYERS = {p: f"{p}@example.org" for p in PASSWORDS}


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


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


def body_of(msg: EmailMessage) -> str:
    part = msg.get_body(("plain",))
    assert part is not None, "a reply without a text part"
    return unflowed(str(part.get_content()))  # as a phone shows it (format=flowed)


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
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    for key, value in msg.items():
        assert "\n" not in str(value) and "\r" not in str(value), (key, value)


@dataclass
class Table:
    """A referee on a Maildir with game zep1 (anna, bert, cora) and known passwords."""

    root: Path
    referee: Referee
    intake: MaildirIntake
    clock: Clock
    store: GameStore
    seen: int = 0
    handled: set[str] = field(default_factory=set)

    @property
    def games(self) -> Path:
        return self.root / "games"

    @property
    def outbox(self) -> Path:
        return self.root / "outbox"

    def send_raw(self, raw: bytes, *, arrived: datetime | None = None) -> list[bytes]:
        """Drop `raw` in the inbox, let the referee take it in and deliver; the new
        outbox mails (raw bytes)."""
        key = self.intake.deliver(raw)
        stamp = (arrived or self.clock()).timestamp()
        os.utime(self.intake.root / "new" / key, (stamp, stamp))
        self.referee.take_in(self.intake)
        self.referee.deliver(force=True)
        return self.new_outbox()

    def new_outbox(self) -> list[bytes]:
        files: list[tuple[float, str, Path]] = []
        for sub in ("new", "cur"):
            folder = self.outbox / sub
            if folder.is_dir():
                files += [(p.stat().st_mtime_ns, p.name, p) for p in folder.iterdir()]
        files.sort()
        fresh = [p.read_bytes() for _, _, p in files[self.seen:]]
        self.seen = len(files)
        return fresh

    def outbox_messages(self) -> list[EmailMessage]:
        return read_maildir(self.outbox)

    def game(self, gid: str = "zep1") -> Any:
        return self.store.open(gid)

    def order_mail(self, player: str, *lines: str, game: str = "zep1") -> str:
        return "\n".join([f"GAME {game}", f"PASSWORD {PASSWORDS[player]}", *lines, "END", ""])

    def send(self, body: str, *, sender: str = PLAYERS["anna"], subject: str = "orders",
             headers: dict[str, str] | None = None) -> list[EmailMessage]:
        from email.utils import format_datetime, make_msgid

        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = REFEREE
        msg["Subject"] = subject
        msg["Date"] = format_datetime(self.clock())
        msg["Message-ID"] = make_msgid(domain="example.org")
        for k, v in (headers or {}).items():
            msg[k] = v
        msg.set_content(body)
        return [parse(r) for r in self.send_raw(msg.as_bytes())]


def parse(raw: bytes) -> EmailMessage:
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def make_table(root: Path, *, anonymous: bool = False, max_bytes: int = 1_000_000,
               extra_games: int = 0, game_master: str = "", start: datetime = T0) -> Table:
    """The table; ``start``: the referee's clock and the game's creation (T0, else
    e.g. now, for what the game master reads against the wall clock)."""
    config = Config(
        games_dir=root / "games", spool_dir=root / "spool",
        referee=RefereeConfig(address=REFEREE, name="Referee", game_master=game_master),
        mail=MailConfig(mode="maildir", maildir=MaildirConfig(
            inbox=root / "inbox", outbox=root / "outbox")),
        limits=LimitsConfig(max_message_bytes=max_bytes))
    clock = Clock(start)
    store = GameStore(config.games_dir)
    players = [gm.PlayerSpec(pid, (PLAYERS[pid],), pid.title(), airfield=af)
               for pid, af in zip(PASSWORDS, ("N", "SE", "SW"), strict=True)]
    gm.new_game(store, "zep1", players, title="Hardening", seed=11,
                deadline=start + timedelta(hours=48), turn_length="48h",
                early_adjudication=False, reminder_hours=0, anonymous=anonymous, now=start)
    set_passwords(store, "zep1", PASSWORDS)
    referee = Referee(config, store=store, clock=clock)
    intake = MaildirIntake(config.mail.maildir.inbox, max_fetch_bytes=max_bytes)
    return Table(root, referee, intake, clock, store)


def example_house(root: Path, now: datetime) -> tuple[Referee, MaildirIntake, Path]:
    """Two copies of the repository's example game, ``example`` and ``other``
    (the same players in each), on a Maildir referee whose clock says ``now``;
    (the referee, its intake, the games folder)."""
    games = root / "games"
    for name in ("example", "other"):
        shutil.copytree(REPO / "docs" / "example-game", games / name,
                        ignore=shutil.ignore_patterns(".lock"))
    config = Config(games_dir=games, spool_dir=root / "spool",
                    referee=RefereeConfig(address=REFEREE),
                    mail=MailConfig(mode="maildir", maildir=MaildirConfig(
                        inbox=root / "inbox", outbox=root / "outbox")))
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
