"""``pbmref backup`` and ``pbmref restore`` (issue 44, item 6), on a local
Maildir: the archive holds the config, the games, the roster and the spool
(not the games index, nor any lock), readable by its maker only; restored into
an empty folder every game checks ok, a queued reply is still the one its key
names, a mail waiting in the spool is answered by the next round; games and
spool folders that lay outside the referee's folder come back inside it.
The same while the daemon runs on real servers: tests/integration/test_backup_mail.py."""

from __future__ import annotations

import io
import json
import stat
import tarfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import yaml

from pbmref import gm
from pbmref.cli import main
from pbmref.config import load_config
from pbmref.mail import RawMail, make_mail
from pbmref.mail.outbox import read_maildir
from pbmref.referee.pipeline import Referee
from pbmref.store import GameStore

REFEREE = "referee@test.invalid"


def _site(root: Path, *, games: str = "games", spool: str = "spool") -> tuple[Path, dict]:
    """A referee's folder: its config, a game with three players, a mail answered,
    one waiting in the spool, a keyed reply queued; the roster file."""
    root.mkdir(parents=True, exist_ok=True)
    config = root / "config.yaml"
    config.write_text(yaml.safe_dump({
        "games_dir": games, "spool_dir": spool, "referee": {"address": REFEREE},
        "mail": {"mode": "maildir", "maildir": {"inbox": "inbox", "outbox": "outbox"}}}))
    cfg = load_config(config)
    made = gm.new_game(GameStore(cfg.games_dir), "zep1", [
        gm.PlayerSpec(p, (f"{p}@example.org",)) for p in ("anna", "bert", "cora")],
        seed=3, deadline=datetime.now(UTC) + timedelta(days=2))
    (cfg.games_dir / "roster.yaml").write_text("players: {}\napplied: []\n")
    referee = Referee(cfg)

    def orders(player: str) -> bytes:  # an empty PLANE section: stay landed (L2a)
        return (f"From: {player}@example.org\r\nTo: {REFEREE}\r\nSubject: orders\r\n"
                f"Message-ID: <{player}@example.org>\r\n\r\nGAME zep1\r\n"
                f"PASSWORD {made.passwords[player]}\r\nPLANE\r\n").encode()

    referee.incoming.save(RawMail("k1", orders("anna"), datetime.now(UTC)))
    referee.process_spool()
    referee.deliver()
    assert "anna" in referee.store.open("zep1").book.entries()
    entry = referee.incoming.save(RawMail("k2", orders("bert"), datetime.now(UTC)))
    queued = referee.outgoing.enqueue(make_mail("cora@example.org", "note", "hello",
                                                from_addr=REFEREE), key="note:cora")
    return config, {"waiting": entry.message_id, "queued": queued.id}


def test_backup_and_restore_bring_back_every_game_and_the_spool(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config, made = _site(tmp_path / "site")
    archive = tmp_path / "backups" / "pbmref.tar.gz"
    assert main(["backup", str(archive), "--config", str(config)]) == 0
    assert "1 game, the spool and the config" in capsys.readouterr().out
    assert stat.S_IMODE(archive.stat().st_mode) == 0o600
    names = tarfile.open(archive).getnames()
    assert "games/zep1/game.yaml" in names and "games/roster.yaml" in names
    assert "config/config.yaml" in names and "spool/in/format.yaml" in names
    assert not [n for n in names if n.endswith(".lock") or "games-index" in n], names

    restored = tmp_path / "restored"
    assert main(["restore", str(archive), str(restored)]) == 0
    assert f"next: pbmref check --config {restored}/config.yaml" in capsys.readouterr().out
    assert main(["check", "--config", str(restored / "config.yaml")]) == 0
    assert "zep1: ok" in capsys.readouterr().out
    cfg = load_config(restored / "config.yaml")
    assert cfg.games_dir == restored / "games" and (restored / "games" / "roster.yaml").exists()
    referee = Referee(cfg)
    again = referee.outgoing.enqueue(make_mail("cora@example.org", "note", "hello",
                                               from_addr=REFEREE), key="note:cora")
    assert again.id == made["queued"]  # its key still names it: not queued twice
    assert [e.message_id for e in referee.incoming.pending()] == [made["waiting"]]
    assert referee.process_spool() == 1  # the next round answers it
    assert referee.incoming.pending() == []
    assert set(referee.store.open("zep1").book.entries()) == {"anna", "bert"}
    referee.deliver()
    assert any("bert@example.org" in str(m["To"]) for m in read_maildir(cfg.mail.maildir.outbox))


def test_folders_outside_the_referees_folder_come_back_inside_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config, _ = _site(tmp_path / "site", games=str(tmp_path / "elsewhere" / "games"),
                      spool=str(tmp_path / "elsewhere" / "spool"))
    archive = tmp_path / "pbmref.tar.gz"
    assert main(["backup", str(archive), "--config", str(config)]) == 0
    assert main(["restore", str(archive), str(tmp_path / "new")]) == 0
    cfg = load_config(tmp_path / "new" / "config.yaml")
    assert (cfg.games_dir, cfg.spool_dir) == (tmp_path / "new" / "games",
                                              tmp_path / "new" / "spool")
    assert main(["check", "--config", str(cfg.source)]) == 0
    assert "zep1: ok" in capsys.readouterr().out


def test_restore_changes_nothing_it_should_not(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    config, _ = _site(tmp_path / "site")
    archive = tmp_path / "pbmref.tar.gz"
    assert main(["backup", str(archive), "--config", str(config)]) == 0
    capsys.readouterr()
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "keep.txt").write_text("mine")
    assert main(["restore", str(archive), str(busy)]) == 1
    assert "not an empty folder" in capsys.readouterr().err
    assert [p.name for p in busy.iterdir()] == ["keep.txt"]

    other = tmp_path / "other.tar.gz"
    with tarfile.open(other, "w:gz") as tar:
        tar.add(config, arcname="config.yaml")
    assert main(["restore", str(other), str(tmp_path / "x")]) == 1
    assert "not a pbmref backup" in capsys.readouterr().err

    newer = tmp_path / "newer.tar.gz"
    with tarfile.open(archive) as src, tarfile.open(newer, "w:gz") as out:
        for member in src.getmembers():
            data = src.extractfile(member) if member.isfile() else None
            if member.name == "pbmref-backup.json" and data is not None:
                body = json.loads(data.read()) | {"pbmref-backup": 2, "pbmref": "9.0"}
                raw = json.dumps(body).encode()
                member.size = len(raw)
                data = io.BytesIO(raw)
            out.addfile(member, data)
    assert main(["restore", str(newer), str(tmp_path / "y")]) == 1
    assert "made by pbmref 9.0, a newer release" in capsys.readouterr().err
    assert not (tmp_path / "x").exists() or not any((tmp_path / "x").iterdir())


def test_a_backup_is_never_written_into_what_it_archives(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config, _ = _site(tmp_path / "site")
    assert main(["backup", str(tmp_path / "site" / "games" / "b.tar.gz"),
                 "--config", str(config)]) == 1
    assert "would be archived with them" in capsys.readouterr().err
    assert not (tmp_path / "site" / "games" / "b.tar.gz").exists()
