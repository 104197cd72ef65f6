"""The referee's promises (shared/spec/referee.md) on the local Maildir default."""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from typing import Any

import pytest
from tablekit import T0, Table, body_of

from pbmref import gm
from pbmref.referee.turns import adjudicate_due


def orders(table: Table, player: str = "anna", *lines: str, turn: int | None = None) -> str:
    head = ["GAME zep1", f"PASSWORD {table.passwords[player]}"]
    if turn is not None:
        head.append(f"TURN {turn}")
    return "\n".join([*head, *lines, "END", "", "-- ", "sent from my phone"])


def test_accepted_orders_are_stored_and_confirmed(table: Table) -> None:
    out = table.send(orders(table, "anna", "PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: L"))
    assert len(out) == 1
    reply = out[0]
    assert reply["To"] == "anna@example.org"
    assert reply["Subject"] == "Re: orders"
    assert reply["Auto-Submitted"] == "auto-replied"
    assert reply["X-Pbmref-Loop"] == "referee@test.invalid"
    assert reply["In-Reply-To"]
    text = body_of(reply)
    assert "accepted" in text and "TAKEOFF BETA" in text
    assert "Deadline: Tue 3 Mar 2026 12:00 UTC" in text
    assert table.game().book.entries()["anna"]["plane"] == ["A", "A", "L"]


def test_a_mail_with_an_error_changes_nothing(table: Table) -> None:
    table.send(orders(table, "anna", "PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: L"))
    out = table.send(orders(table, "anna", "PLANE", "TAKEOFF BETA", "1: A", "2: 0", "3: A"))
    text = body_of(out[0])
    assert "NOT accepted" in text and "M3" in text
    assert "earlier orders stay in force" in text
    assert table.game().book.entries()["anna"]["plane"] == ["A", "A", "L"]


def test_a_zeppelin_section_alone_keeps_the_plane_section(table: Table) -> None:
    table.send(orders(table, "anna", "PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: L"))
    table.send(orders(table, "anna", "ZEPPELIN", "1: L f-A", "2: A", "3: 0"))
    entry = table.game().book.entries()["anna"]
    assert entry["plane"] == ["A", "A", "L"] and entry["takeoff"] == "BETA"
    assert entry["zeppelin"][0] == "L f-A"


def test_wrong_password_is_answered_to_the_registered_address(table: Table) -> None:
    out = table.send("GAME zep1\nPASSWORD guess\nPLANE\nTAKEOFF BETA\n1: A\n2: A\n3: A\n",
                     headers={"Reply-To": "thief@evil.example"})
    assert len(out) == 1
    assert out[0]["To"] == "anna@example.org"
    assert "wrong or missing PASSWORD" in body_of(out[0])
    assert table.game().book.entries() == {}


def test_another_players_password_does_not_work(table: Table) -> None:
    body = f"GAME zep1\nPASSWORD {table.passwords['bert']}\nPLANE\nTAKEOFF BETA\n1: A\n2: A\n"
    out = table.send(body, sender="anna@example.org")
    assert "wrong or missing PASSWORD" in body_of(out[0])
    assert table.game().book.entries() == {}


def test_unknown_sender_is_told_how_to_join_once_a_day(table: Table) -> None:
    first = table.send("GAME zep1\nPLANE\n1: A\n", sender="stranger@example.net")
    assert len(first) == 1 and "is not\nregistered for any game" in body_of(first[0])
    assert table.send("hello again", sender="stranger@example.net") == []
    table.clock.now = T0 + timedelta(days=1, minutes=1)
    assert len(table.send("third time", sender="stranger@example.net")) == 1


@pytest.mark.parametrize("sender,headers", [
    ("MAILER-DAEMON@example.org", {}),
    ("anna@example.org", {"Auto-Submitted": "auto-replied"}),
    ("anna@example.org", {"Precedence": "bulk"}),
    ("anna@example.org", {"X-Pbmref-Loop": "referee@test.invalid"}),
    ("referee@test.invalid", {}),
])
def test_never_answered(table: Table, sender: str, headers: dict[str, str]) -> None:
    assert table.send(orders(table, "anna", "PLANE", "TAKEOFF BETA", "1: A", "2: A"),
                      sender=sender, headers=headers) == []
    assert table.game().book.entries() == {}


def test_stale_turn_is_refused(table: Table) -> None:
    out = table.send(orders(table, "anna", "PLANE", "TAKEOFF BETA", "1: A", "2: A", turn=6))
    assert "turn 1 is open" in body_of(out[0])
    assert table.game().book.entries() == {}


