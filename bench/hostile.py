"""What one hostile input costs the referee (issue 40, items 4 and 5).

1. **Mails.** A referee on a local Maildir with one tweedekker game (three
   players, known passwords). The corpus: a normal order mail (the
   baseline) and hostile mails, each as big as ``limits.max_message_bytes``
   lets it be, and (but for ``many-lines``) within the lines the referee
   reads, so each goes as deep into the reading as a mail can: a 1 MB order
   line (``1: LS LS LS ...``), one 1 MB word, misspelt order lines from a
   player with and without a password and from a stranger, many PASSWORD
   lines, many commands, HTML, many MIME parts, a huge Subject, press,
   look-alike letters, a quoted report, text in base64. Each mail is taken
   in and answered alone (``take_in`` and ``deliver``, as a cron run or the
   daemon does) by a worker process, its CPU time (``time.process_time``)
   measured, at most CAP seconds of it (``RLIMIT_CPU``: more is printed as
   "more than"). The kinds are taken in turn REPEAT times (interleaved),
   medians compared: each kind against the normal mail, the worst, and a
   stranger's worst. The aim (issue 40, item 5): no mail costs more than 5x
   a normal order mail, and a stranger's about 1x. ``wrong-password``, the
   normal mail with a wrong password, is the floor of any mail with one:
   its password check costs scrypt's price on purpose (a right one is
   remembered, so the normal mail's costs nothing).

2. **A YAML bomb.** Two houses of GAMES tweedekker games, one plain, one
   where the first game's ``game.yaml`` ends in a bomb (nine lines of
   anchors and aliases, "billion laughs"). In each, one daemon round
   (``Daemon.round``, as ``pbmref serve`` runs) answers an order mail of
   another game; its time (median, the houses in turn) is compared. Then
   ``pbmref check``, ``pbmref status`` and ``pbmref adjudicate --due`` run
   as processes in each house: their time, bombed against plain. Every
   process of this part may use MEMORY GB, and is given TIMEOUT s, so code
   that cannot bear the bomb is measured as what it does (out of memory,
   out of time), not as a hung benchmark.

``--src`` measures another pbmref (its ``src`` folder: the "before" of
RESULTS.md is ``main``'s, exported with ``git archive``).

Run: ``.venv/bin/python bench/hostile.py [--repeat 5] [--only mails bomb]
[--kinds ...] [--games 20] [--cap 120] [--src DIR]``
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import quopri
import resource
import select
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path
from typing import Any

from pbmref import gm
from pbmref.config import Config
from pbmref.mail.maildir_in import MaildirIntake
from pbmref.referee.pipeline import Referee
from pbmref.store import GameStore
from pbmref.store.settings import hash_password

REPO = Path(__file__).resolve().parents[1]
REFEREE = "referee@bench.test"
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
PASSWORDS = {"anna": "anna-pass-1", "bert": "bert-pass-2", "cora": "cora-pass-3"}
ANNA = "anna@players.test"
STRANGER = "walk-in@elsewhere.test"
LIMIT = 1_000_000  # limits.max_message_bytes, its default
LINES = 19_990  # a mail's lines: just within what the referee reads (mail.message.MAX_LINES)
ORDERS = "PLANE\nTAKEOFF BETA\n1: A\n2: A\n3: L\nEND\n"
FIGURES = ["mails", "bomb"]
TIMEOUT = 120.0
CAP = 120.0  # CPU seconds one mail may use
MEMORY = 3.0  # GB a process of the bomb's part may take

BOMB = """\
lol1: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
lol2: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
lol3: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
lol4: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
lol5: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
lol6: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
lol7: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
lol8: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
lol9: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
"""


# ------------------------------------------------------------------ the mails


def _head(sender: str, subject: str, extra: str = "") -> str:
    return (f"From: {sender}\r\nTo: {REFEREE}\r\nSubject: {subject}\r\n"
            f"Date: {format_datetime(T0)}\r\nMessage-ID: {_message_id()}"
            f"\r\nMIME-Version: 1.0\r\n{extra}")


def _plain(sender: str, body: str, subject: str = "orders") -> bytes:
    """A text/plain mail, quoted-printable (a line of any length passes any server)."""
    data = quopri.encodestring(body.replace("\n", "\r\n").encode("utf-8"))
    return (_head(sender, subject, "Content-Type: text/plain; charset=utf-8\r\n"
                                   "Content-Transfer-Encoding: quoted-printable\r\n\r\n")
            .encode() + data)


def _base64(sender: str, body: str) -> bytes:
    """A text/plain mail in base64: few lines as sent, as many as it likes once read."""
    data = base64.encodebytes(body.encode("utf-8")).replace(b"\n", b"\r\n")
    return (_head(sender, "orders", "Content-Type: text/plain; charset=utf-8\r\n"
                                    "Content-Transfer-Encoding: base64\r\n\r\n")
            .encode() + data)


def _html(sender: str, body: str) -> bytes:
    data = quopri.encodestring(body.encode("utf-8"))
    return (_head(sender, "orders", "Content-Type: text/html; charset=utf-8\r\n"
                                    "Content-Transfer-Encoding: quoted-printable\r\n\r\n")
            .encode() + data)


def _parts(sender: str, body: str, filler: str) -> bytes:
    """A multipart mail: the orders in its first part, then tiny parts by the thousand."""
    head = _head(sender, "orders", 'Content-Type: multipart/mixed; boundary="b"\r\n\r\n')
    first = f"--b\r\nContent-Type: text/plain\r\n\r\n{body}\r\n"
    return (head + first + filler + "--b--\r\n").encode()


def _fill(unit: str, room: int) -> str:
    return unit * max(1, room // len(unit))


def _fit(make: Callable[[int], bytes], lines: int | None = LINES) -> bytes:
    """The biggest mail ``make(n)`` gives within LIMIT bytes and ``lines`` lines
    (None: any number), n found by halving: a mail that goes as deep into the
    referee's reading as a mail can."""
    def fits(raw: bytes) -> bool:
        return len(raw) <= LIMIT and (lines is None or raw.count(b"\n") <= lines)

    lo, hi = 1, LIMIT
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(make(mid)):
            lo = mid
        else:
            hi = mid - 1
    raw = make(lo)
    assert fits(raw), len(raw)
    return raw


