"""How the referee's costs grow with the number of games on the machine (issue 20).

Builds two houses of tweedekker games on the local Maildir mode, SMALL games
(default 10) and MANY games (default 10,000), cheaply: one template game is
made with ``gm.new_game`` and its folder copied, each copy with its own
player addresses (and, for the "played" house, one turn adjudicated and its
report recorded as sent). Then, in each house, the median of REPEAT runs of:

1. one daemon round (``serve``) that takes in one accepted order mail, answers
   it and sends the reply (the daemon as ``pbmref serve`` runs it: its index
   watches the games folder);
2. one daemon round that takes in a mail from an unknown sender naming no
   game;
   (2b. the same two as one-shot passes: ``pbmref serve --once``, a process each,
   its start-up included);
3. ``adjudicate --due`` with no game due: in-process (a fresh referee, as
   cron starts one) and as cron runs it (``pbmref adjudicate --due`` as a
   process, its start-up included);
4. the same at MANY games that have each played a turn (its report recorded
   as sent, its players as reminded), against MANY games at turn 1; and a
   daemon round taking in one order mail in each of these two houses (the
   referee's bookkeeping of the games played is not on a mail's way);
5. an idle daemon (``pbmref serve`` as a process, nothing to do, its games
   watched): its own CPU time over IDLE_SECONDS (its threads' run time as the
   kernel counts it, in nanoseconds; utime + stime are the same time rounded
   to 10 ms ticks, a handful over an idle minute), the two houses' daemons
   running over the same seconds, so that a loaded machine weighs on both;
6. (issue 41) the games index rebuilt from the folders of MANY games, with no
   index file (a new process on a restored house), as our own CPU time
   (``time.process_time``), against a look at every game once it is built,
   and the same when every ``game.yaml``'s time changed (a restore that lost
   the files' times: each known by the digest of its text) or its text (each
   read and checked whole, as every game was before the state index held the
   players' addresses); and ``pbmref serve`` started on a house without its
   index file, one order mail waiting: its time to the first answer, and its
   CPU by then.

The houses are measured side by side: the k-th run of each comes right after
the others' (``side_by_side``), so the shared machine's change of pace during
the run moves both sides of a ratio alike. Each figure is printed as the ratio
MANY / SMALL (4: played / turn 1) of the same run; the goal of issue 20 is at most 1.5 (4: at most 1.1), i.e. the cost
follows the mail in hand, not the games on the machine. The rebuild's goal
(issue 41) is at most 1.5 s of CPU at 10,000 games.

Run: ``.venv/bin/python bench/scale.py [--games 10000] [--small 10] [--repeat 5]
[--idle-seconds 40] [--only rebuild first serve pass due cli played idle]``
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path

import yaml

from pbmref import gm
from pbmref.config import Config, load_config
from pbmref.mail.factory import open_intake
from pbmref.mail.maildir_in import MaildirIntake
from pbmref.referee.daemon import Daemon
from pbmref.referee.pipeline import Referee
from pbmref.referee.turns import adjudicate_due
from pbmref.store import GameStore
from pbmref.store.index import GameIndex
from pbmref.store.layout import stamp
from pbmref.store.schedule import (
    Schedule,
    read_state,
    recorded_addresses,
    recorded_schedule,
    settings_digest,
    write_schedule,
)

REPO = Path(__file__).resolve().parents[1]
REFEREE = "referee@bench.test"
PLAYERS = ("anna", "bert", "cora")
ORDERS = "PLANE\nTAKEOFF BETA\n1: A\n2: A\n3: L\nEND\n"
FIGURES = ["rebuild", "first", "serve", "pass", "due", "cli", "played", "idle"]
INDEX_FILE = "games-index.json"  # the referee's index of the games, in its spool folder


@dataclass
class House:
    """A games folder with its referee config (Maildir mode)."""

    root: Path
    config_path: Path
    config: Config
    games: int
    passwords: dict[str, str]

    @property
    def inbox(self) -> MaildirIntake:
        return MaildirIntake(self.config.mail.maildir.inbox)


def _write_config(root: Path) -> Path:
    path = root / "pbmref.yaml"
    path.write_text(yaml.safe_dump({
        "games_dir": "games", "spool_dir": "spool",
        "referee": {"address": REFEREE, "name": "bench referee"},
        "mail": {"mode": "maildir", "maildir": {"inbox": "inbox", "outbox": "outbox"}},
    }, sort_keys=False))
    return path


def _template(root: Path, played: bool) -> tuple[Path, dict[str, str]]:
    """The game every copy starts from (addresses at ``@tpl.test``)."""
    store = GameStore(root / "template")
    now = datetime.now(UTC)
    made = gm.new_game(store, "tpl", [gm.PlayerSpec(p, (f"{p}@tpl.test",), p.title())
                                      for p in PLAYERS],
                       seed=7, deadline=now + timedelta(days=30), turn_length="30d",
                       early_adjudication=False, reminder_hours=0, now=now)
    if played:
        gm.adjudicate(store, "tpl", now, force=True)
    return store.dir / "tpl", dict(made.passwords)


def _recorded(game_dir: Path) -> tuple[Schedule, tuple[str, ...]]:
    """What the state index of a game the referee just wrote holds."""
    data = read_state(game_dir)
    game_file = game_dir / "game.yaml"
    schedule = recorded_schedule(data, str(game_file), stamp(game_file))
    addresses = recorded_addresses(data)
    assert schedule is not None and addresses is not None, f"{game_dir}: not the referee's"
    return schedule, addresses


def build(root: Path, games: int, *, played: bool) -> House:
    """A house of ``games`` copies of the template (``g00000`` ...)."""
    root.mkdir(parents=True)
    config_path = _write_config(root)
    config = load_config(config_path)
    tpl, passwords = _template(root, played)
    game_text = (tpl / "game.yaml").read_text(encoding="utf-8")
    schedule, addresses = _recorded(tpl)
    config.games_dir.mkdir(parents=True)
    for i in range(games):
        gid = f"g{i:05d}"
        target = config.games_dir / gid
        shutil.copytree(tpl, target, ignore=shutil.ignore_patterns(".lock", ".*.tmp"))
        # the state index names game.yaml by its stamp and digest, and holds its
        # addresses: written as the referee writes it, for each copy's own
        text = game_text.replace("@tpl.test", f"@{gid}.test")
        (target / "game.yaml").write_text(text, encoding="utf-8")
        write_schedule(target, schedule, [a.replace("@tpl.test", f"@{gid}.test")
                                          for a in addresses], stamp(target / "game.yaml"),
                       settings_digest(text))
    if played:  # every turn's report went out, every player was reminded once
        config.spool_dir.mkdir(parents=True, exist_ok=True)
        (config.spool_dir / "referee-state.reported.json").write_text(json.dumps(
            {f"g{i:05d}": 1 for i in range(games)}))
        (config.spool_dir / "referee-state.reminders.json").write_text(json.dumps(
            {f"g{i:05d}": {"turn": 1, "players": list(PLAYERS)} for i in range(games)}))
    return House(root, config_path, config, games, passwords)


def _mail(sender: str, subject: str, body: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = REFEREE
    msg["Subject"] = subject
    msg["Date"] = format_datetime(datetime.now(UTC))
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content(body)
    return msg.as_bytes()


def _order_mail(house: House) -> Callable[[int], object]:
    """Puts anna's order mail for ``g00000`` in the house's inbox."""
    return lambda k: house.inbox.deliver(_mail(
        "anna@g00000.test", "orders",
        f"GAME g00000\nPASSWORD {house.passwords['anna']}\n{ORDERS}"))


def _stranger_mail(house: House, who: str) -> Callable[[int], object]:
    """Puts the k-th mail of a stranger naming no game in the house's inbox."""
    return lambda k: house.inbox.deliver(_mail(f"{who}{k}@elsewhere.test", "hello",
                                               "Can I play?\n"))


