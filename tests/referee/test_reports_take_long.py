"""A deadline's reports within the provider's limits (issue 44, item 9): the
reports the limits hold back wait in the outgoing spool and go at the next
runs; the game master is told once, ahead of the queue, when they will take
long to go out, and not again at the next run."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pbmref import gm
from pbmref.mail.outbox import read_maildir
from pbmref.referee.pipeline import Referee
from pbmref.referee.turns import adjudicate_due
from pbmref.store import GameStore
from refereekit import Clock, maildir_config

PLAYERS = ("anna", "bert", "cora", "dirk", "emma")
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _referee(tmp_path: Path, *, game_master: str = "gm@example.org", **limits: int) -> Referee:
    config = maildir_config(tmp_path, game_master=game_master, **limits)
    store = GameStore(config.games_dir)
    gm.new_game(store, "zep1", [gm.PlayerSpec(p, (f"{p}@example.org",)) for p in PLAYERS],
                seed=4, deadline=T0)
    return Referee(config, store=store, clock=Clock(T0 + timedelta(minutes=1)))


def test_the_game_master_is_told_once_and_first(tmp_path: Path) -> None:
    referee = _referee(tmp_path, recipients_per_day=3)
    first = adjudicate_due(referee)
    assert [r.game_id for r in first.adjudicated] == ["zep1"]
    went = read_maildir(tmp_path / "outbox")
    assert [str(m["To"]) for m in went][0] == "gm@example.org"
    notice = went[0].get_body(("plain",)).get_content()
    assert "zep1 turn 1" in notice and "3 recipients a day" in notice, notice
    assert len(went) == 3  # the notice and two reports: a day's three recipients
    assert len(referee.outgoing.queued()) == 3  # the other reports wait

    again = adjudicate_due(referee)  # the next cron run: still the same day
    assert again.sent == 0 and len(read_maildir(tmp_path / "outbox")) == 3
    assert len(referee.outgoing.queued()) == 3


def test_no_notice_when_the_reports_go_soon(tmp_path: Path) -> None:
    referee = _referee(tmp_path, send_per_minute=30)
    adjudicate_due(referee)
    went = read_maildir(tmp_path / "outbox")
    assert len(went) == len(PLAYERS)
    assert "gm@example.org" not in [str(m["To"]) for m in went]


def test_without_a_game_master_the_log_says_it(tmp_path: Path,
                                               caplog: pytest.LogCaptureFixture) -> None:
    referee = _referee(tmp_path, game_master="", recipients_per_day=2)
    adjudicate_due(referee)
    assert "take about 48h to go out (2 recipients a day)" in caplog.text
    assert len(read_maildir(tmp_path / "outbox")) == 2