def _envelope(password: bool = True) -> str:
    return "GAME zep1\n" + (f"PASSWORD {PASSWORDS['anna']}\n" if password else "")


MISSPELT = "TAKEOF BETAA\nPLAEN\n1: LSS f-AA\nZEPELIN\n2: AA d-BB\nLANDD ALFA\n"

# kind -> a maker of the raw mail; "normal" is the baseline
CORPUS: dict[str, Callable[[], bytes]] = {
    "normal": lambda: _plain(ANNA, _envelope() + ORDERS),
    # the same with a wrong password: one password check at scrypt's price, on purpose
    # slow (a right one is remembered: the normal mail's check costs nothing)
    "wrong-password": lambda: _plain(ANNA, _envelope().replace("anna-pass", "anna-guess")
                                     + ORDERS),
    "long-line": lambda: _fit(lambda n: _plain(ANNA, _envelope() + "PLANE\n1: " + "LS " * n)),
    "long-word": lambda: _fit(lambda n: _plain(ANNA, _envelope() + "PLANE\n1: " + "L" * n)),
    "misspelt": lambda: _fit(lambda n: _plain(ANNA, _envelope() + MISSPELT * n)),
    "misspelt-no-password": lambda: _fit(lambda n: _plain(ANNA, _envelope(False)
                                                          + MISSPELT * n)),
    "stranger-misspelt": lambda: _fit(lambda n: _plain(STRANGER, _envelope(False)
                                                       + MISSPELT * n)),
    "stranger-long-line": lambda: _fit(lambda n: _plain(STRANGER, "GAME zep1\n1: "
                                                        + "LS " * n)),
    "passwords": lambda: _fit(lambda n: _plain(ANNA, "GAME zep1\n" + "".join(
        f"PASSWORD wrong-{i}\n" for i in range(n)))),
    "short-passwords": lambda: _fit(lambda n: _plain(ANNA, "GAME zep1\n" + "".join(
        f"PW {i % 997:x}\n" for i in range(n)))),
    "commands": lambda: _fit(lambda n: _plain(ANNA, _envelope() + (
        "STATUS\nMAP\nHELP M3\nHISTORY 1\nORDERS\nPLAN\nHELP\n" * n))),
    "order-lines": lambda: _fit(lambda n: _plain(ANNA, _envelope() + "PLANE\n" + (
        "1: A\n" * n))),
    "html": lambda: _fit(lambda n: _html(ANNA, "<div>" * n + "GAME zep1" + "</div>" * n)),
    "mime-parts": lambda: _fit(lambda n: _parts(ANNA, _envelope() + ORDERS, (
        "--b\r\nContent-Type: text/plain\r\n\r\nx\r\n") * n)),
    "subject": lambda: _fit(lambda n: (
        _head(ANNA, "orders" + " zep1" * n, "Content-Type: text/plain\r\n\r\n")
        + _envelope() + ORDERS).encode()),
    "press": lambda: _fit(lambda n: _plain(ANNA, _envelope() + "PRESS TO bert\n" + (
        "Hello bert, shall we go after the zeppelin together?\n" * n) + "ENDPRESS\n")),
    "look-alikes": lambda: _fit(lambda n: _plain(ANNA, _envelope() + (
        "\u0420LANE\n1: \u0410 f-\u0410\n" * n))),
    "quoted": lambda: _fit(lambda n: _plain(ANNA, _envelope() + ORDERS.replace("END\n", "")
                                            + "> 1: LS LS LS\n" * n)),
    "mime-parts-within": lambda: _parts(ANNA, _envelope() + ORDERS, (
        "--b\r\nContent-Type: text/plain\r\n\r\nx\r\n") * 480),
    "html-within": lambda: _fit(lambda n: _html(ANNA, "<div>" * 2400 + "GAME zep1<br>"
                                                + "hello there " * n + "</div>" * 2400)),
    # past the lines the referee reads: refused before it is parsed
    "many-lines": lambda: _fit(lambda n: _plain(ANNA, _envelope() + MISSPELT * n), None),
    "misspelt-in-base64": lambda: _fit(lambda n: _base64(ANNA, _envelope() + MISSPELT * n)),
}


