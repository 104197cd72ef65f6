"""The referee's mail throughput on a real Dovecot (issue 6).

Starts the private Dovecot + SMTP relay of the integration tests, then:

1. baseline: appends N order mails to a scratch mailbox over IMAP and
   fetches them back (BODY.PEEK[]), the least any referee must do;
2. batch: appends the same N mails to the referee's mailbox and times one
   ``Referee.take_in`` + delivery of every reply through SMTP into the
   players' mailboxes (mails taken in and answered per second);
3. latency: with the daemon loop running, players send mails through the
   SMTP relay at a steady rate; each mail's time from sending to its reply
   landing in the player's mailbox.

Prints each figure and its ratio to the baseline of the same run.
Usage: ``.venv/bin/python bench/mail.py [N]`` (default 500; needs root and
Debian's dovecot-imapd + dovecot-lmtpd, which ``scripts/test`` installs).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "integration"))

from mailservers import MailServers, dovecot_available  # noqa: E402

from pbmref import gm  # noqa: E402
from pbmref.config import load_config  # noqa: E402
from pbmref.mail.factory import open_intake  # noqa: E402
from pbmref.referee.daemon import Daemon  # noqa: E402
from pbmref.referee.pipeline import Referee  # noqa: E402
from pbmref.store import GameStore  # noqa: E402

PLAYERS = 25  # 500 mails = 20 a player: under the referee's per-address loop limit
PLANES = ("TAKEOFF BETA\n1: A\n2: A\n3: L", "TAKEOFF ALPHA\n1: A\n2: A\n3: R",
          "TAKEOFF GAMMA\n1: A\n2: A\n3: A")


def order_mail(sender: str, to: str, password: str, n: int) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = f"bench orders {n}"
    msg["Message-ID"] = f"<bench-{n}-{time.time_ns()}@players.test>"
    msg.set_content(f"GAME bench\nPASSWORD {password}\nPLANE\n{PLANES[n % 3]}\nEND\n")
    return msg.as_bytes()


def setup(ms: MailServers, folder: Path) -> tuple[Path, list[str], dict[str, str], str]:
    ref = ms.fresh_user("ref")
    users = [ms.fresh_user("p") for _ in range(PLAYERS)]
    cfg = ms.write_config(folder, user=ref)
    store = GameStore(load_config(cfg).games_dir)
    created = gm.new_game(store, "bench", [
        gm.PlayerSpec(f"p{i}", (ms.address(u),)) for i, u in enumerate(users)],
        seed=1, deadline=datetime.now(UTC) + timedelta(days=1), early_adjudication=False)
    return cfg, users, created.passwords, ref


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    if not dovecot_available():
        print("bench/mail.py: Dovecot is not installed (run scripts/test once as root)")
        return 2
    with MailServers(["scratch"], spare_users=2 * PLAYERS + 4) as ms, \
            tempfile.TemporaryDirectory() as tmp:
        cfg, users, passwords, ref = setup(ms, Path(tmp) / "batch")
        mails = [order_mail(ms.address(users[i % PLAYERS]), ms.address(ref),
                            passwords[f"p{i % PLAYERS}"], i) for i in range(n)]

        # 1. baseline: append, then fetch, over one IMAP connection
        t0 = time.perf_counter()
        client = ms.imap("scratch")
        for raw in mails:
            client.append("INBOX", raw)
        client.select_folder("INBOX")
        uids = client.search(["ALL"])
        client.fetch(uids, ["BODY.PEEK[]", "INTERNALDATE"])
        client.logout()
        baseline = time.perf_counter() - t0

        # 2. the referee on a batch: take in, answer, send
        client = ms.imap(ref)
        t0 = time.perf_counter()
        for raw in mails:
            client.append("INBOX", raw)
        client.logout()
        appended = time.perf_counter() - t0
        config = load_config(cfg)
        referee = Referee(config)
        intake = open_intake(config)
        t0 = time.perf_counter()
        handled = referee.take_in(intake)
        sent = referee.deliver(force=True)
        batch = time.perf_counter() - t0
        intake.close()
        if handled != n or sent != n:
            print(f"warning: handled {handled}, sent {sent}, queued "
                  f"{len(referee.outgoing.queued())}, failed {len(referee.outgoing.failed())}: "
                  + "; ".join(e.last_error for e in referee.outgoing.queued()[:3]
                              + referee.outgoing.failed()[:3]))

        # 3. latency with the daemon running, mails sent at a steady rate
        cfg2, users2, passwords2, ref2 = setup(ms, Path(tmp) / "latency")
        config2 = load_config(cfg2)
        daemon = Daemon(Referee(config2), open_intake(config2), poll_seconds=1.0)
        thread = threading.Thread(target=daemon.run, daemon=True)
        thread.start()
        count = min(n, 60)
        sent_at: dict[str, float] = {}
        for i in range(count):
            raw = order_mail(ms.address(users2[i % PLAYERS]), ms.address(ref2),
                             passwords2[f"p{i % PLAYERS}"], i)
            mid = raw.split(b"Message-ID: ")[1].split(b"\n")[0].strip().decode()
            sent_at[mid] = time.perf_counter()
            ms.send(ms.address(users2[i % PLAYERS]), [ms.address(ref2)], raw)
            time.sleep(0.1)
        seen: dict[str, float] = {}
        end = time.perf_counter() + 120
        import email

        while len(seen) < count and time.perf_counter() < end:
            for user in users2:
                for raw in ms.fetch_all(user):
                    irt = str(email.message_from_bytes(raw)["In-Reply-To"] or "")
                    if irt in sent_at and irt not in seen:
                        seen[irt] = time.perf_counter()
            time.sleep(0.05)
        daemon.stop()
        thread.join(timeout=10)
        lat = [seen[m] - sent_at[m] for m in seen]

    per_mail_base = baseline / n
    print(f"mails: {n} (players {PLAYERS})")
    print(f"baseline  raw IMAP append+fetch: {baseline:.2f} s "
          f"({n / baseline:.0f} mails/s, {per_mail_base * 1000:.1f} ms a mail)")
    print(f"batch     append to referee: {appended:.2f} s; take in + answer + send: "
          f"{batch:.2f} s = {n / batch:.1f} mails/s; "
          f"ratio to baseline {batch / baseline:.1f}x")
    if lat:
        med, p95 = statistics.median(lat), sorted(lat)[int(0.95 * (len(lat) - 1))]
        print(f"latency   {len(lat)}/{count} replies; send-to-reply median {med:.2f} s, "
              f"p95 {p95:.2f} s; median = {med / per_mail_base:.0f}x one raw append+fetch")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
