"""Helpers of the crash-loop and soak tests: a referee daemon as a subprocess
(its own process group) on the real servers, mail senders, and reading back
what the players received."""

from __future__ import annotations

import contextlib
import email
import email.policy
import os
import re
import signal
import subprocess
import sys
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from waiting import wait_until

REPO = Path(__file__).resolve().parents[2]
PBMREF = [sys.executable, "-m", "pbmref"]


class DaemonProcess:
    """``pbmref serve --config F`` in its own process group; killed with SIGKILL.
    ``kill_at``: a point at which the daemon kills itself (``killpoint.py``)."""

    def __init__(self, config: Path, log: Path, *, kill_at: str | None = None) -> None:
        self.config = config
        self.log = log
        self.command = PBMREF if kill_at is None else [
            sys.executable, str(Path(__file__).with_name("killpoint.py")), kill_at]
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.kills = 0

    def start(self) -> None:
        assert self.proc is None or self.proc.poll() is not None
        with open(self.log, "ab") as out:
            out.write(f"--- start {self.starts + 1} at {datetime.now(UTC)}\n".encode())
            self.proc = subprocess.Popen(
                [*self.command, "serve", "--config", str(self.config)], cwd=REPO,
                stdin=subprocess.DEVNULL, stdout=out, stderr=out, start_new_session=True)
        self.starts += 1

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def kill(self) -> None:
        """SIGKILL the whole process group (a crash at whatever point it was)."""
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=20)
        self.kills += 1

    def stop(self) -> int:
        """SIGTERM and wait for the round in progress to end."""
        if self.proc is None:
            return 0
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            return self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            return self.proc.wait(timeout=20)


def cron(config: Path, log: Path) -> int:
    """What cron runs: ``pbmref adjudicate --due --config F``."""
    with open(log, "ab") as out:
        out.write(f"--- cron at {datetime.now(UTC)}\n".encode())
        return subprocess.run([*PBMREF, "adjudicate", "--due", "--config", str(config)],
                              cwd=REPO, stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                              timeout=300).returncode


def order_mail(sender: str, referee: str, message_id: str, body: str,
               subject: str = "orders") -> bytes:
    return (f"From: {sender}\r\nTo: {referee}\r\nSubject: {subject}\r\n"
            f"Message-ID: {message_id}\r\nDate: {email.utils.formatdate()}\r\n\r\n"
            + body.replace("\n", "\r\n")).encode()


def replies_by_origin(boxes: dict[str, list[bytes]]) -> tuple[Counter[str], Counter[tuple[str, str]]]:
    """(In-Reply-To -> number of replies, (player, report subject) -> number of reports)."""
    answers: Counter[str] = Counter()
    reports: Counter[tuple[str, str]] = Counter()
    for player, raws in boxes.items():
        for raw in raws:
            msg = email.message_from_bytes(raw, policy=email.policy.default)
            irt = str(msg.get("In-Reply-To") or "").strip()
            if irt:
                answers[irt] += 1
            elif str(msg.get("Subject", "")).endswith(" report"):
                reports[(player, str(msg["Subject"]))] += 1
    return answers, reports


def reply_texts(boxes: dict[str, list[bytes]]) -> dict[str, list[str]]:
    """In-Reply-To -> the text of each reply to that mail."""
    out: dict[str, list[str]] = {}
    for raws in boxes.values():
        for raw in raws:
            msg = email.message_from_bytes(raw, policy=email.policy.default)
            irt = str(msg.get("In-Reply-To") or "").strip()
            body = msg.get_body(("plain",))
            if irt and body is not None:
                out.setdefault(irt, []).append(" ".join(str(body.get_content()).split()))
    return out


def stored_message_ids(games: Path) -> Counter[str]:
    """How often each Message-ID appears in the games' orders files."""
    seen: Counter[str] = Counter()
    for path in games.glob("*/turns/*/orders/*.yaml"):
        if ".replaced-" in path.name:
            continue
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and data.get("message_id"):
            seen[str(data["message_id"])] += 1
    return seen


def turn_history(game_dir: Path) -> list[dict[str, Any]]:
    """Every adjudicated turn's result.yaml, in turn order."""
    out = []
    for result in sorted(game_dir.glob("turns/*/result.yaml")):
        out.append(yaml.safe_load(result.read_text(encoding="utf-8")))
    return out


def as_utc(value: Any) -> datetime:
    moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return moment.astimezone(UTC)


def process_rss_kb(pid: int) -> int:
    text = Path(f"/proc/{pid}/status").read_text()
    found = re.search(r"VmRSS:\s+(\d+) kB", text)
    return int(found.group(1)) if found else 0


def process_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def serve_pid(group_leader: int) -> int:
    """The pid of the python process running ``pbmref serve`` (the leader itself)."""
    return group_leader


def wait_for(check: Any, timeout: float, step: float = 0.5) -> bool:
    """The one wait (``tests/waiting.py``) for an ``assert``: True once ``check``
    holds, False when it still does not after ``timeout`` seconds."""
    try:
        wait_until(check, what="a check", timeout=timeout, step=step)
    except AssertionError:
        return bool(check())
    return True
