"""How many times the referee flushes a file to disk for one accepted order mail (issue 20).

A batch of BATCH order mails (default 50) from three players of one
tweedekker game on the local Maildir mode is taken in, answered and sent,
three ways: as the daemon does it (``Referee.take_in(intake, send=True)``:
the replies are sent as soon as the round's games are on disk, before the
mails are marked handled), as cron's ``pbmref adjudicate --due`` does
(``adjudicate_due``: the same, then the due games, reminders and the queue),
and as a referee that queues every reply first and sends it afterwards
(``take_in`` without ``send``, then ``Referee.deliver``, kept as the
comparison). Every
``os.fsync`` / ``os.fdatasync`` on the way is counted and put down to what
it flushed (the spools, the game folders, the outbox, which stands in for
the SMTP server, the referee's own bookkeeping). Prints, for each way, the
flushes per accepted mail, averaged over the batch, by place, and their
ratio to the least a crash-safe referee must do for such a mail: one (its
orders, on disk before the reply goes out).

Run: ``.venv/bin/python bench/fsyncs.py [BATCH]``
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path
from typing import Any

from pbmref import gm
from pbmref.config import Config
from pbmref.mail.maildir_in import MaildirIntake, ensure_maildir
from pbmref.mail.outbox import read_maildir
from pbmref.referee.pipeline import Referee
from pbmref.referee.turns import adjudicate_due
from pbmref.store import GameStore

REFEREE = "referee@bench.test"
PLAYERS = ("anna", "bert", "cora")
PLANES = ("TAKEOFF BETA\n1: A\n2: A\n3: L", "TAKEOFF ALPHA\n1: A\n2: A\n3: R",
          "TAKEOFF GAMMA\n1: A\n2: A\n3: A")


def _place(fd: int, root: Path) -> str:
    """What the flushed file or folder is: which spool, a game folder, the outbox."""
    try:
        name = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return "unknown"
    for part, place in (("spool/in", "incoming spool"), ("spool/out", "outgoing spool"),
                        ("spool", "referee state"), ("games", "game folders"),
                        ("outbox", "outbox")):
        if name.startswith(str(root / part)):
            return place
    return "elsewhere"


def counting(counts: Counter[str], root: Path) -> Callable[[], None]:
    """Count every fsync/fdatasync from now on, by what is flushed; returns the undo."""
    real = {name: getattr(os, name) for name in ("fsync", "fdatasync")}

    def wrap(name: str) -> Any:
        def flush(fd: Any) -> None:
            counts[_place(fd, root)] += 1
            real[name](fd)
        return flush

    for name in real:
        setattr(os, name, wrap(name))

    def undo() -> None:
        for name, fn in real.items():
            setattr(os, name, fn)
    return undo


def _round(batch: int, way: str) -> Counter[str]:
    """Take in a batch of order mails, answer and send them (``way``: daemon, cron
    or queued); the fsyncs on the way, by place."""
    with tempfile.TemporaryDirectory(prefix="pbmref-fsyncs-") as tmp:
        root = Path(tmp)
        config = Config.local(root, REFEREE)
        now = datetime.now(UTC)
        made = gm.new_game(GameStore(config.games_dir), "bench",
                           [gm.PlayerSpec(p, (f"{p}@players.test",), p.title())
                            for p in PLAYERS],
                           seed=3, deadline=now + timedelta(days=2), early_adjudication=False,
                           reminder_hours=0, now=now)
        referee = Referee(config)
        intake = MaildirIntake(config.mail.maildir.inbox)
        ensure_maildir(config.mail.maildir.outbox)  # there already, as on any day but the first
        for n in range(batch):
            player = PLAYERS[n % len(PLAYERS)]
            msg = EmailMessage()
            msg["From"] = f"{player}@players.test"
            msg["To"] = REFEREE
            msg["Subject"] = f"orders {n}"
            msg["Date"] = format_datetime(now)
            msg["Message-ID"] = make_msgid(domain="players.test")
            msg.set_content(f"GAME bench\nPASSWORD {made.passwords[player]}\nPLANE\n"
                            f"{PLANES[n % 3]}\nEND\n")
            intake.deliver(msg.as_bytes())
        counts: Counter[str] = Counter()
        undo = counting(counts, root.resolve())
        try:
            if way == "cron":
                handled = adjudicate_due(referee, intake).taken_in
            else:
                handled = referee.take_in(intake, send=way == "daemon")
                if way == "queued":
                    referee.deliver()
        finally:
            undo()
        replies = read_maildir(config.mail.maildir.outbox)
        accepted = sum(1 for m in replies if "accepted" in str(m.get_body(("plain",))
                                                                .get_content()))  # type: ignore[union-attr]
        stored = sum(1 for _ in (config.games_dir / "bench").glob("turns/*/orders/*.yaml"))
        queued = len(referee.outgoing.queued())
    assert (handled == batch and len(replies) == accepted == batch and stored == batch
            and queued == 0), (handled, len(replies), accepted, stored, queued)
    return counts


def main(batch: int = 50) -> int:
    print(f"mails: {batch} accepted order mails (Maildir), taken in, answered and sent")
    for label, way in (("daemon (take_in, send=True)", "daemon"),
                       ("cron (pbmref adjudicate --due: adjudicate_due)", "cron"),
                       ("queued first (take_in, then deliver: replies sent in a later step)",
                        "queued")):
        counts = _round(batch, way)
        total = sum(counts.values())
        per_mail = total / batch
        spools = counts["incoming spool"] + counts["outgoing spool"]
        print(f"{label}: {per_mail:.2f} fsyncs per accepted mail (aim <= 4), "
              f"ratio {per_mail:.2f} to the one flush of its orders; "
              f"of which in the spools {spools / batch:.2f}")
        print(f"  {total} in all; by place: "
              + ", ".join(f"{place} {n}" for place, n in counts.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 50))
