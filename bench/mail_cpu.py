"""Our CPU per accepted order mail on the realistic mix, in process (issue 41, item 5).

The mix of ``bench/mail.py`` (games of 6 and 7 pilots, 3 to 5 order mails a
pilot, shuffled) without the mail servers: the mails dropped into a Maildir
inbox, ten a second as they would reach a server, the replies written into
the outbox Maildir, the referee's folders in memory (``/dev/shm``). One round
(``Referee.take_in`` and ``deliver``) is timed with ``time.process_time``,
the password stretching (scrypt) apart. Quicker and steadier than
``bench/mail.py``, which runs the same round against Dovecot and an SMTP
relay: for trying a change, and with ``--profile`` for cProfile's table of
where the CPU goes (the shares, not the times: cProfile slows each call).

Usage: ``.venv/bin/python bench/mail_cpu.py [RUNS]`` (default 3; prints each
run and the median) or ``.venv/bin/python bench/mail_cpu.py --profile [N]``
(the N functions taking the most, default 40).
"""

from __future__ import annotations

import cProfile
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from mail import mix_mail  # noqa: E402
from pbmref import gm  # noqa: E402
from pbmref.mail.maildir_in import MaildirIntake  # noqa: E402
from pbmref.referee.pipeline import Referee  # noqa: E402
from pbmref.store import GameStore  # noqa: E402
from pbmref.store import settings as store_settings  # noqa: E402
from refereekit import REFEREE, maildir_config  # noqa: E402

MEMORY = Path("/dev/shm")


def one_round(n: int = 500, profile: cProfile.Profile | None = None,
              seed: int = 41) -> tuple[float, float, int]:
    """Our CPU per accepted order mail (ms, scrypt apart), scrypt's per mail
    (ms), and how many of the ``n`` mails were accepted."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(dir=MEMORY if MEMORY.is_dir() else None) as tmp:
        cfg = maildir_config(Path(tmp))
        store = GameStore(cfg.games_dir)
        mails: list[tuple[str, str, str]] = []
        games = 0
        while len(mails) < n:
            gid, size = f"g{games + 1}", 6 + games % 2
            created = gm.new_game(store, gid, [
                gm.PlayerSpec(f"p{i}", (f"p{i}.{gid}@players.test",)) for i in range(size)],
                seed=games + 1, deadline=datetime.now(UTC) + timedelta(days=1),
                early_adjudication=False)
            for i in range(size):
                mails += [(gid, f"p{i}.{gid}@players.test",
                           created.passwords[f"p{i}"] or "")] * rng.randint(3, 5)
            games += 1
        rng.shuffle(mails)
        intake = MaildirIntake(cfg.mail.maildir.inbox)
        start = time.time() - n / 10
        for i, (gid, sender, password) in enumerate(mails[:n]):
            key = intake.deliver(mix_mail(gid, sender, REFEREE, password, i))
            stamp = start + i / 10  # ten mails a second reach the server
            os.utime(intake.root / "new" / key, (stamp, stamp))
        referee = Referee(cfg, store=store)
        scrypt, accepted = [0.0], [0]
        real_verify, real_handle = store_settings._verify, referee.handle

        def verify(password: str, stored: str) -> bool:
            t = time.thread_time()
            try:
                return real_verify(password, stored)
            finally:
                scrypt[0] += time.thread_time() - t

        def handle(*args: object, **kw: object) -> object:
            result = real_handle(*args, **kw)  # type: ignore[arg-type]
            accepted[0] += result.summary == "orders accepted"
            return result

        referee.handle = handle  # type: ignore[method-assign,assignment]
        store_settings._verify = verify
        try:
            cpu0 = time.process_time()
            if profile is not None:
                profile.enable()
            referee.take_in(intake)
            referee.deliver(force=True)
            if profile is not None:
                profile.disable()
            cpu = time.process_time() - cpu0
        finally:
            store_settings._verify = real_verify
        done = max(accepted[0], 1)
        return (cpu - scrypt[0]) / done * 1000, scrypt[0] / done * 1000, accepted[0]


def main() -> int:
    if sys.argv[1:2] == ["--profile"]:
        profile = cProfile.Profile(time.process_time)
        own, scrypt, accepted = one_round(profile=profile)
        print(f"{accepted} accepted; under cProfile {own:.2f} ms a mail, scrypt {scrypt:.2f} ms")
        top = int(sys.argv[2]) if len(sys.argv) > 2 else 40
        pstats.Stats(profile).sort_stats("cumulative").print_stats(top)
        return 0
    runs = [one_round() for _ in range(int(sys.argv[1]) if len(sys.argv) > 1 else 3)]
    for own, scrypt, accepted in runs:
        print(f"ours per accepted order mail {own:.2f} ms ({accepted} of 500 accepted; "
              f"scrypt apart: {scrypt:.2f} ms a mail)")
    print(f"median {statistics.median(r[0] for r in runs):.2f} ms (aim <= 4 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