@dataclass
class Table:
    """A referee on a Maildir with game zep1 (anna, bert, cora) and known passwords."""

    root: Path
    referee: Referee
    intake: MaildirIntake

    def forget(self) -> None:
        """Each mail judged alone: the rations earlier mails used are forgotten."""
        for path in self.referee.state.files():
            path.unlink(missing_ok=True)

    def answer(self, raw: bytes) -> tuple[float, int]:
        """Take in and answer one mail: (CPU seconds, replies sent)."""
        self.forget()
        self.intake.deliver(raw)
        start = time.process_time()
        self.referee.take_in(self.intake)
        sent = self.referee.deliver(force=True)
        return time.process_time() - start, sent


def make_table(root: Path) -> Table:
    config = Config.local(root, REFEREE)
    store = GameStore(config.games_dir)
    players = [gm.PlayerSpec(pid, (f"{pid}@players.test",), pid.title(), airfield=af)
               for pid, af in zip(PASSWORDS, ("N", "SE", "SW"), strict=True)]
    gm.new_game(store, "zep1", players, title="Bench", seed=11,
                deadline=T0 + timedelta(days=300), turn_length="48h",
                early_adjudication=False, reminder_hours=0, now=T0)

    def change(data: dict[str, Any]) -> None:
        for pid, pw in PASSWORDS.items():
            data["players"][pid]["password_hash"] = hash_password(pw)

    store.open("zep1").update_settings(change)
    referee = Referee(config, store=store, clock=lambda: T0)
    return Table(root, referee, MaildirIntake(config.mail.maildir.inbox))


