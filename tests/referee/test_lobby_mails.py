"""The table of lobby mails (lobby_mails.yaml): LIST, JOIN, OBSERVE, TAKEOVER,
CONFIRM, RESIGN, SET ABSENCE and SET TIMEZONE through the whole referee, each
reply and what changed (issue 45, rules J1-J12)."""

from __future__ import annotations

import re
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
import yaml
from tablekit import REFEREE, T0, Table, body_of

from pbmref.gm.forming import new_forming
from pbmref.gm.seats import resign
from pbmref.store.lobby import Lobby, read_standby

CASES: list[dict[str, Any]] = yaml.safe_load(
    (Path(__file__).parent / "lobby_mails.yaml").read_text(encoding="utf-8"))
_CODE = re.compile(r"CONFIRM ([A-Z0-9]{4}-[A-Z0-9]{4})")


def test_the_table_covers_the_commands() -> None:
    texts = " ".join(m["text"].upper() for c in CASES for m in c["mails"])
    for word in ("LIST", "JOIN", "OBSERVE", "TAKEOVER", "CONFIRM", "RESIGN", "SET ABSENCE",
                 "SET TIMEZONE"):
        assert word in texts, word
    assert len({c["name"] for c in CASES}) == len(CASES) >= 20


def _setup(table: Table, setup: dict[str, Any]) -> None:
    forming = {"places": 3, "game": {"turn_length": "48h", "deadlines": {"grace": "24h"}},
               **setup.get("forming", {})}
    new_forming(table.store, "dip7", ruleset=setup.get("ruleset", "diplomacy"),
                title="Summer league", seed=4, now=T0, **forming)
    game = table.game()
    if setup.get("standby"):
        game.change_settings({"takeover": "standby"})
    if setup.get("resign"):
        resign(game, setup["resign"], now=T0)


def _flat(text: str) -> str:
    return " ".join(text.split())


def _mail(table: Table, step: dict[str, Any], codes: dict[str, str]) -> list[EmailMessage]:
    sender = step["from"]
    text = step["text"]
    for m in re.finditer(r"\{code(?::([^}]+))?\}", text):
        text = text.replace(m.group(0), codes[m.group(1) or sender])
    if step.get("password"):
        pid = sender.split("@")[0]
        text = f"GAME zep1\nPASSWORD {table.passwords[pid]}\n{text}"
    table.clock.now += timedelta(minutes=1)
    return table.send(text, sender=sender, subject="lobby")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_lobby_mail(table: Table, case: dict[str, Any]) -> None:
    _setup(table, case.get("setup") or {})
    codes: dict[str, str] = {}
    for step in case["mails"]:
        out = _mail(table, step, codes)
        if "mails" in step:
            assert len(out) == step["mails"], [m["Subject"] for m in out]
        replies = [m for m in out if str(m["Subject"]).startswith("Re:")]
        if step.get("none"):
            assert replies == [], [body_of(m) for m in replies]
            continue
        assert len(replies) == 1, [m["Subject"] for m in out]
        assert replies[0]["To"] == step["from"] and replies[0]["From"].endswith(f"<{REFEREE}>")
        body = _flat(body_of(replies[0]))
        for phrase in step.get("reply", []):
            assert _flat(phrase) in body, (phrase, body)
        for phrase in step.get("absent", []):
            assert phrase not in body, (phrase, body)
        found = _CODE.findall(body)
        if found:
            codes[step["from"]] = found[-1]
    _check_after(table, case.get("after") or {})


def _check_after(table: Table, after: dict[str, Any]) -> None:
    store = table.store
    if "dip7_players" in after:
        forming = Lobby(store.dir).read("dip7")
        assert [p.address for p in forming.players] == after["dip7_players"]
    if "started" in after:
        game = store.open("dip7")
        assert sorted(a for p in game.settings.players.values() for a in p.addresses) == \
            after["started"]
        assert Lobby(store.dir).ids() == []
        welcomes = [m for m in table.sent_mail() if "welcome" in str(m["Subject"])]
        assert sorted(str(m["To"]) for m in welcomes) == after["started"]
        for m in welcomes:
            assert "Your password:" in body_of(m) and "(rule J4)" in _flat(body_of(m))
    if "places" in after:  # address -> the place it was given (J4)
        game = store.open("dip7")
        assert {a: game.ruleset.place_of(game.position, pid)
                for pid, p in game.settings.players.items() for a in p.addresses} == \
            after["places"]
    game = table.game()
    if "zep1_observers" in after:
        assert list(game.settings.observers) == after["zep1_observers"]
    if "zep1_standby" in after:
        assert [j.address for j in read_standby(game.dir).standby] == after["zep1_standby"]
    for pid, status in (after.get("zep1") or {}).items():
        assert game.settings.players[pid].status == status
    if "zep1_deadline" in after:
        assert game.settings.deadline is not None
        assert game.settings.deadline.isoformat() == after["zep1_deadline"]
    if "zep1_orders" in after:
        assert sorted(game.book.entries()) == after["zep1_orders"]
