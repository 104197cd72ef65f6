"""Crash loop on the real servers: the daemon (``pbmref serve``, its own process
group) is killed with SIGKILL at random (seeded) moments while 200 mails arrive
and cron runs (``pbmref adjudicate --due``) happen: one before the deadlines, one
while the daemon is down over a deadline, one racing the daemon after the other
deadline; it is restarted each time. At the end every order is stored once,
every mail answered (at most one duplicate per kill, none lost), and each game
advanced exactly once per deadline (shared/spec/referee.md, "Mail" and
"Deadlines and turns"). Also: Dovecot and the SMTP relay going down under a
running daemon."""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from crashkit import (
    DaemonProcess,
    as_utc,
    cron,
    order_mail,
    replies_by_origin,
    reply_texts,
    stored_message_ids,
    turn_history,
    wait_for,
)
from hardkit import PASSWORDS, set_passwords

from pbmref import gm
from pbmref.config import load_config
from pbmref.store import GameStore

real_servers = [pytest.mark.integration, pytest.mark.slow]

SEED = 20261130
MAILS = 200
GAMES = {"crash-a": 30, "crash-b": 50}  # game -> seconds from the start to its deadline
PLAYERS = {"crash-a": [f"p{i:03d}" for i in range(0, 5)],
           "crash-b": [f"p{i:03d}" for i in range(5, 10)]}
FIGURES: dict[str, Any] = {}


def _body(rng: random.Random, game: str, password: str) -> str:
    kind = rng.random()
    if kind < 0.55:
        moves = " ".join(rng.choice(["L", "R", "A"]) for _ in range(1))
        return (f"GAME {game}\nPASSWORD {password}\nPLANE\nTAKEOFF BETA\n1: A\n2: A\n"
                f"3: {moves}\nEND\n")
    if kind < 0.75:
        return f"GAME {game}\nPASSWORD {password}\nSTATUS\nORDERS\nEND\n"
    if kind < 0.9:
        return f"GAME {game}\nPASSWORD not-{password}\nPLANE\n1: A\nEND\n"
    return f"GAME {game}\nPASSWORD {password}\nPLANE\n1: Q Q Q\nEND\n"


