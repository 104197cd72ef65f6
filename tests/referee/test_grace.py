"""Deadlines with grace and a minimum gap through the referee (issue 45, J9, J10, J12).

The table's tweedekker game (deadline Tue 3 March 2026 12:00 UTC) given a
grace period of 24 hours: at the deadline, with orders missing, the turn is
not played; each late pilot gets a lateness notice, the others a note of who
is late, once; late orders are taken until the grace period ends and the
turn is played as soon as they are all in, or when it ends.
"""

from __future__ import annotations

from datetime import timedelta

from tablekit import T0, Table, body_of

from pbmref.gm.seats import set_timezone
from pbmref.referee.turns import adjudicate_due

DEADLINE = T0 + timedelta(hours=48)
GRACE_END = DEADLINE + timedelta(hours=24)


def orders(table: Table, player: str) -> str:
    return "\n".join(["GAME zep1", f"PASSWORD {table.passwords[player]}", "PLANE",
                      "TAKEOFF BETA", "1: A", "2: A", "3: L", "END"])


def graced(table: Table) -> None:
    table.game().change_settings({"deadlines": {"grace": "24h"}})


def flat(text: str) -> str:
    return " ".join(text.split())


def test_late_players_are_told_and_the_others_learn_who_is_late_J10(table: Table) -> None:
    graced(table)
    set_timezone(table.game(), "cora", "Asia/Tokyo")  # J12: her notice in her own time
    table.send(orders(table, "anna"), sender="anna@example.org")
    table.clock.now = DEADLINE + timedelta(minutes=1)
    report = adjudicate_due(table.referee)
    assert report.adjudicated == []  # bert and cora are late: the turn waits
    notices = {str(m["To"]): (str(m["Subject"]), flat(body_of(m)))
               for m in table.new_outbox()}
    assert set(notices) == {"anna@example.org", "bert@example.org", "cora@example.org"}
    subject, text = notices["bert@example.org"]
    assert subject == "[zep1] your orders for turn 1 are late"
    assert ("the deadline of turn 1 passed at Tue 3 Mar 2026 12:00 UTC and the referee has "
            "no orders from you (rule J10). It waits for them until Wed 4 Mar 2026 12:00 UTC"
            in text)
    assert "Wed 4 Mar 2026 21:00 JST (Asia/Tokyo)" in notices["cora@example.org"][1]
    subject, text = notices["anna@example.org"]
    assert subject == "[zep1] waiting for late orders"
    assert "orders are missing from Bert, Cora (rule J10)" in text
    assert "example.org" not in text  # no address of anyone
    # told once: the next round sends nothing
    table.clock.now += timedelta(minutes=5)
    adjudicate_due(table.referee)
    assert table.new_outbox() == []
    # late orders are taken in the grace period; the last ones complete the turn
    out = table.send(orders(table, "bert"), sender="bert@example.org")
    assert "accepted" in body_of(out[0])
    out = table.send(orders(table, "cora"), sender="cora@example.org")
    assert "is being adjudicated now" in flat(body_of(out[0]))
    report = adjudicate_due(table.referee)
    assert [r.turn for r in report.adjudicated] == [1]


def test_when_the_grace_period_ends_the_turn_is_played_without_the_late(table: Table) -> None:
    graced(table)
    table.send(orders(table, "anna"), sender="anna@example.org")
    table.clock.now = DEADLINE + timedelta(minutes=1)
    adjudicate_due(table.referee)
    table.new_outbox()
    index = table.referee.store.index
    assert index.next_event(table.clock.now) == GRACE_END  # the daemon wakes then
    table.clock.now = GRACE_END - timedelta(minutes=1)
    assert adjudicate_due(table.referee).adjudicated == []
    table.clock.now = GRACE_END + timedelta(minutes=1)
    report = adjudicate_due(table.referee)
    assert [r.turn for r in report.adjudicated] == [1]
    # a mail after the grace period is too late, and says when it ended
    out = table.send(orders(table, "bert"), sender="bert@example.org",
                     arrived=GRACE_END + timedelta(seconds=30))
    assert "turn 2" in body_of(out[0])


def test_a_mail_after_the_grace_period_is_too_late(table: Table) -> None:
    graced(table)
    table.clock.now = GRACE_END + timedelta(minutes=2)
    out = table.send(orders(table, "bert"), sender="bert@example.org",
                     arrived=GRACE_END + timedelta(minutes=1))
    text = flat(body_of(out[0]))
    assert "after the deadline" in text or "too late" in text
    assert "Wed 4 Mar 2026 12:00 UTC" in text  # the end of the grace period


def test_early_adjudication_waits_for_the_minimum_gap_J9(table: Table) -> None:
    game = table.game()
    game.change_settings({"early_adjudication": True, "early_delay": "0m",  # played at once
                          "deadlines": {"min_gap": "30h"}})
    for pid in ("anna", "bert", "cora"):
        table.send(orders(table, pid), sender=f"{pid}@example.org")
    # turn 1 has no turn before it: played at once when every order is in
    first = adjudicate_due(table.referee)
    assert [r.turn for r in first.adjudicated] == [1]
    for pid in ("anna", "bert", "cora"):
        table.send("\n".join(["GAME zep1", f"PASSWORD {table.passwords[pid]}", "PLANE",
                              "1: A", "2: A", "3: A", "END"]), sender=f"{pid}@example.org")
    table.clock.now = T0 + timedelta(hours=29)
    assert adjudicate_due(table.referee).adjudicated == []  # less than 30h after turn 1
    table.clock.now = T0 + timedelta(hours=30)
    assert [r.turn for r in adjudicate_due(table.referee).adjudicated] == [2]
