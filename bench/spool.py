"""How big the referee's spools grow over a long game (issue 20; the pruning is issue 15's).

A tweedekker game of PILOTS pilots (default 6) is played for TURNS turns
(default 200) on the local Maildir mode: each turn every pilot mails orders,
the referee answers each mail, adjudicates and mails the reports (with their
maps) - one daemon round per turn. Printed: the size of the spool folder
(incoming and outgoing) against the size of the game folder itself (which
must keep everything), and whether anything bounded it. The aim of the issue:
the spools bounded by a retention setting, not growing with the game.

Run: ``.venv/bin/python bench/spool.py [TURNS] [PILOTS]``
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path

from pbmref import gm
from pbmref.config import Config
from pbmref.mail.maildir_in import MaildirIntake
from pbmref.referee.pipeline import Referee
from pbmref.referee.turns import adjudicate_due
from pbmref.store import GameStore

REFEREE = "referee@bench.test"
MOVES = ("1: L\n2: L\n3: L",)  # round and round: nobody leaves the board


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def size_of(folder: Path) -> int:
    total = 0
    for root, _dirs, files in os.walk(folder):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                pass
    return total


def main(turns: int = 200, pilots: int = 6) -> int:
    with tempfile.TemporaryDirectory(prefix="pbmref-spool-") as tmp:
        root = Path(tmp)
        config = Config.local(root, REFEREE)
        clock = Clock(datetime(2026, 1, 1, 12, tzinfo=UTC))
        names = [f"pilot{i}" for i in range(pilots)]
        gm.new_game(GameStore(config.games_dir), "long",
                    [gm.PlayerSpec(p, (f"{p}@players.test",), p) for p in names],
                    seed=5, deadline=clock.now + timedelta(hours=47), turn_length="48h",
                    early_adjudication=False, reminder_hours=0, passwords=False,
                    zeppelin=None, now=clock.now)
        referee = Referee(config, clock=clock)
        intake = MaildirIntake(config.mail.maildir.inbox)
        start = time.perf_counter()
        played = 0
        for turn in range(1, turns + 1):
            for n, pilot in enumerate(names):
                msg = EmailMessage()
                msg["From"] = f"{pilot}@players.test"
                msg["To"] = REFEREE
                msg["Subject"] = f"long orders {turn}"
                msg["Date"] = format_datetime(clock.now)
                msg["Message-ID"] = make_msgid(domain="players.test")
                lines = "TAKEOFF BETA\n1: A\n2: A\n3: A" if turn == 1 else MOVES[(turn + n) % len(MOVES)]
                msg.set_content(f"GAME long\nTURN {turn}\nPLANE\n{lines}\nEND\n")
                key = intake.deliver(msg.as_bytes())
                stamp = clock.now.timestamp()
                os.utime(intake.root / "new" / key, (stamp, stamp))
            clock.now += timedelta(hours=48)
            report = adjudicate_due(referee, intake)
            played += len(report.adjudicated)
            if referee.store.open("long").settings.status != "open":
                break
        seconds = time.perf_counter() - start
        spool = size_of(config.spool_dir)
        game = size_of(config.games_dir / "long")
        inbound = size_of(config.spool_dir / "in")
        outbound = size_of(config.spool_dir / "out")
    print(f"{played} turns of a {pilots}-pilot game played in {seconds:.0f} s")
    print(f"spool folder: {spool / 1e6:.1f} MB (incoming {inbound / 1e6:.1f} MB, outgoing "
          f"{outbound / 1e6:.1f} MB), {spool / max(played, 1) / 1e3:.0f} kB a turn; the game "
          f"folder {game / 1e6:.1f} MB; ratio {spool / game:.2f} spool / game folder "
          "(aim: bounded by a retention setting, issue 15)")
    return 0


if __name__ == "__main__":
    sys.exit(main(*(int(a) for a in sys.argv[1:3])))
