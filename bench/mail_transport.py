"""Mail transport speed against real servers (private Dovecot), as ratios to a raw IMAP baseline.

    .venv/bin/python bench/mail_transport.py [N]      (default N = 500)

Baseline: N mails appended over IMAP, then fetched back raw (BODY.PEEK[], batches of 50)
by a bare imapclient loop. Measured path on the same mails: ImapIntake.fetch_new +
IncomingSpool.save (fsynced) + ImapIntake.mark_handled (MOVE) per mail.
"""

from __future__ import annotations

import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "integration"))
sys.path.insert(0, str(ROOT / "src"))

from mailservers import MailServers, dovecot_available  # noqa: E402

from pbmref.mail import IncomingSpool, RawMail  # noqa: E402
from pbmref.mail.imap_in import ImapIntake  # noqa: E402


def order_mail(i: int) -> bytes:
    return (f"From: player{i % 6 + 1}@game.test\r\nTo: referee@game.test\r\n"
            f"Subject: zep1 orders {i}\r\nMessage-ID: <bench{i}@game.test>\r\n\r\n"
            f"GAME zep1\r\nPASSWORD swordfish\r\nTURN 3\r\nPLANE\r\n1: LS f-A f-R\r\nEND\r\n").encode()


def main(n: int = 500) -> int:
    if not dovecot_available():
        print("bench/mail_transport.py: /usr/sbin/dovecot is not installed; nothing measured")
        return 0
    with MailServers(["referee"], spare_users=0) as ms, tempfile.TemporaryDirectory() as tmp:
        mails = [order_mail(i) for i in range(n)]

        client = ms.imap("referee")
        t0 = time.perf_counter()
        for raw in mails:
            client.append("INBOX", raw)
        t_append = time.perf_counter() - t0

        t0 = time.perf_counter()
        client.select_folder("INBOX", readonly=True)
        uids = sorted(client.search(["ALL"]))
        got = 0
        for start in range(0, len(uids), 50):
            data = client.fetch(uids[start:start + 50], ["BODY.PEEK[]", "INTERNALDATE"])
            got += sum(1 for d in data.values() if d.get(b"BODY[]"))
        t_raw = time.perf_counter() - t0
        client.logout()
        assert got == n, got

        spool = IncomingSpool(Path(tmp) / "spool")
        intake = ImapIntake(ms.host, ms.imap_port, user="referee",
                            password=ms.password("referee"), security="none",
                            state_file=Path(tmp) / "state.json")
        t0 = time.perf_counter()
        handled = 0
        t_save = t_mark = 0.0
        for raw in intake.fetch_new():
            t1 = time.perf_counter()
            entry = spool.save(raw)
            t2 = time.perf_counter()
            assert not entry.duplicate
            intake.mark_handled(raw.key)
            t_mark += time.perf_counter() - t2
            t_save += t2 - t1
            handled += 1
        t_intake = time.perf_counter() - t0
        intake.close()
        assert handled == n and ms.count("referee", "pbmref-handled") == n

        t0 = time.perf_counter()
        for raw in mails[: min(n, 100)]:
            spool.save(RawMail(key="x", raw=raw, arrived=datetime.now(UTC)))  # duplicates
        t_dupe = (time.perf_counter() - t0) / min(n, 100)

    print(f"mails: {n}")
    print(f"baseline  IMAP append {n}:            {t_append:7.3f} s  ({n / t_append:6.0f} mails/s)")
    print(f"baseline  raw fetch {n}:              {t_raw:7.3f} s  ({n / t_raw:6.0f} mails/s)")
    print(f"intake    fetch+spool+mark {n}:       {t_intake:7.3f} s  ({n / t_intake:6.0f} mails/s)")
    t_fetch = t_intake - t_save - t_mark
    print(f"  of which fetch {t_fetch:.3f} s ({t_fetch / t_raw:.2f}x raw fetch), "
          f"spool save {t_save:.3f} s, mark handled (MOVE) {t_mark:.3f} s")
    print(f"ratio     intake path / raw fetch:     {t_intake / t_raw:7.2f}x")
    print(f"ratio     (append+intake) / (append+raw fetch): "
          f"{(t_append + t_intake) / (t_append + t_raw):5.2f}x")
    print(f"duplicate save (dedupe check) per mail: {t_dupe * 1e3:.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 500))
