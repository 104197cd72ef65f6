"""Orders stay secret until the turn is adjudicated; in an anonymous game no mail
shows another player's address (shared/spec/orders.md "Reading rules",
shared/spec/referee.md "Reports")."""

from __future__ import annotations

import re
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from hardkit import PASSWORDS, PLAYERS, T0, Table, body_of, make_table

from pbmref.referee.turns import adjudicate_due

BERT_ORDERS = ("PLANE", "TAKEOFF GAMMA", "1: A", "2: A", "3: RS f-A",
               "ZEPPELIN", "1: LS f-B", "2: 0", "3: 0",
               "# secret-plan-cobra: dive on the zeppelin from the east")
# What would give bert's orders away (HELP and the map use the single words).
SECRETS = ("TAKEOFF GAMMA", "RS f-A", "LS f-B", "secret-plan-cobra", PASSWORDS["bert"])

ANNA_ASKS = [
    ["STATUS"], ["MAP"], ["ORDERS"], ["HELP"], ["HISTORY 1"], ["HISTORY 0"], ["HISTORY 2"],
    ["STATUS", "MAP", "ORDERS", "HISTORY 1", "HELP"],
    ["PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: L"],  # accepted: shows her own orders
    ["PLANE", "TAKEOFF BETA", "1: A", "2: 0", "3: A"],  # refused: shows the errors
    ["PILOT bert", "ORDERS"],
    ["TURN 2", "STATUS"],
    ["CLEAR", "STATUS"],
]


def _texts(msgs: list[EmailMessage]) -> list[str]:
    out = []
    for m in msgs:
        parts = [str(p.get_content()) for p in m.walk()
                 if p.get_content_maintype() == "text"]
        out.append("\n".join(parts + [f"{k}: {v}" for k, v in m.items()]))
    return out


@pytest.fixture
def secret_table(tmp_path: Path) -> Table:
    table = make_table(tmp_path)
    out = table.send(table.order_mail("bert", *BERT_ORDERS), sender=PLAYERS["bert"])
    assert "accepted" in body_of(out[0])
    return table


@pytest.mark.parametrize("asks", ANNA_ASKS, ids=lambda a: "+".join(a))
def test_no_reply_reveals_another_players_orders(secret_table: Table, asks: list[str]) -> None:
    out = secret_table.send(secret_table.order_mail("anna", *asks))
    assert len(out) == 1 and out[0]["To"] == PLAYERS["anna"]
    for text in _texts(out):
        for secret in SECRETS:
            assert secret not in text, f"{asks}: the reply shows {secret!r}"
        assert PLAYERS["bert"] not in text


def test_the_other_players_own_orders_reply_shows_them(secret_table: Table) -> None:
    """The check above would pass on an empty reply; bert himself does see them."""
    out = secret_table.send(secret_table.order_mail("bert", "ORDERS"), sender=PLAYERS["bert"])
    text = body_of(out[0])
    assert "TAKEOFF GAMMA" in text and "LS f-B" in text


def test_reminders_reveal_nothing(secret_table: Table) -> None:
    secret_table.store.open("zep1").change_settings({"reminder_hours": 12})
    secret_table.clock.now = T0 + timedelta(hours=40)
    adjudicate_due(secret_table.referee, None)
    mails = [m for m in secret_table.outbox_messages() if "reminder" in str(m["Subject"])]
    assert sorted(str(m["To"]) for m in mails) == [PLAYERS["anna"], PLAYERS["cora"]]
    for text in _texts(mails):
        for secret in SECRETS:
            assert secret not in text


def test_the_report_reveals_orders_only_after_adjudication(secret_table: Table) -> None:
    table = secret_table
    before = [m for m in table.outbox_messages() if "report" in str(m["Subject"])]
    assert before == []
    table.clock.now = T0 + timedelta(hours=48, minutes=1)
    adjudicate_due(table.referee, table.intake)
    reports = [m for m in table.outbox_messages() if "turn 1 report" in str(m["Subject"])]
    assert len(reports) == 3
    assert any("RS" in t for t in _texts(reports))  # now the orders are public


def _run_anonymous_game(tmp_path: Path) -> tuple[Table, list[EmailMessage]]:
    table = make_table(tmp_path, anonymous=True)
    table.send(table.order_mail("bert", *BERT_ORDERS), sender=PLAYERS["bert"])
    for asks in ANNA_ASKS:
        table.clock.now += timedelta(minutes=5)
        table.send(table.order_mail("anna", *asks))
    table.send(table.order_mail("cora", "STATUS", "MAP"), sender=PLAYERS["cora"])
    table.send("GAME zep1\nPASSWORD wrong\nSTATUS\n", sender=PLAYERS["cora"])
    table.clock.now = T0 + timedelta(hours=48, minutes=1)
    report = adjudicate_due(table.referee, table.intake)
    assert [r.turn for r in report.adjudicated] == [1]
    table.clock.now += timedelta(minutes=5)
    table.send(table.order_mail("anna", "HISTORY 1", "STATUS"))
    return table, table.outbox_messages()


def test_anonymous_game_no_mail_shows_another_address(tmp_path: Path) -> None:
    table, mails = _run_anonymous_game(tmp_path)
    assert len([m for m in mails if "turn 1 report" in str(m["Subject"])]) == 3
    address = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
    for msg, text in zip(mails, _texts(mails), strict=True):
        to = [a.addr_spec for a in msg["To"].addresses]
        assert len(to) == 1, f"one recipient a mail, got {to}"
        assert msg["Cc"] is None and msg["Bcc"] is None
        body = "\n".join(str(p.get_content()) for p in msg.walk()
                         if p.get_content_maintype() == "text")
        shown = set(address.findall(body)) - {to[0], "referee@test.invalid"}
        assert not shown, f"mail to {to[0]} ({msg['Subject']}) shows {shown}"
        assert all(a not in text for a in PLAYERS.values() if a != to[0])


def test_reports_go_one_per_recipient_also_when_not_anonymous(secret_table: Table) -> None:
    secret_table.clock.now = T0 + timedelta(hours=48, minutes=1)
    adjudicate_due(secret_table.referee, secret_table.intake)
    reports = [m for m in secret_table.outbox_messages() if "report" in str(m["Subject"])]
    assert sorted(str(m["To"]) for m in reports) == sorted(PLAYERS.values())