@real_servers[0]
@real_servers[1]
def test_sigkill_at_random_moments_loses_nothing(hard_servers: Any, tmp_path: Path) -> None:
    ms = hard_servers
    rng = random.Random(SEED)
    ref = ms.fresh_user("crashref")
    config_path = ms.write_config(tmp_path / "ref", user=ref)
    config = load_config(config_path)
    store = GameStore(config.games_dir)
    start = datetime.now(UTC)
    passwords = {}
    for game, seconds in GAMES.items():
        players = [gm.PlayerSpec(p, (ms.address(p),), p) for p in PLAYERS[game]]
        made = gm.new_game(store, game, players, seed=rng.randrange(1, 10**6),
                           deadline=start + timedelta(seconds=seconds), turn_length="1m",
                           early_adjudication=False, reminder_hours=0)
        pw = {p: f"{p}-{game}-pw" for p in PLAYERS[game]}
        set_passwords(store, game, pw)
        passwords.update({(game, p): v for p, v in pw.items()})
        del made
    assert PASSWORDS  # (the corpus passwords are not used here)
    before = {p: len(ms.fetch_all(p)) for g in PLAYERS.values() for p in g}

    log = tmp_path / "daemon.log"
    daemon = DaemonProcess(config_path, log)
    daemon.start()
    sent: dict[str, str] = {}  # Message-ID -> player
    # Mails with a wrong password: a player is warned once an hour, and from the
    # fifth on gets one summary (issue 15, item 3), so not each of them is answered.
    wrong: dict[str, tuple[str, str]] = {}  # Message-ID -> game, player
    orders_sent: dict[str, tuple[str, datetime]] = {}  # valid orders: Message-ID -> game, when
    done = threading.Event()

    def sender() -> None:
        srng = random.Random(SEED + 1)
        for i in range(MAILS):
            game = srng.choice(list(GAMES))
            player = srng.choice(PLAYERS[game])
            mid = f"<crash-{i:03d}-{player}@players.test>"
            body = _body(srng, game, passwords[(game, player)])
            ms.send(ms.address(player), [ms.address(ref)],
                    order_mail(ms.address(player), ms.address(ref), mid, body))
            sent[mid] = player
            if "PASSWORD not-" in body:
                wrong[mid] = (game, player)
            if "TAKEOFF" in body and "not-" not in body:
                orders_sent[mid] = (game, datetime.now(UTC))
            time.sleep(0.3)
        done.set()

    def unanswered(answers: Counter[str]) -> list[str]:
        """The mails that lack the reply they are owed: each one with the right
        password, and for each (game, player) that got wrong ones, one of those."""
        owed = [m for m in sent if m not in wrong and answers[m] == 0]
        warned = {wrong[m] for m in wrong if answers[m] >= 1}
        owed += sorted({m for m, who in wrong.items() if who not in warned})
        return owed

    crons: list[int] = []
    guard = threading.Lock()  # one of the threads at a time kills or starts the daemon
    held_down = threading.Event()

    def at(seconds: float) -> None:
        time.sleep(max(0.0, (start + timedelta(seconds=seconds) - datetime.now(UTC))
                       .total_seconds()))

    def cron_runs() -> None:
        at(20)  # before any deadline: nothing to adjudicate
        crons.append(cron(config_path, tmp_path / "cron.log"))
        # the daemon is down over crash-a's deadline: cron adjudicates it, after
        # taking in the mail that reached the server while the daemon was down
        at(GAMES["crash-a"] - 4)
        with guard:
            held_down.set()
            daemon.kill()
        at(GAMES["crash-a"] + 2)
        crons.append(cron(config_path, tmp_path / "cron.log"))
        with guard:
            held_down.clear()
            daemon.start()
        at(GAMES["crash-b"] + 6)  # crash-b's deadline passed with the daemon up
        crons.append(cron(config_path, tmp_path / "cron.log"))

    threads = [threading.Thread(target=sender), threading.Thread(target=cron_runs)]
    for t in threads:
        t.start()
    try:
        while not done.is_set():
            time.sleep(rng.uniform(1.5, 5.0))
            with guard:
                if held_down.is_set():
                    continue
                daemon.kill()
            time.sleep(rng.uniform(0.0, 0.8))
            with guard:
                if not held_down.is_set():
                    daemon.start()
        for t in threads:
            t.join(timeout=300)

        def boxes() -> dict[str, list[bytes]]:
            return {p: ms.fetch_all(p)[before[p]:] for p in before}

        def all_answered() -> bool:
            answers, _ = replies_by_origin(boxes())
            return unanswered(answers) == []

        assert wait_for(all_answered, timeout=180, step=2.0), "some mails were never answered"
        # stop away from a deadline, so the last one passed is surely adjudicated
        for game in GAMES:
            open_deadline = store.open(game).settings.deadline
            assert open_deadline is not None
            gap = (open_deadline - datetime.now(UTC)).total_seconds()
            if -8 < gap < 8:
                time.sleep(gap + 8)
        time.sleep(3)
    finally:
        stop_status = daemon.stop()
    stopped_at = datetime.now(UTC)

    answers, reports = replies_by_origin(boxes())
    lost = unanswered(answers)
    duplicates = sum(max(0, answers[m] - 1) for m in sent)
    report_dupes = sum(n - 1 for n in reports.values() if n > 1)
    stored = stored_message_ids(config.games_dir)
    twice = {m: n for m, n in stored.items() if n > 1}
    FIGURES.update(kills=daemon.kills, mails=len(sent), duplicates=duplicates,
                   report_duplicates=report_dupes, crons=crons, lost=len(lost),
                   stored=len(stored))
    print(f"crash loop: {FIGURES}")

    assert len(sent) == MAILS and lost == []
    assert wrong and any(answers[m] == 0 for m in wrong), "the test sent no flood"
    # orders that reached the server before their game's deadline were used, also
    # those that waited while the daemon was down (judged by arrival time)
    texts = reply_texts(boxes())
    for mid, (game, when) in orders_sent.items():
        if when < start + timedelta(seconds=GAMES[game] - 1):
            assert "your orders are accepted" in texts[mid][0], (mid, texts[mid][0][:200])
            assert stored[mid] == 1, mid
    assert duplicates + report_dupes <= daemon.kills, FIGURES
    assert twice == {}, f"Message-IDs stored twice: {twice}"
    assert all(c in (0, 1) for c in crons) and len(crons) == 3
    assert "crash-a: turn 1 adjudicated" in (tmp_path / "cron.log").read_text(), (
        "cron did not adjudicate the game whose deadline passed while the daemon was down")
    assert stop_status in (0, -15)
    for game in GAMES:
        game_dir = config.games_dir / game
        history = turn_history(game_dir)
        assert history, f"{game} was never adjudicated"
        deadline = as_utc(start + timedelta(seconds=GAMES[game]))
        for record in history:
            assert as_utc(record["adjudicated_at"]) >= deadline, (game, record["turn"])
            deadline = as_utc(record["next_deadline"])
        assert [r["turn"] for r in history] == list(range(1, len(history) + 1))
        assert deadline > stopped_at - timedelta(seconds=8), f"{game}: a deadline was missed"
        assert not list(game_dir.glob("turns/*/*.replaced-*")), "a turn was written twice"
        # every player got each turn's report (a duplicate only through a kill)
        for player in PLAYERS[game]:
            for record in history:
                subject = [s for (p, s), _ in reports.items()
                           if p == player and f"[{game}] turn {record['turn']} report" in s]
                assert subject, f"{player} got no report of {game} turn {record['turn']}"
    assert not list((config.spool_dir / "in" / "shunt").iterdir()), "mail was set aside"
    assert ms.count(ref) == 0, "mail left in the referee's INBOX"


