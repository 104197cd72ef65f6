"""The one window where a kill sends a reply twice (issue 40, item 2), on the
real servers: inside the SMTP transaction of that reply, once the server has
it and before the referee has recorded it sent (the server's "250" on its
way, or read and not yet written down). The referee cannot learn afterwards
whether the server kept the mail, so the restarted referee sends the very
same message again (the same Message-ID): a duplicate of that one reply,
never a loss, never a second, different reply. A kill just before the
reply's data goes costs nothing. Every duplicate of the kill loops of issue
40 (SIGKILLs at random moments, with the daemon's trace) was a kill inside
such a transaction."""

from __future__ import annotations

import email
import email.policy
import signal
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from crashkit import DaemonProcess, order_mail, wait_for

from pbmref import gm
from pbmref.config import load_config
from pbmref.store import GameStore

pytestmark = [pytest.mark.integration, pytest.mark.slow]


@pytest.mark.parametrize(("point", "twice"), [("before-smtp", 0), ("after-smtp", 1)])
def test_a_reply_goes_twice_only_when_the_kill_falls_inside_its_smtp_transaction(
        hard_servers: Any, tmp_path: Path, point: str, twice: int) -> None:
    ms = hard_servers
    ref = ms.fresh_user("smtpref")
    players = [ms.fresh_user("sp") for _ in range(3)]
    config_path = ms.write_config(tmp_path / "ref", user=ref)
    made = gm.new_game(GameStore(load_config(config_path).games_dir), "inflight", [
        gm.PlayerSpec(p, (ms.address(p),), p) for p in players], seed=2,
        deadline=datetime.now(UTC) + timedelta(days=2), early_adjudication=False,
        reminder_hours=0)
    sent = []
    for p in players:
        mid = f"<inflight-{p}@players.test>"
        body = (f"GAME inflight\nPASSWORD {made.passwords[p]}\nPLANE\nTAKEOFF BETA\n"
                "1: A\n2: A\n3: L\nEND\n")
        ms.send(ms.address(p), [ms.address(ref)],
                order_mail(ms.address(p), ms.address(ref), mid, body))
        sent.append(mid)
    assert ms.wait_count(ref, 3) == 3
    log = tmp_path / "daemon.log"
    killed = DaemonProcess(config_path, log, kill_at=point)
    killed.start()
    assert killed.proc is not None and killed.proc.wait(timeout=120) == -signal.SIGKILL

    def replies() -> list[tuple[str, str]]:
        out = []
        for p in players:
            for raw in ms.fetch_all(p):
                msg = email.message_from_bytes(raw, policy=email.policy.default)
                out.append((str(msg["In-Reply-To"]), str(msg["Message-ID"])))
        return out

    daemon = DaemonProcess(config_path, log)
    daemon.start()
    try:
        assert wait_for(lambda: {m for m, _ in replies()} >= set(sent), timeout=120), (
            log.read_text()[-3000:])
    finally:
        daemon.stop()  # the round in progress ends: nothing is sent after this
    got = replies()
    answers = Counter(m for m, _ in got)
    assert sorted(answers.values()) == [1, 1, 1 + twice]
    assert len(set(got)) == 3, "a mail got two different replies"
