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
   watched): its CPU over IDLE_SECONDS, as a share of one core.

Each figure is printed as the ratio MANY / SMALL (4: played / turn 1) of the
same run; the goal of issue 20 is at most 1.5 (4: at most 1.1), i.e. the cost
follows the mail in hand, not the games on the machine.

Run: ``.venv/bin/python bench/scale.py [--games 10000] [--small 10] [--repeat 5]
[--idle-seconds 40] [--only serve pass due cli played idle]``
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
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path
from typing import Any

import yaml

from pbmref import gm
from pbmref.config import Config, load_config
from pbmref.mail.factory import open_intake
from pbmref.mail.maildir_in import MaildirIntake
from pbmref.referee.daemon import Daemon
from pbmref.referee.pipeline import Referee
from pbmref.referee.turns import adjudicate_due
from pbmref.store import GameStore

REPO = Path(__file__).resolve().parents[1]
REFEREE = "referee@bench.test"
PLAYERS = ("anna", "bert", "cora")
ORDERS = "PLANE\nTAKEOFF BETA\n1: A\n2: A\n3: L\nEND\n"
FIGURES = ["serve", "pass", "due", "cli", "played", "idle"]


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


def _stamp(path: Path) -> list[int]:
    st = path.stat()
    return [st.st_mtime_ns, st.st_size]


def build(root: Path, games: int, *, played: bool) -> House:
    """A house of ``games`` copies of the template (``g00000`` ...)."""
    root.mkdir(parents=True)
    config_path = _write_config(root)
    config = load_config(config_path)
    tpl, passwords = _template(root, played)
    game_text = (tpl / "game.yaml").read_text(encoding="utf-8")
    state = yaml.safe_load((tpl / "state.yaml").read_text(encoding="utf-8"))
    tpl_stamp = _stamp(tpl / "game.yaml")
    config.games_dir.mkdir(parents=True)
    for i in range(games):
        gid = f"g{i:05d}"
        target = config.games_dir / gid
        shutil.copytree(tpl, target, ignore=shutil.ignore_patterns(".lock", ".*.tmp"))
        (target / "game.yaml").write_text(game_text.replace("@tpl.test", f"@{gid}.test"),
                                          encoding="utf-8")
        # the state index names game.yaml by its stamp: give each copy its own
        mine = {k: (_stamp(target / "game.yaml") if v == tpl_stamp else v)
                for k, v in state.items()}
        (target / "state.yaml").write_text(yaml.safe_dump(mine, sort_keys=False),
                                           encoding="utf-8")
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


def median_of(repeat: int, prepare: Callable[[int], None], run: Callable[[], Any]) -> float:
    times = []
    for k in range(repeat):
        prepare(k)
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def serve_passes(house: House, repeat: int) -> tuple[float, float]:
    """(a round with one order mail, a round with one stranger's mail), medians."""
    referee = Referee(house.config)
    intake = open_intake(house.config)
    daemon = Daemon(referee, intake, watch_games=True)  # as ``pbmref serve`` runs it
    daemon.round()  # the daemon has been running: its first round is behind it
    inbox = house.inbox
    outbox = house.config.mail.maildir.outbox

    def order(k: int) -> None:
        inbox.deliver(_mail("anna@g00000.test", "orders",
                            f"GAME g00000\nPASSWORD {house.passwords['anna']}\n{ORDERS}"))

    def stranger(k: int) -> None:
        inbox.deliver(_mail(f"stranger{k}@elsewhere.test", "hello", "Can I play?\n"))

    before = len(os.listdir(outbox / "new")) if (outbox / "new").is_dir() else 0
    t_order = median_of(repeat, order, daemon.round)
    t_stranger = median_of(repeat, stranger, daemon.round)
    sent = len(os.listdir(outbox / "new")) - before
    assert sent == 2 * repeat, f"expected {2 * repeat} replies in the outbox, found {sent}"
    assert referee.store.index.watching, "the daemon's rounds were measured without the watch"
    daemon.close()
    return t_order, t_stranger


def serve_once_commands(house: House, repeat: int) -> tuple[float, float]:
    """``pbmref serve --once`` as a process (a one-shot pass, its start-up included):
    (one order mail, one stranger's mail), medians."""
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    inbox = house.inbox
    outbox = house.config.mail.maildir.outbox

    def run() -> None:
        subprocess.run([sys.executable, "-m", "pbmref", "serve", "--once", "--quiet",
                        "--config", str(house.config_path)], cwd=house.root, env=env,
                       check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)

    def order(k: int) -> None:
        inbox.deliver(_mail("anna@g00001.test", "orders",
                            f"GAME g00001\nPASSWORD {house.passwords['anna']}\n{ORDERS}"))

    def stranger(k: int) -> None:
        inbox.deliver(_mail(f"walker{k}@elsewhere.test", "hello", "Can I play?\n"))

    run()  # the first pass after building may rebuild what the referee keeps
    before = len(os.listdir(outbox / "new")) if (outbox / "new").is_dir() else 0
    t_order = median_of(repeat, order, run)
    t_stranger = median_of(repeat, stranger, run)
    sent = len(os.listdir(outbox / "new")) - before
    assert sent == 2 * repeat, f"expected {2 * repeat} replies in the outbox, found {sent}"
    return t_order, t_stranger