class Worker:
    """A process of its own holding a table, answering the mails it is told of
    (``--worker``): each mail may use CAP seconds of CPU (``RLIMIT_CPU``), so a
    mail that would take minutes is measured as "more than CAP" and the worker
    started again, not waited for."""

    def __init__(self, cap: float, src: Path) -> None:
        self.cap = cap
        self.src = src
        self.proc: subprocess.Popen[str] | None = None

    def _start(self) -> subprocess.Popen[str]:
        proc = subprocess.Popen([sys.executable, __file__, "--worker", str(self.cap)],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                env=dict(os.environ, PYTHONPATH=str(self.src)))
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        return proc

    def answer(self, kind: str) -> tuple[float, int | None]:
        """(CPU seconds, replies sent) of one mail of ``kind``; (CAP, None) when it
        used up its CPU."""
        if self.proc is None or self.proc.poll() is not None:
            self.proc = self._start()
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(kind + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:  # out of CPU: killed by SIGXCPU
            self.proc.wait()
            self.proc = None
            return self.cap, None
        cpu, sent = json.loads(line)
        return cpu, sent

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            self.proc.wait()


def worker(cap: float) -> None:
    """The worker's side: a table, warmed; then one mail for each kind read."""
    corpus = {k: make() for k, make in CORPUS.items()}
    with tempfile.TemporaryDirectory(prefix="pbmref-hostile-") as tmp:
        table = make_table(Path(tmp))
        for _ in range(3):  # warm: the first mails pay for grammars and the first reads
            table.answer(_new_id(corpus["normal"]))
        print("ready", flush=True)
        for line in sys.stdin:
            used = resource.getrusage(resource.RUSAGE_SELF)
            soft = int(used.ru_utime + used.ru_stime + cap) + 1
            resource.setrlimit(resource.RLIMIT_CPU, (soft, resource.RLIM_INFINITY))
            seconds, sent = table.answer(_new_id(corpus[line.strip()]))
            print(json.dumps([seconds, sent]), flush=True)


def mails(repeat: int, kinds: list[str], cap: float, src: Path) -> None:
    """Part 1: the CPU of each kind of mail against the normal order mail."""
    order = ["normal", *kinds]
    for kind in order:
        print(f"  {kind}: {len(CORPUS[kind]())} bytes")
    cpu: dict[str, list[float]] = {k: [] for k in order}
    sent: dict[str, int | None] = {}
    runner = Worker(cap, src)
    try:
        for _ in range(repeat):
            for kind in order:
                seconds, sent[kind] = runner.answer(kind)
                cpu[kind].append(seconds)
    finally:
        runner.close()
    base = statistics.median(cpu["normal"])
    worst = ("normal", 1.0)
    for kind in kinds:
        if kind == "wrong-password":
            continue  # the floor of a wrong password, said below
        median = statistics.median(cpu[kind])
        ratio = median / base
        worst = max(worst, (kind, ratio), key=lambda w: w[1])
        more = "more than " if sent[kind] is None else ""
        replies = "stopped at the cap" if sent[kind] is None else f"{sent[kind]} replies"
        print(f"  {kind}: median {more}{median * 1000:.1f} ms of CPU ({replies}); "
              f"{more}{ratio:.1f} times the normal mail's")
    print(f"normal order mail: median {base * 1000:.1f} ms of CPU over {repeat} runs")
    stranger = [k for k in kinds if k.startswith("stranger")]
    if stranger:
        s = max(stranger, key=lambda k: statistics.median(cpu[k]))
        print(f"a stranger's worst mail ({s}) against a normal order mail: ratio "
              f"{statistics.median(cpu[s]) / base:.2f} (aim about 1)")
    print(f"the worst mail of the corpus ({worst[0]}) against a normal order mail: ratio "
          f"{worst[1]:.2f} (aim <= 5)")
    if "wrong-password" in cpu:
        print("a normal order mail with a wrong password against the same with the right one: "
              f"ratio {statistics.median(cpu['wrong-password']) / base:.2f} (one password "
              "check at scrypt's price, on purpose slow; a right password is remembered)")


def _message_id() -> str:
    """A new Message-ID, always as long (a copy of a mail is as big as the mail)."""
    return f"<{uuid.uuid4().hex}@players.test>"


def _new_id(raw: bytes) -> bytes:
    """The mail with a Message-ID of its own (each copy is a new mail to the spool)."""
    head, sep, body = raw.partition(b"\r\n\r\n")
    lines = [f"Message-ID: {_message_id()}".encode()
             if ln.lower().startswith(b"message-id:") else ln for ln in head.split(b"\r\n")]
    return b"\r\n".join(lines) + sep + body


# ------------------------------------------------------------------ the bomb


def _house(root: Path, games: int, bombed: bool) -> Path:
    """A house of ``games`` tweedekker games (``bench/scale.py``'s, Maildir); the
    first game's game.yaml ends in the bomb when ``bombed``. Its config file."""
    import scale

    house = scale.build(root, games, played=False)
    if bombed:
        path = house.config.games_dir / "g00000" / "game.yaml"
        path.write_text(path.read_text(encoding="utf-8") + BOMB, encoding="utf-8")
    (root / "passwords.json").write_text(json.dumps(house.passwords), encoding="utf-8")
    return house.config_path


def _limits() -> None:
    """What a process of the bomb's part may take: MEMORY GB."""
    cap = int(MEMORY * (1 << 30))
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def bomb_worker(config_path: Path) -> None:
    """A daemon on a house (as ``pbmref serve`` runs: its games watched), its
    first round behind it; for each line read, an order mail of the second
    game is put in the inbox and one round answers it: its time printed."""
    import scale
    from pbmref.config import load_config
    from pbmref.mail.factory import open_intake
    from pbmref.referee.daemon import Daemon

    config = load_config(config_path)
    passwords = json.loads((config_path.parent / "passwords.json").read_text())
    house = scale.House(config_path.parent, config_path, config, 0, passwords)
    daemon = Daemon(Referee(config), open_intake(config), watch_games=True)
    daemon.round()
    outbox = config.mail.maildir.outbox / "new"
    print("ready", flush=True)
    for _line in sys.stdin:
        sent = len(os.listdir(outbox)) if outbox.is_dir() else 0
        house.inbox.deliver(scale._mail("anna@g00001.test", "orders", "GAME g00001\nPASSWORD "
                                        f"{passwords['anna']}\n{scale.ORDERS}"))
        start, cpu = time.perf_counter(), time.process_time()
        daemon.round()
        took, cpu = time.perf_counter() - start, time.process_time() - cpu
        assert len(os.listdir(outbox)) == sent + 1, "the other game's mail was not answered"
        print(json.dumps([took, cpu]), flush=True)


class BombRunner:
    """A ``bomb_worker`` process, asked for one round at a time; a round that
    takes more than TIMEOUT seconds, or a worker that dies (out of its MEMORY),
    is reported as such, not waited for."""

    def __init__(self, config_path: Path, src: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--bomb-worker", str(config_path)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, preexec_fn=_limits, env=dict(os.environ, PYTHONPATH=str(src)))
        self.failed = ""
        if self._line() != "ready" and not self.failed:
            self.failed = "did not start"

    def _line(self) -> str | None:
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], TIMEOUT)
        if not ready:
            self.proc.kill()
            self.failed = f"no answer within {TIMEOUT:.0f} s"
            return None
        line = self.proc.stdout.readline()
        if not line:
            self.proc.wait()
            self.failed = (f"died (exit {self.proc.returncode}; its memory was capped at "
                           f"{MEMORY:.0f} GB)")
            return None
        return line.strip()

    def round(self) -> tuple[float, float] | None:
        if self.failed:
            return None
        assert self.proc.stdin is not None
        self.proc.stdin.write("round\n")
        self.proc.stdin.flush()
        line = self._line()
        if line is None:
            return None
        took, cpu = json.loads(line)
        return float(took), float(cpu)

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def _command(config_path: Path, args: list[str], src: Path) -> tuple[float, str]:
    """One command of the game master on a house (a process: TIMEOUT s, MEMORY GB):
    (its time, '' or what became of it)."""
    start = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-m", "pbmref", *args, "--config",
                               str(config_path)], cwd=config_path.parent,
                              env=dict(os.environ, PYTHONPATH=str(src)),
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=TIMEOUT, preexec_fn=_limits, check=False)
    except subprocess.TimeoutExpired:
        return TIMEOUT, f"did not finish within {TIMEOUT:.0f} s"
    took = time.perf_counter() - start
    if "Traceback" in done.stdout + done.stderr or done.returncode < 0:
        return took, (f"failed (exit {done.returncode}, memory capped at {MEMORY:.0f} GB): "
                      + (done.stderr.strip().splitlines() or ["?"])[-1][:100])
    return took, ""


