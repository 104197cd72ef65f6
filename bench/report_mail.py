"""Report mails: how much each weighs, and what a deadline costs (issue 43, item 1).

    .venv/bin/python bench/report_mail.py [ROUNDS] [--profile]

Two measures, printed one line each:

1. The weight of a report mail, per ruleset: the bytes of every report mail
   a player receives (as written into the outbox), median and largest, from
   the demonstration games through the real referee (tweedekker: 6 turns of
   the six-pilot demo; Diplomacy and Dirigible Diplomacy: their first 4
   phases) and the Fast Play turn the screenshots show (six pilots in a
   dogfight). Goals: at most 150 KB for tweedekker and Fast Play, 250 KB for
   a Diplomacy phase.
2. A deadline's CPU per game against the engine alone on the same turn: the
   tweedekker demo played to turn 5, every pilot's orders for turn 6 stored;
   then, on a fresh copy of that folder each round, ``adjudicate_due`` for
   that one game as the deadline job runs it (adjudicate, record, the report
   of every reader drawn and composed, queued and delivered into the outbox
   Maildir) in our own CPU time (``time.process_time``: the disk's flushes
   are not counted), against the engine alone (``Ruleset.run_engine`` on the
   same decoded state and typed orders). Medians of ``ROUNDS`` rounds (default
   7), after one round that warms the process up. Goal: at most 100x.
   Each round draws its pictures on the grounds the round before kept (the
   board, its airfields and names: ``pbmref.mail.picture``), as a turn in
   play does on the grounds of the turn before, or of the game before in the
   same run (the weather is drawn with the turn). A second line gives the
   deadline with nothing kept (the first game a process draws), a third the
   three turns after it played one after the other, each on the grounds of
   the turn before.

``--profile`` prints where one round's CPU goes (cProfile, by own time).
"""

from __future__ import annotations

import cProfile
import email
import email.policy
import pstats
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from pbmref.demo import GAME_ID, Clock, demo_config, run_demo
from pbmref.referee.pipeline import Referee
from pbmref.referee.turns import adjudicate_due
from pbmref.rules.dice import Dice
from pbmref.rulesets.air.ruleset import AirRuleset
from pbmref.store import GameStore

GOALS = {"tweedekker": 150_000, "fastplay": 150_000, "diplomacy": 250_000,
         "dirigible": 250_000}
DEMO_TURNS = {"tweedekker": 6, "diplomacy": 4, "dirigible": 4}


def report_sizes(outbox: Path) -> list[int]:
    """The bytes of every report mail in the outbox Maildir."""
    sizes = []
    for sub in ("new", "cur"):
        for path in (outbox / sub).iterdir():
            raw = path.read_bytes()
            head = raw.split(b"\n\n", 1)[0]
            msg = email.message_from_bytes(head, policy=email.policy.default)
            if str(msg["Subject"]).endswith(" report"):
                sizes.append(len(raw))
    return sorted(sizes)


def weights(folder: Path) -> dict[str, list[int]]:
    """Every report mail's bytes, per ruleset."""
    from screenshots import fastplay_outbox

    out = {}
    for ruleset, turns in DEMO_TURNS.items():
        result = run_demo(folder / ruleset, ruleset=ruleset, turns=turns, seed=1916,
                          say=lambda _: None)
        assert result.outbox is not None
        out[ruleset] = report_sizes(result.outbox)
    out["fastplay"] = report_sizes(fastplay_outbox(folder))
    return out


def deadline_snapshot(folder: Path, turns: int = 4) -> Path:
    """The tweedekker demo after ``turns`` turns, every pilot's orders for the next
    turn stored (as the referee stores a checked order mail)."""
    root = folder / "snapshot"
    run_demo(root, turns=turns, seed=1916, say=lambda _: None)
    orders_in(root)
    return root


def orders_in(root: Path) -> None:
    """Every pilot's orders for the open turn of the demo game, stored."""
    store = GameStore(demo_config(root).games_dir)
    game = store.open(GAME_ID)
    rng = random.Random(1916 + game.turn)
    deadline = game.settings.deadline
    assert deadline is not None
    for pid, player in sorted(game.settings.players.items()):
        orders = game.ruleset.computer_orders(game.open.state, pid, rng)
        entry = None if orders is None else game.ruleset.encode_orders(orders)
        if player.active and entry:
            game.book.save(pid, entry, raw="(bench)", message_id=f"<bench-{pid}@pbmref>",
                           received_at=deadline - timedelta(hours=2), orders=orders)