def side_by_side(repeat: int, steps: Sequence[tuple[Callable[[int], object], Callable[[], object]]]
                 ) -> list[float]:
    """The median time of each step's ``run`` (after its ``prepare(k)``), the steps
    taken in turn REPEAT times: each house's k-th run comes right after the
    other houses', so a change of the shared machine's pace during the run
    moves both sides of a ratio alike."""
    times: list[list[float]] = [[] for _ in steps]
    for k in range(repeat):
        for i, (prepare, run) in enumerate(steps):
            prepare(k)
            start = time.perf_counter()
            run()
            times[i].append(time.perf_counter() - start)
    return [statistics.median(t) for t in times]


def serve_passes(houses: Sequence[House], repeat: int) -> list[tuple[float, float]]:
    """For each house, (a round with one order mail, a round with one stranger's
    mail), medians, the houses taken in turn."""
    daemons = []
    for house in houses:
        referee = Referee(house.config)
        daemon = Daemon(referee, open_intake(house.config), watch_games=True)  # as serve
        daemon.round()  # the daemon has been running: its first round is behind it
        daemons.append(daemon)

    outboxes = [house.config.mail.maildir.outbox / "new" for house in houses]
    before = [len(os.listdir(o)) if o.is_dir() else 0 for o in outboxes]
    t_order = side_by_side(repeat, [(_order_mail(h), d.round) for h, d in zip(houses, daemons, strict=True)])
    t_stranger = side_by_side(repeat, [(_stranger_mail(h, "stranger"), d.round) for h, d in zip(houses, daemons, strict=True)])
    for outbox, was, daemon in zip(outboxes, before, daemons, strict=True):
        sent = len(os.listdir(outbox)) - was
        assert sent == 2 * repeat, f"expected {2 * repeat} replies in the outbox, found {sent}"
        assert daemon.referee.store.index.watching, "measured without the games' watch"
        daemon.close()
    return list(zip(t_order, t_stranger, strict=True))


