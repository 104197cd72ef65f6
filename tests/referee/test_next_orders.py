"""Every report and reminder ends with the reader's next orders, ready to edit
(issue 43, item 4), for every ruleset, through the real referee.

A game of each kind plays its first turn without orders; each player's
report copy ends with the deadline in words ("in 23 h (Tue 12:00 UTC)") and
an order mail for the turn now open. That block, its password put in, is
mailed back as it stands: the referee reads it with its own reader and
accepts it. An observer's copy has the deadline but no order block; with
``referee.archive_url`` each copy links its turn's archive page. A
reminder ends with the same mail, valid too.
"""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from tablekit import T0, Clock, Table, body_of, maildir_config

from pbmref import gm
from pbmref.referee.guide import PASSWORD_LINE
from pbmref.referee.turns import adjudicate_due
from pbmref.rulesets.fastplay.classroom import new_class, template_from_dict
from pbmref.store import GameStore

ARCHIVE = "https://games.example.org/archive/"


def players_of(kind: str) -> tuple[list[gm.PlayerSpec], dict[str, object]]:
    """The players of a small game of ``kind`` and new_game's settings for it."""
    if kind == "fastplay":
        pupils = {"anna": "Germans", "bart": "Allies"}
        (board,) = new_class(template_from_dict({
            "class": "7c", "title": "Class 7C", "per_board": 2, "seed": 9,
            "pilots": {p: {"name": p, "team": t, "address": f"{p}@example.org"}
                       for p, t in pupils.items()}}))
        return ([gm.PlayerSpec(p, (f"{p}@example.org",), p) for p in board.players],
                {"position": board.position, "game_id": board.game_id})
    if kind == "tweedekker":
        return ([gm.PlayerSpec("anna", ("anna@example.org",), "Anna", airfield="N"),
                 gm.PlayerSpec("bert", ("bert@example.org",), "Bert", airfield="SE")], {})
    return ([gm.PlayerSpec("fleur", ("fleur@example.org",), "Fleur", power="FRA"),
             gm.PlayerSpec("edith", ("edith@example.org",), "Edith", power="ENG")], {})


def make_table(tmp_path: Path, kind: str, *, reminder_hours: float = 0,
               archive_url: str = ARCHIVE) -> tuple[Table, str]:
    config = maildir_config(tmp_path, archive_url=archive_url)
    clock = Clock(T0)
    store = GameStore(config.games_dir)
    players, extra = players_of(kind)
    gid = str(extra.pop("game_id", "g1"))
    created = gm.new_game(store, gid, players, title="Next orders", ruleset=kind, seed=3,
                          deadline=T0 + timedelta(hours=48), turn_length="24h",
                          early_adjudication=False, reminder_hours=reminder_hours, now=T0,
                          observers=["watcher@example.org"], **extra)  # type: ignore[arg-type]
    table: Table = Table.start(tmp_path, config, store, clock, passwords=created.passwords)
    return table, gid


def ready_mail(text: str) -> list[str]:
    """The ready-to-edit order mail at the end of a report or reminder."""
    lines = text.splitlines()
    start = max(i for i, line in enumerate(lines) if line.strip().startswith("GAME "))
    end = next(i for i in range(start, len(lines)) if lines[i].strip() == "END")
    return lines[start:end + 1]  # as they stand: a phone copies the indent too


KINDS = ("tweedekker", "fastplay", "diplomacy", "dirigible")


@pytest.mark.parametrize("kind", KINDS)
def test_each_report_ends_with_next_orders_that_are_accepted_once_the_password_is_in(
        tmp_path: Path, kind: str) -> None:
    table, gid = make_table(tmp_path, kind)
    table.clock.now = T0 + timedelta(hours=48, minutes=1)
    adjudicate_due(table.referee, table.intake)
    game = table.store.open(gid)
    label = game.turn_label
    reports = {str(m["To"]): body_of(m) for m in table.new_outbox()
               if str(m["Subject"]).endswith(" report")}
    watcher = reports.pop("watcher@example.org")
    assert re.search(r"by: in 23 h \(\w{3} \d\d:\d\d \w+\)\.", watcher)
    assert "GAME " not in watcher and PASSWORD_LINE not in watcher
    assert f"{ARCHIVE}{gid}/turn-001.html" in watcher
    assert len(reports) == len(table.passwords)
    for address, text in reports.items():
        player = address.split("@")[0]
        assert f"{ARCHIVE}{gid}/turn-001.html" in text
        if not game.ruleset.needs_orders(game.open.state, player):
            flat = " ".join(text.split())
            assert f"You have nothing to order in phase {label}; it is played in 23 h" in flat
            assert "GAME " not in text and f"Orders for phase {label} by" not in text
            continue
        mail = ready_mail(text)
        keyword = game.ruleset.words.keyword
        assert [m.strip() for m in mail[:3]] == [f"GAME {gid}", PASSWORD_LINE, f"{keyword} {label}"]
        body = "\n".join(mail).replace("<your password>", table.passwords[player])
        (reply,) = table.send(body, sender=address)
        assert "your orders are accepted" in body_of(reply), body_of(reply)
    if kind == "diplomacy":
        assert not any("irigib" in t for t in [watcher, *reports.values()])


@pytest.mark.parametrize("kind", KINDS)
def test_a_reminder_ends_with_next_orders_that_are_accepted(tmp_path: Path,
                                                           kind: str) -> None:
    table, gid = make_table(tmp_path, kind, reminder_hours=12)
    table.clock.now = T0 + timedelta(hours=40)
    adjudicate_due(table.referee, table.intake)
    reminders = [m for m in table.new_outbox() if "reminder" in str(m["Subject"])]
    assert len(reminders) == len(table.passwords)
    for msg in reminders:
        text = body_of(msg)
        assert "by: in 8 h (Tue 12:00 UTC)." in text
        player = str(msg["To"]).split("@")[0]
        body = "\n".join(ready_mail(text)).replace("<your password>", table.passwords[player])
        (reply,) = table.send(body, sender=str(msg["To"]))
        assert "your orders are accepted" in body_of(reply), body_of(reply)


@pytest.mark.parametrize("kind", KINDS)
def test_without_an_archive_url_the_copies_have_no_link_and_nothing_broken(
        tmp_path: Path, kind: str) -> None:
    table, gid = make_table(tmp_path, kind, archive_url="", reminder_hours=12)
    table.clock.now = T0 + timedelta(hours=40)
    adjudicate_due(table.referee, table.intake)  # the reminders
    table.clock.now = T0 + timedelta(hours=48, minutes=1)
    adjudicate_due(table.referee, table.intake)  # the reports
    mails = table.new_outbox()
    assert any("reminder" in str(m["Subject"]) for m in mails)
    assert any(str(m["Subject"]).endswith(" report") for m in mails)
    for msg in mails:
        text = body_of(msg)
        assert "archive" not in text.lower() and "None" not in text, text
        assert "turn-001.html" not in text and "http" not in text, text
        assert re.search(r"by: in \d+ h \(\w{3} \d\d:\d\d \w+\)\.", text) or \
            "You have nothing to order in" in text, text