def engine_alone(root: Path, rounds: int) -> float:
    """Median seconds of the engine alone on the snapshot's open turn."""
    game = GameStore(demo_config(root).games_dir).open(GAME_ID)
    rules = game.ruleset
    assert isinstance(rules, AirRuleset)
    state = game.open.state
    typed = rules.typed_orders({p: f.orders for p, f in game.book.in_force().items()})
    times = []
    for _ in range(rounds):
        start = time.process_time()
        for _ in range(50):
            rules.run_engine(state, typed, Dice(1))
        times.append((time.process_time() - start) / 50)
    return statistics.median(times)


def one_deadline(snapshot: Path, target: Path,
                 wrap: Callable[[Callable[[], object]], object] | None = None) -> float:
    """CPU seconds of the deadline job for the demo game, on a fresh copy."""
    shutil.copytree(snapshot, target)
    config = demo_config(target)
    store = GameStore(config.games_dir)
    deadline = store.open(GAME_ID).settings.deadline
    assert deadline is not None
    referee = Referee(config, store=store, clock=Clock(deadline + timedelta(minutes=1)))

    def run() -> object:
        due = adjudicate_due(referee, None, games=[GAME_ID], force=True)
        assert len(due.adjudicated) == 1 and due.sent >= 6, due
        return due

    start = time.process_time()
    if wrap is None:
        run()
    else:
        wrap(run)
    return time.process_time() - start


def turns_in_a_row(snapshot: Path, target: Path, turns: int) -> list[float]:
    """CPU seconds of the deadlines of ``turns`` turns played one after the
    other in this process, as a daemon plays them (the first, unmeasured,
    draws the grounds afresh)."""
    from pbmref.mail import picture

    picture.forget_grounds()
    shutil.copytree(snapshot, target)
    out = []
    for i in range(turns + 1):
        if i:
            orders_in(target)
        config = demo_config(target)
        store = GameStore(config.games_dir)
        deadline = store.open(GAME_ID).settings.deadline
        assert deadline is not None
        referee = Referee(config, store=store, clock=Clock(deadline + timedelta(minutes=1)))
        start = time.process_time()
        due = adjudicate_due(referee, None, games=[GAME_ID], force=True)
        assert len(due.adjudicated) == 1, due
        out.append(time.process_time() - start)
    return out[1:]


def new_grounds(snapshot: Path, folder: Path, rounds: int) -> list[float]:
    """``one_deadline`` with no ground kept from the round before."""
    from pbmref.mail import picture

    out = []
    for i in range(rounds):
        picture.forget_grounds()
        out.append(one_deadline(snapshot, folder / f"fresh{i}"))
    return out


def main(argv: list[str]) -> int:
    rounds = int(next((a for a in argv[1:] if a.isdigit()), "7"))
    with tempfile.TemporaryDirectory(prefix="pbmref-reportmail-") as tmp:
        folder = Path(tmp)
        for ruleset, sizes in weights(folder / "weights").items():
            goal = GOALS[ruleset]
            median, largest = statistics.median(sizes), max(sizes)
            print(f"report mail, {ruleset}: {len(sizes)} mails, median {median / 1e3:.0f} KB, "
                  f"largest {largest / 1e3:.0f} KB; ratio {largest / goal:.2f} of the goal "
                  f"({goal / 1e3:.0f} KB)")
        snapshot = deadline_snapshot(folder)
        one_deadline(snapshot, folder / "warm")  # imports, fonts, caches of the process
        cpu = [one_deadline(snapshot, folder / f"round{i}") for i in range(rounds)]
        engine = engine_alone(snapshot, rounds)
        deadline = statistics.median(cpu)
        print(f"deadline CPU per 6-player tweedekker game (adjudicate_due, 6 report mails "
              f"into the outbox): {deadline * 1e3:.1f} ms against the engine alone "
              f"{engine * 1e3:.2f} ms; ratio {deadline / engine:.0f}x (aim <= 100x)")
        row = turns_in_a_row(snapshot, folder / "row", 3)
        print(f"three turns in a row after it (turns 6-8, as a daemon plays them): "
              f"{', '.join(f'{t * 1e3:.0f}' for t in row)} ms; median ratio "
              f"{statistics.median(row) / engine:.0f}x")
        fresh = statistics.median(new_grounds(snapshot, folder, rounds))
        print(f"the same with no ground kept (the first game a process draws): "
              f"{fresh * 1e3:.1f} ms; ratio {fresh / engine:.0f}x")
        if "--profile" in argv:
            profile = cProfile.Profile()
            one_deadline(snapshot, folder / "profiled", wrap=profile.runcall)
            pstats.Stats(profile).sort_stats("tottime").print_stats(25)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
