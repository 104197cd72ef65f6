"""Make the folder of a referee's data as an earlier release wrote it, for the
upgrade test (tests/install/test_upgrade.py): ``release-0.1.0/`` was made by
the code of commit 753826b (pbmref 0.1.0, before the data formats) with

    git archive 753826b src grammar | tar x -C /tmp/old
    .venv/bin/python tests/install/make_release_fixture.py /tmp/old/src tests/install/release-0.1.0

It runs that code's own commands (``PYTHONPATH=OLD_SRC python -m pbmref``) in a
referee's folder on a local Maildir: a tweedekker game with turn 1 played by
mail, a Diplomacy game with computer powers, a Fast Play class of one board
(and its roster of careers), each player welcomed; then, with that code's spools, a mail taken in but not yet handled
and a reply queued but not yet sent. The outbox Maildir (the mail server's
side) and the lock files are left out.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

CONFIG = """\
# The referee's config, as a game master of pbmref 0.1.0 wrote it.
games_dir: games
spool_dir: spool
referee:
  address: referee@club.example
  name: Club referee
  game_master: gm@club.example
mail:
  mode: maildir
  maildir:
    inbox: mail/inbox
    outbox: mail/outbox
"""
FAR = "2036-01-07T20:00:00+00:00"  # no deadline of the fixture passes for years
CLASS = """\
class: 4a
title: Class 4A
per_board: 4
turns: 6
board: {files: 10, ranks: 10}
turn_length: 3650d
timezone: Europe/Brussels
seed: 7
pilots:
  dora: {name: Dora, team: Germans, address: dora@club.example}
  emil: {name: Emil, team: Germans, address: emil@club.example}
  fien: {name: Fien, team: Allies, address: fien@club.example}
  gert: {name: Gert, team: Allies, address: gert@club.example}
"""


def run(old_src: Path, folder: Path, *args: str, code: str | None = None) -> str:
    env = {**os.environ, "PYTHONPATH": str(old_src)}
    command = [sys.executable, "-c", code] if code else [sys.executable, "-m", "pbmref", *args]
    done = subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True,
                          check=True)
    return done.stdout


def order_mail(folder: Path, old_src: Path, sender: str, body: str, mid: str) -> None:
    raw = (f"From: {sender}\r\nTo: referee@club.example\r\nSubject: orders\r\n"
           f"Date: Mon, 30 Nov 2026 10:00:00 +0000\r\nMessage-ID: <{mid}@club.example>\r\n"
           f"\r\n{body}").encode()
    run(old_src, folder, code=(
        "import sys; from pathlib import Path; from pbmref.mail.outbox import write_maildir; "
        f"write_maildir(Path('mail/inbox'), {raw!r})"))


def main(old_src: Path, folder: Path) -> None:
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    (folder / "config.yaml").write_text(CONFIG)
    said = run(old_src, folder, "new-game", "zep1", "--player", "anna:anna@club.example:Anna",
               "--player", "bert:bert@club.example:Bert", "--player",
               "cora:cora@club.example:Cora", "--seed", "5", "--deadline", FAR,
               "--title", "Over Flanders")
    passwords = dict(re.findall(r"^  (\w+) +(\S+) ", said, re.M))
    run(old_src, folder, "new-game", "dip1", "--ruleset", "diplomacy", "--player",
        "fleur:fleur@club.example:Fleur:FRA", "--player", "edith:edith@club.example:Edith:ENG",
        "--computer-powers", "--deadline", FAR)
    (folder / "class.yaml").write_text(CLASS)
    run(old_src, folder, "new-class", "class.yaml")  # a Fast Play board, and the roster
    for pid in ("anna", "bert", "cora"):
        order_mail(folder, old_src, f"{pid}@club.example",
                   f"GAME zep1\r\nPASSWORD {passwords[pid]}\r\nPLANE\r\nEND\r\n", f"t1-{pid}")
    run(old_src, folder, "mail", "fetch")
    run(old_src, folder, "adjudicate", "zep1")
    # a mail taken in, not handled yet; a reply queued, not sent yet
    order_mail(folder, old_src, "anna@club.example",
               f"GAME zep1\r\nPASSWORD {passwords['anna']}\r\nPLANE\r\nEND\r\n", "t2-anna")
    run(old_src, folder, code=(
        "from datetime import UTC, datetime; from pathlib import Path; "
        "from pbmref.mail import IncomingSpool, RawMail, OutgoingSpool, make_mail; "
        "from pbmref.mail.maildir_in import MaildirIntake; "
        "intake = MaildirIntake(Path('mail/inbox')); "
        "spool = IncomingSpool(Path('spool/in')); "
        "[spool.save(raw) for raw in intake.fetch_new()]; "
        "OutgoingSpool(Path('spool/out')).enqueue(make_mail('bert@club.example', "
        "'[zep1] a note', 'The club meets on Friday.', from_addr='referee@club.example'), "
        "key='note:zep1:bert')"))
    shutil.rmtree(folder / "mail" / "outbox")
    for path in list(folder.rglob("*")):
        if path.is_file() and (path.name.endswith(".lock") or path.name == "games-index.json"):
            path.unlink()


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve())
