"""Screenshots of what a player sees (issue 17), in headless Chromium.

For a turn of the demonstration game (tweedekker with the zeppelin) and a
Fast Play turn, this plays the game through the real referee, takes the
report mail a pilot receives from the outbox, shows its HTML part (with the
inline pictures it carries) and the archive's turn page at 390 px (a phone)
and 1200 px (a desktop), the mail also in dark mode and its end (the
reader's next orders, ready to edit), and writes the PNGs to OUT (default
``docs/``):

    .venv/bin/python bench/screenshots.py [OUT]

Needs Chromium (``scripts/system-packages`` installs it).
"""

from __future__ import annotations

import base64
import shutil
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import yaml

from pbmref import gm
from pbmref.archive import write_archive
from pbmref.config import Config
from pbmref.demo import run_demo
from pbmref.mail.outbox import read_maildir
from pbmref.referee.pipeline import Referee
from pbmref.referee.turns import queue_report
from pbmref.store import GameStore

HERE = Path(__file__).resolve().parent
FASTPLAY_TURN = HERE.parent / "tests" / "reports" / "fastplay" / "fp_dogfight.yaml"
WIDTHS = {390: 2600, 1200: 1900}  # window width: height of the shot
END_HEIGHTS = {390: 480, 1200: 400}  # the shots of a mail's end (its next orders)
END_SCRIPT = """window.onload = () => {
  let first = document.querySelector(".part-next");  // and the part before it
  if (first && first.previousElementSibling) first = first.previousElementSibling;
  for (let x = first; x && x !== document.body; x = x.parentElement) {
    while (x.previousElementSibling) x.previousElementSibling.remove();
  }
};"""
CHROMIUM = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run",
            "--hide-scrollbars", "--force-device-scale-factor=1",
            "--run-all-compositor-stages-before-draw", "--virtual-time-budget=5000")


def shoot(page: Path, out: Path, width: int, height: int, *, dark: bool = False) -> None:
    """A screenshot of ``page``; ``dark``: as a phone in dark mode shows it
    (``prefers-color-scheme: dark``)."""
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(["chromium", *CHROMIUM, *(["--force-dark-mode"] if dark else []),
                        f"--user-data-dir={profile}",
                        f"--window-size={width},{height}", f"--screenshot={out}",
                        page.as_uri()], check=True, capture_output=True, timeout=120)


def mail_page(msg: EmailMessage, folder: Path, name: str, *, end: bool = False) -> Path:
    """The mail's HTML part as a page, its cid: pictures as data: URIs; ``end``:
    scrolled to its bottom, where the reader's next orders are (issue 43, item 4)."""
    html_part = msg.get_body(("html",))
    assert html_part is not None, "the report mail has no HTML part"
    html = str(html_part.get_content())
    for part in msg.walk():
        cid = part.get("Content-ID")
        if cid:
            payload = part.get_payload(decode=True)
            assert isinstance(payload, bytes)
            data = base64.b64encode(payload).decode()
            html = html.replace(f"cid:{cid.strip('<>')}", f"data:image/png;base64,{data}")
    if end:  # what comes before the section ahead of the next orders is left out
        html = html.replace("</body>", f"<script>{END_SCRIPT}</script></body>")
    page = folder / f"{name}{'-end' if end else ''}.html"
    page.write_text(html, encoding="utf-8")
    return page


def report_mail(outbox: Path, subject: str, to: str) -> EmailMessage:
    return next(m for m in read_maildir(outbox)
                if str(m["Subject"]) == subject and to in str(m["To"]))


def demo_turn(folder: Path, turn: int = 7) -> tuple[EmailMessage, Path]:
    result = run_demo(folder / "demo", turns=10, seed=1916, say=lambda _: None)
    assert result.outbox is not None and result.archive is not None
    msg = report_mail(result.outbox, f"[demo] turn {turn} report", "lone_wolf@")
    return msg, result.archive.parent / f"turn-{turn:03d}.html"


def fastplay_game(folder: Path) -> tuple[Config, GameStore, int]:
    """The Fast Play dogfight of the tests as a new game's first turn, played and its
    reports mailed into the outbox: the config, the store and the turn."""
    data: dict[str, Any] = yaml.safe_load(FASTPLAY_TURN.read_text(encoding="utf-8"))
    position = {k: v for k, v in data.items()
                if k not in ("orders", "expect", "seed", "description", "title")}
    position["turn"] = 1  # a new game's first turn, in the middle of the fight
    names = {"anna": "Anna", "bert": "Bert", "carl": "Carl", "dora": "Dora", "gus": "Gus",
             "hanna": "Hanna"}
    root = folder / "fastplay"
    config = Config.local(root, "referee@school.invalid", "referee")
    store = GameStore(config.games_dir)
    start = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)
    players = [gm.PlayerSpec(p, (f"{p}@school.invalid",), n) for p, n in names.items()]
    gm.new_game(store, "7b-2", players, title="Class 7B board 2", ruleset="fastplay",
                position=position, deadline=start, turn_length="24h", passwords=False,
                timezone="Europe/Amsterdam", now=start - timedelta(hours=1), seed=4)
    game = store.open("7b-2")
    for pilot, entry in (data.get("orders") or {}).items():
        game.book.save(pilot, entry, raw="(screenshot)", message_id=f"<{pilot}@shot>",
                       received_at=start - timedelta(minutes=5))
    record = gm.adjudicate(store, "7b-2", start, force=True)
    assert record is not None
    referee = Referee(config, store=store, clock=lambda: start)
    queue_report(referee, store.open("7b-2"), record.turn)
    referee.deliver(force=True)
    return config, store, record.turn


def fastplay_outbox(folder: Path) -> Path:
    """The outbox Maildir holding the Fast Play turn's report mails."""
    return fastplay_game(folder)[0].mail.maildir.outbox


def fastplay_turn(folder: Path) -> tuple[EmailMessage, Path]:
    config, store, turn = fastplay_game(folder)
    msg = report_mail(config.mail.maildir.outbox, f"[7b-2] turn {turn} report", "anna@")
    pages = write_archive(store.open("7b-2"), folder / "fastplay" / "archive")
    return msg, next(p for p in pages if p.name.startswith("turn-"))


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else HERE.parent / "docs"
    if shutil.which("chromium") is None:
        print("chromium is not installed (scripts/system-packages installs it)")
        return 1
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, (msg, archive) in (("demo-turn7", demo_turn(folder)),
                                     ("fastplay-turn1", fastplay_turn(folder))):
            mail = mail_page(msg, folder, name)
            ending = mail_page(msg, folder, name, end=True)
            for width, height in WIDTHS.items():
                target = out / f"screenshot-{name}-mail-end-{width}.png"
                shoot(ending, target, width, END_HEIGHTS[width])  # the next orders, to edit
                print(target)
                for kind, page in (("mail", mail), ("archive", archive)):
                    target = out / f"screenshot-{name}-{kind}-{width}.png"
                    shoot(page, target, width, height)
                    print(target)
                target = out / f"screenshot-{name}-mail-dark-{width}.png"
                shoot(mail, target, width, height, dark=True)  # the report mail in dark mode
                print(target)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