def bomb(games: int, repeat: int, src: Path) -> None:
    """Part 2: other games' mails, and the game master's commands, with one game a
    bomb, against the same house without it."""
    with tempfile.TemporaryDirectory(prefix="pbmref-bomb-") as tmp:
        plain = _house(Path(tmp) / "plain", games, bombed=False)
        bombed = _house(Path(tmp) / "bombed", games, bombed=True)
        runners = [BombRunner(plain, src), BombRunner(bombed, src)]
        times: list[list[float]] = [[], []]
        try:
            for _ in range(repeat):
                for runner, kept in zip(runners, times, strict=True):
                    took = runner.round()
                    if took is not None:
                        kept.append(took[0])
        finally:
            for runner in runners:
                runner.close()
        if runners[1].failed or not times[1]:
            print(f"daemon round answering another game's mail, {games} games, one a YAML "
                  f"bomb: {runners[1].failed} (without the bomb: median "
                  f"{statistics.median(times[0]) * 1000:.1f} ms)")
        else:
            a, b = statistics.median(times[0]), statistics.median(times[1])
            print(f"daemon round answering another game's mail, {games} games, one a YAML "
                  f"bomb: median {b * 1000:.1f} ms against {a * 1000:.1f} ms without it; "
                  f"ratio {b / a:.2f} (aim about 1)")
        for args in (["check"], ["status"], ["adjudicate", "--due"]):
            (t_plain, _), (t_bomb, failed) = (_command(c, args, src) for c in (plain, bombed))
            name = "pbmref " + " ".join(args)
            if failed:
                print(f"{name} with one game a YAML bomb: {failed} (without it {t_plain:.2f} s)")
            else:
                print(f"{name} with one game a YAML bomb: {t_bomb:.2f} s against "
                      f"{t_plain:.2f} s without it; ratio {t_bomb / t_plain:.2f} (aim about 1)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--only", nargs="*", default=FIGURES, choices=FIGURES)
    ap.add_argument("--kinds", nargs="*", default=[k for k in CORPUS if k != "normal"],
                    choices=[k for k in CORPUS if k != "normal"])
    ap.add_argument("--cap", type=float, default=CAP,
                    help="CPU seconds one mail may use (more is printed as 'more than')")
    ap.add_argument("--src", type=Path, default=REPO / "src",
                    help="the pbmref measured (its src folder): this checkout's by default")
    ap.add_argument("--worker", type=float, help=argparse.SUPPRESS)
    ap.add_argument("--bomb-worker", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker is not None:
        worker(args.worker)
        return 0
    if args.bomb_worker is not None:
        bomb_worker(args.bomb_worker)
        return 0
    if "mails" in args.only:
        mails(args.repeat, args.kinds, args.cap, args.src)
    if "bomb" in args.only:
        bomb(args.games, args.repeat, args.src)
    return 0


if __name__ == "__main__":
    sys.exit(main())
