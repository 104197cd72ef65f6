"""Soak on the real servers: 20 games, 120 players, mail arriving all the time and
deadlines every two minutes, for PBMREF_SOAK_SECONDS (default 600). The daemon's
memory stays flat (RSS from /proc, last third against first third), it leaks no
file handles (/proc/PID/fd), and every reply and report is delivered.

Shorten it while developing: ``PBMREF_SOAK_SECONDS=60 pytest tests/hardening/test_soak.py``.
"""

from __future__ import annotations

import os
import random
import statistics
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from crashkit import (
    DaemonProcess,
    order_mail,
    process_fds,
    process_rss_kb,
    replies_by_origin,
    turn_history,
    wait_for,
)

from pbmref import gm
from pbmref.config import load_config
from pbmref.store import GameStore

pytestmark = [pytest.mark.integration, pytest.mark.slow]

SECONDS = float(os.environ.get("PBMREF_SOAK_SECONDS", "600"))
GAMES = 20
PER_GAME = 6
RATE = 2.0  # mails a second, all games together
RSS_TOLERANCE = 1.25  # last third's median RSS at most this times the first third's ...
RSS_SLACK_KB = 12_000  # ... plus this (allocator noise, caches filling)
FD_SLACK = 4
FIGURES: dict[str, Any] = {}


def _first_deadline(g: int) -> int:
    """Seconds from the start to game ``g``'s first deadline: staggered, so that
    some game reaches its deadline every 6 seconds."""
    return 60 + 6 * g


def _body(rng: random.Random, game: str, password: str) -> str:
    kind = rng.random()
    if kind < 0.5:
        return (f"GAME {game}\nPASSWORD {password}\nPLANE\nTAKEOFF BETA\n1: A\n2: A\n3: A\n"
                "END\n")
    if kind < 0.7:
        return f"GAME {game}\nPASSWORD {password}\nPLANE\n1: A\n2: L\n3: A\nEND\n"
    if kind < 0.9:
        return f"GAME {game}\nPASSWORD {password}\nSTATUS\nEND\n"
    return f"GAME {game}\nPASSWORD {password}\nMAP\nORDERS\nEND\n"


def test_soak_memory_and_handles_stay_flat(hard_servers: Any, tmp_path: Path) -> None:
    ms = hard_servers
    ref = ms.fresh_user("soakref")
    config_path = ms.write_config(tmp_path / "ref", user=ref)
    config = load_config(config_path)
    store = GameStore(config.games_dir)
    start = datetime.now(UTC)
    players: dict[str, list[str]] = {}
    passwords: dict[str, str] = {}
    for g in range(GAMES):
        game = f"soak{g:02d}"
        players[game] = [f"p{g * PER_GAME + i:03d}" for i in range(PER_GAME)]
        made = gm.new_game(
            store, game, [gm.PlayerSpec(p, (ms.address(p),), p) for p in players[game]],
            seed=g + 1, turn_length="2m", early_adjudication=False, reminder_hours=0,
            # staggered: some game reaches its deadline every 6 seconds
            deadline=start + timedelta(seconds=_first_deadline(g)))
        passwords.update(made.passwords)
    before = {p: len(ms.fetch_all(p)) for ps in players.values() for p in ps}

    daemon = DaemonProcess(config_path, tmp_path / "daemon.log")
    daemon.start()
    samples: list[tuple[float, int, int]] = []  # (seconds, rss kB, open fds)
    sent: dict[str, str] = {}
    stop = threading.Event()

    def sender() -> None:
        srng = random.Random(601)
        n = 0
        t0 = time.monotonic()
        while not stop.is_set():
            game = srng.choice(list(players))
            player = srng.choice(players[game])
            mid = f"<soak-{n:05d}-{player}@players.test>"
            body = _body(srng, game, passwords[player])
            ms.send(ms.address(player), [ms.address(ref)],
                    order_mail(ms.address(player), ms.address(ref), mid, body))
            sent[mid] = player
            n += 1
            time.sleep(max(0.0, t0 + n / RATE - time.monotonic()))

    thread = threading.Thread(target=sender)
    thread.start()
    t_start = time.monotonic()
    try:
        while time.monotonic() - t_start < SECONDS:
            assert daemon.proc is not None and daemon.proc.poll() is None, "the daemon died"
            samples.append((time.monotonic() - t_start, process_rss_kb(daemon.pid),
                            process_fds(daemon.pid)))
            time.sleep(max(1.0, SECONDS / 120))
        stop.set()
        thread.join(timeout=60)

        def boxes() -> dict[str, list[bytes]]:
            return {p: ms.fetch_all(p)[before[p]:] for p in before}

        def all_answered() -> bool:
            answers, _ = replies_by_origin(boxes())
            return all(answers[m] >= 1 for m in sent)

        answered = wait_for(all_answered, timeout=240, step=3.0)
        samples.append((time.monotonic() - t_start, process_rss_kb(daemon.pid),
                        process_fds(daemon.pid)))
    finally:
        stop.set()
        daemon.stop()

    answers, reports = replies_by_origin(boxes())
    third = max(1, len(samples) // 3)
    first, last = samples[:third], samples[-third:]
    rss_first = statistics.median(s[1] for s in first)
    rss_last = statistics.median(s[1] for s in last)
    # Handles at rest: the fewest open in each third. A sample taken while the
    # daemon is sending or holds a lock counts a few more for a moment; a leak
    # raises the count it returns to, so the least one is what must stay flat.
    fd_first, fd_last = min(s[2] for s in first), min(s[2] for s in last)
    turns = {g: len(turn_history(config.games_dir / g)) for g in players}
    FIGURES.update(seconds=SECONDS, mails=len(sent), samples=len(samples),
                   rss_first_kb=rss_first, rss_last_kb=rss_last,
                   rss_ratio=round(rss_last / rss_first, 3), rss_max_kb=max(s[1] for s in samples),
                   rss_trend_kb=[samples[min(len(samples) - 1, i * len(samples) // 5)][1]
                                 for i in range(6)],
                   fd_first=fd_first, fd_last=fd_last, fd_max=max(s[2] for s in samples),
                   turns_adjudicated=sum(turns.values()),
                   reports=sum(reports.values()))
    print(f"soak: {FIGURES}")
    (tmp_path / "samples.txt").write_text("".join(f"{t:.1f} {r} {f}\n" for t, r, f in samples))

    assert answered, f"{sum(1 for m in sent if answers[m] == 0)} mails never answered"
    assert len(sent) >= RATE * SECONDS * 0.8
    assert rss_last <= rss_first * RSS_TOLERANCE + RSS_SLACK_KB, FIGURES
    assert fd_last <= fd_first + FD_SLACK, FIGURES
    # every adjudicated turn's report reached each of the game's players
    for g, (game, ps) in enumerate(players.items()):
        history = turn_history(config.games_dir / game)
        if _first_deadline(g) + 10 < SECONDS:  # (a short soak ends before some deadlines)
            assert history, f"{game} was never adjudicated"
        for record in history:
            for p in ps:
                assert any(pl == p and s == f"[{game}] turn {record['turn']} report"
                           for (pl, s) in reports), f"{p} lacks {game} turn {record['turn']}"
    assert not list((config.spool_dir / "in" / "shunt").iterdir()), "mail was set aside"
    assert not list((config.spool_dir / "out" / "failed").iterdir()), "mail failed to go out"
