"""What the referee keeps on disk, and where it reads and writes (issue 15, items
5, 8, 9 and 10).

The spools keep only what a retry needs, for ``limits.spool_retention``, and the
daemon and cron prune them; nothing is read or written through a symbolic link
in the inbox or a game folder; everything the referee writes is readable by its
own user (and group) only; and no player may have the referee's own address.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import yaml
from hardkit import PASSWORDS, PLAYERS, REFEREE, T0, body_of, make_table, write_config

from pbmref import gm
from pbmref.cli import UMASK, main
from pbmref.referee.daemon import Daemon
from pbmref.referee.turns import adjudicate_due
from pbmref.store import GameStore

_STATES = {"new", "done", "shunt", "queue", "sent", "failed"}


def _entry_files(spool: Path) -> list[Path]:
    """The spools' entries: one file each (issue 20)."""
    return sorted(p for p in spool.glob("*/*/*") if p.parent.name in _STATES
                  and not p.name.startswith(".") and p.is_file())


def _parts(path: Path) -> tuple[bytes, dict, bytes]:
    """An entry's marks (incoming ones), meta data and mail."""
    data = path.read_bytes()
    marks, data = (data[:32], data[32:]) if path.parent.parent.name == "in" else (b"", data)
    meta, mail = data.split(b"\n", 1)
    return marks, json.loads(meta), mail


def _age(spool: Path, days: float) -> int:
    """Make every record in the spools `days` old (as if saved then); returns how many."""
    then = (datetime.now(UTC) - timedelta(days=days)).isoformat()
    n = 0
    for path in _entry_files(spool):
        marks, meta, mail = _parts(path)
        meta["saved"] = meta["created"] = then
        path.write_bytes(marks + json.dumps(meta).encode() + b"\n" + mail)
        n += 1
    return n


def _entries(spool: Path) -> list[str]:
    return [f"{p.parent.parent.name}/{p.name}" for p in _entry_files(spool)]


def test_handled_and_sent_mail_keeps_only_records_which_the_daemon_and_cron_prune(
        tmp_path: Path) -> None:
    table = make_table(tmp_path)
    spool = table.root / "spool"
    table.send(table.order_mail("anna", "PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: L"))
    table.send(table.order_mail("bert", "STATUS"), sender=PLAYERS["bert"])
    # the mails went as soon as they were handled and sent: only records stay
    # records only: the meta data and a mail's marks (a reply's time of sending is
    # its file's), each entry one file
    assert _entries(spool) and all(_parts(p)[2] == b"" for p in _entry_files(spool))
    assert [p for p in spool.glob("*/*/*/*")] == []
    # younger than the retention (14 days by default): kept
    _age(spool, 13)
    Daemon(table.referee, table.intake).round()
    assert len(_entries(spool)) == 4
    # older: the daemon's round prunes them
    _age(spool, 15)
    table.clock.now += timedelta(hours=2)
    Daemon(table.referee, table.intake).round()
    assert _entries(spool) == []
    # and so does cron (adjudicate --due), at most once an hour between them
    table.send(table.order_mail("anna", "STATUS"))
    _age(spool, 15)
    assert adjudicate_due(table.referee, table.intake).pruned == 0  # pruned 0 s ago
    table.clock.now += timedelta(minutes=61)
    assert adjudicate_due(table.referee, table.intake).pruned == 2
    assert _entries(spool) == []


def test_what_a_killed_referee_left_in_tmp_goes_with_the_daemons_prune(
        tmp_path: Path) -> None:
    """Issue 20: a mail the referee was writing into a spool's ``tmp/`` when it
    was killed (whole, a player's password in it) is read by nobody; the
    daemon's hourly prune deletes it once no writer can still be at it: an
    incoming one after an hour, a reply held for sending after five days (when
    it would be given up). Younger ones stay."""
    table = make_table(tmp_path)
    spool = table.root / "spool"
    table.send(table.order_mail("anna", "STATUS"))
    password = PASSWORDS["anna"].encode()

    def left(path: Path, hours: float) -> Path:
        path.write_bytes(b"PASSWORD " + password + b"\nSTATUS\n")
        then = (datetime.now(UTC) - timedelta(hours=hours)).timestamp()
        os.utime(path, (then, then))
        return path

    old_in = left(spool / "in" / "tmp" / "k1.4242.0badc0de", 2)
    young_in = left(spool / "in" / "tmp" / "k2.4242.0badc0de", 0.5)
    old_out = left(spool / "out" / "tmp" / "00000000000000000001-0badc0de01", 6 * 24)
    young_out = left(spool / "out" / "tmp" / "00000000000000000002-0badc0de02", 4 * 24)
    table.clock.now += timedelta(hours=2)
    Daemon(table.referee, table.intake).round()
    assert not old_in.exists() and not old_out.exists()
    assert young_in.exists() and young_out.exists()