def test_mail_after_the_deadline_is_too_late(table: Table) -> None:
    late = T0 + timedelta(hours=49)
    table.clock.now = late
    out = table.send(orders(table, "anna", "PLANE", "TAKEOFF BETA", "1: A", "2: A"),
                     arrived=late)
    assert "after the deadline" in body_of(out[0])
    assert table.game().book.entries() == {}


def test_mail_that_reached_the_server_in_time_counts(table: Table) -> None:
    """The daemon was down: cron takes the mail in first, judged by arrival time."""
    table.clock.now = T0 + timedelta(hours=49)
    table.send(orders(table, "anna", "PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: A"),
               arrived=T0 + timedelta(hours=47))
    assert table.game().book.entries()["anna"]["plane"] == ["A", "A", "A"]


def test_clear_withdraws_and_orders_shows(table: Table) -> None:
    table.send(orders(table, "anna", "PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: L"))
    out = table.send(orders(table, "anna", "CLEAR"))
    assert "withdrawn" in body_of(out[0])
    assert "anna" not in table.game().book.entries()
    out = table.send(orders(table, "anna", "ORDERS"))
    assert "none yet" in body_of(out[0])


def test_status_never_reveals_orders(table: Table) -> None:
    table.send(orders(table, "bert", "PLANE", "TAKEOFF GAMMA", "1: A", "2: A", "3: RS"),
               sender="bert@example.org")
    out = table.send(orders(table, "anna", "STATUS", "MAP", "HELP"))
    text = body_of(out[0])
    assert "received" in text and "waiting" in text and "How to send orders" in text
    assert "TAKEOFF GAMMA" not in text and "3: RS" not in text
    assert "bert@example.org" not in text


def test_the_subject_alone_may_name_the_game(table: Table) -> None:
    body = f"PASSWORD {table.passwords['anna']}\nPLANE\nTAKEOFF BETA\n1: A\n2: A\n3: A\n"
    out = table.send(body, subject="Re: [zep1] turn 1 report")
    assert "accepted" in body_of(out[0])


def test_a_repeated_message_id_is_handled_once(table: Table) -> None:
    body = orders(table, "anna", "PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: A")
    assert len(table.send(body, message_id="<same@example.org>")) == 1
    assert table.send(body, message_id="<same@example.org>") == []
    assert len(list((table.game().dir / "turns" / "001" / "orders").glob("anna*"))) == 1


