"""The referee killed at each step of answering a round of mail (issue 20).

A round's mails are answered together: their orders and replies reach the disk
in one flush, the replies join the outgoing queue, the mails are noted answered,
marked handled on the server and moved to ``done``. Here the referee dies at
each of those steps (an exception no handler catches, as a SIGKILL would stop
it there), a new one starts on the same folders, and every mail is still
answered exactly once and its orders stored once (shared/spec/referee.md,
"Mail"). Only a death between sending a reply and recording it may send that
one reply twice.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from tablekit import Table, body_of

from pbmref.base import files
from pbmref.mail.maildir_in import MaildirIntake
from pbmref.mail.outbox import read_maildir
from pbmref.mail.spool import IncomingSpool, OutgoingSpool
from pbmref.referee.pipeline import Referee
from pbmref.store import GameStore

PLAYERS = ("anna", "bert", "cora")


class Killed(BaseException):
    """The referee's process ends here (no ``except Exception`` stops it)."""


def _die_on_call(target: Any, name: str, call: int = 1,
                 when: Callable[..., bool] = lambda *a, **k: True) -> Callable[..., Any]:
    real = getattr(target, name)
    seen = [0]

    def dying(*args: Any, **kwargs: Any) -> Any:
        if when(*args, **kwargs):
            seen[0] += 1
            if seen[0] == call:
                raise Killed(f"killed in {name}")
        return real(*args, **kwargs)
    return dying


def _mails(table: Table) -> list[str]:
    """Deliver one order mail of each player; their Message-IDs."""
    from email.message import EmailMessage
    from email.utils import format_datetime, make_msgid

    ids = []
    for player in PLAYERS:
        msg = EmailMessage()
        msg["From"] = f"{player}@example.org"
        msg["To"] = "referee@test.invalid"
        msg["Subject"] = "orders"
        msg["Date"] = format_datetime(table.clock())
        msg["Message-ID"] = make_msgid(domain="example.org")
        msg.set_content(f"GAME zep1\nPASSWORD {table.passwords[player]}\nPLANE\n"
                        "TAKEOFF BETA\n1: A\n2: A\n3: L\nEND\n")
        key = table.intake.deliver(msg.as_bytes())
        stamp = table.clock().timestamp()  # arrived now, by the table's clock
        os.utime(table.intake.root / "new" / key, (stamp, stamp))
        ids.append(str(msg["Message-ID"]))
    return ids


def _restart(table: Table) -> tuple[Referee, MaildirIntake]:
    """A new referee process on the same folders."""
    config = table.referee.config
    return (Referee(config, store=GameStore(config.games_dir), clock=table.clock),
            MaildirIntake(config.mail.maildir.inbox))


def _check(table: Table, ids: list[str], *, duplicates: int = 0) -> None:
    referee, intake = _restart(table)
    referee.take_in(intake)
    referee.deliver(force=True)
    replies = read_maildir(table.root / "outbox")
    answers = Counter(str(m["In-Reply-To"]) for m in replies)
    assert all(answers[m] >= 1 for m in ids), f"a mail was never answered: {answers}"
    assert sum(answers[m] - 1 for m in ids) <= duplicates, f"answered twice: {answers}"
    texts = [body_of(m) for m in replies]
    assert all("accepted" in t for t in texts), texts
    orders = sorted(p.name for p in (table.store.path("zep1") / "turns" / "001" /
                                     "orders").iterdir())
    assert orders == [f"{p}.yaml" for p in PLAYERS], "orders stored more than once"
    spool = referee.incoming
    assert spool.pending() == [] and spool.shunted() == []
    assert list((table.intake.root / "new").iterdir()) == [], "a mail left in the inbox"
    assert referee.outgoing.queued() == []


STEPS: dict[str, Callable[[pytest.MonkeyPatch], None]] = {
    "while answering the second mail": lambda mp: mp.setattr(
        Referee, "handle", _die_on_call(Referee, "handle", call=2)),
    "at the round's flush to disk": lambda mp: mp.setattr(
        files._Together, "flush", _die_on_call(files._Together, "flush")),
    "as the replies join the queue": lambda mp: mp.setattr(
        OutgoingSpool, "_staged_commit", _die_on_call(OutgoingSpool, "_staged_commit", 2)),
    "before the first mail is noted answered": lambda mp: mp.setattr(
        Referee, "_finish_entry", _die_on_call(Referee, "_finish_entry")),
    "after marking a mail handled, before done": lambda mp: mp.setattr(
        IncomingSpool, "done", _die_on_call(IncomingSpool, "done", call=2)),
}


@pytest.mark.parametrize("step", list(STEPS))
def test_killed_while_answering_a_round(table: Table, monkeypatch: pytest.MonkeyPatch,
                                        step: str) -> None:
    ids = _mails(table)
    STEPS[step](monkeypatch)
    with pytest.raises(Killed):
        table.referee.take_in(table.intake)
    monkeypatch.undo()
    _check(table, ids)


def test_killed_after_the_replies_went_out_before_the_mails_are_marked(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """The daemon sends as soon as the replies are queued: dying before it marks
    the mails handled answers nothing twice (the replies are keyed)."""
    ids = _mails(table)
    monkeypatch.setattr(Referee, "_finish_entry", _die_on_call(Referee, "_finish_entry"))
    with pytest.raises(Killed):
        table.referee.take_in(table.intake, send=True)
    monkeypatch.undo()
    assert len(read_maildir(table.root / "outbox")) == 3  # out before it died
    _check(table, ids)


def test_killed_between_sending_a_reply_and_recording_it(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """The one step where a death may cost a duplicate (never a loss)."""
    ids = _mails(table)
    monkeypatch.setattr(OutgoingSpool, "_move", _die_on_call(
        OutgoingSpool, "_move", when=lambda self, entry, state: state == "sent"))
    with pytest.raises(Killed):
        table.referee.take_in(table.intake, send=True)
    monkeypatch.undo()
    _check(table, ids, duplicates=1)


def test_a_mail_handled_again_spends_no_more_of_the_reply_budget(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """Killed before its replies joined the queue, the round is handled again: the
    budget its first try counted is not spent a second time (else a player near
    the mail-loop limit would get no answer at all)."""
    from pbmref.referee import pipeline

    monkeypatch.setattr(pipeline, "REPLY_BUDGET", 1)  # one reply an hour to each address
    ids = _mails(table)
    monkeypatch.setattr(files._Together, "flush", _die_on_call(files._Together, "flush"))
    with pytest.raises(Killed):
        table.referee.take_in(table.intake)
    monkeypatch.setattr(files._Together, "flush", files._Together.flush)
    _check(table, ids)