def due_runs(house: House, repeat: int) -> float:
    """``adjudicate --due`` with nothing due, as cron runs it (a fresh referee)."""
    def run() -> None:
        referee = Referee(house.config)
        intake = open_intake(house.config)
        try:
            report = adjudicate_due(referee, intake)
        finally:
            intake.close()
        assert not report.adjudicated and not report.broken, report

    run()  # the first run after building may rebuild what the referee keeps
    return median_of(repeat, lambda k: None, run)


def due_commands(house: House, repeat: int) -> float:
    """``pbmref adjudicate --due`` as cron runs it: a process of its own."""
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))

    def run() -> None:
        subprocess.run([sys.executable, "-m", "pbmref", "adjudicate", "--due", "--config",
                        str(house.config_path)], cwd=house.root, env=env, check=True,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)

    run()
    return median_of(repeat, lambda k: None, run)


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _inotify_watches(pid: int) -> int:
    """How many inotify watches the process holds (its fdinfo lists one line each)."""
    count = 0
    for fd in Path(f"/proc/{pid}/fdinfo").iterdir():
        try:
            count += fd.read_text().count("inotify wd:")
        except OSError:  # closed meanwhile
            continue
    return count


def idle_cpu(house: House, seconds: float, warmup: float) -> float:
    """Share of one core an idle ``pbmref serve`` uses (after its first rounds), as
    it runs: its index watches the games folder (one watch on it and one on each
    game, checked here) and its Maildir intake waits on the inbox's ``new/`` and
    ``cur/``."""
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    proc = subprocess.Popen([sys.executable, "-m", "pbmref", "serve", "--config",
                             str(house.config_path), "--quiet", "--poll", "10"],
                            cwd=house.root, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        time.sleep(warmup)
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        watches = _inotify_watches(proc.pid)
        assert watches >= house.games + 1, f"the daemon has {watches} inotify watches"
        cpu0, t0 = _cpu_seconds(proc.pid), time.perf_counter()
        time.sleep(seconds)
        cpu1, t1 = _cpu_seconds(proc.pid), time.perf_counter()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return (cpu1 - cpu0) / (t1 - t0)


def _line(what: str, small: float, many: float, n_small: int, n_many: int,
          unit: str = "s", goal: str = "<= 1.5") -> None:
    fmt = (lambda v: f"{v * 1000:8.1f} ms") if unit == "s" else (lambda v: f"{v * 100:7.2f} %")
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
        if "due" in only or "played" in only:
            due_small, due_many = due_runs(small, args.repeat), due_runs(many, args.repeat)
        if "due" in only:
            _line("adjudicate --due, none due (in-process, a fresh referee)", due_small,
                  due_many, args.small, args.games,
                  goal="none: what a first look at every game costs a new process; "
                       "the goal is the command's, below")
        if played is not None:
            due_played = due_runs(played, args.repeat)
            print(f"adjudicate --due, none due, {args.games} games that played a turn "
                  f"{due_played * 1000:.1f} ms vs at turn 1 {due_many * 1000:.1f} ms; "
                  f"ratio {due_played / due_many:.2f} (aim <= 1.1)")
        if "cli" in only:
            _line("pbmref adjudicate --due as cron runs it (a process), none due",
                  due_commands(small, args.repeat), due_commands(many, args.repeat),
                  args.small, args.games)
        if "serve" in only:
            order_small, stranger_small = serve_passes(small, args.repeat)
            order_many, stranger_many = serve_passes(many, args.repeat)
            _line("serve round taking in 1 order mail", order_small, order_many,
                  args.small, args.games)
            _line("serve round taking in 1 mail from an unknown sender", stranger_small,
                  stranger_many, args.small, args.games)
            if played is not None:
                order_played, _ = serve_passes(played, args.repeat)
                print(f"serve round taking in 1 order mail, {args.games} games that played a "
                      f"turn (reports and reminders recorded) {order_played * 1000:.1f} ms vs "
                      f"at turn 1 {order_many * 1000:.1f} ms; ratio "
                      f"{order_played / order_many:.2f} (aim <= 1.1)")
        if "pass" in only:
            order_small, stranger_small = serve_once_commands(small, args.repeat)
            order_many, stranger_many = serve_once_commands(many, args.repeat)
            _line("pbmref serve --once (a process) taking in 1 order mail", order_small,
                  order_many, args.small, args.games)
            _line("pbmref serve --once (a process) taking in 1 mail from an unknown sender",
                  stranger_small, stranger_many, args.small, args.games)
        if "idle" in only:
            warm_many = 30.0
            cpu_small = idle_cpu(small, args.idle_seconds, 5.0)
            cpu_many = idle_cpu(many, args.idle_seconds, warm_many)
            # /proc counts CPU in clock ticks: below ten ticks over the window is noise
            floor = 10 / os.sysconf("SC_CLK_TCK") / args.idle_seconds
            _line(f"idle daemon CPU over {args.idle_seconds:.0f} s (share of a core; "
                  f"noise floor {floor * 100:.2f} %)", max(cpu_small, floor),
                  max(cpu_many, floor), args.small, args.games, unit="%",
                  goal="<= 1.5, within noise")
    return 0


if __name__ == "__main__":
    sys.exit(main())