def serve_once_commands(houses: Sequence[House], repeat: int) -> list[tuple[float, float]]:
    """``pbmref serve --once`` as a process (a one-shot pass, its start-up included):
    for each house (one order mail, one stranger's mail), medians, in turn."""
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))

    def run(house: House) -> Callable[[], object]:
        return lambda: subprocess.run(
            [sys.executable, "-m", "pbmref", "serve", "--once", "--quiet",
             "--config", str(house.config_path)], cwd=house.root, env=env, check=True,
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)

    outboxes = [house.config.mail.maildir.outbox / "new" for house in houses]
    before = [len(os.listdir(o)) if o.is_dir() else 0 for o in outboxes]
    t_order = side_by_side(repeat, [(_order_mail(h), run(h)) for h in houses])
    t_stranger = side_by_side(repeat, [(_stranger_mail(h, "walk-in"), run(h)) for h in houses])
    for outbox, was in zip(outboxes, before, strict=True):
        sent = len(os.listdir(outbox)) - was
        assert sent == 2 * repeat, f"expected {2 * repeat} replies in the outbox, found {sent}"
    return list(zip(t_order, t_stranger, strict=True))


def due_runs(houses: Sequence[House], repeat: int) -> list[float]:
    """``adjudicate --due`` with nothing due, as cron runs it (a fresh referee), in
    each house in turn."""
    def run(house: House) -> Callable[[], None]:
        def once() -> None:
            referee = Referee(house.config)
            intake = open_intake(house.config)
            try:
                report = adjudicate_due(referee, intake)
            finally:
                intake.close()
            assert not report.adjudicated and not report.broken, report
        return once

    for house in houses:
        run(house)()  # the first run after building may rebuild what the referee keeps
    return side_by_side(repeat, [(lambda k: None, run(h)) for h in houses])


