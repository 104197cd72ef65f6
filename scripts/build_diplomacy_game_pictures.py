#!/usr/bin/env python3
"""Screenshots of a Diplomacy phase as a player sees it: the archive page and the report mail.

Two phases of tests/diplomacy/test_board_render.py (a movement phase with
supports, a convoy, bounces and a dislodgement; a Dirigible Diplomacy phase
with dirigibles over armies and fleets, support from above and a
devastation) are played as games through the referee's real pipeline on a
local Maildir: a new game on the phase's position, each power's orders
mailed, the deadline job adjudicates and mails the reports, and the HTML
archive is written. Then headless Chromium shoots, at 390 px (a phone) and
1200 px wide:

- ``docs/diplomacy-archive-PHASE-WIDTH.png``: the archive's page of the phase;
- ``docs/diplomacy-report-PHASE-WIDTH.png``: France's report mail as a mail
  program shows its HTML part (France's own block, the two pictures of the
  phase inline, everyone's orders, the centres, France's next orders ready
  to edit), and ``diplomacy-report-PHASE-dark-WIDTH.png`` the same in dark
  mode.

    .venv/bin/python scripts/build_diplomacy_game_pictures.py [--out docs]

Needs /usr/bin/chromium (scripts/system-packages).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from build_diplomacy_board_pictures import _phases, chromium, shoot  # noqa: E402

WIDTHS = (390, 1200)
KEPT = ("movement", "dirigible")
PLAYERS = {"anton": "AUS", "edith": "ENG", "fleur": "FRA", "gustav": "GER",
           "ilaria": "ITA", "raisa": "RUS", "tarik": "TUR"}
READER = "fleur"  # whose copy of the report is shown, if they have orders to give next
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

def page_height(page: Path, width: int) -> int:
    """The height of ``page`` laid out ``width`` px wide (Chromium writes it into
    the title, read back from the DOM)."""
    probe = page.with_suffix(".probe.html")
    probe.write_text(page.read_text(encoding="utf-8").replace(
        "</body>", "<script>document.title = 'H' + document.documentElement.scrollHeight"
                   "</script></body>"), encoding="utf-8")
    dom = chromium(f"--window-size={width},800", "--virtual-time-budget=3000", "--dump-dom",
                    probe.as_uri())
    found = re.search(r"<title>H(\d+)</title>", dom)
    assert found, "Chromium did not lay the page out"
    return int(found.group(1))


def shoot_page(page: Path, png: Path, width: int) -> None:
    """The whole page, ``width`` px wide."""
    shoot(page, png, width, page_height(page, width))


def play(phase: dict[str, Any], root: Path) -> tuple[Path, EmailMessage]:
    """The phase played as a game by mail; (the archive page, the reader's report)."""
    sys.path.insert(0, str(ROOT / "src"))
    from pbmref import gm
    from pbmref.archive import write_archive
    from pbmref.config import Config, MailConfig, MaildirConfig, RefereeConfig
    from pbmref.mail.maildir_in import MaildirIntake
    from pbmref.mail.outbox import read_maildir
    from pbmref.orders.check import order_mail
    from pbmref.referee.pipeline import Referee
    from pbmref.referee.turns import adjudicate_due
    from pbmref.store import GameStore

    config = Config(
        games_dir=root / "games", spool_dir=root / "spool",
        referee=RefereeConfig(address="referee@example.org", name="pbmref referee",
                              archive_url="https://games.example.org/archive"),
        mail=MailConfig(mode="maildir", maildir=MaildirConfig(
            inbox=root / "inbox", outbox=root / "outbox")))
    clock = [T0]
    store = GameStore(config.games_dir)
    position = {k: v for k, v in phase.items() if k != "orders"}
    players = [gm.PlayerSpec(pid, (f"{pid}@example.org",), pid.title(), power=power)
               for pid, power in PLAYERS.items()]
    created = gm.new_game(store, "dip1", players, title="Spring offensive",
                          ruleset=str(phase["ruleset"]), position=position, seed=1,
                          deadline=T0 + timedelta(hours=24), turn_length="24h",
                          timezone="Europe/Paris", early_adjudication=False,
                          reminder_hours=0, now=T0)
    referee = Referee(config, store=store, clock=lambda: clock[0])
    intake = MaildirIntake(config.mail.maildir.inbox)
    for pid, power in PLAYERS.items():
        lines = phase["orders"].get(power) or []
        if not lines:
            continue
        body = order_mail("dip1", created.passwords[pid], f"PHASE {phase['phase']}",
                          {"orders": lines})
        raw = (f"From: {pid.title()} <{pid}@example.org>\nTo: referee@example.org\n"
               f"Subject: orders\nMessage-ID: <{pid}-{phase['phase']}@example.org>\n\n{body}")
        key = intake.deliver(raw.encode())
        os.utime(intake.root / "new" / key, (T0.timestamp(), T0.timestamp()))
    referee.take_in(intake)
    clock[0] = T0 + timedelta(hours=24, minutes=1)
    due = adjudicate_due(referee, intake, games=["dip1"], force=True)
    assert due.adjudicated, due.broken
    referee.deliver(force=True)
    write_archive(store.open("dip1"), root / "archive")
    reports = [m for m in read_maildir(root / "outbox") if str(m["Subject"]).endswith(" report")]
    # France's copy; else the first whose reader has a retreat to order (its
    # next orders, ready to edit, are then shown too)
    with_orders = [m for m in reports if "YOUR NEXT ORDERS" in str(
        m.get_body(("plain",)).get_content())]  # type: ignore[union-attr]
    report = next((m for m in with_orders if READER in str(m["To"])),
                  with_orders[0] if with_orders else
                  next(m for m in reports if READER in str(m["To"])))
    return root / "archive" / "turn-001.html", report


def mail_page(report: EmailMessage, out: Path, *, dark: bool = False) -> Path:
    """The report's HTML part as a page (its pictures inline, as
    ``bench/screenshots.py`` makes it); ``dark``: as a phone in dark mode shows
    it (what its ``prefers-color-scheme: dark`` styles give, for a browser in
    light mode)."""
    sys.path.insert(0, str(ROOT / "bench"))
    from screenshots import mail_page as html_page

    page = html_page(report, out.parent, out.stem)
    if dark:
        page.write_text(page.read_text(encoding="utf-8").replace(
            "@media (prefers-color-scheme: dark) {", "@media all {"), encoding="utf-8")
    return page


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs")
    args = ap.parse_args(argv)
    phases = _phases()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="game-pictures-") as tmp:
        for name in KEPT:
            root = Path(tmp) / name
            archive_page, report = play(yaml.safe_load(phases.PHASES[name]), root)
            mail = mail_page(report, root / "report.html")
            dark = mail_page(report, root / "report-dark.html", dark=True)
            for width in WIDTHS:
                for what, page in (("archive", archive_page), ("report", mail),
                                   ("report-dark", dark)):
                    png = args.out / f"diplomacy-{what}-{name}-{width}.png"
                    shoot_page(page, png, width)
                    print(png.relative_to(ROOT) if png.is_relative_to(ROOT) else png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
