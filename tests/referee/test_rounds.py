"""A round of the referee touches the games the mail names and the games that are
due, nothing else (issue 20); a game master's edit by hand is seen at the next
round."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from tablekit import T0, Table, body_of

from pbmref import gm
from pbmref.referee.turns import adjudicate_due
from pbmref.store import Game


def _edit(table: Table, old: str, new: str) -> None:
    path = table.store.path("zep1") / "game.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def _orders(table: Table, player: str, game_line: bool = True) -> str:
    head = ["GAME zep1"] if game_line else []
    return "\n".join([*head, f"PASSWORD {table.passwords[player]}", "PLANE", "TAKEOFF BETA",
                      "1: A", "2: A", "3: L", "END"])


def test_an_address_added_by_hand_is_known_at_the_next_round(table: Table) -> None:
    table.send(_orders(table, "anna"))  # the referee has looked at the games once
    _edit(table, "[anna@example.org]", "[anna@example.org, anna@work.example]")
    out = table.send(_orders(table, "anna", game_line=False), sender="anna@work.example")
    assert len(out) == 1 and "accepted" in body_of(out[0])
    assert out[0]["To"] == "anna@work.example"


def test_a_deadline_moved_by_hand_is_adjudicated_at_the_next_round(table: Table) -> None:
    assert adjudicate_due(table.referee).adjudicated == []
    table.clock.now = T0 + timedelta(hours=1)
    _edit(table, "deadline: '2026-03-03T12:00:00+00:00'",
          "deadline: '2026-03-01T12:30:00+00:00'")
    report = adjudicate_due(table.referee)
    assert [r.game_id for r in report.adjudicated] == ["zep1"]


def _more_games(table: Table, n: int) -> None:
    for i in range(n):
        gm.new_game(table.store, f"other{i:02d}", [
            gm.PlayerSpec(p, (f"{p}{i}@example.net",), p) for p in ("dora", "emil")],
            seed=i, deadline=T0 + timedelta(hours=48), early_adjudication=False,
            reminder_hours=0, now=T0)


def _opens_in_round(table: Table, monkeypatch: pytest.MonkeyPatch, body: str,
                    sender: str) -> list[str]:
    opened: list[str] = []
    real = Game.reload

    def reload(self: Game) -> None:
        opened.append(self.id)
        real(self)

    table.send(_orders(table, "anna"))  # a round behind it: the index is built
    reads = table.store.index.reads
    monkeypatch.setattr(Game, "reload", reload)
    table.send(body, sender=sender)
    monkeypatch.undo()
    assert table.store.index.reads - reads <= 1, "the round read games it did not need"
    return opened


@pytest.mark.parametrize("others", [2, 25])
def test_a_strangers_mail_opens_no_game(table: Table, monkeypatch: pytest.MonkeyPatch,
                                        others: int) -> None:
    _more_games(table, others)
    opened = _opens_in_round(table, monkeypatch, "Hello, can I play?", "new@elsewhere.org")
    assert opened == []


@pytest.mark.parametrize("others", [2, 25])
def test_an_order_mail_opens_only_its_game(table: Table, monkeypatch: pytest.MonkeyPatch,
                                           others: int) -> None:
    _more_games(table, others)
    opened = _opens_in_round(table, monkeypatch, _orders(table, "bert"), "bert@example.org")
    assert opened and set(opened) == {"zep1"}


def test_reminded_games_are_not_opened_again(table: Table,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    table.clock.now = T0 + timedelta(hours=40)  # within the 12 h reminder window
    assert adjudicate_due(table.referee).reminders == 3
    opened: list[Any] = []
    monkeypatch.setattr(Game, "reload", lambda self: opened.append(self.id))
    assert adjudicate_due(table.referee).reminders == 0
    assert opened == []


def test_rendering_the_archive_again_rewrites_only_what_changed(table: Table) -> None:
    """``pbmref render`` run again leaves the pages that did not change alone."""
    from pbmref.archive import write_archive

    table.send(_orders(table, "anna"))
    table.clock.now = T0 + timedelta(hours=49)
    assert adjudicate_due(table.referee).adjudicated
    out = table.root / "arch"
    first = write_archive(table.game(), out)
    assert {p.name for p in first} == {"index.html", "turn-001.html"}
    index_stamp = (out / "index.html").stat().st_mtime_ns
    assert write_archive(table.game(), out) == []
    (out / "turn-001.html").write_text("spoiled", encoding="utf-8")
    assert [p.name for p in write_archive(table.game(), out)] == ["turn-001.html"]
    assert (out / "index.html").stat().st_mtime_ns == index_stamp


@pytest.mark.parametrize("job", ["cron", "daemon"])
def test_orders_that_reach_the_server_while_the_deadline_job_takes_in_mail_count(
        table: Table, monkeypatch: pytest.MonkeyPatch, job: str) -> None:
    """The deadline passes while the deadline job is still answering the mail it
    took in (a slow round, a backlog after the daemon was down): a mail that
    reached the server meanwhile, before the deadline, still counts for the
    turn (shared/spec/referee.md, "Deadlines and turns"). Before, the turn was
    adjudicated without it, and its sender told it came too late."""
    from pbmref.referee.daemon import Daemon
    from pbmref.referee.pipeline import Referee

    deadline = T0 + timedelta(hours=48)
    table.clock.now = deadline - timedelta(minutes=2)
    table.deliver(table.mail(_orders(table, "anna"), sender="anna@example.org"))
    real = Referee.handle
    late: list[int] = []

    def slow(self: Referee, *args: Any, **kwargs: Any) -> Any:
        if not late:  # while the first mail is answered: Bert's arrives, then the deadline
            late.append(1)
            table.deliver(table.mail(_orders(table, "bert"), sender="bert@example.org"),
                          arrived=deadline - timedelta(seconds=30))
            table.clock.now = deadline + timedelta(minutes=1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Referee, "handle", slow)
    if job == "cron":
        adjudicate_due(table.referee, table.intake)
    else:
        Daemon(table.referee, table.intake).round()
    played = table.game().history.result(1)
    assert played is not None and sorted(played["orders"]) == ["anna", "bert"]
    answers = {str(m["To"]): body_of(m) for m in table.new_outbox() if m["In-Reply-To"]}
    assert "accepted" in answers["bert@example.org"]