def test_a_symbolic_link_in_the_inbox_is_not_read(tmp_path: Path,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    table = make_table(tmp_path)
    private = tmp_path / "private.txt"
    private.write_text("From: anna@example.org\nSubject: x\n\nGAME zep1\nsecret-line-4711\n")
    link = table.intake.root / "new" / "1700000000.link.host"
    link.symlink_to(private)
    handled = table.referee.take_in(table.intake)
    table.referee.deliver(force=True)
    assert handled == 0 and table.new_outbox() == []
    assert link.is_symlink()  # left where it is, with a warning
    assert "symbolic link, not a mail" in caplog.text
    assert not any(b"secret-line-4711" in p.read_bytes()
                   for p in (tmp_path / "spool").rglob("*") if p.is_file())


def test_a_symbolic_link_in_a_game_folder_is_not_written_through(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    orders = table.games / "zep1" / "turns" / "001" / "orders"
    assert not orders.exists()
    orders.symlink_to(elsewhere)
    out = table.send(table.order_mail("anna", "PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: L"))
    assert len(out) == 1 and "cannot take orders at the moment" in body_of(out[0])
    assert list(elsewhere.iterdir()) == []


def _modes(root: Path) -> list[str]:
    """Every file and folder under `root` that others than owner and group may read."""
    out = []
    for path in [root, *root.rglob("*")]:
        if path.is_symlink():
            continue
        if stat.S_IMODE(path.lstat().st_mode) & 0o007:
            out.append(f"{oct(stat.S_IMODE(path.lstat().st_mode))} {path.relative_to(root)}")
    return out


def test_what_the_referee_keeps_is_readable_by_its_user_and_group_only(tmp_path: Path) -> None:
    """In the process (tests run under umask 022): every file of the spools and
    the referee's bookkeeping (addresses, error snippets) is private."""
    table = make_table(tmp_path)
    table.send(table.order_mail("anna", "STATUS"))
    table.send(table.order_mail("anna", "STATUS").replace("anna-pass-1", "x"))
    files = [p for p in (table.root / "spool").rglob("*") if p.is_file()]
    assert any(p.name == "referee-state.password-failures.json" for p in files)  # addresses
    assert [m for m in _modes(table.root / "spool") if not m.startswith("0o755 ")] == []


def test_the_command_line_writes_nothing_others_may_read(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    config = write_config(table)
    shutil.rmtree(table.root / "spool")  # made by this test's own process: made anew below
    head = f"From: {PLAYERS['anna']}\r\nTo: {REFEREE}\r\nSubject: orders\r\n\r\n"
    table.intake.deliver((head + table.order_mail("anna", "STATUS")).encode())
    old = os.umask(0o022)
    try:
        assert main(["new-game", "g2", "--player", "dora:dora@example.org",
                     "--player", "emil:emil@example.org", "--config", str(config)]) == 0
        assert main(["serve", "--once", "--quiet", "--config", str(config)]) == 0
    finally:
        os.umask(old)
    assert UMASK == 0o027
    assert list((table.root / "outbox" / "new").iterdir())  # the reply, and reports
    for folder in ("spool", "outbox", "games/g2"):
        assert _modes(table.root / folder) == [], folder


@pytest.mark.parametrize("args", [
    ["new-game", "g3", "--player", "ref:REFEREE@test.invalid"],
    ["new-game", "g3", "--player", "anna:anna@example.org", "--observer", "referee@test.invalid"],
    ["replace-player", "zep1", "anna", "--address", "referee@test.invalid"],
    ["add-observer", "zep1", "referee@test.invalid"],
], ids=["player", "observer", "replace-player", "add-observer"])
def test_the_referees_own_address_is_refused(tmp_path: Path, args: list[str],
                                              capsys: pytest.CaptureFixture[str]) -> None:
    table = make_table(tmp_path)
    before = (table.games / "zep1" / "game.yaml").read_text()
    assert main([*args, "--config", str(write_config(table))]) == 1
    assert "is the referee's own address" in capsys.readouterr().err
    assert not (table.games / "g3").exists()
    assert (table.games / "zep1" / "game.yaml").read_text() == before


def test_new_game_refuses_every_address_the_config_gives_the_referee(tmp_path: Path) -> None:
    from pbmref.config import Config, ImapConfig, MailConfig, RefereeConfig

    config = Config(referee=RefereeConfig(address="ref@example.org"),
                    mail=MailConfig(imap=ImapConfig(user="Robot@Example.org")))
    assert config.referee_addresses == ("ref@example.org", "robot@example.org")
    store = GameStore(tmp_path / "games")
    with pytest.raises(ValueError, match="referee's own address"):
        gm.new_game(store, "g1", [gm.PlayerSpec("r", ("robot@example.org",))], seed=1,
                    refused_addresses=config.referee_addresses, now=T0)
    assert store.list_games() == []


def test_the_new_password_mail_leaves_the_spool_once_sent(tmp_path: Path) -> None:
    """Item 5: the one mail that carries a password on purpose; in Maildir mode
    the outbox it is written to is its delivery."""
    from pbmref.referee.newpassword import mail_new_password

    table = make_table(tmp_path)
    change = gm.reset_password(table.store, "zep1", "anna")
    assert change.password is not None
    assert mail_new_password(table.referee, table.game(), "anna", change.password) == "sent"
    (mail,) = table.new_outbox()
    assert change.password in body_of(mail)
    for path in (table.root / "spool").rglob("*"):
        assert not path.is_file() or change.password.encode() not in path.read_bytes()


def test_the_welcome_mail_leaves_the_spool_once_sent(tmp_path: Path) -> None:
    from pbmref.referee.welcome import queue_welcome

    table = make_table(tmp_path)
    change = gm.reset_password(table.store, "zep1", "bert")
    assert change.password is not None
    assert queue_welcome(table.referee, table.game(), {"bert": change.password}, ["bert"]) == 1
    table.referee.deliver(force=True)
    (mail,) = table.new_outbox()
    assert change.password in body_of(mail) and str(mail["To"]) == PLAYERS["bert"]
    for path in (table.root / "spool").rglob("*"):
        assert not path.is_file() or change.password.encode() not in path.read_bytes()


# ------------------------------------------------------------------ a mail's copy in the game

_ORDERS = ["PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: L"]
_QUOTED = "\n".join(f"> turn 7, move {n}: the zeppelin drifts on, nothing else happens"
                    for n in range(13_000))  # some 900 KB of an earlier report
_QUOTED_SHORT = "\n".join(_QUOTED.split("\n")[:1_900])  # some 130 KB of it
# A big accepted mail: its text; its Subject. What the game keeps of it is bounded
# (issue 40): the headers that matter, every line the referee read, a note of the rest.
BIG_MAILS = {
    "orders above a quoted report": (
        "\n".join(["GAME zep1", f"PASSWORD {PASSWORDS['anna']}", *_ORDERS, "",
                   "On Sun, 1 Mar 2026, referee wrote:", _QUOTED]), "orders"),
    # below the quote, within the lines the envelope looks at (a mail whose orders
    # start past them is refused with a LIMIT error: tests/orders/test_envelope_bounds.py)
    "orders below a quoted report": (
        "\n".join(["On Sun, 1 Mar 2026, referee wrote:", _QUOTED_SHORT, "",
                   "GAME zep1", f"PASSWORD {PASSWORDS['anna']}", *_ORDERS]), "orders"),
    "orders, END, then a report": (
        "\n".join(["GAME zep1", f"PASSWORD {PASSWORDS['anna']}", *_ORDERS, "END",
                   _QUOTED.replace("> ", "")]), "orders"),
    "a Subject of 900 characters": (
        "\n".join(["GAME zep1", f"PASSWORD {PASSWORDS['anna']}", *_ORDERS]),
        "orders " + "very " * 180),  # past 1,000: refused, LIMIT
}


@pytest.mark.parametrize("name", BIG_MAILS)
def test_what_a_game_keeps_of_a_big_mail_is_what_settles_a_dispute(
        tmp_path: Path, name: str) -> None:
    text, subject = BIG_MAILS[name]
    table = make_table(tmp_path)
    (answer,) = table.send(text, subject=subject)
    assert "accepted" in body_of(answer)
    (path,) = (table.games / "zep1" / "turns" / "001" / "orders").glob("anna*.yaml")
    assert path.stat().st_size < 40_000, f"{path.stat().st_size} bytes kept of a mail"
    assert table.game().book.entries()["anna"]["plane"] == ["A", "A", "L"]
    kept = str(yaml.safe_load(path.read_text(encoding="utf-8"))["raw"])
    for header in ("From: anna@example.org", "Subject: orders", "Date: ", "Message-ID: <"):
        assert header in kept, header
    for line in ["GAME zep1", "PASSWORD (hidden)", *_ORDERS]:
        assert f"\n{line}\n" in f"\n{kept}\n", line
    assert PASSWORDS["anna"] not in kept
    assert "not kept" in kept  # and how much: the note says so
