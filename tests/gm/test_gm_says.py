"""Output that says what happened (issue 46, item 7): serve --once counts the
replies it wrote, a new spool is not announced, a deadline the referee sets
after a missed one is a whole hour of the game's clock, render says what it
drew and how long it took, long commands show progress on a terminal only."""

from __future__ import annotations

import io
import logging
import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from gmkit import House

from pbmref.cli.progress import Progress
from pbmref.store.deadlines import DeadlineRules, next_deadline


def test_serve_once_counts_the_replies_it_wrote(house: House,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    house.new_game()
    house.mail("anna@example.org", "[zep1] STATUS", "STATUS")
    house.mail("bert@example.org", "[zep1] HELP", "HELP")
    with caplog.at_level(logging.INFO, logger="pbmref"):
        ran = house.run("serve", "--once", "--quiet")
    assert ran.code == 0, ran
    assert len(house.outbox()) == 2
    assert "handled 2 mail(s), adjudicated 0 turn(s), sent 2 mail(s)" in ran.out  # was: sent 0
    # the first run on a new spool: no migration, no issue numbers, to the GM
    said = ran.out + ran.err + caplog.text
    assert not re.search(r"migrat|issue \d", said, re.IGNORECASE), said


@pytest.mark.parametrize("zone", ["Europe/Amsterdam", "Asia/Kolkata", "America/St_Johns"])
def test_a_missed_deadline_gives_a_whole_hour_of_the_games_clock(zone: str) -> None:
    now = datetime(2026, 12, 8, 19, 13, 7, 520000, tzinfo=UTC)
    missed = now - timedelta(days=3)
    new = next_deadline(DeadlineRules(), missed, timedelta(hours=48), now, ZoneInfo(zone))
    local = new.astimezone(ZoneInfo(zone))
    assert (local.minute, local.second, local.microsecond) == (0, 0, 0), local
    assert timedelta(hours=48) <= new - now < timedelta(hours=49)
    kept = next_deadline(DeadlineRules(), now - timedelta(hours=1), timedelta(hours=48), now,
                         ZoneInfo(zone))
    assert kept == now + timedelta(hours=47)  # a deadline still ahead keeps its own time


def test_adjudicating_a_game_past_its_deadline_sets_a_round_deadline(house: House) -> None:
    house.new_game("new-game", "zep1", "--player", "anna:anna@example.org:Anna",
                   "--player", "bert:bert@example.org:Bert", "--timezone", "Asia/Kolkata",
                   "--deadline", "2026-01-01T10:17")
    assert house.run("adjudicate", "zep1", "--force").code == 0
    status = house.run("status", "zep1").out
    assert re.search(r"deadline \w+ \d+ \w+ \d{4} \d\d:00 IST", status), status


def test_render_says_what_it_drew_and_how_long_it_took(house: House) -> None:
    house.new_game()
    assert house.run("adjudicate", "zep1", "--force").code == 0
    ran = house.run("render", "zep1")
    assert re.fullmatch(r"zep1: drew 1 turn page and index\.html in archive/zep1/ "
                        r"\(\d+\.\d s\)\n", ran.out), ran.out
    assert ran.err == ""  # not a terminal: no progress
    again = house.run("render", "zep1")
    assert re.fullmatch(r"zep1: nothing changed, 1 turn page and index\.html up to date "
                        r"in archive/zep1/ \(\d+\.\d s\)\n", again.out), again.out


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_shown_on_a_terminal_and_wiped() -> None:
    terminal = Terminal()
    shown = Progress("render dip1", terminal)
    for n in (1, 2, 3):
        shown.turn(n, 3)
    shown.done()
    said = terminal.getvalue()
    assert "render dip1: turn 3 of 3" in said
    assert said.endswith("\r")  # the line wiped: what follows starts at the margin
    pipe = io.StringIO()
    quiet = Progress("render dip1", pipe)  # cron, a pipe
    quiet.turn(1, 3)
    quiet.done()
    assert pipe.getvalue() == ""
