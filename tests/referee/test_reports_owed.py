"""Every adjudicated turn's reports reach every reader exactly once (issue 40,
item 1), whatever kills the referee between the adjudication and the mailing,
and however many turns are played before it runs again. A turn owes its
reports from the moment it is adjudicated (``reports-owed.yaml``, on disk
before the turn's ``result.yaml``) until they are in the outgoing spool;
finding the games that owe reports reads no other game, and a referee that
lost its own bookkeeping mails nothing again. A report that cannot go out for
a long time is told to the game master, once."""

from __future__ import annotations

import shutil
from collections import Counter
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from tablekit import T0, Table, body_of

from pbmref import gm
from pbmref.mail import spool as spool_module
from pbmref.mail.base import PermanentFailure, TemporaryFailure
from pbmref.mail.outbox import read_maildir
from pbmref.referee import turns
from pbmref.referee.pipeline import Referee
from pbmref.referee.turns import adjudicate_due
from pbmref.store import Game, GameStore

PLAYERS = ("anna", "bert", "cora")
TURN = timedelta(hours=48)
STUCK_CHECK = turns.STUCK_CHECK_EVERY


class Killed(BaseException):
    """The referee's process ends here (no ``except Exception`` stops it)."""


def _restart(table: Table, **config: Any) -> Referee:
    """A new referee process on the same folders (the old one's memory gone)."""
    cfg = table.referee.config
    if config:
        from dataclasses import replace
        cfg = replace(cfg, referee=replace(cfg.referee, **config))
    table.referee = Referee(cfg, store=GameStore(cfg.games_dir,
                                                 index_file=cfg.spool_dir / "games-index.json"),
                            clock=table.clock)
    table.store = table.referee.store
    return table.referee


