"""The daemon killed between a turn's adjudication and its reports, on the real
servers (issue 40, item 1): the next turn is played before the daemon is
started again (a mail completes the orders while it is down, or the next
deadline passes and cron plays it), and every report of every turn reaches
every player exactly once (shared/spec/referee.md, "Deadlines and turns").
Before, the first turn's reports were never mailed: the recovery looked
only at the latest turn."""

from __future__ import annotations

import email
import email.policy
import signal
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from crashkit import DaemonProcess, as_utc, cron, order_mail, wait_for

from pbmref import gm
from pbmref.config import load_config
from pbmref.store import GameStore

pytestmark = [pytest.mark.integration, pytest.mark.slow]

GAME = "killrep"


class Site:
    """A referee mailbox, three players' and one game on the real servers."""

    def __init__(self, ms: Any, root: Path, *, early: bool, deadline: datetime) -> None:
        self.ms = ms
        self.ref = ms.fresh_user("killref")
        self.players = [ms.fresh_user("kp") for _ in range(3)]
        self.config_path = ms.write_config(root / "ref", user=self.ref)
        self.config = load_config(self.config_path)
        self.store = GameStore(self.config.games_dir)
        made = gm.new_game(self.store, GAME, [
            gm.PlayerSpec(p, (ms.address(p),), p, airfield=field)
            for p, field in zip(self.players, ("N", "SE", "SW"), strict=True)],
            seed=40, deadline=deadline, turn_length="1m", early_adjudication=early,
            reminder_hours=0)
        if early:  # played as soon as the orders are in, no delay for changes (issue 43)
            self.store.open(GAME).change_settings({"early_delay": "0"})
        self.passwords = made.passwords
        self.sent: list[str] = []
        self.log = root / "daemon.log"

    def orders(self, turn: int) -> None:
        """Every player's orders for ``turn``, through the SMTP relay."""
        moves = "TAKEOFF BETA\n1: A\n2: A\n3: L\n" if turn == 1 else "1: L\n2: L\n3: L\n"
        for p in self.players:
            mid = f"<{GAME}-{turn}-{p}@players.test>"
            body = f"GAME {GAME}\nPASSWORD {self.passwords[p]}\nPLANE\n{moves}END\n"
            self.ms.send(self.ms.address(p), [self.ms.address(self.ref)],
                         order_mail(self.ms.address(p), self.ms.address(self.ref), mid, body))
            self.sent.append(mid)

    def adjudicated(self, turn: int) -> datetime | None:
        """When ``turn`` was adjudicated (None: not yet)."""
        result = self.store.open(GAME).history.result(turn)
        return None if result is None else as_utc(result["adjudicated_at"])

    def mail(self) -> tuple[Counter[str], Counter[tuple[str, str]]]:
        """(replies by the mail they answer, reports by (player, subject))."""
        answers: Counter[str] = Counter()
        reports: Counter[tuple[str, str]] = Counter()
        for p in self.players:
            for raw in self.ms.fetch_all(p):
                msg = email.message_from_bytes(raw, policy=email.policy.default)
                if msg["In-Reply-To"]:
                    answers[str(msg["In-Reply-To"])] += 1
                elif str(msg["Subject"]).endswith(" report"):
                    reports[(p, str(msg["Subject"]))] += 1
        return answers, reports


def _killed_after_adjudicating(site: Site, daemon: DaemonProcess) -> datetime:
    """Wait for the daemon to kill itself right after adjudicating turn 1; when
    turn 1 was adjudicated."""
    assert daemon.proc is not None
    assert daemon.proc.wait(timeout=180) == -signal.SIGKILL, site.log.read_text()[-3000:]
    adjudicated = site.adjudicated(1)
    assert adjudicated is not None
    assert not any(s.endswith("turn 1 report") for _, s in site.mail()[1]), "mailed at once"
    return adjudicated


def _after(moment: datetime) -> None:
    """Until the server's clock, which stamps a mail's arrival to the whole second,
    is past ``moment`` (a mail stamped in the second of the adjudication would be
    taken for one that came before it)."""
    assert wait_for(lambda: datetime.now(UTC) >= moment.replace(microsecond=0)
                    + timedelta(seconds=1), timeout=5, step=0.05)


@pytest.mark.parametrize("next_turn", ["mail while down", "deadline while down"])
def test_every_report_of_every_turn_arrives_once_after_a_kill_between_adjudication_and_reports(
        hard_servers: Any, tmp_path: Path, next_turn: str) -> None:
    early = next_turn == "mail while down"
    site = Site(hard_servers, tmp_path, early=early,
                deadline=datetime.now(UTC) + (timedelta(days=2) if early
                                              else timedelta(seconds=15)))
    killed = DaemonProcess(site.config_path, site.log, kill_at="after-adjudication")
    killed.start()
    site.orders(1)  # turn 1: every player's orders (early adjudication), or its deadline
    adjudicated = _killed_after_adjudicating(site, killed)
    if early:  # a mail that completes turn 2's orders arrives while the daemon is down
        _after(adjudicated)
        site.orders(2)
        daemon = DaemonProcess(site.config_path, site.log)
        daemon.start()  # its first round answers them and plays turn 2
    else:  # turn 2's deadline passes while it is down: cron plays it
        deadline = site.store.open(GAME).settings.deadline
        assert deadline is not None
        assert wait_for(lambda: datetime.now(UTC) > deadline, timeout=90, step=0.5)
        assert cron(site.config_path, tmp_path / "cron.log") == 0
        assert site.adjudicated(2) is not None, (tmp_path / "cron.log").read_text()
        daemon = DaemonProcess(site.config_path, site.log)
        daemon.start()
    wanted = Counter({(p, f"[{GAME}] turn {t} report"): 1 for p in site.players
                      for t in (1, 2)})
    try:
        assert wait_for(lambda: set(site.mail()[1]) >= set(wanted), timeout=120, step=0.5), (
            site.mail()[1], site.log.read_text()[-3000:])
    finally:
        daemon.stop()  # the round in progress ends: nothing is sent after this
    answers, reports = site.mail()
    # (turn 3's deadline may pass on a slow machine: its reports are not asked about)
    assert Counter({k: n for k, n in reports.items() if k in wanted}) == wanted
    assert {m: answers[m] for m in site.sent} == dict.fromkeys(site.sent, 1)
    owed = site.config.games_dir / GAME / "reports-owed.yaml"
    assert not owed.exists() or "turns: [3]" in owed.read_text()