def due_commands(houses: Sequence[House], repeat: int) -> list[float]:
    """``pbmref adjudicate --due`` as cron runs it: a process of its own, in each
    house in turn."""
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))

    def run(house: House) -> Callable[[], object]:
        return lambda: subprocess.run(
            [sys.executable, "-m", "pbmref", "adjudicate", "--due", "--config",
             str(house.config_path)], cwd=house.root, env=env, check=True,
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)

    for house in houses:
        run(house)()
    return side_by_side(repeat, [(lambda k: None, run(h)) for h in houses])


def rebuild_cpu(house: House, repeat: int) -> tuple[float, float]:
    """Our CPU (``time.process_time``) to build the games index of ``house`` from
    its folders, with no index file (a new process on a restored house), and
    to look at every game once the index is built (a stat of its two files:
    what a process with a current index file pays); medians of REPEAT."""
    rebuilt, looked = [], []
    for _ in range(repeat):
        index = GameIndex(house.config.games_dir)
        start = time.process_time()
        index.look()
        rebuilt.append(time.process_time() - start)
        assert index.reads == house.games, f"{index.reads} games read of {house.games}"
        start = time.process_time()
        index.look()
        looked.append(time.process_time() - start)
        assert index.reads == house.games, "a look read a game again"
        assert index.whole_reads == 0, "game.yaml read whole: not the referee's state indexes"
    return statistics.median(rebuilt), statistics.median(looked)


def rebuild_changed_cpu(house: House, repeat: int, *, text: bool) -> float:
    """``rebuild_cpu`` once every game.yaml's time changed (a restore that did
    not keep the files' times: each game.yaml's text is checked against the
    digest its state index names), or its text too (``text``: each game.yaml
    is read and checked whole, as every game was before the state index held
    the players' addresses). The files are put back as they were after."""
    kept = [(f, f.stat(), f.read_bytes())
            for f in sorted(house.config.games_dir.glob("*/game.yaml"))]
    for f, st, data in kept:
        if text:
            f.write_bytes(data + b"# changed by hand\n")
        os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    try:
        spent = []
        for _ in range(repeat):
            index = GameIndex(house.config.games_dir)
            start = time.process_time()
            index.look()
            spent.append(time.process_time() - start)
            assert index.whole_reads == (house.games if text else 0), index.whole_reads
        return statistics.median(spent)
    finally:
        for f, st, data in kept:
            if text:
                f.write_bytes(data)
            os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))