def _killed_before_the_reports(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """A deadline passes; the referee adjudicates the game and dies before it
    queues a single report."""
    table.clock.now += TURN
    with monkeypatch.context() as mp:
        def dying(*args: object, **kwargs: object) -> int:
            raise Killed("killed after the adjudication")
        mp.setattr(turns, "queue_report", dying)
        with pytest.raises(Killed):
            adjudicate_due(_restart(table), table.intake)


def _reports(table: Table) -> Counter[tuple[str, str]]:
    """(reader, subject) -> how many copies the outbox holds."""
    return Counter((str(m["To"]).split("@")[0], str(m["Subject"]))
                   for m in read_maildir(table.root / "outbox")
                   if str(m["Subject"]).endswith(" report"))


def _every_report_once(table: Table, turns_played: int) -> None:
    wanted = Counter({(p, f"[zep1] turn {t} report"): 1
                      for p in PLAYERS for t in range(1, turns_played + 1)})
    if table.store.open("zep1").settings.status == "finished":  # its final report too (J14)
        wanted.update({(p, "[zep1] final report"): 1 for p in PLAYERS})
    assert _reports(table) == wanted


@pytest.mark.parametrize("lost_runs", [1, 2])
def test_reports_of_turns_adjudicated_by_killed_runs_go_out_after_the_next_turn(
        table: Table, monkeypatch: pytest.MonkeyPatch, lost_runs: int) -> None:
    """The referee dies between adjudicating and mailing, ``lost_runs`` deadlines
    in a row; the next run plays the next turn and mails every turn's reports.
    (Before, only the latest turn's were looked for: the others were lost.)"""
    for _ in range(lost_runs):
        _killed_before_the_reports(table, monkeypatch)
    assert _reports(table) == Counter()
    table.clock.now += TURN
    report = adjudicate_due(_restart(table), table.intake)
    assert [r.turn for r in report.adjudicated] == [lost_runs + 1]
    table.referee.deliver(force=True)
    _every_report_once(table, lost_runs + 1)
    adjudicate_due(_restart(table), table.intake)  # and never again
    table.referee.deliver(force=True)
    _every_report_once(table, lost_runs + 1)
    assert not (table.store.path("zep1") / "reports-owed.yaml").exists()


def test_the_final_report_follows_the_last_turns_reports_owed_by_a_killed_run(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """The run that plays the game's last turn dies before its reports; the
    next run mails every turn's reports and then the final report (J14), once.
    (Before, the final report was queued only by the run that ended the game.)"""
    for _ in range(3):
        _killed_before_the_reports(table, monkeypatch)
    assert table.store.open("zep1").settings.status == "finished"
    adjudicate_due(_restart(table), table.intake)
    table.referee.deliver(force=True)
    _every_report_once(table, 3)
    assert ("anna", "[zep1] final report") in _reports(table)
    adjudicate_due(_restart(table), table.intake)  # and never again
    table.referee.deliver(force=True)
    _every_report_once(table, 3)


def test_a_turn_owes_its_reports_on_disk_before_its_result(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """The record that a turn's reports are owed is written, and flushed, before
    the turn's ``result.yaml``: whatever stops the referee after the turn is
    adjudicated, the record is there."""
    from pbmref.base import files

    game_dir = table.store.path("zep1")
    seen: list[tuple[str, bool]] = []
    real = files.write_new

    def watching(path: Path | str, data: str | bytes) -> Path:
        if Path(path).name == "result.yaml":
            seen.append(("result", (game_dir / "reports-owed.yaml").is_file()))
        return real(path, data)

    monkeypatch.setattr("pbmref.store.history.write_new", watching)
    _killed_before_the_reports(table, monkeypatch)
    assert seen == [("result", True)]
    assert "1" in (game_dir / "reports-owed.yaml").read_text()


def test_a_referee_that_lost_its_bookkeeping_mails_no_report_again(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three turns played and mailed; then the referee's state files and the
    spool's records of what it sent are gone (deleted, or past their
    retention). The next run mails nothing: what is owed is in the game
    folder, not in the referee's bookkeeping. (Before, the latest turn's
    reports went out again.)"""
    for _ in range(3):
        table.clock.now += TURN
        adjudicate_due(_restart(table), table.intake)
    table.referee.deliver(force=True)
    _every_report_once(table, 3)
    spool = table.referee.config.spool_dir
    for path in spool.glob("referee-state*"):
        path.unlink()
    shutil.rmtree(spool / "out")
    adjudicate_due(_restart(table), table.intake)
    table.referee.deliver(force=True)
    _every_report_once(table, 3)


def _other_games(table: Table, n: int) -> None:
    for i in range(n):
        gm.new_game(table.store, f"other{i:02d}", [
            gm.PlayerSpec(p, (f"{p}{i}@example.net",), p) for p in ("dora", "emil")],
            seed=i, deadline=T0 + TURN, turn_length="48h", early_adjudication=False,
            reminder_hours=0, now=T0)


@pytest.mark.parametrize("state_lost", [False, True], ids=["state kept", "state lost"])
def test_looking_for_owed_reports_opens_only_the_games_that_owe_them(
        table: Table, monkeypatch: pytest.MonkeyPatch, state_lost: bool) -> None:
    """Cost follows the work: with six games played two turns and mailed, a new
    referee process (its own bookkeeping kept, or lost) opens no game to look
    for reports owed; with one game's reports owed, it opens that one."""
    _other_games(table, 5)
    for _ in range(2):
        table.clock.now += TURN
        adjudicate_due(_restart(table), table.intake)
    if state_lost:
        for path in table.referee.config.spool_dir.glob("referee-state*"):
            path.unlink()
    opened: list[str] = []
    real = Game.reload

    def reload(self: Game) -> None:
        opened.append(self.id)
        real(self)

    monkeypatch.setattr(Game, "reload", reload)
    referee = _restart(table)
    assert turns.queue_owed_reports(referee) == 0
    assert opened == []
    table.clock.now += TURN
    elsewhere = GameStore(table.store.dir)  # a run that adjudicated all six, mailed none
    for gid in ["zep1", *(f"other{i:02d}" for i in range(5))]:
        assert gm.adjudicate(elsewhere, gid, table.clock()) is not None
    opened.clear()
    referee = _restart(table)
    assert turns.queue_owed_reports(referee) == 3 + 5 * 2
    assert sorted(set(opened)) == ["other00", "other01", "other02", "other03", "other04",
                                   "zep1"]
    opened.clear()
    assert turns.queue_owed_reports(referee) == 0
    assert opened == []


def test_a_turn_whose_commit_was_cut_short_owes_nothing(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """The referee dies after noting the turn's reports owed but before the turn's
    ``result.yaml``: the turn is not adjudicated, so no report of it goes out;
    it is adjudicated at the next run, and its reports go then, once."""
    from pbmref.store import history

    table.clock.now += TURN
    real = history.write_new

    def dying(path: Path | str, data: str | bytes) -> Path:
        if Path(path).name == "result.yaml":
            raise Killed("killed before the result")
        return real(path, data)

    with monkeypatch.context() as mp:
        mp.setattr(history, "write_new", dying)
        with pytest.raises(Killed):
            adjudicate_due(_restart(table), table.intake)
    assert (table.store.path("zep1") / "reports-owed.yaml").is_file()
    assert turns.queue_owed_reports(_restart(table)) == 0
    adjudicate_due(table.referee, table.intake)
    table.referee.deliver(force=True)
    _every_report_once(table, 1)


class Refusing:
    """The outbox, but every report fails (for now, or ``for_good``)."""

    def __init__(self, sender: Any, *, for_good: bool = False) -> None:
        self.sender, self.for_good = sender, for_good

    def send(self, msg: EmailMessage) -> None:
        if str(msg["Subject"]).endswith(" report"):
            raise (PermanentFailure if self.for_good else TemporaryFailure)("mailbox full")
        self.sender.send(msg)


def _gm_notices(table: Table) -> list[EmailMessage]:
    return [m for m in read_maildir(table.root / "outbox")
            if str(m["To"]) == "gm@example.org"]


@pytest.mark.parametrize("for_good", [False, True], ids=["stuck in the queue", "failed"])
def test_a_report_that_cannot_go_out_is_told_to_the_game_master_once(
        table: Table, monkeypatch: pytest.MonkeyPatch, for_good: bool) -> None:
    """Reports the server refuses for good, or that wait in the queue for
    ``turns.STUCK_AFTER``, are told to the game master in one notice naming
    each reader; the next checks tell nothing again, and a report stuck later
    waits for the next notice (at most one each ``turns.NOTICE_EVERY``)."""
    referee = _restart(table, game_master="gm@example.org")
    referee.sender = Refusing(referee.sender, for_good=for_good)
    table.clock.now += TURN
    adjudicate_due(referee, table.intake)
    assert _gm_notices(table) == []  # not yet: just queued, or just failed
    later = spool_module.entries._now() + turns.STUCK_AFTER + timedelta(minutes=1)
    monkeypatch.setattr(spool_module.outgoing, "_now", lambda: later)
    table.clock.now += STUCK_CHECK
    adjudicate_due(referee, table.intake)
    (notice,) = _gm_notices(table)
    text = body_of(notice)
    assert "zep1" in notice["Subject"]
    for player in PLAYERS:
        assert f"{player}@example.org" in text
    assert "turn 1" in text and "mailbox full" in text
    table.clock.now += STUCK_CHECK
    adjudicate_due(_restart(table, game_master="gm@example.org"), table.intake)
    assert len(_gm_notices(table)) == 1  # told once
    # the next turn's reports stick too: told at the next notice, not before
    table.referee.sender = Refusing(table.referee.sender, for_good=for_good)
    table.clock.now += STUCK_CHECK
    adjudicate_due(table.referee, table.intake, games=["zep1"], force=True)
    later += turns.STUCK_AFTER + timedelta(minutes=1)
    table.clock.now += STUCK_CHECK
    adjudicate_due(table.referee, table.intake)
    assert len(_gm_notices(table)) == 1  # within NOTICE_EVERY of the first
    table.clock.now += turns.NOTICE_EVERY
    adjudicate_due(table.referee, table.intake)
    notices = _gm_notices(table)
    assert len(notices) == 2 and "turn 2" in body_of(notices[1])
    assert "turn 1" not in body_of(notices[1])