def test_a_mail_that_crashes_the_referee_is_set_aside_and_answered(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("simulated fault")

    monkeypatch.setattr(type(table.referee), "handle", boom)
    body = orders(table, "anna", "PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: A")
    out = table.send(body)
    for _ in range(3):
        table.referee.process_spool()
    table.referee.deliver(force=True)
    out += table.new_outbox()
    shunted = table.referee.incoming.shunted()
    assert len(shunted) == 1 and "simulated fault" in shunted[0][1]
    assert len(out) == 1 and "set aside" in body_of(out[0])
    assert table.referee.incoming.pending() == []


def test_a_mail_whose_reading_crashes_is_spooled_first_and_set_aside_whole(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 41, item 3: the spool reads a mail's few headers from its bytes and
    # the mail is parsed once, when it is handled: spool then process
    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("simulated parser fault")

    monkeypatch.setattr("pbmref.referee.pipeline.read_message", boom)
    body = orders(table, "anna", "PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: A")
    table.send(body, message_id="<parse-me@example.org>")
    for _ in range(3):
        table.referee.process_spool()
    shunted = table.referee.incoming.shunted()
    assert [(e.message_id, e.sender) for e, _ in shunted] == [
        ("<parse-me@example.org>", "anna@example.org")]
    assert "simulated parser fault" in shunted[0][1]
    assert b"TAKEOFF BETA" in shunted[0][0].raw()
    assert table.referee.incoming.pending() == []


def test_the_game_master_is_told_once_of_each_mail_set_aside(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 44, item 7: set-aside mail is the GM's to hear about, once
    config = table.referee.config
    table.referee.config = dataclasses.replace(config, referee=dataclasses.replace(
        config.referee, game_master="gm@example.org"))

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("simulated fault")

    monkeypatch.setattr(type(table.referee), "handle", boom)
    table.send(orders(table, "anna", "PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: A"),
               message_id="<poison@example.org>")
    for _ in range(5):
        table.referee.process_spool()
    table.referee.deliver(force=True)
    notices = [m for m in table.new_outbox() if m["To"] == "gm@example.org"]
    assert [m["Subject"] for m in notices] == ["[pbmref] 1 mail set aside after a fault"]
    text = body_of(notices[0])
    assert "<poison@example.org>" in text and "simulated fault" in text
    assert "pbmref mail retry" in text
    assert table.passwords["anna"] not in text


def test_deadline_adjudicates_once_and_mails_every_player(table: Table) -> None:
    table.send(orders(table, "anna", "PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: A"))
    table.clock.now = T0 + timedelta(hours=48, minutes=1)
    first = adjudicate_due(table.referee, table.intake)
    second = adjudicate_due(table.referee, table.intake)
    assert [r.turn for r in first.adjudicated] == [1]
    assert second.adjudicated == []
    reports = [m for m in table.new_outbox() if "turn 1 report" in m["Subject"]]
    assert sorted(m["To"] for m in reports) == [
        "anna@example.org", "bert@example.org", "cora@example.org"]
    assert any(p.get_content_type() == "image/png" for p in reports[0].walk())
    assert table.game().turn == 2
    out = table.send(orders(table, "anna", "PLANE", "1: A", "2: A", turn=1))
    assert "already been adjudicated" in body_of(out[0])


def test_a_computer_pilot_stands_in_for_a_replaced_player(table: Table) -> None:
    gm.replace_player(table.store, "zep1", "cora", computer=True)
    table.clock.now = T0 + timedelta(hours=48, minutes=1)
    adjudicate_due(table.referee, table.intake)
    played = table.store.open("zep1").book.entries(1)
    assert "cora" in played and played["cora"]


def test_a_broken_game_stops_only_itself(table: Table) -> None:
    gm.new_game(table.store, "other", [gm.PlayerSpec("dirk", ("dirk@example.org",)),
                                       gm.PlayerSpec("erik", ("erik@example.org",))],
                seed=3, deadline=T0 + timedelta(hours=1), now=T0)
    settings = table.store.path("zep1") / "game.yaml"
    settings.write_text(settings.read_text().replace("ruleset:", "ruleset: [", 1))
    out = table.send("GAME zep1\nPASSWORD x\nPLANE\n1: A\n")
    assert "needs" in body_of(out[0]) and "attention" in body_of(out[0])
    table.clock.now = T0 + timedelta(hours=49)
    report = adjudicate_due(table.referee, table.intake)
    assert "zep1" in report.broken and "game.yaml" in report.broken["zep1"]
    assert [r.game_id for r in report.adjudicated] == ["other"]


def test_reminder_goes_once_to_those_without_orders(table: Table) -> None:
    table.send(orders(table, "anna", "PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: A"))
    table.clock.now = T0 + timedelta(hours=40)
    adjudicate_due(table.referee, None)
    adjudicate_due(table.referee, None)
    reminders = [m for m in table.new_outbox() if "reminder" in m["Subject"]]
    assert sorted(m["To"] for m in reminders) == ["bert@example.org", "cora@example.org"]


def test_the_round_answering_a_mail_in_the_reminder_window_reminds_the_others(
        table: Table) -> None:
    """Issue 40 (a flaky serve test): inside the reminder window the daemon's round
    that answers anna's orders also reminds bert and cora, in the same round; so
    bert, answered later, holds two mails from the referee: the reminder, then
    the reply to his orders. Neither is a double."""
    table.clock.now = T0 + timedelta(hours=40)  # reminder_hours 12: the window is open
    table.deliver(table.mail(orders(table, "anna", "PLANE", "TAKEOFF BETA", "1: A", "2: A")))
    adjudicate_due(table.referee, table.intake)  # a round of `pbmref serve`
    table.referee.deliver(force=True)
    first = [(m["To"], m["Subject"]) for m in table.new_outbox()]
    assert first == [("anna@example.org", "Re: orders"),
                     ("bert@example.org", "[zep1] reminder: orders for turn 1"),
                     ("cora@example.org", "[zep1] reminder: orders for turn 1")]
    table.deliver(table.mail(orders(table, "bert", "PLANE", "TAKEOFF BETA", "1: A", "2: A"),
                             sender="bert@example.org"))
    adjudicate_due(table.referee, table.intake)
    table.referee.deliver(force=True)
    assert [(m["To"], m["Subject"]) for m in table.new_outbox()] == [
        ("bert@example.org", "Re: orders")]  # no second reminder


def test_a_kicked_player_is_told_so(table: Table) -> None:
    gm.kick(table.store, "zep1", "bert")
    out = table.send(orders(table, "bert", "PLANE", "TAKEOFF BETA", "1: A", "2: A"),
                     sender="bert@example.org")
    assert len(out) == 1 and "removed you from game zep1" in body_of(out[0])
    assert "bert" not in table.game().book.entries()


def test_a_subject_that_names_no_game_here_gets_no_body_wins_note(table: Table) -> None:
    out = table.send(orders(table, "anna", "PLANE", "TAKEOFF BETA", "1: A", "2: A"),
                     subject="orders (utf-8)")
    text = body_of(out[0])
    assert "accepted" in text and "Note:" not in text


def test_a_failure_notice_that_fails_is_logged_and_the_round_goes_on(
        table: Table, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Issue 15, item 1: a mail whose handling fails at every try, and whose "set
    aside" notice fails too (a reply that cannot be written), ended the whole round
    at its third try. Now the round goes on: the good mail behind it is answered."""
    from pbmref.referee.pipeline import Referee

    poison = "<poison@example.org>"
    unencodable = UnicodeEncodeError("utf-8", "x\ud800", 1, 2, "surrogates not allowed")
    real_handle, real_reply = Referee.handle, Referee.reply

    def handle(self: Referee, mail: Any, raw: bytes, **kw: Any) -> Any:
        if mail.message_id == poison:
            raise unencodable
        return real_handle(self, mail, raw, **kw)

    def reply(self: Referee, mail: Any, *args: Any, **kw: Any) -> Any:
        if mail.message_id == poison:
            raise unencodable
        return real_reply(self, mail, *args, **kw)

    monkeypatch.setattr(Referee, "handle", handle)
    monkeypatch.setattr(Referee, "reply", reply)
    assert table.send(orders(table, "anna", "STATUS"), message_id=poison) == []  # 1st try
    table.referee.process_spool()  # 2nd try
    # the 3rd try, in the same round as bert's good mail
    out = table.send(orders(table, "bert", "STATUS"), sender="bert@example.org")
    assert [str(m["To"]) for m in out] == ["bert@example.org"]
    assert "your orders in force" in body_of(out[0])
    assert len(table.referee.incoming.shunted()) == 1
    assert "could not tell anna@example.org" in caplog.text
    assert table.referee.incoming.pending() == []


# A quoted local part is the same mailbox as the bare one when what it quotes
# is a plain word (RFC 5322 3.2.4, 3.4.1); anything else is another mailbox,
# and the answer goes there, never to the registered player (issue 40); an
# address with a space in it gets no answer at all (as before).
QUOTED_SENDERS = [
    # (From header, the player it is, where the answer goes)
    ('"anna"@example.org', "anna", "anna@example.org"),
    ('Anna <"anna"@example.org>', "anna", "anna@example.org"),
    ('"ANNA"@Example.org', "anna", "anna@example.org"),
    ('"anna@example.org"@evil.test', None, '"anna@example.org"@evil.test'),
    ('"anna"@example.org.', None, None),
    ('"anna example.org"@example.org', None, None),
]


@pytest.mark.parametrize("sender,player,answered", QUOTED_SENDERS,
                         ids=[s for s, _, _ in QUOTED_SENDERS])
def test_a_quoted_local_part_is_read_as_rfc_5322_reads_it(
        table: Table, sender: str, player: str | None, answered: str | None) -> None:
    mail = table.mail(orders(table, "anna", "PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: L"))
    mail = mail.replace(b"From: anna@example.org", b"From: " + sender.encode())
    out = table.send_raw(mail)
    if answered is None:
        assert out == [] and table.game().book.entries() == {}
        return
    (reply,) = out
    assert reply["To"].addresses[0].addr_spec.lower() == answered.lower()
    text = body_of(reply)
    if player is None:
        assert "not\nregistered for any game" in text
        assert table.game().book.entries() == {}
    else:
        assert "accepted" in text
        assert table.game().book.entries()[player]["plane"] == ["A", "A", "L"]


def test_a_game_line_with_dots_after_the_name_is_no_game(table: Table) -> None:
    """Issue 40: ``GAME zep1..`` was read as game zep1 and the orders taken."""
    body = orders(table, "anna", "PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: L")
    (reply,) = table.send(body.replace("GAME zep1", "GAME zep1.."))
    text = body_of(reply)
    assert "NOT accepted" in text and "zep1.. is not a game name" in text, text
    assert table.game().book.entries() == {}