def _cpu_ticks(pid: int) -> float:
    """The process's utime + stime from /proc (every thread, ended ones too), in
    seconds: counted in whole clock ticks (10 ms)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _cpu_run_time(pid: int) -> tuple[float, frozenset[str]]:
    """The time the process's threads have run on a CPU, from their /proc
    schedstat (the kernel's own count, in nanoseconds, of which utime + stime
    are the tick-rounded split), and which threads those are."""
    total, tasks = 0, []
    for task in Path(f"/proc/{pid}/task").iterdir():
        total += int((task / "schedstat").read_text().split()[0])
        tasks.append(task.name)
    return total / 1e9, frozenset(tasks)


def _inotify_watches(pid: int) -> int:
    """How many inotify watches the process holds (its fdinfo lists one line each)."""
    count = 0
    for fd in Path(f"/proc/{pid}/fdinfo").iterdir():
        try:
            count += fd.read_text().count("inotify wd:")
        except OSError:  # closed meanwhile
            continue
    return count


def _start_daemon(house: House) -> subprocess.Popen[bytes]:
    """``pbmref serve`` on the house as it runs (its games watched), the index
    file taken away first: the daemon rebuilds it, and writes it at the end of
    its first round."""
    (house.config.spool_dir / INDEX_FILE).unlink(missing_ok=True)
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    return subprocess.Popen([sys.executable, "-m", "pbmref", "serve", "--config",
                             str(house.config_path), "--quiet", "--poll", "10"],
                            cwd=house.root, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _until(what: str, proc: subprocess.Popen[bytes], done: Callable[[], bool],
           timeout: float = 600.0) -> None:
    """Wait until ``done()`` (asked every 10 ms), the daemon still running."""
    deadline = time.monotonic() + timeout
    while not done():
        if proc.poll() is not None:
            raise RuntimeError(f"the daemon ended before {what}: "
                               f"{proc.stderr.read().decode() if proc.stderr else ''}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"no {what} after {timeout:.0f} s")
        time.sleep(0.01)


def first_answers(houses: Sequence[House], repeat: int) -> list[tuple[float, float]]:
    """``pbmref serve`` started on a house without its index file (as after a
    restore from a backup), one order mail waiting: the wall time from its
    start until the reply is in the outbox, and the daemon's own CPU
    (utime + stime) by then; medians, the houses taken in turn."""
    walls: list[list[float]] = [[] for _ in houses]
    cpus: list[list[float]] = [[] for _ in houses]
    for k in range(repeat):
        for i, house in enumerate(houses):
            outbox = house.config.mail.maildir.outbox / "new"
            before = len(os.listdir(outbox)) if outbox.is_dir() else 0
            _order_mail(house)(k)
            start = time.perf_counter()
            proc = _start_daemon(house)
            def answered(outbox: Path = outbox, before: int = before) -> bool:
                return outbox.is_dir() and len(os.listdir(outbox)) > before

            try:
                _until("the first answer", proc, answered)
                walls[i].append(time.perf_counter() - start)
                cpus[i].append(_cpu_ticks(proc.pid))
            finally:
                _stop(proc)
    return [(statistics.median(w), statistics.median(c))
            for w, c in zip(walls, cpus, strict=True)]


def idle_cpu(houses: Sequence[House], seconds: float) -> list[float]:
    """The CPU each house's idle ``pbmref serve`` uses over the same SECONDS, all
    running at once (the shared machine's load is the same for each), after
    their first round: its index watches the games folder (one watch on it and
    one on each game, checked here) and its Maildir intake waits on the
    inbox's ``new/`` and ``cur/``. Measured as the daemon's own CPU time, its
    threads' run time, not as a share of the wall time."""
    procs = [_start_daemon(house) for house in houses]
    try:
        for house, proc in zip(houses, procs, strict=True):
            _until("its first round", proc, (house.config.spool_dir / INDEX_FILE).is_file)
            watches = _inotify_watches(proc.pid)
            assert watches >= house.games + 1, f"the daemon has {watches} inotify watches"
        time.sleep(2.0)  # the first round's end: its index written, its collection
        before = [_cpu_run_time(p.pid) for p in procs]
        time.sleep(seconds)
        after = [_cpu_run_time(p.pid) for p in procs]
    finally:
        for proc in procs:
            _stop(proc)
    for (_, threads0), (_, threads1) in zip(before, after, strict=True):
        assert threads0 == threads1, "a thread came or went: its run time is not all counted"
    return [t1 - t0 for (t0, _), (t1, _) in zip(before, after, strict=True)]


def _line(what: str, small: float, many: float, n_small: int, n_many: int,
          goal: str = "<= 1.5") -> None:
    def fmt(v: float) -> str:
        return f"{v * 1000:8.1f} ms"

    print(f"{what}: {n_many} games {fmt(many)}, {n_small} games {fmt(small)}; "
          f"ratio {many / small:.2f} (aim {goal})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--small", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--idle-seconds", type=float, default=40.0)
    ap.add_argument("--only", nargs="*", default=FIGURES, choices=FIGURES,
                    help="measure only these figures")
    args = ap.parse_args(argv)
    only = set(args.only)
    with tempfile.TemporaryDirectory(prefix="pbmref-scale-") as tmp:
        t0 = time.perf_counter()
        small = build(Path(tmp) / "small", args.small, played=False)
        many = build(Path(tmp) / "many", args.games, played=False)
        played = build(Path(tmp) / "played", args.games, played=True) if "played" in only \
            else None
        print(f"built {args.small} and {args.games} games (and {args.games} that played a "
              f"turn: {played is not None}) in {time.perf_counter() - t0:.0f} s")
        trio = [small, many] + ([played] if played is not None else [])
        if "rebuild" in only:
            rebuilt, looked = rebuild_cpu(many, args.repeat)
            print(f"games index rebuilt from the folders (no index file), {args.games} games: "
                  f"{rebuilt:.2f} s of our CPU (aim <= 1.5 s), {rebuilt / args.games * 1e6:.0f} us "
                  f"a game; ratio {rebuilt / looked:.2f} to a look at every game with the index "
                  f"built ({looked:.2f} s)")
            moved = rebuild_changed_cpu(many, args.repeat, text=False)
            print(f"the same with every game.yaml's time changed (a restore that lost the "
                  f"files' times: each game.yaml's text checked against its digest): "
                  f"{moved:.2f} s of our CPU; ratio {moved / rebuilt:.2f} to the rebuild")
            whole = rebuild_changed_cpu(many, min(args.repeat, 3), text=True)
            print(f"the same with every game.yaml changed by hand (each read and checked "
                  f"whole, as every game was before): {whole:.2f} s of our CPU; ratio "
                  f"{whole / rebuilt:.2f} to the rebuild")
        if "first" in only:
            (wall_small, cpu_small), (wall_many, cpu_many) = \
                first_answers([small, many], min(args.repeat, 3))
            print(f"pbmref serve started without its index file, one order mail waiting: first "
                  f"answer after {wall_many:.2f} s at {args.games} games ({cpu_many:.2f} s of its "
                  f"CPU), {wall_small:.2f} s at {args.small} ({cpu_small:.2f} s); ratio "
                  f"{cpu_many / cpu_small:.2f} of the CPU")
        if "due" in only or "played" in only:
            due_small, due_many, *due_rest = due_runs(trio, args.repeat)
        if "due" in only:
            _line("adjudicate --due, none due (in-process, a fresh referee)", due_small,
                  due_many, args.small, args.games,
                  goal="none: what a first look at every game costs a new process; "
                       "the goal is the command's, below")
        if played is not None:
            due_played = due_rest[0]
            print(f"adjudicate --due, none due, {args.games} games that played a turn "
                  f"{due_played * 1000:.1f} ms vs at turn 1 {due_many * 1000:.1f} ms; "
                  f"ratio {due_played / due_many:.2f} (aim <= 1.1)")
        if "cli" in only:
            cli_small, cli_many = due_commands([small, many], args.repeat)
            _line("pbmref adjudicate --due as cron runs it (a process), none due",
                  cli_small, cli_many, args.small, args.games)
        if "serve" in only:
            (order_small, stranger_small), (order_many, stranger_many), *rest = \
                serve_passes(trio, args.repeat)
            _line("serve round taking in 1 order mail", order_small, order_many,
                  args.small, args.games)
            _line("serve round taking in 1 mail from an unknown sender", stranger_small,
                  stranger_many, args.small, args.games)
            if played is not None:
                order_played = rest[0][0]
                print(f"serve round taking in 1 order mail, {args.games} games that played a "
                      f"turn (reports and reminders recorded) {order_played * 1000:.1f} ms vs "
                      f"at turn 1 {order_many * 1000:.1f} ms; ratio "
                      f"{order_played / order_many:.2f} (aim <= 1.1)")
        if "pass" in only:
            (order_small, stranger_small), (order_many, stranger_many) = \
                serve_once_commands([small, many], args.repeat)
            _line("pbmref serve --once (a process) taking in 1 order mail", order_small,
                  order_many, args.small, args.games)
            _line("pbmref serve --once (a process) taking in 1 mail from an unknown sender",
                  stranger_small, stranger_many, args.small, args.games)
        if "idle" in only:
            cpu_small, cpu_many = idle_cpu([small, many], args.idle_seconds)
            _line(f"idle daemon's own CPU over the same {args.idle_seconds:.0f} s (its threads' "
                  "run time, /proc)", cpu_small, cpu_many, args.small, args.games)
    return 0


if __name__ == "__main__":
    sys.exit(main())
