"""A fresh clone is no live referee (issue 44, item 4): the deadline job and a
round of the daemon, run in it with the built-in defaults as a first-time
user would, play no game, mail nobody and change no tracked file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from clonekit import fingerprint, fresh_clone, tracked


def _pbmref(clone: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBMREF")}
    return subprocess.run([sys.executable, "-m", "pbmref", *args], cwd=clone, env=env,
                          capture_output=True, text=True, timeout=300)


def test_adjudicate_due_and_serve_once_change_no_tracked_file(tmp_path: Path) -> None:
    clone = fresh_clone(tmp_path / "clone")
    paths = tracked()
    before = fingerprint(clone, paths)

    due = _pbmref(clone, "adjudicate", "--due")
    assert due.returncode == 0, due.stderr
    assert "no game was due" in due.stdout and "mails sent: 0" in due.stdout, due.stdout
    once = _pbmref(clone, "serve", "--once", "--quiet")
    assert once.returncode == 0, once.stderr
    assert "no mail; no game was due; nothing to send" in once.stdout, once.stdout

    after = fingerprint(clone, paths)
    assert [p for p in paths if before[p] != after[p]] == []
    outbox = clone / "mail" / "outbox"
    mailed = [p for p in outbox.rglob("*") if p.is_file()] if outbox.exists() else []
    assert mailed == [], "the clone mailed someone"