@real_servers[0]
@real_servers[1]
def test_server_outages_lose_nothing(hard_servers: Any, tmp_path: Path) -> None:
    """Dovecot crashes (its process group killed) and the SMTP relay stops for a
    while, both under a running daemon: every mail is still answered once."""
    ms = hard_servers
    ref = ms.fresh_user("outref")
    config_path = ms.write_config(tmp_path / "ref", user=ref)
    config = load_config(config_path)
    store = GameStore(config.games_dir)
    players = [f"p{i:03d}" for i in range(10, 14)]
    made = gm.new_game(store, "outage", [gm.PlayerSpec(p, (ms.address(p),), p) for p in players],
                       seed=5, deadline=datetime.now(UTC) + timedelta(hours=2),
                       early_adjudication=False, reminder_hours=0)
    before = {p: len(ms.fetch_all(p)) for p in players}
    daemon = DaemonProcess(config_path, tmp_path / "daemon.log")
    daemon.start()
    sent: dict[str, str] = {}

    def send_some(n: int, tag: str) -> None:
        for i in range(n):
            player = players[i % len(players)]
            mid = f"<outage-{tag}-{i}@players.test>"
            body = (f"GAME outage\nPASSWORD {made.passwords[player]}\nPLANE\nTAKEOFF BETA\n"
                    "1: A\n2: A\n3: A\nEND\n")
            ms.send(ms.address(player), [ms.address(ref)],
                    order_mail(ms.address(player), ms.address(ref), mid, body))
            sent[mid] = player

    def boxes() -> dict[str, list[bytes]]:
        return {p: ms.fetch_all(p)[before[p]:] for p in players}

    try:
        send_some(10, "a")
        time.sleep(2)
        ms.kill_imap()  # Dovecot crashes mid-stream
        time.sleep(3)
        ms.start_imap()
        send_some(10, "b")
        ms.stop_smtp()  # replies cannot go out for a while ...
        time.sleep(6)
        ms.start_smtp()  # ... and are sent on the spool's retry
        send_some(10, "c")
        assert wait_for(lambda: all(replies_by_origin(boxes())[0][m] >= 1 for m in sent),
                        timeout=240, step=2.0), "some mails were never answered"
    finally:
        ms.start_imap()
        ms.start_smtp()
        daemon.stop()
    answers, _ = replies_by_origin(boxes())
    assert {m: answers[m] for m in sent} == {m: 1 for m in sent}
    assert max(stored_message_ids(config.games_dir).values()) == 1
    assert ms.count(ref) == 0


def test_daemon_and_cron_share_what_they_did(tmp_path: Path) -> None:
    """The daemon and a cron run each hold the referee's small state (reminders sent,
    reply budgets, join notes); neither repeats what the other already did."""
    from hardkit import T0, make_table

    from pbmref.referee.pipeline import Referee
    from pbmref.referee.turns import adjudicate_due

    table = make_table(tmp_path)
    table.store.open("zep1").change_settings({"reminder_hours": 12})
    daemon = table.referee
    cron_run = Referee(daemon.config, store=table.store, clock=table.clock)
    table.clock.now = T0 + timedelta(hours=40)
    assert adjudicate_due(cron_run, None).reminders == 3
    assert adjudicate_due(daemon, None).reminders == 0  # cron reminded them already
    stranger = ("From: someone@example.net\r\nTo: referee@test.invalid\r\n"
                "Subject: hi\r\nMessage-ID: <{n}@example.net>\r\n\r\nhello\r\n")
    from pbmref.mail.base import RawMail

    for n, referee in enumerate((cron_run, daemon)):
        referee.incoming.save(RawMail(f"k{n}", stranger.format(n=n).encode(), table.clock()))
        referee.process_spool()
    assert len(daemon.outgoing.queued()) == 1  # one join note, not two
